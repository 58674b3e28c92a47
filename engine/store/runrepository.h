#pragma once
// The runs of a session (SessionStore::runs()): reading and editing them, and writing them as they
// happen (SessionRecorder) or from a log (import).

#include "common/result.h"
#include "prometheus/exposition/scraperecord.h"
#include "store/sessiontypes.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wb {

class SessionStore;

/// An imported run (from a wrk or wrk2 log), stored whole.
struct ImportedRun
{
    int64_t targetId = 0;
    RunConfig config; ///< what the log says: URL, threads, connections, duration, rate, timeout
    std::vector<std::string> tags;
    std::string engineVersion; ///< "wrk" or "wrk2"
    std::string source; ///< "file:first-last"
    std::string commandLine;
    RunTotals totals;
    std::vector<PercentileRow> latencyDistribution;
    std::vector<PercentileRow> spectrum;
};

class RunRepository
{
public:
    RunRepository(const RunRepository&) = delete;
    RunRepository& operator=(const RunRepository&) = delete;

    // Reading --------------------------------------------------------------------
    /// Runs matching filter, oldest first (summary only, no series).
    Result<std::vector<RunRecord>> list(const RunFilter& filter = {});
    Result<RunRecord> record(int64_t id);
    /// Everything stored about one run.
    Result<RunData> load(int64_t id);
    Status setNotes(int64_t id, const std::string& notes);
    /// What the run's wrk script printed (done() runs after the run is stored).
    Status setScriptOutput(int64_t id, const std::string& output);
    Status setTags(int64_t id, const std::vector<std::string>& tags);
    /// Adds and removes tags on every run of ids, in one transaction: a missing run
    /// changes nothing ("no run with id 13"). Tags of the runs' targets are left alone.
    Status changeTags(
        const std::vector<int64_t>& ids, const std::vector<std::string>& add, const std::vector<std::string>& remove);
    /// Deletes a run with its intervals, histograms and counts.
    Status remove(int64_t id);

    // Writing (SessionRecorder, import) ---------------------------------------------
    /// Creates a 'running' run owned by this process.
    Result<int64_t> begin(const NewRun& run);
    /// Appends intervals (an interval already stored is replaced).
    Status appendIntervals(int64_t runId, const std::vector<IntervalRecord>& intervals);
    /// Writes the summary, histograms and status codes; sets the final status.
    Status finish(int64_t runId, const FinishedRun& finished);
    /// Stores a run's target metrics (--scrape), replacing any stored before. Nothing for an empty record.
    Status saveScrape(int64_t runId, const ScrapeRecord& record);
    /// A run's target metrics: empty (no endpoints) when it scraped none, or for runs of older files.
    Result<ScrapeRecord> scrapeOf(int64_t runId);
    /// Records a run that never started, with the reason.
    Result<int64_t> addFailed(const NewRun& run, const std::string& error);
    Result<int64_t> addImported(const ImportedRun& run);

private:
    friend class SessionStore;
    explicit RunRepository(SessionStore& store)
        : m_store(store)
    { }
    int64_t insertRun(const NewRun& run, const char* status);
    void writeTotals(int64_t runId, const RunTotals& totals);
    bool writeFinish(int64_t runId, const FinishedRun& finished);
    void writeHistogram(int64_t runId, const char* kind, const std::string& blob);
    void writeStatusCodes(int64_t runId, const std::vector<std::pair<int, uint64_t>>& codes);
    void writeEntries(int64_t runId, const FinishedRun& f);
    void writeLoaders(int64_t runId, const std::vector<LoaderSummary>& loaders);
    /// Rebuilds the summary of a run whose process died (SessionStore::recoverDeadRuns).
    bool recover(int64_t runId);

    SessionStore& m_store;
};

} // namespace wb
