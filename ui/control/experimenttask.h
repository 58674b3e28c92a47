#pragma once
// Runs (or resumes) one experiment from the GUI without blocking the UI thread,
// as a BackgroundJob (run/backgroundjob.h):
//
//   UI thread                          experiment thread
//   start(path, id, plan) ──────────▶  ExperimentRunner::checkTargets(plan), then
//                                      ExperimentRunner::run(id); its progress
//                                      callback (once per run started / finished)
//                                      ──▶ the job's queue
//   every DRAIN_MS         ◀────────── emits progress, then finished
//   stop() ──▶ the job's cancel hook: ExperimentRunner::cancel() (safe from any thread)

#include "control/backgroundjob.h"
#include "experiment/experimentplan.h"
#include "experiment/experimentrunner.h"

#include <QObject>
#include <QString>

Q_DECLARE_METATYPE(wb::ExperimentProgress)

namespace wb::ui {

/// How a start() ended: the runner's outcome, or why it could not run at all.
struct ExperimentTaskResult
{
    bool ok = false; ///< false: error says why (a target check, the session); outcome is then empty
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
    ~ExperimentTask() override = default;

    /// Runs what experiment experimentId of the session at sessionPath still lacks
    /// (plan: its parsed plan, for the pre-run check). False when one is already running.
    bool start(const QString& sessionPath, int64_t experimentId, const ExperimentPlan& plan);
    /// The run in progress ends within ~100 ms (stored as 'stopped'); finished() follows.
    void stop();
    /// Blocks until the thread has ended, then delivers the remaining signals. False on timeout.
    bool waitForFinished(int timeoutMs = 10'000);

    bool isActive() const { return m_job.isRunning(); }
    int64_t experimentId() const { return m_experimentId; }

signals:
    void progress(const wb::ExperimentProgress& progress);
    void finished(const wb::ui::ExperimentTaskResult& result);

private:
    BackgroundJob<ExperimentTaskResult, ExperimentProgress> m_job;
    int64_t m_experimentId = 0;
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::ExperimentTaskResult)
