#pragma once
// One probe of a target (wb::probe: a single request timed phase by phase) on
// its own thread, for the Probe button: a BackgroundJob whose result is the outcome.
//
//   UI thread                       probe thread
//   start(target) ───────────────▶  built-in server if needed, wb::probe()
//   cancel() ──▶ the job's flag ──▶ the probe's poll loop sees it (< ~20 ms)
//   finished(outcome) ◀──────────── the job's result (a queued wake-up when the probe returns)
//
// Single use: start() once. Destroying a task that is still probing cancels it
// and waits for the thread (a few tens of milliseconds).

#include "control/backgroundjob.h"
#include "probe/proberesult.h"
#include "store/sessiontypes.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <atomic>

namespace wb::ui {

/// How a probe ended.
struct ProbeOutcome
{
    bool ok = false; ///< the target answered (any status, 404 and 503 included)
    bool cancelled = false; ///< abandoned through cancel(): nothing to show
    QString error; ///< one human sentence when !ok ("connection refused by 127.0.0.1:9")
    ProbeResult result; ///< meaningful when ok
    double elapsedMs = 0; ///< wall time of the whole probe, thread start to end
    QString probedFrom; ///< the remote loader that sent the request (AgentProbe); "" = this workstation
};

/// Probes target now, on the calling thread (blocking): starts the built-in
/// server for a "builtin" target. cancel may be null.
ProbeOutcome probeTarget(const Target& target, const std::atomic<bool>* cancel);

class ProbeTask : public QObject
{
    Q_OBJECT
public:
    explicit ProbeTask(QObject* parent = nullptr);
    /// Cancels a probe still going and waits for its thread.
    ~ProbeTask() override = default;

    /// Starts probing target on a new thread. False when already started.
    bool start(const Target& target);
    /// Asks the probe to give up; finished() follows with cancelled = true.
    void cancel();
    bool isRunning() const { return m_job.isRunning(); }

signals:
    void finished(const wb::ui::ProbeOutcome& outcome);

private:
    void deliver(ProbeOutcome& outcome);

    BackgroundJob<ProbeOutcome> m_job;
    bool m_started = false;
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::ProbeOutcome)
