// Opening session files: new files get the schema; files that are not
// sessions, are damaged or come from a newer wrkbench are refused with a clear
// message and left byte for byte as they were; read-only files can be read.

#include "store/schema.h"
#include "store/sessionstore.h"
#include "store/sqldatabase.h"
#include "storetestutil.h"
#include "testsupport.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <thread>

using namespace wb;
using namespace wb::storetest;

namespace {

std::string openError(const std::string& path, SessionOpenOptions options = {})
{
    auto store = SessionStore::open(path, options);
    return store ? std::string("opened") : store.error();
}

// A plain SQLite database made with the C API (not through the store).
void makeSqliteFile(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
}

std::vector<std::string> sideFiles(const std::string& path)
{
    std::vector<std::string> out;
    for (const char* suffix : { "-wal", "-shm", "-journal" })
        if (std::filesystem::exists(path + suffix)) out.push_back(path + suffix);
    return out;
}

// A session with one finished run, closed again.
void makeSession(const std::string& path)
{
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    NewRun run;
    run.targetId = addSampleTarget(**store);
    run.config = sampleConfig();
    auto id = (*store)->runs().begin(run);
    ASSERT_TRUE(id.ok()) << id.error();
    std::vector<IntervalRecord> intervals;
    for (uint32_t i = 0; i < 40; ++i)
        intervals.push_back(IntervalRecord::of(sampleSnapshot(i, 1000 + i * 10, 500)));
    ASSERT_TRUE((*store)->runs().appendIntervals(*id, intervals).ok());
}

} // namespace

TEST(SessionOpen, NewFileGetsSchemaApplicationIdAndWal)
{
    test::TempDir dir;
    const std::string path = dir.file("lab.wrkbench");
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_FALSE((*store)->isReadOnly());
    EXPECT_EQ(sqlText(**store, "PRAGMA user_version"), std::to_string(SCHEMA_VERSION));
    EXPECT_EQ(sqlText(**store, "PRAGMA application_id"), std::to_string(SESSION_APPLICATION_ID));
    EXPECT_EQ(sqlText(**store, "PRAGMA journal_mode"), "wal");
    EXPECT_EQ(sqlText(**store, "PRAGMA foreign_keys"), "1");
    for (const char* table : { "targets", "target_tags", "profiles", "runs", "run_tags", "intervals", "histograms",
             "status_counts", "percentiles" })
        EXPECT_EQ(sqlText(**store, std::string("SELECT count(*) FROM sqlite_schema WHERE name = '") + table + "'"), "1")
            << table;
    // No leftovers of the atomic creation.
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        EXPECT_TRUE(entry.path().filename().string().starts_with("lab.wrkbench")) << entry.path();
}

TEST(SessionOpen, ReopenKeepsData)
{
    test::TempDir dir;
    const std::string path = dir.file("s.wrkbench");
    makeSession(path);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ(sqlText(**store, "SELECT count(*) FROM intervals"), "40");
}

