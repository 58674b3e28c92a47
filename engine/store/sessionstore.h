#pragma once
// A session: one SQLite file (".wrkbench") of targets, load profiles, runs and experiments (schema: docs/SESSIONS.md),
// read and written through one repository per kind of record: targets(), profiles(), runs() and experiments().
// Several processes may use one file at once (WAL mode, busy timeout); one SessionStore is one connection, used from
// one thread at a time. The file is untrusted (docs/SESSIONS.md, "A session file from someone else"): open() checks it
// through a read-only connection first and never modifies a file that is not exactly a session wrkbench made, and
// every connection runs no trigger or view and is bounded in steps, memory and value sizes (store/sqldatabase.h).
// Opening for writing migrates an older schema and turns runs left 'running' by a dead process of this host into
// 'interrupted' ones; a read-only open never writes, and reads a private upgraded copy when the file needs either.

#include "common/result.h"
#include "prometheus/exposition/scraperecord.h"
#include "store/experimentrepository.h"
#include "store/profilerepository.h"
#include "store/runrepository.h"
#include "store/sessiontypes.h"
#include "store/targetrepository.h"

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

    // One repository per kind of record, each over this connection -----------------------
    TargetRepository& targets() { return m_targets; }
    ProfileRepository& profiles() { return m_profiles; }
    RunRepository& runs() { return m_runs; }
    /// A-vs-B studies, plans and capacity searches (see engine/experiment, engine/capacity).
    ExperimentRepository& experiments() { return m_experiments; }

    /// The SQLite connection, for tests and diagnostics (PRAGMA integrity_check).
    sqlite3* nativeHandle() const;
    /// The most VM steps one statement of this store has taken (what SQL_STEP_BUDGET bounds), for
    /// the measurements behind the bound.
    uint64_t heaviestStatementSteps() const;

private:
    friend class TargetRepository;
    friend class ProfileRepository;
    friend class RunRepository;
    friend class ExperimentRepository;

    SessionStore(std::string path, bool readOnly, SqlDatabase db);
    /// Runs work, turning SqlError into a Status that names the file.
    Status guarded(const std::function<void()>& work);
    std::string describe(int code, const std::string& message) const;
    Status checkWritable() const;
    void writeTags(const char* table, const char* key, int64_t id, const std::vector<std::string>& tags);
    std::vector<std::string> readTags(const char* table, const char* key, int64_t id);
    /// Deletes the runs whose `column` ("target_id", "experiment_id") is value, with what cascades.
    void deleteRunsWhere(const char* column, int64_t value);
    /// The first run still 'running' whose `column` ("id", "target_id") is value; 0 if none.
    int64_t recordingRunOf(const char* column, int64_t value);
    /// The ids of rows of table ("runs", "experiments") left 'running' by a process of this host that is gone.
    static std::vector<int64_t> deadOwnedRows(SqlDatabase& db, const char* table);
    /// Whether opening for writing would recover something (a read-only open then reads a private copy).
    static bool hasDeadOwners(SqlDatabase& db);
    std::vector<RunRecord> queryRuns(const std::string& where, const std::vector<std::string>& params);

    void releaseFileId();

    std::string m_path;
    bool m_readOnly = false;
    std::pair<uint64_t, uint64_t> m_fileId { 0, 0 }; ///< device and inode, while this store has the file open
    std::unique_ptr<SqlDatabase> m_db;
    std::vector<int64_t> m_recovered;
    int m_depth = 0; ///< nesting of guarded() calls
    TargetRepository m_targets { *this };
    ProfileRepository m_profiles { *this };
    RunRepository m_runs { *this };
    ExperimentRepository m_experiments { *this };
};

/// Checks a tag: not empty, no ',' (lists join with it), no control characters.
Status validateTag(const std::string& tag);

} // namespace wb
