#include "store/sqldatabase.h"

#include "common/format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <sqlite3.h>

namespace wb {

namespace {

// SQLite calls the progress handler about every this many VM steps: the budget's granularity.
// Once per thousand steps costs nothing measurable.
constexpr int PROGRESS_PERIOD_STEPS = 1000;

[[noreturn]] void throwFor(sqlite3* db, int rc, const SqlMeter* meter)
{
    if ((rc & 0xFF) == SQLITE_INTERRUPT && meter && meter->exceeded)
        throw SqlError(rc, "stopped after " + groupedNumber(static_cast<double>(meter->stepBudget)) + " SQLite steps");
    if ((rc & 0xFF) == SQLITE_TOOBIG)
        throw SqlError(rc,
            "a value larger than " + groupedNumber(static_cast<double>(SQL_MAX_VALUE_BYTES / (1024 * 1024))) + " MiB");
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    // sqlite3_errmsg() says "not an error" once a later call succeeded; the code still knows.
    if (message.empty() || message == "not an error") message = sqlite3_errstr(rc);
    throw SqlError(rc, message);
}

int onProgress(void* context)
{
    auto* meter = static_cast<SqlMeter*>(context);
    meter->steps += PROGRESS_PERIOD_STEPS;
    if (meter->steps - meter->statementStart <= meter->stepBudget) return 0;
    meter->exceeded = true;
    return 1; // the statement ends with SQLITE_INTERRUPT
}

// Process-wide, so set once; a smaller limit someone else set stays.
void limitHeap()
{
    static std::once_flag once;
    std::call_once(once, [] {
        const sqlite3_int64 current = sqlite3_hard_heap_limit64(-1);
        if (current == 0 || current > SQL_HEAP_LIMIT_BYTES) sqlite3_hard_heap_limit64(SQL_HEAP_LIMIT_BYTES);
    });
}

// A session may come from anyone: nothing in it may run code of its own. wrkbench creates no
// trigger or view, so a connection runs none (the schema check refuses files that hold one; this
// holds even for a file changed after it was checked). Defensive mode refuses the statements that
// can corrupt a file on purpose (writable_schema and the like); an untrusted schema may use only
// functions without side effects.
void harden(sqlite3* db)
{
    for (const auto& [op, value] : { std::pair { SQLITE_DBCONFIG_DEFENSIVE, 1 },
             std::pair { SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0 }, std::pair { SQLITE_DBCONFIG_ENABLE_TRIGGER, 0 },
             std::pair { SQLITE_DBCONFIG_ENABLE_VIEW, 0 }, std::pair { SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0 } }) {
        int now = -1;
        if (const int rc = sqlite3_db_config(db, op, value, &now); rc != SQLITE_OK) throwFor(db, rc, nullptr);
        if (now != value) throw SqlError(SQLITE_MISUSE, "SQLite did not take a protective setting");
    }
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, SQL_MAX_VALUE_BYTES);
    // Every statement wrkbench prepares, and every CREATE statement of its schema, is a few KB;
    // a file's schema is parsed when it is first read, so this bounds that work too.
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, SQL_MAX_STATEMENT_BYTES);
}

} // namespace

SqlStatement::~SqlStatement()
{
    sqlite3_finalize(m_stmt);
}

SqlStatement& SqlStatement::bind(int64_t value)
{
    if (const int rc = sqlite3_bind_int64(m_stmt, m_next++, value); rc != SQLITE_OK) throwFor(m_db, rc, m_meter);
    return *this;
}

SqlStatement& SqlStatement::bind(double value)
{
    if (std::isnan(value)) return bindNull();
    if (const int rc = sqlite3_bind_double(m_stmt, m_next++, value); rc != SQLITE_OK) throwFor(m_db, rc, m_meter);
    return *this;
}

