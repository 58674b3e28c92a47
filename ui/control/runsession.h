#pragma once
// Runs one load test from the GUI without ever blocking the UI thread.
//
//   UI thread                         run thread (a BackgroundJob)
//   start(plan) ───────────────────▶  wb::RecordedRun (engine/record): built-in
//                                     server, probe (plan.probeFirst; a failure ends
//                                     the run here: RunOutcome::probeFailed, nothing
//                                     stored), prepare, record into the session, run,
//                                     with one more observer:
//                                       QueueObserver ──▶ the job's queue
//   drained every DRAIN_MS ◀───────── (IntervalRecords, a few per second, made
//                                      LiveIntervals on the UI thread)
//   emits started / intervalReceived / finished
//   stop() ──▶ the job's cancel hook: StopSwitch::pull() stops the controller
//              (a flag: instant) or cancels the probe (it notices within ~20 ms)
//
// The UI thread never waits for the engine, except in waitForFinished(),
// which closing the window uses after stop().

#include "control/backgroundjob.h"
#include "control/runevents.h"
#include "control/runsetup.h"
#include "scrape/scraper.h"

#include <QObject>
#include <chrono>
#include <variant>

namespace wb::ui {

/// What the run header shows of a finished run (its totals, verdicts and warnings).
RunOutcome outcomeOf(const RunResult& result);

class RunSession : public QObject
{
    Q_OBJECT
public:
    static constexpr int DRAIN_MS = 100; ///< at most 10 UI updates a second
    static constexpr int STOPPING_DRAIN_MS = 10; ///< after stop(): the outcome is only milliseconds away

    enum class Phase {
        Idle,
        Probing, ///< the pre-run probe, then resolving, connecting, TLS handshake (before any load)
        Running, ///< load is on (warm-up included)
    };
    Q_ENUM(Phase)

    explicit RunSession(QObject* parent = nullptr);
    /// Stops a run still going and waits for it.
    ~RunSession() override;

    /// Starts plan on a new thread. False when a run is already active.
    bool start(const RunSetup& plan);
    /// Asks the run to end now (async: finished() follows within ~200 ms).
    void stop();
    /// Blocks until the run thread has ended, then delivers its remaining
    /// signals (finished() included). False on timeout.
    bool waitForFinished(int timeoutMs = 10'000);

    Phase phase() const { return m_phase; }
    bool isActive() const { return m_phase != Phase::Idle; }
    bool isStopping() const { return m_stopping; }
    const RunSetup& plan() const { return m_plan; }
    /// Seconds since the load started (warm-up included); 0 before.
    double elapsedS() const;
    /// Warm-up plus measured duration, seconds.
    double plannedS() const;

    /// What the run thread posts: the load started, an interval ended.
    struct LoadStarted
    {
        std::chrono::steady_clock::time_point at;
    };
    using Event = std::variant<LoadStarted, IntervalRecord, ScrapeTick>;
    using Job = BackgroundJob<RunOutcome, Event>;

signals:
    void phaseChanged(wb::ui::RunSession::Phase phase);
    /// The probe passed and the load started.
    void started();
    void intervalReceived(const wb::ui::LiveInterval& interval);
    /// One endpoint's scrape of the target's metrics (the target's Metrics field, --scrape).
    void scrapeReceived(const wb::ScrapeTick& tick);
    void finished(const wb::ui::RunOutcome& outcome);

private:
    void onEvent(Event& event);
    void setPhase(Phase phase);

    RunSetup m_plan;
    Phase m_phase = Phase::Idle;
    bool m_stopping = false;
    std::chrono::steady_clock::time_point m_loadStart {}; ///< when the run thread saw the load start
    bool m_loadStarted = false;
    IntervalPoint m_lastPoint; ///< the previous interval's point (an empty interval holds its latencies)
    Job m_job; // last: its destructor joins the run thread before the members it uses go
};

} // namespace wb::ui
Q_DECLARE_METATYPE(wb::ScrapeTick)
