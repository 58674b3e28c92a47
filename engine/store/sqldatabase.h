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
    SqlStatement(sqlite3* db, sqlite3_stmt* stmt)
        : m_db(db)
        , m_stmt(stmt)
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
    std::string text(int column) const;
    std::string blob(int column) const;

private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt;
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

    /// Opens path with sqlite3_open_v2 flags (SQLITE_OPEN_URI is added). Throws SqlError.
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

    /// Throws SqlError for rc with the connection's error message.
    [[noreturn]] void fail(int rc) const;

private:
    sqlite3* m_db = nullptr;
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
