#include "control/capacitytask.h"

#include "capacity/capacityrunner.h"
#include "store/sessionstore.h"

#include <cmath>

namespace wb::ui {

namespace {

CapacityTrialEvent eventOf(const CapacityRunTarget& t, int index, const CapacityTrial& trial, unsigned number)
{
    CapacityTrialEvent e;
    e.target = index;
    e.label = QString::fromStdString(t.label);
    e.number = number;
    e.ratePerS = trial.ratePerS;
    e.durationS = static_cast<double>(trial.durationUs) / 1e6;
    e.budgetLeftS = t.search.budgetLeftS();
    const CapacityResult now = t.search.result();
    e.lowerPerS = now.lowerPerS;
    e.upperPerS = now.upperPerS;
    return e;
}

} // namespace

CapacityTask::CapacityTask(QObject* parent)
    : QObject(parent)
    , m_job([this](CapacityTrialEvent& e) { emit progress(e); },
          [this](CapacityTaskResult& result) { emit finished(result); }, DRAIN_MS)
{
    qRegisterMetaType<wb::ui::CapacityTrialEvent>();
    qRegisterMetaType<wb::ui::CapacityTaskResult>();
}

bool CapacityTask::start(const QString& sessionPath, std::vector<std::pair<std::string, RunConfig>> targets,
    std::vector<int64_t> sessionTargetIds, const CapacityOptions& options, std::string name, bool warmupGiven)
{
    if (m_job.isRunning()) return false;
    using Job = BackgroundJob<CapacityTaskResult, CapacityTrialEvent>;
    return m_job.start(
        [path = sessionPath.toStdString(), targets = std::move(targets), ids = std::move(sessionTargetIds), options,
            name = std::move(name), warmupGiven](Job::Context& context) mutable {
            CapacityTaskResult result;
            // This thread's own connection to the session: the UI thread keeps its own.
            auto store = SessionStore::open(path);
            if (!store) {
                result.error = QString::fromStdString(store.error());
                return result;
            }
            auto runner = CapacityRunner::start(std::move(targets), options, {}, warmupGiven);
            if (!runner) {
                result.error = QString::fromStdString(runner.error());
                return result;
            }
            for (size_t i = 0; i < ids.size() && i < runner->targets().size(); ++i)
                runner->setSessionTarget(i, ids[i]);
            if (Status st = runner->storeIn(**store, path, {}, name); !st) {
                result.error = QString::fromStdString(st.error());
                return result;
            }
            result.searchId = runner->searchId();
            const auto cancelHook = context.onCancel([&runner] { runner->stop(); });
            if (context.cancelFlag().load()) runner->stop();
            const auto indexOf
                = [&runner](const CapacityRunTarget& t) { return static_cast<int>(&t - runner->targets().data()); };
            CapacityRunEvents events;
            events.starting = [&](const CapacityRunTarget& t, const CapacityTrial& trial, unsigned number) {
                context.post(eventOf(t, indexOf(t), trial, number));
            };
            events.judged = [&](const CapacityRunTarget& t, const CapacityTrial& trial, const TrialOutcome& outcome,
                                unsigned number, bool) {
                CapacityTrialEvent e = eventOf(t, indexOf(t), trial, number);
                e.judged = true;
                e.passed = outcome.passed;
                e.loaderLimited = outcome.loaderLimited;
                e.verdicts = QString::fromStdString(capacityVerdictsText(outcome.slo));
                e.loaderReason = QString::fromStdString(outcome.loaderReason);
                if (!t.seen.empty()) {
                    e.p50Ms = t.seen.back().p50Us / 1000.0;
                    e.p99Ms = t.seen.back().p99Us / 1000.0;
                }
                context.post(e);
            };
            const Status ran = runner->run(events);
            result.ok = ran.ok();
            result.stopped = runner->stopped();
            if (!ran) result.error = QString::fromStdString(ran.error());
            result.report = runner->report();
            return result;
        });
}

void CapacityTask::stop()
{
    m_job.cancel();
}

bool CapacityTask::waitForFinished(int timeoutMs)
{
    return m_job.waitForFinished(timeoutMs);
}

} // namespace wb::ui