TEST(SessionOpen, MissingFileWithoutCreateIsAnError)
{
    test::TempDir dir;
    const std::string path = dir.file("nope.wrkbench");
    EXPECT_EQ(openError(path, openOptions(false, false)), "'" + path + "' does not exist");
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(SessionOpen, GarbageEmptyAndForeignFilesAreRefusedUntouched)
{
    test::TempDir dir;
    struct Case
    {
        std::string name;
        std::string content;
        std::string expected;
    };
    std::string binary(5000, '\0');
    for (size_t i = 0; i < binary.size(); ++i)
        binary[i] = static_cast<char>((i * 7919) & 0xFF);
    const std::vector<Case> cases = {
        { "notes.txt", "Running 30s test @ http://localhost:8080\n  12 threads and 400 connections\n",
            "is not a wrkbench session (not an SQLite database)" },
        { "empty.wrkbench", "", "is empty: not a wrkbench session" },
        { "short.wrkbench", "SQLite format 3", "is not a wrkbench session (not an SQLite database)" },
        { "random.bin", binary, "is not a wrkbench session (not an SQLite database)" },
    };
    for (const Case& c : cases) {
        const std::string path = dir.file(c.name);
        test::writeFile(path, c.content);
        const std::string error = openError(path);
        EXPECT_EQ(error, "'" + path + "' " + c.expected) << c.name;
        EXPECT_EQ(test::readFile(path), c.content) << c.name;
        EXPECT_TRUE(sideFiles(path).empty()) << c.name;
    }

    const std::string other = dir.file("other.db");
    makeSqliteFile(other, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
    const std::string before = test::readFile(other);
    EXPECT_EQ(openError(other), "'" + other + "' is an SQLite database but not a wrkbench session");
    EXPECT_EQ(test::readFile(other), before);
    EXPECT_TRUE(sideFiles(other).empty());
}

TEST(SessionOpen, NewerSchemaIsRefusedUntouched)
{
    test::TempDir dir;
    const std::string path = dir.file("future.wrkbench");
    makeSession(path);
    makeSqliteFile(path, "PRAGMA user_version = " + std::to_string(SCHEMA_VERSION + 6));
    const std::string before = test::readFile(path);
    EXPECT_EQ(openError(path),
        "'" + path + "' was written by a newer wrkbench (schema " + std::to_string(SCHEMA_VERSION + 6)
            + ", this version understands " + std::to_string(SCHEMA_VERSION) + "); it was left unchanged");
    EXPECT_EQ(test::readFile(path), before);
    EXPECT_EQ(openError(path, openOptions(true, true)).find("newer wrkbench") != std::string::npos, true);
    EXPECT_EQ(test::readFile(path), before);
}

TEST(SessionOpen, TruncatedFileIsRefusedUntouched)
{
    test::TempDir dir;
    const std::string path = dir.file("cut.wrkbench");
    makeSession(path);
    const std::string whole = test::readFile(path);
    ASSERT_GT(whole.size(), 16384u);
    for (size_t keep : { whole.size() / 2, size_t { 4096 }, size_t { 200 } }) {
        test::writeFile(path, whole.substr(0, keep));
        const std::string error = openError(path);
        EXPECT_NE(error.find("'" + path + "' is damaged"), std::string::npos) << keep << ": " << error;
        EXPECT_EQ(test::readFile(path), whole.substr(0, keep));
        EXPECT_TRUE(sideFiles(path).empty());
    }
}

TEST(SessionOpen, CorruptPagesAreRefusedUntouched)
{
    test::TempDir dir;
    const std::string path = dir.file("bad.wrkbench");
    makeSession(path);
    std::string bytes = test::readFile(path);
    // Scribble over the middle pages (b-tree pages of the intervals), keeping the size.
    for (size_t i = bytes.size() / 3; i < bytes.size() * 2 / 3; i += 7)
        bytes[i] = static_cast<char>(i & 0xFF);
    test::writeFile(path, bytes);
    const std::string error = openError(path);
    EXPECT_NE(error.find("'" + path + "' is damaged"), std::string::npos) << error;
    EXPECT_EQ(test::readFile(path), bytes);
}

TEST(SessionOpen, ReadOnlyFileCanBeReadButNotWritten)
{
    test::TempDir dir;
    const std::string path = dir.file("ro.wrkbench");
    makeSession(path);
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
    const std::string before = test::readFile(path);
    {
        auto store = SessionStore::open(path);
        ASSERT_TRUE(store.ok()) << store.error();
        EXPECT_TRUE((*store)->isReadOnly());
        auto runs = (*store)->runs().list();
        ASSERT_TRUE(runs.ok()) << runs.error();
        EXPECT_EQ(runs->size(), 1u);
        Target t;
        t.name = "x";
        t.url = "http://x/";
        auto added = (*store)->targets().add(t);
        ASSERT_FALSE(added.ok());
        EXPECT_EQ(added.error(), "'" + path + "' is read-only: cannot write to it");
        EXPECT_FALSE((*store)->runs().setNotes(runs->front().id, "n").ok());
    }
    EXPECT_EQ(test::readFile(path), before);
    EXPECT_TRUE(sideFiles(path).empty()) << "no read-only -wal/-shm left for a later writer to trip over";
}

TEST(SessionOpen, ReadOnlyOptionDoesNotRecoverOrWrite)
{
    test::TempDir dir;
    const std::string path = dir.file("s.wrkbench");
    makeSession(path);
    const std::string before = test::readFile(path);
    auto store = SessionStore::open(path, openOptions(true, true));
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_TRUE((*store)->isReadOnly());
    EXPECT_FALSE((*store)->runs().remove(1).ok());
    EXPECT_EQ(test::readFile(path), before);
}

// Every schema version this program knows is reachable from 0 one step at a
// time, and an old file is migrated when opened. Fixture files of earlier
// versions go in fixtures/ (there are none before version 2); each must open
// and end at SCHEMA_VERSION with its runs intact.
TEST(SessionSchema, MigratesEveryEarlierVersion)
{
    test::TempDir dir;
    for (int from = 1; from <= SCHEMA_VERSION; ++from) {
        const std::string path = dir.file("v" + std::to_string(from) + ".wrkbench");
        {
            auto db = SqlDatabase::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
            db.exec("PRAGMA journal_mode = WAL");
            migrateSchemaTo(db, from);
            EXPECT_EQ(db.queryInt("PRAGMA user_version"), from);
        }
        auto store = SessionStore::open(path);
        ASSERT_TRUE(store.ok()) << store.error();
        EXPECT_EQ(sqlText(**store, "PRAGMA user_version"), std::to_string(SCHEMA_VERSION));
        EXPECT_EQ(sqlText(**store, "PRAGMA integrity_check"), "ok");
    }
    const std::string fixtures = test::sourceDir() + "/tests/engine/store/fixtures";
    if (!std::filesystem::exists(fixtures)) return;
    for (const auto& entry : std::filesystem::directory_iterator(fixtures)) {
        if (entry.path().extension() != ".wrkbench") continue;
        const std::string copy = dir.file(entry.path().filename().string());
        std::filesystem::copy_file(entry.path(), copy);
        auto store = SessionStore::open(copy);
        ASSERT_TRUE(store.ok()) << entry.path() << ": " << store.error();
        EXPECT_EQ(sqlText(**store, "PRAGMA user_version"), std::to_string(SCHEMA_VERSION));
        auto runs = (*store)->runs().list();
        ASSERT_TRUE(runs.ok()) << runs.error();
        EXPECT_FALSE(runs->empty()) << entry.path();
    }
}

// Version 8: a version 7 file (made by the build before studies) keeps its experiments as plans,
// and takes studies linked to its runs; deleting a run takes it out of the study, deleting the
// study leaves the runs.
TEST(SessionSchema, Version7FileTakesStudies)
{
    test::TempDir dir;
    const std::string source = test::sourceDir() + "/tests/engine/store/fixtures/session-v7.wrkbench";
    ASSERT_TRUE(std::filesystem::exists(source)) << source;
    const std::string path = dir.file("v7.wrkbench");
    std::filesystem::copy_file(source, path);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    auto experiments = (*store)->experiments().all();
    ASSERT_TRUE(experiments.ok()) << experiments.error();
    ASSERT_FALSE(experiments->empty()) << "the fixture holds an experiment";
    for (const ExperimentRecord& e : *experiments)
        EXPECT_EQ(e.kind, ExperimentKind::Plan);
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && runs->size() >= 2);

    const std::vector<StudyRunLink> links { { runs->at(0).id, "g", "a" }, { runs->at(1).id, "g", "b" } };
    auto id = (*store)->experiments().addStudy("a vs b", R"({"kind": "study"})", links);
    ASSERT_TRUE(id.ok()) << id.error();
    auto study = (*store)->experiments().get(*id);
    ASSERT_TRUE(study.ok());
    EXPECT_EQ(study->kind, ExperimentKind::Study);
    EXPECT_EQ(study->status, ExperimentStatus::Completed);
    auto stored = (*store)->experiments().studyLinks(*id);
    ASSERT_TRUE(stored.ok());
    ASSERT_EQ(stored->size(), 2u);
    EXPECT_EQ(stored->at(1).variant, "b");
    EXPECT_EQ(stored->at(1).group, "g");
    EXPECT_EQ((*store)->experiments().runs(*id)->size(), 2u);

    ASSERT_TRUE((*store)->runs().remove(runs->at(0).id).ok());
    EXPECT_EQ((*store)->experiments().studyLinks(*id)->size(), 1u);
    ASSERT_TRUE((*store)->experiments().remove(*id, true).ok());
    EXPECT_TRUE((*store)->runs().record(runs->at(1).id).ok()) << "a study's runs are not its own";
    auto bad = (*store)->experiments().addStudy("x", R"({"kind": "study"})", { { 999999, "", "a" } });
    EXPECT_FALSE(bad.ok()) << "a link to a missing run";
    EXPECT_EQ((*store)->experiments().all()->size(), experiments->size()) << "nothing of it stored";
}

// Version 17: experiments is rebuilt to take capacity searches. A version 16 file keeps every
// link to it: its plan's runs still point at their experiment, its study keeps its runs (with
// foreign keys on, dropping the old table would have nulled the one and emptied the other).
TEST(SessionSchema, Version16FileKeepsItsExperimentsLinksAndTakesCapacitySearches)
{
    test::TempDir dir;
    const std::string source = test::sourceDir() + "/tests/engine/store/fixtures/session-v7.wrkbench";
    const std::string path = dir.file("v16.wrkbench");
    std::filesystem::copy_file(source, path);
    {
        auto db = SqlDatabase::open(path, SQLITE_OPEN_READWRITE);
        db.exec("PRAGMA foreign_keys = ON");
        migrateSchemaTo(db, 16);
        EXPECT_EQ(db.queryInt("PRAGMA foreign_keys"), 1) << "restored after the migration";
        db.exec("INSERT INTO experiments (name, plan, status, created_at_ms, kind) VALUES ('s', "
                "'{\"kind\": \"study\"}', 'completed', 1, 'study')");
        db.exec("INSERT INTO study_runs (experiment_id, run_id, variant) SELECT last_insert_rowid(), id, 'a' FROM runs "
                "LIMIT 1");
    }
    const auto linked = [&path](const char* sql) {
        auto db = SqlDatabase::open(path, SQLITE_OPEN_READONLY);
        return db.queryInt(sql);
    };
    const int64_t planRuns = linked("SELECT count(*) FROM runs WHERE experiment_id IS NOT NULL");
    ASSERT_GT(planRuns, 0) << "the fixture's experiment has runs";
    ASSERT_EQ(linked("SELECT count(*) FROM study_runs"), 1);

    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(sqlText(**store, "PRAGMA user_version"), std::to_string(SCHEMA_VERSION));
    EXPECT_EQ(sqlText(**store, "PRAGMA foreign_keys"), "1");
    EXPECT_EQ(sqlText(**store, "SELECT count(*) FROM runs WHERE experiment_id IS NOT NULL"), std::to_string(planRuns));
    EXPECT_EQ(sqlText(**store, "SELECT count(*) FROM study_runs"), "1");
    EXPECT_EQ(sqlText(**store, "PRAGMA foreign_key_check"), "");
    auto experiments = (*store)->experiments().all();
    ASSERT_TRUE(experiments.ok()) << experiments.error();
    ASSERT_EQ(experiments->size(), 2u);
    EXPECT_EQ(experiments->at(0).kind, ExperimentKind::Plan);
    EXPECT_EQ(experiments->at(1).kind, ExperimentKind::Study);

    auto search = (*store)->experiments().add("c", R"({"kind": "capacity"})", {}, ExperimentKind::Capacity);
    ASSERT_TRUE(search.ok()) << search.error();
    EXPECT_EQ((*store)->experiments().get(*search)->kind, ExperimentKind::Capacity);
    EXPECT_FALSE((*store)->experiments().add("x", "{}", {}, ExperimentKind::Study).ok()) << "a study needs its runs";
}

// Version 9: a version 8 file (made by the build before distributed runs) takes a run made by
// several loaders and gives its loaders table back; its own runs have none.
TEST(SessionSchema, Version8FileTakesLoaders)
{
    test::TempDir dir;
    const std::string source = test::sourceDir() + "/tests/engine/store/fixtures/session-v8.wrkbench";
    ASSERT_TRUE(std::filesystem::exists(source)) << source;
    const std::string path = dir.file("v8.wrkbench");
    std::filesystem::copy_file(source, path);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && !runs->empty());
    EXPECT_TRUE((*store)->runs().load(runs->front().id)->loaders.empty());

    NewRun run;
    run.targetId = runs->front().targetId;
    run.config = runs->front().config;
    run.startedAtMs = 1'764'653'400'000;
    auto id = (*store)->runs().begin(run);
    ASSERT_TRUE(id.ok()) << id.error();
    FinishedRun finished;
    finished.loaders = { { 0, "pod-a", 3, 1200, 0, 600.0, 0.0, "synchronized", "completed", {} },
        { 1, "pod-b", 2, 700, 4, 350.0, 12.5, "not synchronized", "died: killed by signal 9", {} } };
    ASSERT_TRUE((*store)->runs().finish(*id, finished).ok());
    auto data = (*store)->runs().load(*id);
    ASSERT_TRUE(data.ok()) << data.error();
    ASSERT_EQ(data->loaders.size(), 2u);
    EXPECT_EQ(data->loaders[1].host, "pod-b");
    EXPECT_EQ(data->loaders[1].connections, 2u);
    EXPECT_EQ(data->loaders[1].requests, 700u);
    EXPECT_EQ(data->loaders[1].errors, 4u);
    EXPECT_DOUBLE_EQ(data->loaders[1].startOffsetMs, 12.5);
    EXPECT_EQ(data->loaders[1].state, "died: killed by signal 9");
    ASSERT_TRUE((*store)->runs().remove(*id).ok());
    EXPECT_EQ(sqlText(**store, "SELECT count(*) FROM loaders"), "0") << "a run's loaders go with it";
}

