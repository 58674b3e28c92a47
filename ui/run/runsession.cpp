#include "run/runsession.h"

#include "probe/probe.h"
#include "report/generatorlag.h"
#include "run/builtinserver.h"
#include "run/runcontroller.h"
#include "store/sessionrecorder.h"

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
using Event = std::variant<StartedEvent, LiveInterval, RunOutcome>;

double ms(uint64_t us)
{
    return static_cast<double>(us) / 1000.0;
}

LiveInterval liveIntervalOf(const IntervalSnapshot& s, bool openModel)
{
    LiveInterval live;
    const double seconds = s.durationS() > 0 ? s.durationS() : 1.0;
    live.startS = s.startS;
    live.requests = s.requests;
    live.non2xx = s.errors.status;
    live.errors = s.errors.transportErrors();
    live.connections = s.connections;
    IntervalPoint& p = live.point;
    p.endS = s.endS;
    p.requestsPerS = s.requestsPerS();
    p.targetRatePerS = s.targetRatePerS;
    p.p50Ms = ms(s.latency.valueAtPercentileUs(50));
    p.p90Ms = ms(s.latency.valueAtPercentileUs(90));
    p.p99Ms = ms(s.latency.valueAtPercentileUs(99));
    if (openModel) {
        p.serviceP50Ms = ms(s.serviceLatency.valueAtPercentileUs(50));
        p.serviceP90Ms = ms(s.serviceLatency.valueAtPercentileUs(90));
        p.serviceP99Ms = ms(s.serviceLatency.valueAtPercentileUs(99));
    }
    p.errorsPerS = static_cast<double>(live.errors) / seconds;
    p.non2xxPerS = static_cast<double>(live.non2xx) / seconds;
    return live;
}

} // namespace

/// What the run thread and the UI thread share; everything under mutex.
struct RunSession::Shared
{
    std::mutex mutex;
    std::condition_variable doneChanged;
    std::deque<Event> events;
    RunController* controller = nullptr; ///< while it exists
    std::atomic<bool> cancelProbe { false }; ///< read by the pre-run probe's curl callback, without the mutex
    bool stopRequested = false;
    bool done = false;

    void push(Event event)
    {
        std::lock_guard lock(mutex);
        events.push_back(std::move(event));
    }
};

namespace {

/// Runs on the controller's thread: reduces each snapshot and queues it. Never blocks for long.
class QueueObserver : public RunObserver
{
public:
    QueueObserver(RunSession::Shared& shared, bool openModel)
        : m_shared(shared)
        , m_openModel(openModel)
    { }
    void onStarted(const RunConfig&) override { m_shared.push(StartedEvent { Clock::now() }); }
    void onInterval(const IntervalSnapshot& snapshot) override { m_shared.push(liveIntervalOf(snapshot, m_openModel)); }

private:
    RunSession::Shared& m_shared;
    bool m_openModel;
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

NewRun newRunOf(const RunPlan& plan, const RunConfig& config)
{
    NewRun run;
    run.targetId = plan.target.id;
    run.profileId = plan.profile.id > 0 ? plan.profile.id : 0;
    run.profileName = plan.profile.name;
    run.config = config;
    run.startedAtMs = wallClockNowMs();
    return run;
}

RunOutcome failed(const std::string& error)
{
    RunOutcome out;
    out.status = RunStatus::Failed;
    out.error = QString::fromStdString(error);
    return out;
}

RunOutcome cancelled()
{
    RunOutcome out;
    out.cancelled = true;
    return out;
}

bool stopRequested(RunSession::Shared& shared)
{
    std::lock_guard lock(shared.mutex);
    return shared.stopRequested;
}

/// The whole life of one run, on its own thread. Fills plan.probeJson when a pre-run probe passed.
RunOutcome runThread(RunSession::Shared& shared, RunPlan& plan)
{
    uint16_t builtinPort = 0;
    if (auto url = parseUrl(plan.target.url); url && isBuiltinUrl(*url)) {
        auto port = ensureBuiltinServer();
        if (!port) return failed(port.error());
        builtinPort = *port;
    }
    auto config = runConfigFor(plan.target, plan.profile.load, builtinPort);
    if (!config) return failed(config.error());

    if (plan.probeFirst) {
        // One real request before any load: a target that does not answer is
        // reported with the probe's precise reason, and the user decides.
        ProbeOptions probeOptions = probeOptionsFor(*config);
        probeOptions.cancel = &shared.cancelProbe;
        auto probed = probe(probeOptions);
        if (stopRequested(shared)) return cancelled();
        if (!probed) {
            RunOutcome out = failed(probed.error());
            out.probeFailed = true;
            return out;
        }
        plan.probeJson = probed->toJsonText();
    }

    RunController controller(*config);
    {
        std::lock_guard lock(shared.mutex);
        if (shared.stopRequested) return cancelled();
        shared.controller = &controller;
    }
    // Whatever happens below, stop() must not reach a destroyed controller.
    struct Detach
    {
        RunSession::Shared& shared;
        ~Detach()
        {
            std::lock_guard lock(shared.mutex);
            shared.controller = nullptr;
        }
    } detach { shared };

    const Status prepared = controller.prepare();
    if (stopRequested(shared)) return cancelled();
    SessionOpenOptions options;
    options.create = false; // the session was open when the run started; never recreate a removed file
    auto store = SessionStore::open(plan.sessionPath.toStdString(), options);
    if (!prepared) {
        // Stored like the CLI stores it: the history shows the attempt and why it failed.
        RunOutcome out = failed(prepared.error());
        if (store && !(*store)->isReadOnly()) {
            auto id = (*store)->addFailedRun(newRunOf(plan, *config), prepared.error());
            if (id) out.runId = *id;
        }
        return out;
    }

    RecordingOptions recording;
    recording.probeJson = plan.probeJson; // stored with the run (runs.probe)
    recording.targetId = plan.target.id;
    recording.profileId = plan.profile.id > 0 ? plan.profile.id : 0;
    recording.profileName = plan.profile.name;
    std::unique_ptr<SessionRecorder> recorder;
    QString storageWarning;
    if (!store)
        storageWarning = QString::fromStdString(store.error());
    else if ((*store)->isReadOnly())
        storageWarning = QStringLiteral("the session is read-only: this run is not stored");
    else
        recorder = std::make_unique<SessionRecorder>(std::move(*store), recording);

    QueueObserver queue(shared, config->openModel());
    if (recorder) controller.addObserver(recorder.get());
    controller.addObserver(&queue);
    const RunResult result = controller.run();

    RunOutcome out = outcomeOf(result);
    out.storageWarning = storageWarning;
    if (recorder) {
        recorder->finish();
        out.runId = recorder->runId();
        if (out.runId == 0 || recorder->droppedWrites() > 0)
            out.storageWarning = QStringLiteral("the run was not stored completely: %1")
                                     .arg(QString::fromStdString(recorder->lastError()));
    }
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
    m_shared = std::make_shared<Shared>();
    auto shared = m_shared;
    m_thread = std::thread([shared, threadPlan = plan]() mutable {
        RunOutcome outcome = runThread(*shared, threadPlan);
        outcome.probeJson = QString::fromStdString(threadPlan.probeJson);
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
    std::lock_guard lock(m_shared->mutex);
    m_shared->stopRequested = true;
    m_shared->cancelProbe = true;
    if (m_shared->controller) m_shared->controller->stop();
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
        } else if (auto* interval = std::get_if<LiveInterval>(&event)) {
            emit intervalReceived(*interval);
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
