#include "run/experimenttask.h"

#include <chrono>
#include <deque>
#include <mutex>
#include <optional>

namespace wb::ui {

struct ExperimentTask::Shared
{
    std::mutex mutex;
    std::deque<ExperimentProgress> events;
    std::optional<ExperimentTaskResult> result; ///< set once, when the thread is about to end
    ExperimentRunner* runner = nullptr; ///< while run() may use it; guarded by mutex
    bool stopRequested = false;
};

ExperimentTask::ExperimentTask(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<wb::ExperimentProgress>();
    m_drain.setInterval(DRAIN_MS);
    connect(&m_drain, &QTimer::timeout, this, &ExperimentTask::drain);
}

ExperimentTask::~ExperimentTask()
{
    if (m_thread.joinable()) {
        stop();
        m_thread.join();
    }
}

bool ExperimentTask::start(const QString& sessionPath, int64_t experimentId, const ExperimentPlan& plan)
{
    if (m_active) return false;
    if (m_thread.joinable()) m_thread.join(); // an earlier one that has ended
    m_shared = std::make_shared<Shared>();
    m_active = true;
    m_experimentId = experimentId;
    m_thread = std::thread([shared = m_shared, path = sessionPath.toStdString(), experimentId, plan] {
        ExperimentTaskResult result;
        ExperimentRunner runner(path);
        runner.setProgressCallback([&shared](const ExperimentProgress& p) {
            std::lock_guard lock(shared->mutex);
            shared->events.push_back(p);
        });
        {
            std::lock_guard lock(shared->mutex);
            shared->runner = &runner;
            if (shared->stopRequested) runner.cancel();
        }
        // A typo in a URL fails here at once and leaves the experiment as it was.
        if (Status st = ExperimentRunner::preflight(plan); !st) {
            result.error = QString::fromStdString(st.error());
        } else if (runner.isCancelled()) {
            result.error = QObject::tr("stopped before the first run");
        } else if (auto outcome = runner.run(experimentId); !outcome) {
            result.error = QString::fromStdString(outcome.error());
        } else {
            result.ok = true;
            result.outcome = *outcome;
        }
        std::lock_guard lock(shared->mutex);
        shared->runner = nullptr;
        shared->result = std::move(result);
    });
    m_drain.start();
    return true;
}

void ExperimentTask::stop()
{
    if (!m_shared) return;
    std::lock_guard lock(m_shared->mutex);
    m_shared->stopRequested = true;
    if (m_shared->runner) m_shared->runner->cancel();
}

bool ExperimentTask::waitForFinished(int timeoutMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (m_active) {
        drain();
        if (!m_active) break;
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

void ExperimentTask::drain()
{
    if (!m_shared) return;
    std::deque<ExperimentProgress> events;
    std::optional<ExperimentTaskResult> result;
    {
        std::lock_guard lock(m_shared->mutex);
        events.swap(m_shared->events);
        if (m_shared->result) result = std::move(m_shared->result);
        m_shared->result.reset();
    }
    for (const ExperimentProgress& p : events)
        emit progress(p);
    if (!result) return;
    m_drain.stop();
    if (m_thread.joinable()) m_thread.join();
    m_active = false;
    emit finished(*result);
}

} // namespace wb::ui
