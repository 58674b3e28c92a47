#include "control/runtask.h"

#include "models/runseries.h"
#include "record/keptscript.h"
#include "record/recordedrun.h"
#include "report/generatorlag.h"
#include "report/loadersaturation.h"
#include "store/sessionstore.h"

#include <QCoreApplication>

namespace wb::ui {

namespace {

using Clock = std::chrono::steady_clock;
using Context = RunTask::Job::Context;

/// Runs on the controller's thread: posts each interval record as it is (a few
/// hundred bytes: the histograms are serialised). Never blocks for long.
class QueueObserver : public RunObserver
{
public:
    explicit QueueObserver(Context& context)
        : m_context(context)
    { }
    void onStarted(const RunConfig&) override { m_context.post(RunTask::LoadStarted { Clock::now() }); }
    void onInterval(const IntervalRecord& interval) override { m_context.post(interval); }

private:
    Context& m_context;
};

RunOutcome failed(const std::string& error)
{
    RunOutcome out;
    out.status = RunStatus::Failed;
    out.error = QString::fromStdString(error);
    return out;
}

/// The whole life of one run, on its own thread: the engine's recorded run (engine/record).
RunOutcome runThread(Context& context, const RunSetup& setup)
{
    auto config = runConfigFor(setup.target, setup.profile.load);
    if (!config) return failed(config.error());

    RecordedRunOptions options;
    options.sessionPath = setup.sessionPath.toStdString();
    options.createSession = false; // the session was open when the run started; never recreate a removed file
    options.requireSession = false; // the run goes on; the outcome says it was not stored
    options.targetId = setup.target.id;
    options.profileId = setup.profile.id > 0 ? setup.profile.id : 0;
    options.profileName = setup.profile.name;
    options.probeFirst = setup.probeFirst;
    options.storeProbeFailure = false; // the user decides: "Run anyway" or not
    options.probeJson = setup.probeJson; // asked from a remote loader before this thread started
    // The target's own metrics (its Metrics field): read beside the load, each scrape queued like an interval.
    options.scrape = setup.target.scrape;
    options.onScrape = [&context](const ScrapeTick& tick) { context.post(tick); };
    options.agents.agents = setup.agents; // remote loaders: their tokens and pins, never in the configuration
    // Local loaders are wrkbench-cli processes: the one installed beside this program, unless
    // $WRKBENCH_CLI names another (a build tree or a test whose programs live in other folders).
    const QString cli = qEnvironmentVariable("WRKBENCH_CLI");
    options.fleet.loaderBinary
        = (cli.isEmpty() ? QCoreApplication::applicationDirPath() + QStringLiteral("/wrkbench-cli") : cli)
              .toStdString();
    // A wrk script: what it prints is kept with the run; in this process its hooks go on the
    // controller, a fleet's loaders run it with what setup() gave their threads here.
    auto script = KeptScript::prepare(*config, options);
    if (!script) return failed(script.error());
    RecordedRun run(*config, options);
    // Stop cancels the probe or stops the load (a flag: instant); before the run it is remembered.
    const auto stopHook = context.onCancel([&run] { run.stopSwitch().pull(); });
    QueueObserver queue(context);
    run.addObserver(&queue);
    const RecordedRunOutcome ran = run.run();

    using Ended = RecordedRunOutcome::Ended;
    RunOutcome out;
    switch (ran.ended) {
    case Ended::Ran:
        out = outcomeOf(*ran.result);
        break;
    case Ended::Cancelled:
        out.cancelled = true;
        return out;
    case Ended::ProbeFailed:
        out = failed(ran.error);
        out.probeFailed = true;
        return out;
    case Ended::PrepareFailed:
    case Ended::SessionFailed:
        out = failed(ran.error);
        break;
    }
    out.runId = ran.runId;
    out.storageWarning = QString::fromStdString(ran.storageWarning);
    if (*script) {
        // done() after the run is stored, as the CLI: its error is said, the run stays.
        const Status kept = (*script)->finish(ran, options.sessionPath);
        out.scriptDoneError = QString::fromStdString((*script)->doneError());
        out.scriptOutput = QString::fromStdString((*script)->printed());
        if (!kept)
            out.storageWarning += QStringLiteral("what the script printed was not stored: %1")
                                      .arg(QString::fromStdString(kept.error()));
    }
    out.probeJson = QString::fromStdString(ran.probeJson);
    return out;
}

} // namespace

RunOutcome outcomeOf(const RunResult& result)
{
    RunOutcome out;
    out.status = result.stoppedEarly ? RunStatus::Stopped : RunStatus::Completed;
    out.durationS = result.durationS;
    out.requests = result.requests;
    out.requestsPerS = result.requestsPerS();
    if (!result.latency.empty()) {
        out.p50Us = static_cast<double>(result.latency.valueAtPercentileUs(50));
        out.p99Us = static_cast<double>(result.latency.valueAtPercentileUs(99));
    }
    out.non2xx = result.status.non2xx();
    out.errors = result.errors.transportErrors();
    out.generatorLagWarning = QString::fromStdString(generatorLagWarning(result));
    out.loaderWarning = QString::fromStdString(loaderSaturationWarning(result));
    out.slo = result.slo;
    out.sloAbortedBy = QString::fromStdString(result.sloAbortedBy);
    // A script's Lua error stopped the run: stored as failed, with what was measured.
    if (!result.failure.empty()) {
        out.status = RunStatus::Failed;
        out.error = QString::fromStdString(result.failure);
        out.failedWhileRunning = true;
    }
    return out;
}

RunTask::RunTask(QObject* parent)
    : QObject(parent)
    , m_job([this](Event& event) { onEvent(event); },
          [this](RunOutcome& outcome) {
              m_stopping = false;
              setPhase(Phase::Idle);
              emit finished(outcome);
          },
          DRAIN_MS)
{ }

RunTask::~RunTask() = default; // the job cancels and joins

bool RunTask::start(const RunSetup& setup)
{
    if (isActive()) return false;
    m_setup = setup;
    m_stopping = false;
    m_loadStarted = false;
    m_lastPoint = {};
    m_job.setDrainInterval(DRAIN_MS);
    if (!m_job.start([setup](Context& context) { return runThread(context, setup); })) return false;
    setPhase(Phase::Probing);
    return true;
}

void RunTask::stop()
{
    m_job.cancel();
    m_stopping = isActive();
    // The run ends within milliseconds of the flag; look for its outcome often
    // so that Stop is done well within 200 ms, not at the next 100 ms tick.
    if (m_stopping) m_job.setDrainInterval(STOPPING_DRAIN_MS);
}

bool RunTask::waitForFinished(int timeoutMs)
{
    return !isActive() || m_job.waitForFinished(timeoutMs);
}

double RunTask::elapsedS() const
{
    if (!m_loadStarted) return 0;
    return std::chrono::duration<double>(Clock::now() - m_loadStart).count();
}

double RunTask::plannedS() const
{
    const RunConfig load = m_setup.profile.load.normalized();
    return static_cast<double>(load.warmupUs + load.durationUs) / 1e6;
}

void RunTask::setPhase(Phase phase)
{
    if (m_phase == phase) return;
    m_phase = phase;
    emit phaseChanged(phase);
}

void RunTask::onEvent(Event& event)
{
    if (auto* begin = std::get_if<LoadStarted>(&event)) {
        m_loadStart = begin->at;
        m_loadStarted = true;
        setPhase(Phase::Running);
        emit started();
    } else if (auto* interval = std::get_if<IntervalRecord>(&event)) {
        // The same reduction as a stored interval's, so a run looks alike live and reopened.
        m_lastPoint = intervalPointOf(*interval, m_lastPoint);
        emit intervalReceived(liveIntervalOf(*interval, m_lastPoint));
    } else if (auto* tick = std::get_if<ScrapeTick>(&event)) {
        emit scrapeReceived(*tick);
    }
}

} // namespace wb::ui
