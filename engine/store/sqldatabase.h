#pragma once
// Thin RAII wrappers over the SQLite C API: one connection, its prepared
// statements (cached by SQL text) and transactions.
//
// Failures throw SqlError. That is deliberate and stays inside engine/store:
// a store operation is a chain of a dozen statements, any of which can fail,
// and unwinding rolls the transaction back. SessionStore catches SqlError at
// its public API and returns Status / Result with a message naming the file.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>

struct sqlite3;
struct sqlite3_stmt;

namespace wb {

// What one connection may make SQLite and wrkbench do, whatever the file holds (docs/SESSIONS.md,
// "A session file from someone else"). Every connection gets these bounds. The figures behind
// them: tests/engine/store/session_bounds_bench.cpp (bench/session-bounds.sh).

/// The VM steps one statement may take before it is stopped (SQLITE_INTERRUPT): a query that
/// never ends stops within seconds. The heaviest statement on a legitimate large session (1,000
/// runs of 600 intervals, 229 MB) takes 2.7 million (VACUUM INTO); listing its runs 0.2 million.
/// The integrity check when a file is opened, one pass over it, is bounded by its size instead.
inline constexpr uint64_t SQL_STEP_BUDGET = 100'000'000;
/// The longest text or blob a connection stores or reads (SQLITE_LIMIT_LENGTH): a 100 MiB request
/// body, the largest a run may send, is 134 MiB as base64 inside its configuration.
inline constexpr int SQL_MAX_VALUE_BYTES = 256 * 1024 * 1024;
/// The text and blob bytes one store operation may copy out of SQLite (a listing of runs, one
/// run with its intervals): many values each under SQL_MAX_VALUE_BYTES must not add up to the
/// machine's memory. A legitimate large run, 600 intervals with their histograms, is about 6 MB.
inline constexpr uint64_t SQL_MAX_READ_BYTES = 1024ULL * 1024 * 1024;
/// The longest SQL statement, a CREATE statement of a file's schema included (SQLITE_LIMIT_SQL_LENGTH).
inline constexpr int SQL_MAX_STATEMENT_BYTES = 1024 * 1024;
/// SQLite's heap, for the whole process (sqlite3_hard_heap_limit64): reading one value of the
/// largest size takes one buffer of it, storing one two (the bound copy and the record), beside
/// every connection's page cache of about 2 MB. The large session's operations peak at 4.4 MB.
inline constexpr int64_t SQL_HEAP_LIMIT_BYTES = 1024LL * 1024 * 1024;

/// What a connection has done against its bounds. SQLite calls the progress handler every few VM
/// steps; the statement being stepped is charged from where it started, so nested statements
/// (one stepped while another is between rows) are each charged their own steps.
struct SqlMeter
{
    uint64_t steps = 0; ///< since the connection opened
    uint64_t statementStart = 0; ///< steps when the statement now stepping began, less what it spent before
    uint64_t stepBudget = SQL_STEP_BUDGET;
    uint64_t heaviest = 0; ///< the most steps one statement has taken
    bool exceeded = false; ///< the last statement was stopped by the budget
    uint64_t readBytes = 0; ///< text and blob bytes copied out since startOperation()
    uint64_t readBudget = SQL_MAX_READ_BYTES;
};

class SqlError : public std::runtime_error
{
public:
    SqlError(int code, const std::string& message)
        : std::runtime_error(message)
        , m_code(code)
    { }
    /// SQLite's extended result code (SQLITE_FULL, SQLITE_READONLY, ...).
    int code() const { return m_code; }

private:
    int m_code;
};

/// A prepared statement. Binding is sequential (bind() fills parameter 1, 2, ...),
/// reading is by 0-based column. Doubles that are NaN are bound as NULL and NULL
/// reads back as NaN: "unknown" survives the round trip.
class SqlStatement
{
public:
    SqlStatement(sqlite3* db, sqlite3_stmt* stmt, SqlMeter* meter)
        : m_db(db)
        , m_stmt(stmt)
        , m_meter(meter)
    { }
    ~SqlStatement();
    SqlStatement(const SqlStatement&) = delete;
    SqlStatement& operator=(const SqlStatement&) = delete;

