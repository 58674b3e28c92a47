#pragma once
// Runs one load test from the GUI without blocking the UI thread: a wb::RecordedRun (probe, prepare, record, run) on a
// BackgroundJob's thread, with one more observer whose IntervalRecords are drained every DRAIN_MS and become
// LiveIntervals on the UI thread. A failed probe ends the run before any load and stores nothing
// (RunOutcome::probeFailed). stop() pulls the StopSwitch: the controller stops at once, a probe within ~20 ms. The UI
// thread never waits for the engine except in waitForFinished(), which closing the window uses after stop().

#include "control/backgroundjob.h"
#include "control/runevents.h"
#include "control/runsetup.h"
#include "prometheus/scrape/scraper.h"

#include <QObject>
#include <chrono>
#include <variant>

namespace wb::ui {

/// What the run header shows of a finished run (its totals, verdicts and warnings).
RunOutcome outcomeOf(const RunResult& result);

class RunTask : public QObject
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

    explicit RunTask(QObject* parent = nullptr);
    /// Stops a run still going and waits for it.
    ~RunTask() override;

    /// Starts setup on a new thread. False when a run is already active.
    bool start(const RunSetup& setup);
    /// Asks the run to end now (async: finished() follows within ~200 ms).
    void stop();
    /// Blocks until the run thread has ended, then delivers its remaining
    /// signals (finished() included). False on timeout.
    bool waitForFinished(int timeoutMs = 10'000);

    Phase phase() const { return m_phase; }
    bool isActive() const { return m_phase != Phase::Idle; }
    bool isStopping() const { return m_stopping; }
    const RunSetup& setup() const { return m_setup; }
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
    void phaseChanged(wb::ui::RunTask::Phase phase);
    /// The probe passed and the load started.
    void started();
    void intervalReceived(const wb::ui::LiveInterval& interval);
    /// One endpoint's scrape of the target's metrics (the target's Metrics field, --scrape).
    void scrapeReceived(const wb::ScrapeTick& tick);
    void finished(const wb::ui::RunOutcome& outcome);

private:
    void onEvent(Event& event);
    void setPhase(Phase phase);

    RunSetup m_setup;
    Phase m_phase = Phase::Idle;
    bool m_stopping = false;
    std::chrono::steady_clock::time_point m_loadStart {}; ///< when the run thread saw the load start
    bool m_loadStarted = false;
    IntervalPoint m_lastPoint; ///< the previous interval's point (an empty interval holds its latencies)
    Job m_job; // last: its destructor joins the run thread before the members it uses go
};

} // namespace wb::ui
Q_DECLARE_METATYPE(wb::ScrapeTick)