TEST(SessionSchema, TwoProcessesCreatingOneFileGetOneSession)
{
    test::TempDir dir;
    const std::string path = dir.file("race.wrkbench");
    std::vector<std::thread> threads;
    std::atomic<int> opened { 0 };
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([&] {
            auto store = SessionStore::open(path);
            if (store)
                ++opened;
            else
                ADD_FAILURE() << store.error();
        });
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(opened.load(), 4);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok());
    EXPECT_EQ(sqlText(**store, "PRAGMA integrity_check"), "ok");
}

// Version 10: a version 9 file (made by the build before --backend-from, wrkbench-cli at 37cafd3)
// keeps its runs, with no backends, and takes intervals that carry backends and the upstream split;
// they come back as written, histograms bucket for bucket.
TEST(SessionSchema, Version9FileTakesBackends)
{
    test::TempDir dir;
    const std::string source = test::sourceDir() + "/tests/engine/store/fixtures/session-v9.wrkbench";
    ASSERT_TRUE(std::filesystem::exists(source)) << source;
    const std::string path = dir.file("v9.wrkbench");
    std::filesystem::copy_file(source, path);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && runs->size() >= 2);
    auto old = (*store)->runs().load(runs->front().id);
    ASSERT_TRUE(old.ok()) << old.error();
    ASSERT_FALSE(old->intervals.empty());
    for (const IntervalRecord& r : old->intervals) {
        EXPECT_TRUE(r.backends.empty());
        EXPECT_TRUE(r.upstreamHistogram.empty());
        EXPECT_EQ(r.upstreamMissing, 0u);
    }

    NewRun run;
    run.targetId = runs->front().targetId;
    run.config = runs->front().config;
    run.config.backendFrom = *parseBackendFrom("body");
    run.config.upstreamTime = *parseUpstreamTime("header:x-envoy-upstream-service-time");
    run.startedAtMs = 1'764'653'400'000;
    auto id = (*store)->runs().begin(run);
    ASSERT_TRUE(id.ok()) << id.error();
    IntervalSnapshot s;
    s.endS = 1;
    s.requests = 12;
    const std::vector<std::string> table { "pod-a", "pod-b" };
    for (int i = 0; i < 10; ++i)
        s.backends.at(i % 2, table).record(1000 + 10 * i, i == 3, 0.1 * i);
    s.backends.unnamed = 2;
    s.upstreamTime.record(700);
    s.frontDoor.record(300);
    s.upstreamMissing = 11;
    const IntervalRecord written = IntervalRecord::of(s, 1'764'653'400'000);
    ASSERT_TRUE((*store)->runs().appendIntervals(*id, { written }).ok());
    ASSERT_TRUE((*store)->runs().finish(*id, FinishedRun {}).ok());
    auto data = (*store)->runs().load(*id);
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.config.backendFrom, run.config.backendFrom);
    EXPECT_EQ(data->run.config.upstreamTime, run.config.upstreamTime);
    ASSERT_EQ(data->intervals.size(), 1u);
    const IntervalRecord& back = data->intervals[0];
    ASSERT_EQ(back.backends.size(), 2u);
    EXPECT_EQ(back.backends[0].name, "pod-a");
    EXPECT_EQ(back.backends[0].requests, 5u);
    EXPECT_EQ(back.backends[1].non2xx, 1u);
    EXPECT_EQ(back.backends[1].latencyHistogram, written.backends[1].latencyHistogram);
    EXPECT_DOUBLE_EQ(back.backends[1].lastSeenS, written.backends[1].lastSeenS);
    EXPECT_EQ(back.unnamedResponses, 2u);
    EXPECT_EQ(back.upstreamHistogram, written.upstreamHistogram);
    EXPECT_EQ(back.frontDoorHistogram, written.frontDoorHistogram);
    EXPECT_EQ(back.upstreamMissing, 11u);
}

