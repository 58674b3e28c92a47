#pragma once
// The coordinator of a distributed run, as a LoadRunner: the recorded run
// (record/recordedrun.h) stores, reports and shows it like any run.
//
//   prepare(): the executor starts N paused loaders, each with its share; wait
//              until every one is ready (its target answered) or one failed
//   run():     pick a common start, tell every loader, read their streams and
//              merge them live (FleetMerge) into one series for the observers;
//              a loader that dies keeps what it sent, and the run is partial
//   stop():    tell every loader to stop; each still reports what it measured

#include "fleet/fleetmerge.h"
#include "fleet/kubemanifest.h"
#include "fleet/loaderexecutor.h"
#include "run/loadrunner.h"
#include "wire/loaderread.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace wb {

/// What a fleet needs beyond the run's configuration (RunConfig::loaders says how many and where).
struct FleetSetup
{
    std::string loaderBinary; ///< the wrkbench-cli that local loaders run ("" = this executable)
    std::string kubectl = "kubectl"; ///< Kubernetes: the user's kubectl
    unsigned jobTtlSeconds = 600; ///< Kubernetes: ttlSecondsAfterFinished
    bool keepJob = false; ///< Kubernetes: leave the Job after the run
    uint16_t podMetricsPort = 0; ///< Kubernetes: each loader serves Prometheus metrics on this port (0: none)
    uint64_t execWaveUs = 2'000'000; ///< Kubernetes: --exec-wave, what one wave of 16 `kubectl exec`s may take
    /// How long loaders may take to be ready (start, resolve, connect; pods: pull the image).
    uint64_t readyTimeoutUs = 60'000'000;
    /// Keep the merged intervals in the result (a JSON report or a live view wants them).
    bool keepIntervals = true;
    /// A line a loader printed that is not an event (its warnings), on the runner's thread.
    std::function<void(unsigned loader, const std::string& line)> onLoaderText;
};

/// The Kubernetes executor's options for this placement.
KubeOptions kubeOptionsOf(const LoaderPlacement& placement, const FleetSetup& setup);
/// The executors this library has: child processes here (config.loaders.on == Local) or the
/// pods of a Kubernetes Job; the pipeline chooses among them and the agents' (makeLoadRunner in
/// record/recordedrun.cpp is the one place that chooses). Kubernetes lengthens setup's ready
/// timeout for image pulls.
std::unique_ptr<LoaderExecutor> makeLocalExecutor(const FleetSetup& setup);
std::unique_ptr<LoaderExecutor> makeKubeExecutor(const RunConfig& config, FleetSetup& setup);

class FleetRunner final : public LoadRunner
{
public:
    FleetRunner(RunConfig whole, FleetSetup setup, std::unique_ptr<LoaderExecutor> executor);
    ~FleetRunner() override;

    void addObserver(RunObserver* observer) override { m_observers.push_back(observer); }
    Status prepare() override;
    RunResult run() override;
    void stop() override { m_stop.store(true); }
    const std::vector<std::string>& warnings() const override { return m_warnings; }

private:
    struct Stream
    {
        std::string buffer;
        bool open = true;
        bool ready = false;
        bool ended = false; ///< finished or failed (said so, or its stream closed)
        std::string failure;
        LoaderIdentity identity;
    };
    /// Reads what every open stream has, up to waitMs; calls handle() for each event.
    void pump(int waitMs, const std::function<void(unsigned, LoaderEvent&)>& handle);
    void readLines(unsigned loader, const std::function<void(unsigned, LoaderEvent&)>& handle);

    RunConfig m_whole;
    FleetSetup m_options;
    unsigned m_count;
    std::unique_ptr<LoaderExecutor> m_executor;
    std::vector<Stream> m_streams;
    std::vector<RunObserver*> m_observers;
    std::vector<std::string> m_warnings;
    std::atomic<bool> m_stop { false };
    std::string m_configJson;
    bool m_prepared = false;
};

} // namespace wb
