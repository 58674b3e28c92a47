#include "store/sqldatabase.h"

#include <cmath>
#include <limits>
#include <sqlite3.h>

namespace wb {

namespace {

[[noreturn]] void throwFor(sqlite3* db, int rc)
{
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    // sqlite3_errmsg() says "not an error" once a later call succeeded; the code still knows.
    if (message.empty() || message == "not an error") message = sqlite3_errstr(rc);
    throw SqlError(rc, message);
}

} // namespace

SqlStatement::~SqlStatement()
{
    sqlite3_finalize(m_stmt);
}

SqlStatement& SqlStatement::bind(int64_t value)
{
    if (const int rc = sqlite3_bind_int64(m_stmt, m_next++, value); rc != SQLITE_OK) throwFor(m_db, rc);
    return *this;
}

SqlStatement& SqlStatement::bind(double value)
{
    if (std::isnan(value)) return bindNull();
    if (const int rc = sqlite3_bind_double(m_stmt, m_next++, value); rc != SQLITE_OK) throwFor(m_db, rc);
    return *this;
}

SqlStatement& SqlStatement::bind(const std::string& text)
{
    const int rc = sqlite3_bind_text64(m_stmt, m_next++, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    if (rc != SQLITE_OK) throwFor(m_db, rc);
    return *this;
}

SqlStatement& SqlStatement::bindBlob(const std::string& bytes)
{
    if (bytes.empty()) return bindNull();
    if (const int rc = sqlite3_bind_blob64(m_stmt, m_next++, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
        rc != SQLITE_OK)
        throwFor(m_db, rc);
    return *this;
}

SqlStatement& SqlStatement::bindNull()
{
    if (const int rc = sqlite3_bind_null(m_stmt, m_next++); rc != SQLITE_OK) throwFor(m_db, rc);
    return *this;
}

bool SqlStatement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    // Reset at once: a finished statement must not keep a read snapshot open
    // (that would stop the WAL from being checkpointed while the GUI idles).
    sqlite3_reset(m_stmt);
    if (rc == SQLITE_DONE) return false;
    throwFor(m_db, rc);
}

void SqlStatement::run()
{
    while (step()) { }
}

void SqlStatement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
    m_next = 1;
}

bool SqlStatement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

int64_t SqlStatement::int64(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double SqlStatement::real(int column) const
{
    if (isNull(column)) return std::numeric_limits<double>::quiet_NaN();
    return sqlite3_column_double(m_stmt, column);
}

std::string SqlStatement::text(int column) const
{
    const auto* p = sqlite3_column_text(m_stmt, column);
    const int n = sqlite3_column_bytes(m_stmt, column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}

std::string SqlStatement::blob(int column) const
{
    const void* p = sqlite3_column_blob(m_stmt, column);
    const int n = sqlite3_column_bytes(m_stmt, column);
    return p ? std::string(static_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}

SqlDatabase::~SqlDatabase()
{
    close();
}

SqlDatabase::SqlDatabase(SqlDatabase&& other) noexcept
    : m_db(other.m_db)
    , m_statements(std::move(other.m_statements))
{
    other.m_db = nullptr;
}

SqlDatabase& SqlDatabase::operator=(SqlDatabase&& other) noexcept
{
    if (this != &other) {
        close();
        m_db = other.m_db;
        m_statements = std::move(other.m_statements);
        other.m_db = nullptr;
    }
    return *this;
}

SqlDatabase SqlDatabase::open(const std::string& path, int flags)
{
    SqlDatabase db;
    const int rc = sqlite3_open_v2(path.c_str(), &db.m_db, flags | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) throwFor(db.m_db, rc);
    sqlite3_extended_result_codes(db.m_db, 1);
    return db;
}

void SqlDatabase::close()
{
    m_statements.clear(); // finalize before close, or sqlite3_close() refuses
    if (m_db) sqlite3_close(m_db);
    m_db = nullptr;
}

void SqlDatabase::exec(const std::string& sql)
{
    char* message = nullptr;
    const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        const std::string text = message ? message : sqlite3_errstr(rc);
        sqlite3_free(message);
        throw SqlError(sqlite3_extended_errcode(m_db), text);
    }
}

SqlStatement& SqlDatabase::prepare(const std::string& sql)
{
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        sqlite3_stmt* stmt = nullptr;
        const int rc = sqlite3_prepare_v3(
            m_db, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
        if (rc != SQLITE_OK) throwFor(m_db, rc);
        it = m_statements.emplace(sql, std::make_unique<SqlStatement>(m_db, stmt)).first;
    }
    it->second->reset();
    return *it->second;
}

int64_t SqlDatabase::queryInt(const std::string& sql)
{
    SqlStatement& q = prepare(sql);
    const int64_t value = q.step() ? q.int64(0) : 0;
    q.reset();
    return value;
}

std::string SqlDatabase::queryText(const std::string& sql)
{
    SqlStatement& q = prepare(sql);
    std::string value = q.step() ? q.text(0) : std::string();
    q.reset();
    return value;
}

void SqlDatabase::resetAll()
{
    for (auto& [sql, statement] : m_statements)
        statement->reset();
}

int64_t SqlDatabase::lastInsertId() const
{
    return sqlite3_last_insert_rowid(m_db);
}

int SqlDatabase::changes() const
{
    return sqlite3_changes(m_db);
}

bool SqlDatabase::inTransaction() const
{
    return sqlite3_get_autocommit(m_db) == 0;
}

void SqlDatabase::fail(int rc) const
{
    throwFor(m_db, rc);
}

SqlTransaction::SqlTransaction(SqlDatabase& db)
    : m_db(db)
    , m_nested(db.inTransaction())
{
    m_db.exec(m_nested ? "SAVEPOINT nested" : "BEGIN IMMEDIATE");
}

SqlTransaction::~SqlTransaction()
{
    if (m_done) return;
    try {
        if (m_nested)
            m_db.exec("ROLLBACK TO nested; RELEASE nested");
        else if (m_db.inTransaction()) // SQLite may already have rolled back (SQLITE_FULL, ...)
            m_db.exec("ROLLBACK");
    } catch (const SqlError&) {
        // Nothing more to do: the connection reports the original error.
    }
}

void SqlTransaction::commit()
{
    m_db.exec(m_nested ? "RELEASE nested" : "COMMIT");
    m_done = true;
}

} // namespace wb
