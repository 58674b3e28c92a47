#include "control/experimenttask.h"

namespace wb::ui {

ExperimentTask::ExperimentTask(QObject* parent)
    : QObject(parent)
    , m_job([this](ExperimentProgress& p) { emit progress(p); },
          [this](ExperimentTaskResult& result) { emit finished(result); }, DRAIN_MS)
{
    qRegisterMetaType<wb::ExperimentProgress>();
}

bool ExperimentTask::start(const QString& sessionPath, int64_t experimentId, const ExperimentPlan& plan)
{
    if (m_job.isRunning()) return false;
    m_experimentId = experimentId;
    using Job = BackgroundJob<ExperimentTaskResult, ExperimentProgress>;
    return m_job.start([path = sessionPath.toStdString(), experimentId, plan](Job::Context& context) {
        ExperimentTaskResult result;
        ExperimentRunner runner(path);
        runner.setProgressCallback([&context](const ExperimentProgress& p) { context.post(p); });
        const auto cancelHook = context.onCancel([&runner] { runner.cancel(); });
        // A typo in a URL fails here at once and leaves the experiment as it was.
        if (Status st = ExperimentRunner::checkTargets(plan); !st) {
            result.error = QString::fromStdString(st.error());
        } else if (runner.isCancelled()) {
            result.error = QObject::tr("stopped before the first run");
        } else if (auto outcome = runner.run(experimentId); !outcome) {
            result.error = QString::fromStdString(outcome.error());
        } else {
            result.ok = true;
            result.outcome = *outcome;
        }
        return result;
    });
}

void ExperimentTask::stop()
{
    m_job.cancel();
}

bool ExperimentTask::waitForFinished(int timeoutMs)
{
    return m_job.waitForFinished(timeoutMs);
}

} // namespace wb::ui
