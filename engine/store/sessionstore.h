#pragma once
// A session: one SQLite file (".wrkbench") of targets, load profiles, runs and experiments (schema: docs/SESSIONS.md).
// Several processes may use one file at once (WAL mode, busy timeout); one SessionStore is one connection, used from
// one thread at a time. The file is untrusted (docs/SESSIONS.md, "A session file from someone else"): open() checks it
// through a read-only connection first and never modifies a file that is not exactly a session wrkbench made, and
// every connection runs no trigger or view and is bounded in steps, memory and value sizes (store/sqldatabase.h).
// Opening for writing migrates an older schema and turns runs left 'running' by a dead process of this host into
// 'interrupted' ones; a read-only open never writes, and reads a private upgraded copy when the file needs either.

#include "common/result.h"
#include "prometheus/exposition/scraperecord.h"
#include "store/sessiontypes.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace wb {

class SqlDatabase;

struct SessionOpenOptions
{
    bool create = true; ///< create the file when it does not exist
    /// Never write: commands and screens that only read. An older schema or runs of dead processes
    /// are then upgraded in a private temporary copy (read as it was when opened), never in the file.
    bool readOnly = false;
};

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

class SessionStore
{
public:
    /// Opens (or creates) the session at path. The error names the file and the
    /// problem: not a session, empty, damaged, newer schema, cannot create.
    static Result<std::unique_ptr<SessionStore>> open(const std::string& path, SessionOpenOptions options = {});
    ~SessionStore();
    SessionStore(const SessionStore&) = delete;
    SessionStore& operator=(const SessionStore&) = delete;

    const std::string& path() const { return m_path; }
    /// True when opened read-only (asked, or the file could only be read); writes then fail with a clear error.
    bool isReadOnly() const { return m_readOnly; }
    /// Runs turned from 'running' into 'interrupted' when this store was opened (in its private copy when read-only).
    const std::vector<int64_t>& recoveredRuns() const { return m_recovered; }
    /// Turns runs of dead owners into 'interrupted' now (open() already does it once).
    Result<std::vector<int64_t>> recoverDeadRuns();

    /// Runs work in one write transaction: committed when it returns ok, else rolled back.
    /// Store calls inside it join the transaction.
    Status transaction(const std::function<Status()>& work);

    // Targets ------------------------------------------------------------------
    Result<std::vector<Target>> targets();
    Result<Target> target(int64_t id);
    /// The target of that name, or nullopt.
    Result<std::optional<Target>> targetByName(const std::string& name);
    /// Adds a target (its id is ignored); fails when the name is taken.
    Result<int64_t> addTarget(const Target& target);
    Status updateTarget(const Target& target);
    /// The id of the target named prototype.name; created from prototype when there is none.
    Result<int64_t> ensureTarget(const Target& prototype);
    /// Deletes a target; with runs, only when withRuns (which deletes them too).
    Status deleteTarget(int64_t id, bool withRuns = false);

    // Load profiles ------------------------------------------------------------
    Result<std::vector<LoadProfile>> profiles();
    Result<int64_t> addProfile(const LoadProfile& profile);
    Status updateProfile(const LoadProfile& profile);
    /// Deletes a profile; its runs keep their configuration and the profile's name.
    Status deleteProfile(int64_t id);

    // Runs: reading --------------------------------------------------------------
    /// Runs matching filter, oldest first (summary only, no series).
    Result<std::vector<RunRecord>> listRuns(const RunFilter& filter = {});
    Result<RunRecord> runRecord(int64_t id);
    /// Everything stored about one run.
    Result<RunData> loadRun(int64_t id);
    Status setRunNotes(int64_t id, const std::string& notes);
    /// What the run's wrk script printed (done() runs after the run is stored).
    Status setRunScriptOutput(int64_t id, const std::string& output);
    Status setRunTags(int64_t id, const std::vector<std::string>& tags);
    /// Adds and removes tags on every run of ids, in one transaction: a missing run
    /// changes nothing ("no run with id 13"). Tags of the runs' targets are left alone.
    Status changeRunTags(
        const std::vector<int64_t>& ids, const std::vector<std::string>& add, const std::vector<std::string>& remove);
    /// Deletes a run with its intervals, histograms and counts.
    Status deleteRun(int64_t id);

    // Runs: writing (SessionRecorder, import) --------------------------------------
    /// Creates a 'running' run owned by this process.
    Result<int64_t> beginRun(const NewRun& run);
    /// Appends intervals (an interval already stored is replaced).
    Status appendIntervals(int64_t runId, const std::vector<IntervalRecord>& intervals);
    /// Writes the summary, histograms and status codes; sets the final status.
    Status finishRun(int64_t runId, const FinishedRun& finished);
    /// Stores a run's target metrics (--scrape), replacing any stored before. Nothing for an empty record.
    Status saveScrape(int64_t runId, const ScrapeRecord& record);
    /// A run's target metrics: empty (no endpoints) when it scraped none, or for runs of older files.
    Result<ScrapeRecord> scrapeOf(int64_t runId);
    /// Records a run that never started, with the reason.
    Result<int64_t> addFailedRun(const NewRun& run, const std::string& error);
    Result<int64_t> addImportedRun(const ImportedRun& run);