// Version 11: a version 10 file (made by wrkbench-cli at a0bde90, before the loader's cost was
// kept) keeps its runs, with their loader's cost not measured, and takes a run whose intervals,
// totals and loaders carry it; they come back as written.
TEST(SessionSchema, Version10FileTakesTheLoadersCost)
{
    test::TempDir dir;
    const std::string source = test::sourceDir() + "/tests/engine/store/fixtures/session-v10.wrkbench";
    ASSERT_TRUE(std::filesystem::exists(source)) << source;
    const std::string path = dir.file("v10.wrkbench");
    std::filesystem::copy_file(source, path);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && !runs->empty());
    auto old = (*store)->runs().load(runs->front().id);
    ASSERT_TRUE(old.ok()) << old.error();
    ASSERT_FALSE(old->intervals.empty());
    EXPECT_FALSE(old->run.totals.loaderCost.measured());
    for (const IntervalRecord& r : old->intervals) {
        EXPECT_FALSE(r.loaderCost.measured());
        EXPECT_EQ(r.inFlight, 0u);
    }

    NewRun run;
    run.targetId = runs->front().targetId;
    run.config = runs->front().config;
    run.startedAtMs = 1'764'653'400'000;
    auto id = (*store)->runs().begin(run);
    ASSERT_TRUE(id.ok()) << id.error();
    IntervalSnapshot s;
    s.endS = 1;
    s.requests = 12;
    s.inFlight = 9;
    s.loaderCost.workerWallUs = 8'000'000;
    s.loaderCost.workerCpuUs = 2'000'000;
    s.loaderCost.workerWaitUs = 5'900'000;
    s.loaderCost.workerInvoluntarySwitches = 4321;
    s.loaderCost.processWallUs = 1'000'000;
    s.loaderCost.processCpuUs = 1'990'000;
    s.loaderCost.machineCpus = 2;
    s.loaderCost.machineCpuUs = 2'000'000;
    s.loaderCost.machineBusyUs = 1'990'000;
    const IntervalRecord written = IntervalRecord::of(s, 1'764'653'400'000);
    ASSERT_TRUE((*store)->runs().appendIntervals(*id, { written }).ok());
    RunResult result;
    result.config = run.config;
    result.durationS = 1;
    result.Measurements::add(s);
    LoaderSummary loader { 1, "pod-b", 3, 12, 0, 12.0, 0.0, "synchronized", "completed", s.loaderCost };
    result.loaders = { loader };
    ASSERT_TRUE((*store)->runs().finish(*id, FinishedRun::of(result, 1'764'653'401'000)).ok());
    auto data = (*store)->runs().load(*id);
    ASSERT_TRUE(data.ok()) << data.error();
    ASSERT_EQ(data->intervals.size(), 1u);
    EXPECT_EQ(data->intervals[0].loaderCost, s.loaderCost);
    EXPECT_EQ(data->intervals[0].inFlight, 9u);
    EXPECT_EQ(data->run.totals.loaderCost, s.loaderCost);
    EXPECT_TRUE(data->run.totals.loaderCost.saturated());
    ASSERT_EQ(data->loaders.size(), 1u);
    EXPECT_EQ(data->loaders[0].cost, s.loaderCost);
    auto listed = (*store)->runs().list();
    ASSERT_TRUE(listed.ok());
    const auto mine = std::find_if(listed->begin(), listed->end(), [&](const RunRecord& r) { return r.id == *id; });
    ASSERT_NE(mine, listed->end());
    EXPECT_EQ(mine->totals.loaderCost, s.loaderCost) << "the run's list carries it (the comparability check reads it)";
}

