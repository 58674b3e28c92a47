#pragma once
// One probe of a target (wb::probe: a single request timed phase by phase) on
// its own thread, for the Probe button. The probe is blocking; this runs it on
// a std::thread and hands the result to the UI thread with one queued call.
//
//   UI thread                       probe thread
//   start(target) ───────────────▶  built-in server if needed, wb::probe()
//   cancel() ──▶ atomic flag ─────▶ the probe's poll loop sees it (< ~20 ms)
//   finished(outcome) ◀──────────── queued call
//
// Single use: start() once. Destroying a task that is still probing cancels it
// and waits for the thread (a few tens of milliseconds).

#include "probe/proberesult.h"
#include "store/sessiontypes.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

namespace wb::ui {

/// How a probe ended.
struct ProbeOutcome
{
    bool ok = false; ///< the target answered (any status, 404 and 503 included)
    bool cancelled = false; ///< abandoned through cancel(): nothing to show
    QString error; ///< one human sentence when !ok ("connection refused by 127.0.0.1:9")
    ProbeResult result; ///< meaningful when ok
    double elapsedMs = 0; ///< wall time of the whole probe, thread start to end
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
    ~ProbeTask() override;

    /// Starts probing target on a new thread. False when already started.
    bool start(const Target& target);
    /// Asks the probe to give up; finished() follows with cancelled = true.
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void finished(const wb::ui::ProbeOutcome& outcome);

private:
    void deliver(const ProbeOutcome& outcome);

    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::thread m_thread;
    bool m_started = false;
    bool m_running = false;
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::ProbeOutcome)