    SqlStatement& bind(int64_t value);
    SqlStatement& bind(uint64_t value) { return bind(static_cast<int64_t>(value)); }
    SqlStatement& bind(int value) { return bind(static_cast<int64_t>(value)); }
    SqlStatement& bind(unsigned value) { return bind(static_cast<int64_t>(value)); }
    SqlStatement& bind(bool value) { return bind(static_cast<int64_t>(value ? 1 : 0)); }
    SqlStatement& bind(double value);
    SqlStatement& bind(const std::string& text);
    SqlStatement& bind(const char* text) { return bind(std::string(text)); }
    SqlStatement& bindBlob(const std::string& bytes); ///< empty = NULL
    SqlStatement& bindNull();
    /// Binds value, or NULL when it is 0 (optional references and timestamps).
    SqlStatement& bindOrNull(int64_t value) { return value ? bind(value) : bindNull(); }

    /// Steps once: true when a row is available, false when the statement is done.
    bool step();
    /// Steps to the end (for statements that return no rows).
    void run();
    /// Rewinds and clears the bindings, ready to bind again.
    void reset();

    bool isNull(int column) const;
    int64_t int64(int column) const;
    uint64_t uint64(int column) const { return static_cast<uint64_t>(int64(column)); }
    double real(int column) const; ///< NULL reads as NaN
    /// Text and blob values count against the connection's read budget (SqlError SQLITE_TOOBIG past it).
    std::string text(int column) const;
    std::string blob(int column) const;

private:
    void chargeRead(int bytes) const;

    sqlite3* m_db;
    sqlite3_stmt* m_stmt;
    SqlMeter* m_meter;
    uint64_t m_spentSteps = 0; ///< VM steps of the current execution, counted by the connection's meter
    int m_next = 1;
};

/// One connection. Move-only; closes on destruction.
class SqlDatabase
{
public:
    SqlDatabase() = default;
    ~SqlDatabase();
    SqlDatabase(SqlDatabase&& other) noexcept;
    SqlDatabase& operator=(SqlDatabase&& other) noexcept;
    SqlDatabase(const SqlDatabase&) = delete;
    SqlDatabase& operator=(const SqlDatabase&) = delete;

    /// Opens path with sqlite3_open_v2 flags (SQLITE_OPEN_URI is added), hardened for a file that
    /// is not trusted: defensive mode, schema not trusted, no triggers, views or extensions, the
    /// bounds above. Throws SqlError.
    static SqlDatabase open(const std::string& path, int flags);

    void close();
    /// Runs one or more statements without results. Throws SqlError.
    void exec(const std::string& sql);
    /// The statement for sql, prepared once per connection and reset for reuse.
    SqlStatement& prepare(const std::string& sql);
    /// The single value of a one-row query ("PRAGMA user_version").
    int64_t queryInt(const std::string& sql);
    std::string queryText(const std::string& sql);

    /// Resets every cached statement, so that none holds a read snapshot open.
    void resetAll();

    int64_t lastInsertId() const;
    int changes() const;
    bool inTransaction() const;
    sqlite3* handle() const { return m_db; }

    /// The most VM steps one statement of this connection has taken so far (to the progress
    /// handler's granularity): what the budget is measured against.
    uint64_t heaviestStatementSteps() const;
    /// Sets this connection's bounds (SQL_STEP_BUDGET, SQL_MAX_READ_BYTES unless changed: the
    /// integrity check, tests of the bounds).
    void setBudgets(uint64_t steps, uint64_t readBytes = SQL_MAX_READ_BYTES);
    /// Starts counting the bytes read against SQL_MAX_READ_BYTES afresh: one store operation.
    void startOperation();

    /// Throws SqlError for rc with the connection's error message.
    [[noreturn]] void fail(int rc) const;

private:
    sqlite3* m_db = nullptr;
    std::unique_ptr<SqlMeter> m_meter; ///< the progress handler's state: stays put when the connection moves
    std::unordered_map<std::string, std::unique_ptr<SqlStatement>> m_statements;
};

/// A write transaction: BEGIN IMMEDIATE at the outermost level (so waiting for
/// another writer happens in the busy handler, never as a failed upgrade later),
/// a SAVEPOINT when nested. Rolls back unless commit() was called.
class SqlTransaction
{
public:
    explicit SqlTransaction(SqlDatabase& db);
    ~SqlTransaction();
    SqlTransaction(const SqlTransaction&) = delete;
    SqlTransaction& operator=(const SqlTransaction&) = delete;
    void commit();

private:
    SqlDatabase& m_db;
    bool m_nested = false;
    bool m_done = false;
};

} // namespace wb
