#include "store/sessionrecorder.h"

#include "run/runresult.h"
#include "stats/snapshot.h"

#include <chrono>

namespace wb {

namespace {

template<class... F> struct Overloaded : F...
{
    using F::operator()...;
};
template<class... F> Overloaded(F...) -> Overloaded<F...>;

} // namespace

SessionRecorder::SessionRecorder(std::unique_ptr<SessionStore> store, RecordingOptions options)
    : m_store(std::move(store))
    , m_options(std::move(options))
    , m_writer([this] { writerLoop(); })
{ }

SessionRecorder::~SessionRecorder()
{
    finish();
}

void SessionRecorder::onStarted(const RunConfig& config)
{
    enqueue(Start { config, wallClockNowMs() });
}

void SessionRecorder::onInterval(const IntervalRecord& interval)
{
    enqueue(interval); // only the disk is left to the writer thread
}

void SessionRecorder::onFinished(const RunResult& result)
{
    enqueue(FinishedRun::of(result, wallClockNowMs()));
}

void SessionRecorder::addScrape(ScrapeRecord record)
{
    if (!record.empty()) enqueue(std::move(record));
}

void SessionRecorder::enqueue(Job job)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_writerDone) return;
        m_queue.push_back(std::move(job));
        ++m_enqueued;
    }
    m_wake.notify_one();
}

void SessionRecorder::finish()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    if (m_writer.joinable()) m_writer.join();
}

void SessionRecorder::flush()
{
    std::unique_lock lock(m_mutex);
    const uint64_t wanted = m_enqueued;
    const uint64_t failures = m_failedRounds;
    m_wake.notify_one();
    m_progress.wait(lock, [&] { return m_handled >= wanted || m_failedRounds != failures || m_writerDone; });
}

int64_t SessionRecorder::runId() const
{
    std::lock_guard lock(m_mutex);
    return m_runId;
}

size_t SessionRecorder::intervalsWritten() const
{
    std::lock_guard lock(m_mutex);
    return m_intervalsWritten;
}

size_t SessionRecorder::droppedWrites() const
{
    std::lock_guard lock(m_mutex);
    return m_dropped;
}

std::string SessionRecorder::lastError() const
{
    std::lock_guard lock(m_mutex);
    return m_lastError;
}

void SessionRecorder::writerLoop()
{
    using Clock = std::chrono::steady_clock;
    const auto spacing = std::chrono::milliseconds(COMMIT_SPACING_MS);
    std::unique_lock lock(m_mutex);
    auto lastRound = Clock::now() - spacing;
    for (;;) {
        m_wake.wait(lock, [&] { return m_stopping || !m_queue.empty(); });
        if (m_queue.empty()) break; // stopping, and everything is written
        // Intervals shorter than the spacing share one commit.
        m_wake.wait_until(lock, lastRound + spacing, [&] { return m_stopping; });
        const bool lastChance = m_stopping;
        std::deque<Job> batch;
        batch.swap(m_queue);

        lock.unlock();
        size_t intervals = 0;
        int64_t runId = m_writerRunId;
        const Status st = write(batch, runId, intervals);
        lock.lock();

        lastRound = Clock::now();
        if (st) {
            m_writerRunId = runId;
            m_runId = runId;
            m_intervalsWritten += intervals;
            m_handled += batch.size();
        } else if (lastChance) {
            m_lastError = st.error() + "; " + std::to_string(batch.size() + m_queue.size())
                + " pending write(s) of the run were not stored";
            m_handled += batch.size() + m_queue.size();
            m_dropped += batch.size() + m_queue.size();
            m_queue.clear();
            ++m_failedRounds;
        } else {
            m_lastError = st.error();
            ++m_failedRounds;
            // Keep the order: the failed batch goes back in front of what arrived meanwhile.
            for (auto it = batch.rbegin(); it != batch.rend(); ++it)
                m_queue.push_front(std::move(*it));
            m_progress.notify_all();
            m_wake.wait_for(lock, std::chrono::milliseconds(RETRY_DELAY_MS), [&] { return m_stopping; });
        }
        m_progress.notify_all();
    }
    m_writerDone = true;
    m_progress.notify_all();
}

Status SessionRecorder::write(const std::deque<Job>& batch, int64_t& runId, size_t& intervals)
{
    std::vector<IntervalRecord> pending;
    return m_store->transaction([&]() -> Status {
        auto appendPending = [&]() -> Status {
            if (pending.empty() || runId == 0) return {};
            if (auto st = m_store->runs().appendIntervals(runId, pending); !st) return st;
            intervals += pending.size();
            pending.clear();
            return {};
        };
        for (const Job& job : batch) {
            Status st = std::visit(Overloaded {
                                       [&](const Start& start) -> Status {
                                           NewRun run;
                                           run.targetId = m_options.targetId;
                                           run.profileId = m_options.profileId;
                                           run.profileName = m_options.profileName;
                                           run.config = start.config;
                                           run.startedAtMs = start.startedAtMs;
                                           run.tags = m_options.tags;
                                           run.notes = m_options.notes;
                                           run.experiment = m_options.experiment;
                                           run.probeJson = m_options.probeJson;
                                           auto id = m_store->runs().begin(run);
                                           if (!id) return Error { id.error() };
                                           runId = *id;
                                           return {};
                                       },
                                       [&](const IntervalRecord& interval) -> Status {
                                           pending.push_back(interval);
                                           return {};
                                       },
                                       [&](const FinishedRun& finished) -> Status {
                                           if (auto appended = appendPending(); !appended) return appended;
                                           if (runId == 0) return {}; // never started
                                           return m_store->runs().finish(runId, finished);
                                       },
                                       [&](const ScrapeRecord& scrape) -> Status {
                                           if (runId == 0) return {}; // never started
                                           return m_store->runs().saveScrape(runId, scrape);
                                       },
                                   },
                job);
            if (!st) return st;
        }
        return appendPending();
    });
}

} // namespace wb
