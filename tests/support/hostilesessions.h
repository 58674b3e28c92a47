#pragma once
// Session files as someone else may send them: a valid session made through the store, then
// changed with SQLite's own defaults (what anyone editing the file with any SQLite tool can do),
// and the one phrase wrkbench's refusal gives for each change. Shared by the store, CLI and window
// tests (docs/SESSIONS.md, "A session file from someone else"); no binary fixtures: every hostile
// file is built by the test that uses it.

#include <cstdint>
#include <string>
#include <vector>

namespace wb::test {

/// A valid session at path: target "NEG", `runs` finished runs (tagged "base", 40 intervals each,
/// as a real run stores them: every run's req/s about 1,000), made through the store and closed.
/// Returns "" or what failed.
std::string makeSampleSession(const std::string& path, int runs = 3);

/// Runs sql on the file through a plain SQLite connection with SQLite's defaults (foreign keys
/// off, writable_schema allowed): the attacker's edit. The connection is closed afterwards, so no
/// -wal is left. Returns "" or SQLite's error.
std::string tamperSession(const std::string& path, const std::string& sql);

/// SQL that marks run runId as still being recorded by a process of this host that is gone (its
/// boot id is another): a writer that opens the file recovers it, a reader must not write.
std::string deadRunSql(int64_t runId);

/// A hostile change to a valid session and the phrase that follows the file's name in the refusal.
struct HostileSchema
{
    std::string name; ///< what it is, for test output
    std::string sql; ///< applied with tamperSession()
    std::string refusal; ///< "holds a trigger 'inflate' that wrkbench did not create"
};

/// Triggers of each kind, views in place of tables (a recursive one among them), extra tables,
/// indexes and columns, a missing index, columns of another type, default or nullability, a
/// changed constraint, a virtual table, a name made of terminal escapes.
const std::vector<HostileSchema>& hostileSchemas();

/// The whole refusal for a file: "'PATH' PHRASE: it was not opened (nothing was written)".
std::string refusalOf(const std::string& path, const std::string& phrase);

/// A digest of the file's bytes (FNV-1a, read in pieces): for files too large to hold, as a
/// child process forked meanwhile would count them in its own peak memory.
uint64_t fileDigest(const std::string& path);

/// The -wal, -shm and -journal files next to path.
std::vector<std::string> sideFiles(const std::string& path);

} // namespace wb::test
