#include "run/probetask.h"

#include "run/runplan.h"

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
    auto options = probeOptionsFor(target); // starts the built-in server for a built-in target
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
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{ }

ProbeTask::~ProbeTask()
{
    if (m_thread.joinable()) {
        m_cancel->store(true);
        m_thread.join(); // its queued result dies with this object
    }
}

bool ProbeTask::start(const Target& target)
{
    if (m_started) return false;
    m_started = true;
    m_running = true;
    m_thread = std::thread([this, target, cancel = m_cancel] {
        ProbeOutcome outcome = probeTarget(target, cancel.get());
        // The destructor joins this thread before `this` goes, and deleting the
        // object drops the queued call: `this` is valid for both.
        QMetaObject::invokeMethod(
            this, [this, outcome = std::move(outcome)] { deliver(outcome); }, Qt::QueuedConnection);
    });
    return true;
}

void ProbeTask::cancel()
{
    m_cancel->store(true);
}

void ProbeTask::deliver(const ProbeOutcome& outcome)
{
    if (m_thread.joinable()) m_thread.join(); // it has posted its last word: returns at once
    m_running = false;
    ProbeOutcome out = outcome;
    if (m_cancel->load() && !out.ok) out.cancelled = true;
    emit finished(out);
}

} // namespace wb::ui
