// A session file from someone else: every change to a valid session's schema (triggers of each
// kind, views in place of tables, recursive ones, extra tables, indexes and columns, columns of
// another type) is refused with one line and the file left byte for byte as it was; older files
// are checked against their own version; reading never writes; what changes the file while it is
// open runs nothing; a query cannot outrun its step budget, nor a value its size bound.

#include "hostilesessions.h"
#include "store/schema.h"
#include "store/sessionstore.h"
#include "store/sqldatabase.h"
#include "store/sqlfailure.h"
#include "testsupport.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace wb;

namespace {

SessionOpenOptions readOnly()
{
    SessionOpenOptions options;
    options.create = false;
    options.readOnly = true;
    return options;
}

std::string openError(const std::string& path, SessionOpenOptions options = {})
{
    auto store = SessionStore::open(path, options);
    return store ? std::string("opened") : store.error();
}

std::string fixture(const std::string& name)
{
    return test::sourceDir() + "/tests/engine/store/fixtures/" + name;
}

class HostileSession : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_template = m_dir.file("template.wrkbench");
        ASSERT_EQ(test::makeSampleSession(m_template), "");
        ASSERT_TRUE(test::sideFiles(m_template).empty());
    }

    // A fresh copy of the valid session, changed by sql.
    std::string hostile(const std::string& name, const std::string& sql)
    {
        const std::string path = m_dir.file(name);
        std::filesystem::copy_file(m_template, path, std::filesystem::copy_options::overwrite_existing);
        const std::string error = test::tamperSession(path, sql);
        EXPECT_EQ(error, "") << sql;
        return path;
    }

    test::TempDir m_dir;
    std::string m_template;
};

} // namespace

TEST_F(HostileSession, EveryChangeToTheSchemaIsRefusedUntouched)
{
    int i = 0;
    for (const test::HostileSchema& c : test::hostileSchemas()) {
        SCOPED_TRACE(c.name);
        const std::string path = hostile("h" + std::to_string(i++) + ".wrkbench", c.sql);
        const std::string before = test::readFile(path);
        // For writing (a run, the window) and for reading (a listing): refused alike, nothing written.
        EXPECT_EQ(openError(path), test::refusalOf(path, c.refusal));
        EXPECT_EQ(openError(path, readOnly()), test::refusalOf(path, c.refusal));
        EXPECT_EQ(test::readFile(path), before);
        EXPECT_TRUE(test::sideFiles(path).empty());
    }
}

TEST_F(HostileSession, AnOlderSessionIsCheckedAgainstItsOwnSchema)
{
    const std::string source = fixture("session-v10.wrkbench");
    ASSERT_TRUE(std::filesystem::exists(source)) << source;
    // A version 10 file holds no scrape tables (version 14 made them): one here was not made by wrkbench.
    const std::string early = m_dir.file("early.wrkbench");
    std::filesystem::copy_file(source, early);
    ASSERT_EQ(test::tamperSession(early, "CREATE TABLE scrape_samples (run_id INTEGER);"), "");
    const std::string before = test::readFile(early);
    EXPECT_EQ(openError(early), test::refusalOf(early, "holds a table 'scrape_samples' that wrkbench did not create"));
    EXPECT_EQ(test::readFile(early), before);

    const std::string trigger = m_dir.file("trigger.wrkbench");
    std::filesystem::copy_file(source, trigger);
    ASSERT_EQ(test::tamperSession(trigger, "CREATE TRIGGER t AFTER UPDATE ON runs BEGIN DELETE FROM runs; END;"), "");
    EXPECT_EQ(
        openError(trigger, readOnly()), test::refusalOf(trigger, "holds a trigger 't' that wrkbench did not create"));

    // As wrkbench made it: read without being migrated, then migrated by a writer, then checked at 15.
    const std::string plain = m_dir.file("plain.wrkbench");
    std::filesystem::copy_file(source, plain);
    const std::string original = test::readFile(plain);
    {
        auto store = SessionStore::open(plain, readOnly());
        ASSERT_TRUE(store.ok()) << store.error();
        auto runs = (*store)->runs().list();
        ASSERT_TRUE(runs.ok()) << runs.error();
        EXPECT_FALSE(runs->empty());
        EXPECT_TRUE((*store)->isReadOnly());
    }
    EXPECT_EQ(test::readFile(plain), original) << "a reader does not migrate the file";
    EXPECT_TRUE(test::sideFiles(plain).empty());
    ASSERT_EQ(openError(plain), "opened");
    ASSERT_EQ(openError(plain, readOnly()), "opened");
    auto store = SessionStore::open(plain, readOnly());
    ASSERT_TRUE(store.ok());
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2((*store)->nativeHandle(), "PRAGMA user_version", -1, &stmt, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(stmt, 0), SCHEMA_VERSION);
    sqlite3_finalize(stmt);
}