    // Experiments (A-vs-B studies, see engine/experiment) --------------------------------
    /// Adds an experiment in status 'planned'; planJson is kept as given.
    Result<int64_t> addExperiment(const std::string& name, const std::string& planJson, const std::string& notes = {},
        ExperimentKind kind = ExperimentKind::Plan);
    /// Every experiment, oldest first.
    Result<std::vector<ExperimentRecord>> experiments();
    Result<ExperimentRecord> experiment(int64_t id);
    /// Marks the experiment 'running', owned by this process (so that it becomes
    /// 'interrupted' if the process dies). Fails while another live process runs it.
    Status beginExperiment(int64_t id);
    /// Ends a run of the experiment: completed, stopped or failed (error says why).
    Status finishExperiment(int64_t id, ExperimentStatus status, const std::string& error = {});
    /// Adds a study (an experiment of kind 'study', status 'completed': nothing is run) linked
    /// to its runs, each with its cell's group and variant, in one transaction.
    Result<int64_t> addStudy(
        const std::string& name, const std::string& definitionJson, const std::vector<StudyRunLink>& runs);
    /// A study's runs with the group and variant each was given, by run id.
    Result<std::vector<StudyRunLink>> studyLinks(int64_t id);
    /// Appends a trial to a capacity search (an experiment of kind 'capacity'), after those it has.
    Status addCapacityTrial(int64_t experimentId, const CapacityTrialRow& trial);
    /// The trials of a capacity search, in the order they were made.
    Result<std::vector<CapacityTrialRow>> capacityTrials(int64_t experimentId);
    /// The runs of an experiment (made for it, or linked to a study), oldest first (summary only).
    Result<std::vector<RunRecord>> experimentRuns(int64_t id);
    /// Deletes an experiment; its runs with it when withRuns, else they stay as ordinary runs.
    Status deleteExperiment(int64_t id, bool withRuns = false);

    /// The SQLite connection, for tests and diagnostics (PRAGMA integrity_check).
    sqlite3* nativeHandle() const;
    /// The most VM steps one statement of this store has taken (what SQL_STEP_BUDGET bounds), for
    /// the measurements behind the bound.
    uint64_t heaviestStatementSteps() const;

private:
    SessionStore(std::string path, bool readOnly, SqlDatabase db);
    /// Runs work, turning SqlError into a Status that names the file.
    Status guarded(const std::function<void()>& work);
    std::string describe(int code, const std::string& message) const;
    Status checkWritable() const;
    void writeTags(const char* table, const char* key, int64_t id, const std::vector<std::string>& tags);
    std::vector<std::string> readTags(const char* table, const char* key, int64_t id);
    int64_t insertRun(const NewRun& run, const char* status);
    /// Deletes the runs whose `column` ("target_id", "experiment_id") is value, with what cascades.
    void deleteRunsWhere(const char* column, int64_t value);
    /// The first run still 'running' whose `column` ("id", "target_id") is value; 0 if none.
    int64_t recordingRunOf(const char* column, int64_t value);
    void writeTotals(int64_t runId, const RunTotals& totals);
    bool writeFinish(int64_t runId, const FinishedRun& finished);
    void writeHistogram(int64_t runId, const char* kind, const std::string& blob);
    void writeStatusCodes(int64_t runId, const std::vector<std::pair<int, uint64_t>>& codes);
    void writeEntries(int64_t runId, const FinishedRun& f);
    void writeLoaders(int64_t runId, const std::vector<LoaderSummary>& loaders);
    bool recoverRun(int64_t runId);
    void recoverDeadExperiments();
    /// The ids of rows of table ("runs", "experiments") left 'running' by a process of this host that is gone.
    static std::vector<int64_t> deadOwnedRows(SqlDatabase& db, const char* table);
    /// Whether opening for writing would recover something (a read-only open then reads a private copy).
    static bool hasDeadOwners(SqlDatabase& db);
    ExperimentRecord readExperiment(int64_t id);
    std::vector<RunRecord> queryRuns(const std::string& where, const std::vector<std::string>& params);
    Target readTarget(int64_t id);

    void releaseFileId();

    std::string m_path;
    bool m_readOnly = false;
    std::pair<uint64_t, uint64_t> m_fileId { 0, 0 }; ///< device and inode, while this store has the file open
    std::unique_ptr<SqlDatabase> m_db;
    std::vector<int64_t> m_recovered;
    int m_depth = 0; ///< nesting of guarded() calls
};

/// Checks a tag: not empty, no ',' (lists join with it), no control characters.
Status validateTag(const std::string& tag);

} // namespace wb