// Version 12: a version 10 file, taken through every step since, keeps its targets, with no script,
// and its runs, with no script output; a target then keeps a script and its arguments, a run what its
// script printed.
TEST(SessionSchema, Version10FileTakesScripts)
{
    test::TempDir dir;
    const std::string source = test::sourceDir() + "/tests/engine/store/fixtures/session-v10.wrkbench";
    ASSERT_TRUE(std::filesystem::exists(source)) << source;
    const std::string path = dir.file("v10.wrkbench");
    std::filesystem::copy_file(source, path);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && runs->size() >= 2);
    EXPECT_EQ(runs->front().scriptOutput, "");
    auto target = (*store)->targets().get(runs->front().targetId);
    ASSERT_TRUE(target.ok()) << target.error();
    EXPECT_EQ(target->script, "");
    EXPECT_TRUE(target->scriptArgs.empty());

    Target t = *target;
    t.script = "/scripts/auth.lua";
    t.scriptArgs = { "a b", "", "\"quoted\"" };
    ASSERT_TRUE((*store)->targets().update(t).ok());
    auto back = (*store)->targets().get(t.id);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->script, t.script);
    EXPECT_EQ(back->scriptArgs, t.scriptArgs);
    const std::string printed = std::string("p99 1234\n\0binary\xff", 17);
    ASSERT_TRUE((*store)->runs().setScriptOutput(runs->front().id, printed).ok());
    auto run = (*store)->runs().record(runs->front().id);
    ASSERT_TRUE(run.ok()) << run.error();
    EXPECT_EQ(run->scriptOutput, printed);
    EXPECT_FALSE((*store)->runs().setScriptOutput(999'999, "x").ok());
}

// Version 13 (HTTP/3): a version 10 file, taken through every step since, (made by the build before --http3,
// wrkbench-cli at a0bde90) keeps its runs, with no QUIC facts, and takes a run whose QUIC facts come back as written.
TEST(SessionSchema, Version10FileTakesQuicFacts)
{
    test::TempDir dir;
    const std::string source = test::sourceDir() + "/tests/engine/store/fixtures/session-v10.wrkbench";
    ASSERT_TRUE(std::filesystem::exists(source)) << source;
    const std::string path = dir.file("v10.wrkbench");
    std::filesystem::copy_file(source, path);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(sqlText(**store, "PRAGMA user_version"), std::to_string(SCHEMA_VERSION));
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && !runs->empty());
    auto old = (*store)->runs().load(runs->front().id);
    ASSERT_TRUE(old.ok()) << old.error();
    EXPECT_TRUE(old->run.totals.quic.empty());
    EXPECT_GT(old->run.totals.requests, 0u);

    NewRun run;
    run.targetId = runs->front().targetId;
    run.config = runs->front().config;
    run.config.httpVersion = HttpVersion::Http3;
    run.config.request.url = *parseUrl("https://localhost:8443/");
    run.startedAtMs = 1'764'653'400'000;
    auto id = (*store)->runs().begin(run);
    ASSERT_TRUE(id.ok()) << id.error();
    FinishedRun finished;
    finished.totals.protocol = "h3";
    QuicSummary& q = finished.totals.quic;
    q.version = 1;
    q.alpn = "h3";
    q.handshakes = 12;
    q.lostPackets = 3;
    q.probeTimeouts = 5;
    q.ends[4] = 2; // idle_timeout
    q.ends[5] = 1; // peer_closed
    q.firstEnd = "the server closed the connection with HTTP/3 error 0x102";
    ASSERT_TRUE((*store)->runs().finish(*id, finished).ok());
    auto data = (*store)->runs().load(*id);
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.totals.quic, q);
    EXPECT_EQ(data->run.totals.protocol, "h3");
    EXPECT_EQ(data->run.config.httpVersion, HttpVersion::Http3);
    // The column is the wire's object, readable as it is.
    EXPECT_NE(sqlText(**store, "SELECT quic FROM runs WHERE id = " + std::to_string(*id)).find("\"idle_timeout\":2"),
        std::string::npos);
}