TEST_F(HostileSession, ReadingWritesNothingAndLeavesNoFilesBehind)
{
    const std::string path = hostile("s.wrkbench", "");
    const std::string before = test::readFile(path);
    {
        auto store = SessionStore::open(path, readOnly());
        ASSERT_TRUE(store.ok()) << store.error();
        auto runs = (*store)->runs().list();
        ASSERT_TRUE(runs.ok()) << runs.error();
        ASSERT_EQ(runs->size(), 3u);
        auto run = (*store)->runs().load(runs->front().id);
        ASSERT_TRUE(run.ok()) << run.error();
        EXPECT_EQ(run->intervals.size(), 40u);
        EXPECT_FALSE((*store)->runs().setNotes(runs->front().id, "n").ok());
    }
    EXPECT_EQ(test::readFile(path), before);
    EXPECT_TRUE(test::sideFiles(path).empty()) << "no -wal/-shm of a reader next to someone's file";
}

// SQLite's integrity report spans lines, and its message for a schema that does not parse quotes
// the file's SQL: the refusal is one printable line all the same.
TEST_F(HostileSession, DamageIsReportedOnOnePrintableLine)
{
    const std::string damaged = hostile("damaged.wrkbench", "");
    std::string bytes = test::readFile(damaged);
    ASSERT_GT(bytes.size(), 8192u);
    bytes.replace(4096, 16, std::string(16, '\xff')); // page 2's header
    test::writeFile(damaged, bytes);
    const std::string garbled = hostile("garbled.wrkbench",
        "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE TABLE runs (id INTEGER PRIMARY KEY, "
        "`x' || char(254, 10, 27) || '[2J' || char(10) || 'more' WHERE name = 'runs'; PRAGMA writable_schema = OFF;");
    const std::string garbledBytes = test::readFile(garbled);
    for (const SessionOpenOptions& options : { readOnly(), SessionOpenOptions {} }) {
        for (const std::string& path : { damaged, garbled }) {
            const std::string error = openError(path, options);
            EXPECT_TRUE(error.starts_with("'" + path + "' is damaged: ")) << error;
            for (const char c : error)
                EXPECT_TRUE(c >= 0x20 && c < 0x7f)
                    << "a byte " << int(static_cast<unsigned char>(c)) << " in " << error;
            EXPECT_EQ(error.find("***"), std::string::npos) << error;
        }
    }
    EXPECT_NE(openError(garbled).find("\\x1b[2J"), std::string::npos)
        << "the escape shown, not sent: " << openError(garbled);
    EXPECT_EQ(test::readFile(damaged), bytes);
    EXPECT_EQ(test::readFile(garbled), garbledBytes);
    EXPECT_TRUE(test::sideFiles(damaged).empty());
    EXPECT_TRUE(test::sideFiles(garbled).empty());
}

