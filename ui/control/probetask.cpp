#include "control/probetask.h"

#include "control/runsetup.h"

#include <chrono>

namespace wb::ui {

ProbeOutcome probeTarget(const Target& target, const std::atomic<bool>* cancel)
{
    const auto begin = std::chrono::steady_clock::now();
    ProbeOutcome out;
    const auto finish = [&]() -> ProbeOutcome {
        out.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        return out;
    };
    auto options = probeOptionsFor(target, cancel); // starts the built-in server for a built-in target
    if (!options && cancel && cancel->load()) {
        out.cancelled = true;
        return finish();
    }
    if (!options) {
        out.error = QString::fromStdString(options.error());
        return finish();
    }
    options->cancel = cancel;
    auto probed = probe(*options);
    if (cancel && cancel->load()) {
        out.cancelled = true;
        return finish();
    }
    if (!probed) {
        out.error = QString::fromStdString(probed.error());
        return finish();
    }
    out.ok = true;
    out.result = std::move(*probed);
    return finish();
}

ProbeTask::ProbeTask(QObject* parent)
    : QObject(parent)
    , m_job(nullptr, [this](ProbeOutcome& outcome) { deliver(outcome); })
{ }

bool ProbeTask::start(const Target& target)
{
    if (m_started) return false;
    m_started = true;
    return m_job.start(
        [target](BackgroundJob<ProbeOutcome>::Context& context) { return probeTarget(target, &context.cancelFlag()); });
}

void ProbeTask::cancel()
{
    m_job.cancel();
}

void ProbeTask::deliver(ProbeOutcome& outcome)
{
    if (m_job.isCancelled() && !outcome.ok) outcome.cancelled = true;
    emit finished(outcome);
}

} // namespace wb::ui
