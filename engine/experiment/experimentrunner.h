#pragma once
// Runs an experiment: every (cell, target, repetition) of the plan that has no completed run yet, in the plan's order,
// with the cool-down between runs. Each run is an ordinary stored run (SessionRecorder) linked to its experiment, cell
// and repetition, so a stop or a crash keeps every run made so far, and running the experiment again (resume) skips
// what is complete. The progress callback comes on the thread that calls run(), once per run started or finished
// (never per request), so the GUI can queue it to its own thread as it is.

#include "common/result.h"
#include "experiment/experimentplan.h"
#include "run/stopswitch.h"
#include "store/sessiontypes.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wb {

class RunObserver;
class SessionStore;

struct ExperimentProgress
{
    enum class Event {
        RunStarting, ///< the run described below starts now
        RunFinished, ///< it ended (see status and the numbers)
    };
    Event event = Event::RunStarting;
    size_t cell = 0; ///< 0-based
    size_t cellCount = 0;
    std::string cellLabel; ///< "c50"
    unsigned repetition = 0; ///< 0-based
    unsigned repetitions = 0;
    size_t target = 0; ///< index into the plan's targets
    std::string targetName;
    size_t runsDone = 0; ///< completed runs of the whole experiment (earlier sessions included)
    size_t runsTotal = 0; ///< runs in the plan
    double etaS = 0; ///< estimated seconds until the experiment is complete
    // RunFinished:
    int64_t runId = 0;
    RunStatus status = RunStatus::Running;
    double requestsPerS = 0;
    double p50Us = 0;
    double p99Us = 0;
    uint64_t errors = 0; ///< socket, TLS and parse errors (requests without a usable answer)
    uint64_t non2xx = 0; ///< responses outside 2xx/3xx, apart from errors
    std::vector<SloVerdict> slo; ///< the run's verdicts on the plan's SLOs
    std::string message; ///< RunFinished with status Failed: why the run could not start
};

struct ExperimentOutcome
{
    ExperimentStatus status = ExperimentStatus::Completed; ///< Completed, Stopped or Failed
    std::string error; ///< Failed: why
    size_t runsMade = 0; ///< runs started by this call (the stopped one included)
    size_t runsSkipped = 0; ///< planned runs already complete before this call
    size_t runsDone = 0; ///< completed runs of the experiment now
    size_t runsTotal = 0;
};

class ExperimentRunner
{
public:
    using ProgressCallback = std::function<void(const ExperimentProgress&)>;

    /// Adds plan to the session as a new, 'planned' experiment: creates the
    /// targets it names (or finds them by name) and records their ids in the
    /// stored plan. An existing target with another URL only earns a warning
    /// in warnings (the runs use the plan's URL).
    static Result<int64_t> create(
        SessionStore& store, ExperimentPlan plan, std::vector<std::string>* warnings = nullptr);

    /// Checks that every target answers (the pre-run check of a run at the
    /// first level: DNS, connect, TLS) before an experiment is created or
    /// resumed. The error names the target: "target 'NodePort': connection refused by ...".
    static Status checkTargets(const ExperimentPlan& plan);
    /// Whether the runner can run or resume this experiment: a plan, not a study (nothing to
    /// run) nor a capacity search (`capacity --resume` goes on with it). The error says which.
    static Status checkRunnable(const ExperimentRecord& record);

    /// Runs against the session file at sessionPath (each run records through
    /// its own connection, as the CLI does).
    explicit ExperimentRunner(std::string sessionPath);
    ~ExperimentRunner();
    ExperimentRunner(const ExperimentRunner&) = delete;
    ExperimentRunner& operator=(const ExperimentRunner&) = delete;

    void setProgressCallback(ProgressCallback callback) { m_progress = std::move(callback); }
    /// Attached to every run's controller as well (not owned; must outlive run()).
    void setRunObserver(RunObserver* observer) { m_observer = observer; }

    /// Runs what the experiment still lacks. Blocks until it is complete,
    /// cancelled, or a run cannot start (the experiment is then 'failed', and
    /// the failed run stored with its reason). The error result is for problems
    /// with the session or the plan, before any run.
    Result<ExperimentOutcome> run(int64_t experimentId);

    /// Stops the experiment: the run in progress ends within ~100 ms and is
    /// stored as 'stopped' (a resume makes it again); no further run starts.
    /// Safe from any thread and from a signal handler.
    void cancel();
    bool isCancelled() const { return m_stop.pulled(); }

private:
    bool coolDown(uint64_t us);

    std::string m_path;
    ProgressCallback m_progress;
    RunObserver* m_observer = nullptr;
    StopSwitch m_stop; ///< pulled by cancel(); stops the run in progress and every later one
};

} // namespace wb
