#pragma once
// SessionRecorder stores a run while it happens, as an observer of its RunController. The observer calls only queue
// work; a writer thread of its own commits what is queued in one transaction (at most COMMIT_SPACING_MS apart), so the
// controller thread never waits for the disk and a process killed mid-run loses at most the last interval or so. A
// write that fails (disk full, read-only file, a lock held too long) stays queued and is retried while the run goes
// on; SQLite's transactions keep what was already stored intact.

#include "run/runobserver.h"
#include "store/sessionstore.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

namespace wb {

struct RecordingOptions
{
    int64_t targetId = 0;
    int64_t profileId = 0;
    std::string profileName;
    std::vector<std::string> tags;
    std::string notes;
    ExperimentSlot experiment; ///< set when the run fills a cell of an experiment
    std::string probeJson; ///< the probe that preceded the run (ProbeResult JSON), stored with it
};

class SessionRecorder : public RunObserver
{
public:
    static constexpr int COMMIT_SPACING_MS = 250; ///< coalesces short intervals into one commit
    static constexpr int RETRY_DELAY_MS = 1000; ///< after a failed write

    /// Takes the store (its connection is used by the writer thread only from now on).
    SessionRecorder(std::unique_ptr<SessionStore> store, RecordingOptions options);
    /// Finishes (see finish()) and joins the writer thread.
    ~SessionRecorder() override;
    SessionRecorder(const SessionRecorder&) = delete;
    SessionRecorder& operator=(const SessionRecorder&) = delete;

    void onStarted(const RunConfig& config) override;
    void onInterval(const IntervalRecord& interval) override;
    void onFinished(const RunResult& result) override;

    /// Stores the run's target metrics (--scrape) after what is queued; call before finish().
    void addScrape(ScrapeRecord record);
    /// Writes what is queued and stops the writer: one last attempt after a
    /// failure, then the rest is dropped (and lastError() says so).
    void finish();
    /// Blocks until everything queued so far is written or has failed once.
    void flush();

    /// The run's id in the session (0 until its row is written).
    int64_t runId() const;
    /// Intervals written so far.
    size_t intervalsWritten() const;
    /// The last write error ("" when every write succeeded). A failed write is
    /// retried, so an error here does not mean data was lost: see droppedWrites().
    std::string lastError() const;
    /// Writes given up by finish() (intervals, the start or the end of the run).
    size_t droppedWrites() const;

private:
    struct Start
    {
        RunConfig config;
        int64_t startedAtMs;
    };
    using Job = std::variant<Start, IntervalRecord, FinishedRun, ScrapeRecord>;

    void writerLoop();
    /// Writes batch in one transaction; runId and intervals are updated as it goes
    /// (meaningful only when it succeeds).
    Status write(const std::deque<Job>& batch, int64_t& runId, size_t& intervals);
    void enqueue(Job job);

    std::unique_ptr<SessionStore> m_store;
    RecordingOptions m_options;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake; ///< work queued, or stopping
    std::condition_variable m_progress; ///< a round ended
    std::deque<Job> m_queue;
    uint64_t m_enqueued = 0; ///< jobs queued so far
    uint64_t m_handled = 0; ///< jobs written or given up
    uint64_t m_failedRounds = 0;
    size_t m_dropped = 0;
    bool m_stopping = false;
    bool m_writerDone = false;
    int64_t m_runId = 0;
    int64_t m_writerRunId = 0; ///< the writer thread's own copy (no lock needed)
    size_t m_intervalsWritten = 0;
    std::string m_lastError;
    std::thread m_writer; // last: starts after the members it uses exist
};

} // namespace wb
