#pragma once
// Runs a load test: checks the target, starts one worker thread per
// configured thread, merges their interval data once per interval and hands
// it to observers, and assembles the final result.
//
//   RunController run(config);
//   if (auto st = run.prepare(); !st) { report(st.error()); }
//   RunResult result = run.run();   // blocks; stop() from any thread ends it early

#include "run/loadercostmeter.h"
#include "run/loadplan.h"
#include "run/loadrunner.h"
#include "run/runfold.h"
#include "run/runobserver.h"
#include "run/runresult.h"

#include <memory>
#include <string>
#include <vector>

namespace wb {

class Worker;

class RunController final : public LoadRunner
{
public:
    explicit RunController(RunConfig config);
    ~RunController() override;
    RunController(const RunController&) = delete;
    RunController& operator=(const RunController&) = delete;

    void addObserver(RunObserver* observer) override { m_observers.push_back(observer); }

    /// Validates the configuration, raises the file descriptor limit, resolves
    /// the host, sets up TLS and checks that the target accepts a connection
    /// (and a TLS handshake). The error is one plain sentence, e.g.
    /// "connection refused by 127.0.0.1:9".
    Status prepare() override;
    /// Runs the load (prepare() must have succeeded) and returns the result.
    RunResult run() override;
    /// Ends the run early; every worker stops within ~100 ms. Async-signal-safe.
    void stop() override;
    /// Measure from this wall-clock time (µs since the Unix epoch), the common start of several
    /// loaders: run() waits, opens the connections CONNECT_LEAD_US before the load starts (they
    /// send nothing until then), sends the configured warm-up, and measurement begins at that
    /// instant.
    /// Call before run(); 0 = measure as soon as the warm-up is over.
    void measureFrom(int64_t startUnixUs) { m_startAtUnixUs = startUnixUs; }
    static constexpr uint64_t CONNECT_LEAD_US = 1'000'000;
    /// A request source in front of the sessions and a response observer behind them, per
    /// worker (run/runhooks.h). Call before prepare(), which makes the workers.
    void setHooks(RunHooks hooks) { m_plan.hooks = std::move(hooks); }

    const RunConfig& config() const { return m_plan.config; }
    /// What prepare() noticed and the user should hear once, e.g. HTTP/1.1 headers HTTP/2
    /// leaves out, or a server that allows fewer streams than asked.
    const std::vector<std::string>& warnings() const override { return m_warnings; }

private:
    Status preflight(const std::vector<SocketAddress>& addresses);
    Status prepareSources(std::vector<SocketAddress>& targets);
    void mergeInterval(uint32_t index, uint64_t runEndUs, RunFold& fold, RunEnd& end);
    void checkSloBudgets(double measuredS, const Measurements& sofar, RunEnd& end);

    LoadPlan m_plan;
    std::vector<std::unique_ptr<Worker>> m_workers;
    std::vector<RunObserver*> m_observers;
    std::vector<std::string> m_warnings;
    bool m_prepared = false;
    int64_t m_startAtUnixUs = 0;
    int64_t m_measureStartUnixMs = 0;
    ProcessCostMeter m_processCost; ///< the process's and the machine's CPU, read as each interval is merged
};

/// The engine version string ("0.1.0").
const char* engineVersion();

} // namespace wb
