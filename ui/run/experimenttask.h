#pragma once
// Runs (or resumes) one experiment from the GUI without blocking the UI thread,
// in the pattern of RunSession:
//
//   UI thread                          experiment thread (std::thread)
//   start(path, id, plan) ──────────▶  ExperimentRunner::preflight(plan), then
//                                      ExperimentRunner::run(id); its progress
//                                      callback (once per run started / finished)
//                                      ──▶ mutex-protected queue
//   QTimer every DRAIN_MS  ◀────────── emits progress / finished
//   stop() ──▶ ExperimentRunner::cancel() (safe from any thread)

#include "experiment/experimentplan.h"
#include "experiment/experimentrunner.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <thread>

Q_DECLARE_METATYPE(wb::ExperimentProgress)

namespace wb::ui {

/// How a start() ended: the runner's outcome, or why it could not run at all.
struct ExperimentTaskResult
{
    bool ok = false; ///< false: error says why (preflight, session); outcome is then empty
    QString error;
    ExperimentOutcome outcome;
};

class ExperimentTask : public QObject
{
    Q_OBJECT
public:
    static constexpr int DRAIN_MS = 100;

    explicit ExperimentTask(QObject* parent = nullptr);
    /// Cancels an experiment still going and waits for it.
    ~ExperimentTask() override;

    /// Runs what experiment experimentId of the session at sessionPath still lacks
    /// (plan: its parsed plan, for the pre-run check). False when one is already running.
    bool start(const QString& sessionPath, int64_t experimentId, const ExperimentPlan& plan);
    /// The run in progress ends within ~100 ms (stored as 'stopped'); finished() follows.
    void stop();
    /// Blocks until the thread has ended, then delivers the remaining signals. False on timeout.
    bool waitForFinished(int timeoutMs = 10'000);

    bool isActive() const { return m_active; }
    int64_t experimentId() const { return m_experimentId; }

    struct Shared; ///< internal (defined in the .cpp)

signals:
    void progress(const wb::ExperimentProgress& progress);
    void finished(const wb::ui::ExperimentTaskResult& result);

private:
    void drain();

    std::shared_ptr<Shared> m_shared;
    std::thread m_thread;
    QTimer m_drain;
    bool m_active = false;
    int64_t m_experimentId = 0;
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::ExperimentTaskResult)