// Version 14: a version 10 file, taken through every step since, (made by the build before --scrape, wrkbench-cli at
// a0bde90) keeps its runs, with no target metrics, and takes a run's scraped series; they come back as written and go
// with the run when it is deleted.
TEST(SessionSchema, Version10FileTakesScrapes)
{
    test::TempDir dir;
    const std::string source = test::sourceDir() + "/tests/engine/store/fixtures/session-v10.wrkbench";
    ASSERT_TRUE(std::filesystem::exists(source)) << source;
    const std::string path = dir.file("v10.wrkbench");
    std::filesystem::copy_file(source, path);
    auto store = SessionStore::open(path);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && runs->size() >= 2);
    auto old = (*store)->runs().scrapeOf(runs->front().id);
    ASSERT_TRUE(old.ok()) << old.error();
    EXPECT_TRUE(old->empty());
    ASSERT_FALSE((*store)->runs().load(runs->front().id)->intervals.empty());

    ScrapeRecord scrape;
    scrape.metricRegex = "node_load1";
    scrape.endpoints = { { "node", "http://127.0.0.1:9100/metrics", 4, 1, { "scrape 'node': HTTP status 503" } } };
    ASSERT_TRUE(scrape.addPoint(0, "node_load1", SeriesKind::Value, { 1'764'653'400'000, 0.5 }, 100));
    ASSERT_TRUE(scrape.addPoint(0, "node_cpu_busy_percent", SeriesKind::Percent, { 1'764'653'401'000, 42.25 }, 100));
    ASSERT_TRUE(scrape.addPoint(0, "node_load1", SeriesKind::Value, { 1'764'653'401'000, 0.75 }, 100));
    ASSERT_TRUE((*store)->runs().saveScrape(runs->front().id, scrape).ok());
    auto back = (*store)->runs().scrapeOf(runs->front().id);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, scrape);
    EXPECT_TRUE((*store)->runs().scrapeOf(runs->at(1).id)->empty()) << "another run's";
    EXPECT_FALSE((*store)->runs().saveScrape(999999, scrape).ok()) << "no such run";
    // Its targets take the endpoints their runs scrape.
    auto target = (*store)->targets().get(runs->front().targetId);
    ASSERT_TRUE(target.ok()) << target.error();
    EXPECT_FALSE(target->scrape.enabled());
    target->scrape = { { { "server", "http://builtin/metrics" } }, "wrkbench_.*" };
    ASSERT_TRUE((*store)->targets().update(*target).ok());
    EXPECT_EQ((*store)->targets().get(target->id)->scrape, target->scrape);

    ASSERT_TRUE((*store)->runs().remove(runs->front().id).ok());
    EXPECT_EQ(sqlText(**store, "SELECT count(*) FROM scrape_samples"), "0");
    EXPECT_EQ(sqlText(**store, "SELECT count(*) FROM scrape_endpoints"), "0");
}
