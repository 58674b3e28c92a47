#include "run/runsession.h"

#include "models/runseries.h"
#include "pipeline/recordedrun.h"
#include "report/generatorlag.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <variant>

namespace wb::ui {

namespace {

using Clock = std::chrono::steady_clock;

struct StartedEvent
{
    Clock::time_point at;
};
using Event = std::variant<StartedEvent, IntervalRecord, RunOutcome>;

} // namespace

/// What the run thread and the UI thread share; everything under mutex.
struct RunSession::Shared
{
    std::mutex mutex;
    std::condition_variable doneChanged;
    std::deque<Event> events;
    StopSwitch stop; ///< pulled by RunSession::stop(): cancels the probe, stops the load
    bool done = false;

    void push(Event event)
    {
        std::lock_guard lock(mutex);
        events.push_back(std::move(event));
    }
};

namespace {

/// Runs on the controller's thread: queues each interval record as it is (a few
/// hundred bytes: the histograms are serialised). Never blocks for long.
class QueueObserver : public RunObserver
{
public:
    explicit QueueObserver(RunSession::Shared& shared)
        : m_shared(shared)
    { }
    void onStarted(const RunConfig&) override { m_shared.push(StartedEvent { Clock::now() }); }
    void onInterval(const IntervalRecord& interval) override { m_shared.push(interval); }

private:
    RunSession::Shared& m_shared;
};

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
    out.non2xx = result.errors.status;
    out.errors = result.errors.transportErrors();
    out.generatorLagWarning = QString::fromStdString(generatorLagWarning(result));
    return out;
}

RunOutcome failed(const std::string& error)
{
    RunOutcome out;
    out.status = RunStatus::Failed;
    out.error = QString::fromStdString(error);
    return out;
}

/// The whole life of one run, on its own thread: the engine's run pipeline.
RunOutcome runThread(RunSession::Shared& shared, const RunPlan& plan)
{
    auto config = runConfigFor(plan.target, plan.profile.load);
    if (!config) return failed(config.error());

    RecordedRunOptions options;
    options.sessionPath = plan.sessionPath.toStdString();
    options.createSession = false; // the session was open when the run started; never recreate a removed file
    options.requireSession = false; // the run goes on; the outcome says it was not stored
    options.targetId = plan.target.id;
    options.profileId = plan.profile.id > 0 ? plan.profile.id : 0;
    options.profileName = plan.profile.name;
    options.probeFirst = plan.probeFirst;
    options.storeProbeFailure = false; // the user decides: "Run anyway" or not
    RecordedRun run(*config, options, &shared.stop);
    QueueObserver queue(shared);
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
    out.probeJson = QString::fromStdString(ran.probeJson);
    return out;
}

} // namespace

RunSession::RunSession(QObject* parent)
    : QObject(parent)
{
    m_drain.setInterval(DRAIN_MS);
    connect(&m_drain, &QTimer::timeout, this, &RunSession::drain);
}

RunSession::~RunSession()
{
    if (m_thread.joinable()) {
        stop();
        m_thread.join();
    }
}

bool RunSession::start(const RunPlan& plan)
{
    if (isActive()) return false;
    if (m_thread.joinable()) m_thread.join(); // ended, but its outcome was already delivered
    m_plan = plan;
    m_stopping = false;
    m_loadStarted = false;
    m_lastPoint = {};
    m_shared = std::make_shared<Shared>();
    auto shared = m_shared;
    m_thread = std::thread([shared, plan] {
        RunOutcome outcome = runThread(*shared, plan);
        std::lock_guard lock(shared->mutex);
        shared->events.push_back(std::move(outcome));
        shared->done = true;
        shared->doneChanged.notify_all();
    });
    setPhase(Phase::Probing);
    m_drain.setInterval(DRAIN_MS);
    m_drain.start();
    return true;
}

void RunSession::stop()
{
    if (!m_shared) return;
    m_shared->stop.pull();
    m_stopping = isActive();
    // The run ends within milliseconds of the flag; look for its outcome often
    // so that Stop is done well within 200 ms, not at the next 100 ms tick.
    if (m_stopping) m_drain.setInterval(STOPPING_DRAIN_MS);
}

bool RunSession::waitForFinished(int timeoutMs)
{
    if (!isActive()) return true;
    {
        std::unique_lock lock(m_shared->mutex);
        if (!m_shared->doneChanged.wait_for(
                lock, std::chrono::milliseconds(timeoutMs), [this] { return m_shared->done; }))
            return false;
    }
    drain();
    return true;
}

double RunSession::elapsedS() const
{
    if (!m_loadStarted) return 0;
    return std::chrono::duration<double>(Clock::now() - m_loadStart).count();
}

double RunSession::plannedS() const
{
    const RunConfig load = m_plan.profile.load.normalized();
    return static_cast<double>(load.warmupUs + load.durationUs) / 1e6;
}

void RunSession::setPhase(Phase phase)
{
    if (m_phase == phase) return;
    m_phase = phase;
    emit phaseChanged(phase);
}

void RunSession::drain()
{
    if (!m_shared) return;
    std::deque<Event> events;
    {
        std::lock_guard lock(m_shared->mutex);
        events.swap(m_shared->events);
    }
    for (Event& event : events) {
        if (auto* begin = std::get_if<StartedEvent>(&event)) {
            m_loadStart = begin->at;
            m_loadStarted = true;
            setPhase(Phase::Running);
            emit started();
        } else if (auto* interval = std::get_if<IntervalRecord>(&event)) {
            // The same reduction as a stored interval's, so a run looks alike live and reopened.
            m_lastPoint = intervalPointOf(*interval, m_lastPoint);
            emit intervalReceived(liveIntervalOf(*interval, m_lastPoint));
        } else if (auto* outcome = std::get_if<RunOutcome>(&event)) {
            m_drain.stop();
            if (m_thread.joinable()) m_thread.join(); // it has pushed its last event: returns at once
            m_stopping = false;
            setPhase(Phase::Idle);
            emit finished(*outcome);
        }
    }
}

} // namespace wb::ui