// A run left 'running' by a process that is gone reads as interrupted, its summary folded from its
// intervals, as a writer would store it; but only a writer stores it.
TEST_F(HostileSession, AReaderSeesARunOfADeadProcessInterruptedWithoutWritingIt)
{
    const std::string path = hostile("dead.wrkbench", test::deadRunSql(2));
    const std::string before = test::readFile(path);
    RunRecord seen;
    {
        auto store = SessionStore::open(path, readOnly());
        ASSERT_TRUE(store.ok()) << store.error();
        EXPECT_EQ((*store)->recoveredRuns(), std::vector<int64_t> { 2 });
        auto run = (*store)->runs().record(2);
        ASSERT_TRUE(run.ok()) << run.error();
        seen = *run;
        EXPECT_EQ(seen.status, RunStatus::Interrupted);
        EXPECT_TRUE(seen.hasTotals);
        EXPECT_EQ(seen.totals.requests, 40u * 500);
        EXPECT_FALSE((*store)->runs().setNotes(2, "n").ok()) << "still read-only";
    }
    EXPECT_EQ(test::readFile(path), before);
    EXPECT_TRUE(test::sideFiles(path).empty());

    auto writer = SessionStore::open(path);
    ASSERT_TRUE(writer.ok()) << writer.error();
    EXPECT_EQ((*writer)->recoveredRuns(), std::vector<int64_t> { 2 });
    auto stored = (*writer)->runs().record(2);
    ASSERT_TRUE(stored.ok());
    EXPECT_EQ(stored->status, RunStatus::Interrupted);
    EXPECT_EQ(stored->totals.requests, seen.totals.requests);
    EXPECT_DOUBLE_EQ(stored->totals.requestsPerS, seen.totals.requestsPerS);
}

// Changed after it was checked (another process, while this one has it open): the connection
// runs no trigger and reads no view, whatever the file holds now.
TEST_F(HostileSession, ATriggerAddedWhileTheSessionIsOpenNeverRuns)
{
    const std::string path = hostile("open.wrkbench", "");
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    for (const test::HostileSchema& c : test::hostileSchemas()) {
        if (c.name.starts_with("a trigger after update")) {
            ASSERT_EQ(test::tamperSession(path, c.sql), "") << c.name;
        }
    }
    ASSERT_TRUE((*store)->runs().setNotes(1, "checked").ok());
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 3u) << "the trigger that deletes the other runs did not run";
    const double rps = runs->front().totals.requestsPerS;
    RunResult result;
    result.config = runs->front().config;
    result.durationS = 1;
    result.requests = 1000;
    FinishedRun finished = FinishedRun::of(result, 1'764'653'500'000);
    NewRun again;
    again.targetId = runs->front().targetId;
    again.config = runs->front().config;
    auto id = (*store)->runs().begin(again);
    ASSERT_TRUE(id.ok()) << id.error();
    ASSERT_TRUE((*store)->runs().finish(*id, finished).ok());
    auto back = (*store)->runs().record(*id);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_DOUBLE_EQ(back->totals.requestsPerS, finished.totals.requestsPerS) << "stored as it was measured";
    EXPECT_DOUBLE_EQ((*store)->runs().record(1)->totals.requestsPerS, rps);
}

TEST_F(HostileSession, AViewPutInPlaceWhileTheSessionIsOpenIsNotRead)
{
    const std::string path = hostile("view.wrkbench", "");
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    for (const test::HostileSchema& c : test::hostileSchemas()) {
        if (c.name == "a recursive view in place of the run tags a listing concatenates") {
            ASSERT_EQ(test::tamperSession(path, c.sql), "") << c.name;
        }
    }
    auto runs = (*store)->runs().list(); // a view that never ends: not run, an error instead
    ASSERT_FALSE(runs.ok());
    EXPECT_TRUE(runs.error().starts_with("'" + path + "': ")) << runs.error();
}