SqlStatement& SqlStatement::bind(const std::string& text)
{
    const int rc = sqlite3_bind_text64(m_stmt, m_next++, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    if (rc != SQLITE_OK) throwFor(m_db, rc, m_meter);
    return *this;
}

SqlStatement& SqlStatement::bindBlob(const std::string& bytes)
{
    if (bytes.empty()) return bindNull();
    if (const int rc = sqlite3_bind_blob64(m_stmt, m_next++, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
        rc != SQLITE_OK)
        throwFor(m_db, rc, m_meter);
    return *this;
}

SqlStatement& SqlStatement::bindNull()
{
    if (const int rc = sqlite3_bind_null(m_stmt, m_next++); rc != SQLITE_OK) throwFor(m_db, rc, m_meter);
    return *this;
}

bool SqlStatement::step()
{
    // The budget is per execution of the statement, all its rows together.
    if (!sqlite3_stmt_busy(m_stmt)) m_spentSteps = 0;
    m_meter->statementStart = m_meter->steps - m_spentSteps;
    m_meter->exceeded = false;
    const int rc = sqlite3_step(m_stmt);
    m_spentSteps = m_meter->steps - m_meter->statementStart;
    m_meter->heaviest = std::max(m_meter->heaviest, m_spentSteps);
    if (rc == SQLITE_ROW) return true;
    // Reset at once: a finished statement must not keep a read snapshot open
    // (that would stop the WAL from being checkpointed while the GUI idles).
    sqlite3_reset(m_stmt);
    if (rc == SQLITE_DONE) return false;
    throwFor(m_db, rc, m_meter);
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

void SqlStatement::chargeRead(int bytes) const
{
    m_meter->readBytes += static_cast<uint64_t>(bytes);
    if (m_meter->readBytes > m_meter->readBudget)
        throw SqlError(SQLITE_TOOBIG,
            "more than " + groupedNumber(static_cast<double>(m_meter->readBudget / (1024 * 1024)))
                + " MiB for one operation");
}

std::string SqlStatement::text(int column) const
{
    const auto* p = sqlite3_column_text(m_stmt, column);
    const int n = sqlite3_column_bytes(m_stmt, column);
    chargeRead(n);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}

std::string SqlStatement::blob(int column) const
{
    const void* p = sqlite3_column_blob(m_stmt, column);
    const int n = sqlite3_column_bytes(m_stmt, column);
    chargeRead(n);
    return p ? std::string(static_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}

SqlDatabase::~SqlDatabase()
{
    close();
}

SqlDatabase::SqlDatabase(SqlDatabase&& other) noexcept
    : m_db(other.m_db)
    , m_meter(std::move(other.m_meter))
    , m_statements(std::move(other.m_statements))
{
    other.m_db = nullptr;
}

SqlDatabase& SqlDatabase::operator=(SqlDatabase&& other) noexcept
{
    if (this != &other) {
        close();
        m_db = other.m_db;
        m_meter = std::move(other.m_meter);
        m_statements = std::move(other.m_statements);
        other.m_db = nullptr;
    }
    return *this;
}

SqlDatabase SqlDatabase::open(const std::string& path, int flags)
{
    limitHeap();
    SqlDatabase db;
    const int rc = sqlite3_open_v2(path.c_str(), &db.m_db, flags | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) throwFor(db.m_db, rc, nullptr);
    sqlite3_extended_result_codes(db.m_db, 1);
    harden(db.m_db);
    db.m_meter = std::make_unique<SqlMeter>();
    sqlite3_progress_handler(db.m_db, PROGRESS_PERIOD_STEPS, onProgress, db.m_meter.get());
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
    m_meter->statementStart = m_meter->steps; // the statements of one exec() share one budget
    m_meter->exceeded = false;
    const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message);
    m_meter->heaviest = std::max(m_meter->heaviest, m_meter->steps - m_meter->statementStart);
    if (rc != SQLITE_OK) {
        if ((rc & 0xFF) == SQLITE_INTERRUPT && m_meter->exceeded) {
            sqlite3_free(message);
            throwFor(m_db, rc, m_meter.get());
        }
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
        if (rc != SQLITE_OK) throwFor(m_db, rc, m_meter.get());
        it = m_statements.emplace(sql, std::make_unique<SqlStatement>(m_db, stmt, m_meter.get())).first;
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
    throwFor(m_db, rc, m_meter.get());
}

uint64_t SqlDatabase::heaviestStatementSteps() const
{
    return m_meter ? m_meter->heaviest : 0;
}

void SqlDatabase::setBudgets(uint64_t steps, uint64_t readBytes)
{
    m_meter->stepBudget = steps;
    m_meter->readBudget = readBytes;
}

void SqlDatabase::startOperation()
{
    m_meter->readBytes = 0;
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