// A value past SQL_MAX_VALUE_BYTES is never read into memory: the listing says so instead.
TEST_F(HostileSession, AValueLargerThanTheBoundIsNotRead)
{
    const std::string path = hostile("large.wrkbench", "");
    // Made by the sqlite3 program: this process keeps SQLite's heap bound, the attacker does not.
    const auto made = test::runProcess(
        { "sqlite3", path, "UPDATE runs SET config = printf('%.*c', 300000000, 'x') WHERE id = 2;" }, 120'000);
    ASSERT_EQ(made.exitCode, 0) << made.err;
    for (const SessionOpenOptions& options : { readOnly(), SessionOpenOptions {} }) {
        auto store = SessionStore::open(path, options);
        ASSERT_TRUE(store.ok()) << store.error();
        auto runs = (*store)->runs().list();
        ASSERT_FALSE(runs.ok());
        EXPECT_EQ(runs.error(), "'" + path + "' holds more than wrkbench reads or writes: a value larger than 256 MiB");
        EXPECT_TRUE((*store)->runs().record(1).ok()) << "the other runs still read";
    }
}

TEST(SqlBounds, AnEndlessQueryIsStoppedByTheStepBudget)
{
    SqlDatabase db = SqlDatabase::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    const std::string endless
        = "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT count(*) FROM forever";
    try {
        db.queryInt(endless);
        FAIL() << "the query ended";
    } catch (const SqlError& e) {
        EXPECT_EQ(e.code() & 0xFF, SQLITE_INTERRUPT);
        EXPECT_STREQ(e.what(), "stopped after 100,000,000 SQLite steps");
        EXPECT_EQ(describeSqlFailure("x.wrkbench", e.code(), e.what()),
            "'x.wrkbench' made a query run too long (stopped after 100,000,000 SQLite steps)");
    }
    EXPECT_EQ(db.queryInt("SELECT 6 * 7"), 42) << "the connection is usable afterwards";
}

// A statement is charged its own steps, not those of statements run between its rows.
TEST(SqlBounds, NestedStatementsAreEachChargedTheirOwnSteps)
{
    SqlDatabase db = SqlDatabase::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    db.exec(
        "CREATE TABLE t (x INTEGER); WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 2000) "
        "INSERT INTO t SELECT n FROM c");
    const uint64_t oneScan = [&] {
        db.queryInt("SELECT sum(x) FROM t");
        return db.heaviestStatementSteps();
    }();
    ASSERT_GT(oneScan, 0u);
    db.setBudgets(oneScan * 4);
    uint64_t rows = 0;
    SqlStatement& outer = db.prepare("SELECT x FROM t");
    while (outer.step()) {
        ++rows;
        if (rows % 100 == 0) {
            EXPECT_EQ(db.queryInt("SELECT count(*) FROM t WHERE x > 0"), 2000);
        }
    }
    EXPECT_EQ(rows, 2000u) << "twenty scans ran between its rows, each within the budget, and so did it";
}

TEST(SqlBounds, OneOperationReadsAtMostItsBudgetOfBytes)
{
    SqlDatabase db = SqlDatabase::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    db.exec("CREATE TABLE t (b BLOB); INSERT INTO t VALUES (zeroblob(600000)), (zeroblob(600000))");
    db.setBudgets(SQL_STEP_BUDGET, 1024 * 1024);
    SqlStatement& q = db.prepare("SELECT b FROM t");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.blob(0).size(), 600000u);
    ASSERT_TRUE(q.step());
    try {
        q.blob(0);
        FAIL() << "read past the budget";
    } catch (const SqlError& e) {
        EXPECT_EQ(e.code() & 0xFF, SQLITE_TOOBIG);
        EXPECT_STREQ(e.what(), "more than 1 MiB for one operation");
    }
    q.reset();
    db.startOperation();
    ASSERT_TRUE(db.prepare("SELECT b FROM t").step()) << "the next operation starts afresh";
}

TEST(SqlBounds, EveryConnectionIsHardened)
{
    SqlDatabase db = SqlDatabase::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    for (const auto& [op, value] : { std::pair { SQLITE_DBCONFIG_DEFENSIVE, 1 },
             std::pair { SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0 }, std::pair { SQLITE_DBCONFIG_ENABLE_TRIGGER, 0 },
             std::pair { SQLITE_DBCONFIG_ENABLE_VIEW, 0 }, std::pair { SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0 } }) {
        int now = -1;
        ASSERT_EQ(sqlite3_db_config(db.handle(), op, -1, &now), SQLITE_OK);
        EXPECT_EQ(now, value) << op;
    }
    EXPECT_EQ(sqlite3_limit(db.handle(), SQLITE_LIMIT_LENGTH, -1), SQL_MAX_VALUE_BYTES);
    EXPECT_EQ(sqlite3_hard_heap_limit64(-1), SQL_HEAP_LIMIT_BYTES);
    EXPECT_THROW(db.exec("PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = ''"), SqlError);
    EXPECT_EQ(describeSqlFailure("x.wrkbench", SQLITE_NOMEM, "out of memory"),
        "'x.wrkbench' made SQLite reach its memory bound (1024 MiB): out of memory");
}
