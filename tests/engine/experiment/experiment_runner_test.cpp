// The experiment runner against the built-in server (a fast path and a slow
// one): every cell stored as linked runs in the planned order, progress with
// an ETA, cancellation that keeps what completed, resume that skips it, a
// target that cannot be reached, and the session side (schema v2 from a v1
// file, experiments left running by a dead process, deleting experiments).

#include "experiment/experimentreport.h"
#include "experiment/experimentresults.h"
#include "experiment/experimentrunner.h"
#include "experiment/htmlreport.h"
#include "experiment/plansearch.h"
#include "run/runobserver.h"
#include "serve/targetserver.h"
#include "store/runowner.h"
#include "store/schema.h"
#include "store/sessionstore.h"
#include "storetestutil.h"
#include "testsupport.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <thread>
#include <unistd.h>

using namespace wb;
using wb::storetest::openStore;
using wb::storetest::sqlText;

namespace {

// Two targets that really differ: the server answers "/" at once and "/delay/20" after
// 20 ms, so "slow" makes at most 50 requests/s per connection, however fast the machine,
// and "fast" many times that even in a sanitizer build on a busy machine.
constexpr double SLOW_DELAY_US = 20'000;

std::string planJson(uint16_t port, const std::string& extra, uint16_t slowPort = 0)
{
    const std::string base = "http://127.0.0.1:" + std::to_string(port);
    const std::string slow = slowPort ? "http://127.0.0.1:" + std::to_string(slowPort) + "/" : base + "/delay/20";
    return R"({"name": "fast vs slow", "targets": [{"name": "fast", "url": ")" + base
        + R"(/"}, {"name": "slow", "url": ")" + slow
        + R"("}], "load": {"threads": 1, "interval": "100ms"}, "cooldown": 0)" + extra + "}";
}

ExperimentPlan parsePlan(const std::string& json)
{
    auto plan = parseExperimentPlan(json);
    EXPECT_TRUE(plan.ok()) << plan.error();
    return plan ? *plan : ExperimentPlan {};
}

int64_t createExperiment(const std::string& path, const ExperimentPlan& plan)
{
    auto store = openStore(path);
    auto id = ExperimentRunner::create(*store, plan);
    EXPECT_TRUE(id.ok()) << id.error();
    return id ? *id : 0;
}

struct CountingObserver : RunObserver
{
    int started = 0;
    int intervals = 0;
    int finished = 0;
    void onStarted(const RunConfig&) override { ++started; }
    void onInterval(const IntervalRecord&) override { ++intervals; }
    void onFinished(const RunResult&) override { ++finished; }
};

class ExperimentRunnerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        TargetServerOptions options;
        options.threads = 1;
        m_server = std::make_unique<TargetServer>(options);
        ASSERT_TRUE(m_server->start().ok());
        m_path = m_dir.file("lab.wrkbench");
    }

    test::TempDir m_dir;
    std::unique_ptr<TargetServer> m_server;
    std::string m_path;
};

} // namespace

TEST_F(ExperimentRunnerTest, RunsEveryCellInOrderAndStoresLinkedRuns)
{
    const ExperimentPlan plan = parsePlan(planJson(m_server->port(),
        R"(, "sweep": {"axis": "connections", "values": [2, 4]}, "repetitions": 2, "duration": "300ms")"));
    const int64_t id = createExperiment(m_path, plan);
    ASSERT_GT(id, 0);

    ExperimentRunner runner(m_path);
    std::vector<ExperimentProgress> events;
    runner.setProgressCallback([&](const ExperimentProgress& p) { events.push_back(p); });
    CountingObserver observer;
    runner.setRunObserver(&observer);
    auto outcome = runner.run(id);
    ASSERT_TRUE(outcome.ok()) << outcome.error();
    EXPECT_EQ(outcome->status, ExperimentStatus::Completed);
    EXPECT_EQ(outcome->runsMade, 8u);
    EXPECT_EQ(outcome->runsSkipped, 0u);
    EXPECT_EQ(outcome->runsDone, 8u);
    EXPECT_EQ(observer.started, 8);
    EXPECT_EQ(observer.finished, 8);
    EXPECT_GE(observer.intervals, 8 * 2);

    // Progress: one start and one end per run, in the planned order, counting up, the ETA down to 0.
    ASSERT_EQ(events.size(), 16u);
    const auto schedule = plan.schedule();
    for (size_t i = 0; i < 8; ++i) {
        const ExperimentProgress& start = events[2 * i];
        const ExperimentProgress& end = events[2 * i + 1];
        EXPECT_EQ(start.event, ExperimentProgress::Event::RunStarting);
        EXPECT_EQ(end.event, ExperimentProgress::Event::RunFinished);
        EXPECT_EQ(start.cell, schedule[i].cell);
        EXPECT_EQ(start.target, schedule[i].target);
        EXPECT_EQ(start.repetition, schedule[i].repetition);
        EXPECT_EQ(start.cellLabel, plan.levels[schedule[i].cell].label);
        EXPECT_EQ(start.cellCount, 2u);
        EXPECT_EQ(start.runsDone, i);
        EXPECT_EQ(end.runsDone, i + 1);
        EXPECT_EQ(end.runsTotal, 8u);
        EXPECT_EQ(end.status, RunStatus::Completed);
        EXPECT_GT(end.requestsPerS, 0);
        EXPECT_GT(end.runId, 0);
        EXPECT_GT(start.etaS, 0);
    }
    // Estimated from the plan first, then from the runs made: it shrinks as runs complete
    // (one run left against eight; by how much depends on how slow this build's runs are).
    EXPECT_LT(events[14].etaS, events[0].etaS);
    EXPECT_EQ(events.back().etaS, 0.0);

    auto store = openStore(m_path);
    auto record = store->experiments().get(id);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record->status, ExperimentStatus::Completed);
    EXPECT_GT(record->finishedAtMs, 0);
    auto runs = store->experiments().runs(id);
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 8u);
    auto stored = parseExperimentPlan(record->planJson);
    ASSERT_TRUE(stored.ok()) << stored.error();
    for (size_t i = 0; i < 8; ++i) {
        const RunRecord& r = (*runs)[i];
        EXPECT_EQ(r.status, RunStatus::Completed);
        EXPECT_EQ(r.experiment.experimentId, id);
        EXPECT_EQ(r.experiment.cellIndex, static_cast<int>(schedule[i].cell));
        EXPECT_EQ(r.experiment.repetition, static_cast<int>(schedule[i].repetition));
        EXPECT_EQ(r.targetId, stored->targets[schedule[i].target].sessionTargetId);
        EXPECT_EQ(r.targetName, plan.targets[schedule[i].target].name);
        EXPECT_EQ(r.config.connections, plan.levels[schedule[i].cell].load.connections);
        EXPECT_EQ(r.config.durationUs, 300'000u);
        EXPECT_EQ(r.id, events[2 * i + 1].runId);
    }
    // Ordinary runs as well: listed with the others.
    auto all = store->runs().list();
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->size(), 8u);

    // The results come from these runs. (Whether two 300 ms repetitions on a busy
    // machine make the difference significant is the CLI test's business, with
    // longer runs; here the 20 ms delay must simply show in the means.)
    auto results = loadExperimentResults(*store, id);
    ASSERT_TRUE(results.ok()) << results.error();
    ASSERT_EQ(results->rows.size(), 4u);
    EXPECT_EQ(results->runsDone, 8u);
    for (size_t cell = 0; cell < 2; ++cell) {
        const ExperimentRow* fast = results->row(cell, 0);
        const ExperimentRow* slow = results->row(cell, 1);
        ASSERT_TRUE(fast && slow);
        EXPECT_EQ(slow->runIds.size(), 2u);
        EXPECT_EQ(slow->runIds[0], (*runs)[cell * 4 + 1].id);
        EXPECT_DOUBLE_EQ(slow->requestsPerS.mean,
            ((*runs)[cell * 4 + 1].totals.requestsPerS + (*runs)[cell * 4 + 3].totals.requestsPerS) / 2);
        EXPECT_LT(slow->requestsPerS.mean, fast->requestsPerS.mean / 3);
        EXPECT_GT(slow->lossPct(), 60.0);
        EXPECT_GT(slow->p50Us.mean, SLOW_DELAY_US); // the delay itself
    }
}

// SLOs in the plan: every run judges itself by them when it ends and stores its verdicts;
// the results count per cell and target how many repetitions met each, and the CSV,
// Markdown and terminal tables get a column per SLO. One threshold surely holds on any
// machine (p99 under a minute), one surely fails (p99 under a microsecond).
TEST_F(ExperimentRunnerTest, SlosAreJudgedPerRunAndCountedPerCell)
{
    const ExperimentPlan plan = parsePlan(
        planJson(m_server->port(), R"(, "repetitions": 2, "duration": "300ms", "slo": ["p99<60s", "p99<1us"])"));
    ASSERT_EQ(plan.slos.size(), 2u);
    const int64_t id = createExperiment(m_path, plan);
    ASSERT_GT(id, 0);

    ExperimentRunner runner(m_path);
    std::vector<ExperimentProgress> finished;
    runner.setProgressCallback([&](const ExperimentProgress& p) {
        if (p.event == ExperimentProgress::Event::RunFinished) finished.push_back(p);
    });
    auto outcome = runner.run(id);
    ASSERT_TRUE(outcome.ok()) << outcome.error();
    ASSERT_EQ(outcome->status, ExperimentStatus::Completed);
    ASSERT_EQ(finished.size(), 4u);
    for (const ExperimentProgress& p : finished) {
        ASSERT_EQ(p.slo.size(), 2u);
        EXPECT_TRUE(p.slo[0].ok) << formatSloLine(p.slo[0]);
        EXPECT_FALSE(p.slo[1].ok) << formatSloLine(p.slo[1]);
    }

    auto store = openStore(m_path);
    auto results = loadExperimentResults(*store, id);
    ASSERT_TRUE(results.ok()) << results.error();
    ASSERT_EQ(results->rows.size(), 2u);
    for (const ExperimentRow& row : results->rows) {
        ASSERT_EQ(row.slo.size(), 2u) << row.targetName;
        EXPECT_EQ(row.slo[0].expr, "p99<60s");
        EXPECT_EQ(row.slo[0].text(), "2/2") << row.targetName;
        EXPECT_EQ(row.slo[1].text(), "0/2") << row.targetName;
        EXPECT_TRUE(row.anySloFailed());
    }
    EXPECT_TRUE(results->anySloFailed());
    // Each stored run has its own verdicts (runs.slo), read back as the engine wrote them.
    for (const RunRecord& r : results->runs) {
        ASSERT_EQ(r.totals.slo.size(), 2u);
        EXPECT_TRUE(r.totals.slo[0].ok);
        EXPECT_FALSE(r.totals.slo[1].ok);
    }

    const std::string csv = resultsCsv(*results);
    const std::string header = csv.substr(0, csv.find('\n'));
    EXPECT_TRUE(header.ends_with(",run_ids,differs,slo p99<60s,slo p99<1us\r")
        || header.ends_with(",run_ids,differs,slo p99<60s,slo p99<1us"))
        << header;
    EXPECT_NE(csv.find(",2/2,0/2"), std::string::npos) << csv;
    const std::string table = formatResultsTable(*results);
    EXPECT_NE(table.find("SLO p99<60s"), std::string::npos) << table;
    EXPECT_NE(table.find("at least one run failed an SLO"), std::string::npos) << table;
    const std::string markdown = formatMarkdownReport(*results);
    EXPECT_NE(markdown.find("| SLO p99<60s | SLO p99<1us |"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("| 2/2 | 0/2 |"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("| failed: p99<1us |"), std::string::npos) << markdown;
}

TEST_F(ExperimentRunnerTest, CancelKeepsCompletedRunsAndResumeMakesOnlyTheRest)
{
    const int64_t id = createExperiment(m_path,
        parsePlan(planJson(m_server->port(),
            R"(, "load": {"threads": 1, "connections": 2, "interval": "100ms"}, "repetitions": 2, "duration": "400ms")")));
    ASSERT_GT(id, 0);

    ExperimentRunner runner(m_path);
    std::thread canceller;
    using Clock = std::chrono::steady_clock;
    Clock::time_point thirdStarting, cancelled;
    runner.setProgressCallback([&](const ExperimentProgress& p) {
        if (p.event == ExperimentProgress::Event::RunStarting && p.runsDone == 2) {
            thirdStarting = Clock::now();
            canceller = std::thread([&runner, &cancelled] {
                std::this_thread::sleep_for(std::chrono::milliseconds(150));
                runner.cancel();
                cancelled = Clock::now();
            });
        }
    });
    auto outcome = runner.run(id);
    if (canceller.joinable()) canceller.join();
    ASSERT_TRUE(outcome.ok()) << outcome.error();
    EXPECT_EQ(outcome->status, ExperimentStatus::Stopped);
    EXPECT_EQ(outcome->runsMade, 3u);
    EXPECT_EQ(outcome->runsDone, 2u);
    EXPECT_TRUE(runner.isCancelled());

    {
        auto store = openStore(m_path);
        EXPECT_EQ(store->experiments().get(id)->status, ExperimentStatus::Stopped);
        auto runs = store->experiments().runs(id);
        ASSERT_TRUE(runs.ok());
        ASSERT_EQ(runs->size(), 3u);
        EXPECT_EQ((*runs)[0].status, RunStatus::Completed);
        EXPECT_EQ((*runs)[1].status, RunStatus::Completed);
        EXPECT_EQ((*runs)[2].status, RunStatus::Stopped); // kept, not counted
        // It did not run its 400 ms: its measured time ended at the cancel, which came at
        // most this long after the run was announced (and so before it began).
        const double cancelAfterS = std::chrono::duration<double>(cancelled - thirdStarting).count();
        EXPECT_LE((*runs)[2].totals.durationS, cancelAfterS + 0.001);
        EXPECT_LT((*runs)[2].totals.durationS, 0.4);
        EXPECT_EQ((*runs)[2].experiment.repetition, 1);
        EXPECT_EQ((*runs)[2].targetName, "fast");
        auto results = loadExperimentResults(*store, id);
        ASSERT_TRUE(results.ok());
        EXPECT_EQ(results->runsDone, 2u);
        EXPECT_EQ(results->row(0, 0)->runIds.size(), 1u);
    }

    // Resume: the stopped repetition is made again, the completed ones are not.
    ExperimentRunner resumed(m_path);
    std::vector<std::string> made;
    resumed.setProgressCallback([&](const ExperimentProgress& p) {
        if (p.event == ExperimentProgress::Event::RunStarting)
            made.push_back(p.targetName + "#" + std::to_string(p.repetition));
    });
    auto again = resumed.run(id);
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->status, ExperimentStatus::Completed);
    EXPECT_EQ(again->runsSkipped, 2u);
    EXPECT_EQ(again->runsMade, 2u);
    EXPECT_EQ(made, (std::vector<std::string> { "fast#1", "slow#1" }));

    auto store = openStore(m_path);
    EXPECT_EQ(store->experiments().get(id)->status, ExperimentStatus::Completed);
    EXPECT_EQ(store->experiments().runs(id)->size(), 5u);
    auto results = loadExperimentResults(*store, id);
    ASSERT_TRUE(results.ok());
    EXPECT_EQ(results->runsDone, 4u);
    EXPECT_EQ(results->row(0, 0)->runIds.size(), 2u);
    EXPECT_EQ(results->row(0, 1)->runIds.size(), 2u);

    // Nothing left: a third call makes no run.
    ExperimentRunner idle(m_path);
    auto nothing = idle.run(id);
    ASSERT_TRUE(nothing.ok());
    EXPECT_EQ(nothing->runsMade, 0u);
    EXPECT_EQ(nothing->status, ExperimentStatus::Completed);
}

TEST_F(ExperimentRunnerTest, CancelledBeforeItStartsMakesNoRun)
{
    const int64_t id
        = createExperiment(m_path, parsePlan(planJson(m_server->port(), R"(, "repetitions": 1, "duration": "300ms")")));
    ExperimentRunner runner(m_path);
    runner.cancel();
    auto outcome = runner.run(id);
    ASSERT_TRUE(outcome.ok()) << outcome.error();
    EXPECT_EQ(outcome->status, ExperimentStatus::Stopped);
    EXPECT_EQ(outcome->runsMade, 0u);
    EXPECT_EQ(openStore(m_path)->experiments().runs(id)->size(), 0u);
}

TEST_F(ExperimentRunnerTest, UnreachableTargetFailsTheExperimentWithTheReason)
{
    const uint16_t closed = test::freeTcpPort(); // nothing listens there
    const ExperimentPlan plan
        = parsePlan(planJson(m_server->port(), R"(, "repetitions": 1, "duration": "200ms")", closed));
    auto preflight = ExperimentRunner::checkTargets(plan);
    ASSERT_FALSE(preflight.ok());
    EXPECT_EQ(preflight.error(), "target 'slow': connection refused by 127.0.0.1:" + std::to_string(closed));

    const int64_t id = createExperiment(m_path, plan);
    ExperimentRunner runner(m_path);
    auto outcome = runner.run(id);
    ASSERT_TRUE(outcome.ok()) << outcome.error();
    EXPECT_EQ(outcome->status, ExperimentStatus::Failed);
    EXPECT_EQ(outcome->runsDone, 1u); // fast ran first and is kept
    EXPECT_NE(
        outcome->error.find("target 'slow' at level t1 c10 (repetition 1): connection refused"), std::string::npos)
        << outcome->error;

    auto store = openStore(m_path);
    auto record = store->experiments().get(id);
    EXPECT_EQ(record->status, ExperimentStatus::Failed);
    EXPECT_EQ(record->error, outcome->error);
    auto runs = store->experiments().runs(id);
    ASSERT_EQ(runs->size(), 2u);
    EXPECT_EQ((*runs)[1].status, RunStatus::Failed);
    EXPECT_EQ((*runs)[1].experiment.cellIndex, 0);
    EXPECT_NE((*runs)[1].error.find("connection refused"), std::string::npos);
}

TEST_F(ExperimentRunnerTest, OneExperimentRunsInOneProcessAtATime)
{
    const int64_t id = createExperiment(m_path, parsePlan(planJson(m_server->port(), R"(, "duration": "200ms")")));
    auto store = openStore(m_path);
    ASSERT_TRUE(store->experiments().begin(id).ok());
    auto second = store->experiments().begin(id);
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error(),
        "experiment " + std::to_string(id) + " is already being run by process " + std::to_string(::getpid()) + " on "
            + localHostName());
    ExperimentRunner runner(m_path);
    EXPECT_FALSE(runner.run(id).ok());
    EXPECT_TRUE(store->experiments().finish(id, ExperimentStatus::Stopped).ok());
    EXPECT_TRUE(store->experiments().begin(id).ok());
}

TEST_F(ExperimentRunnerTest, ExperimentOfADeadProcessBecomesInterrupted)
{
    const int64_t id = createExperiment(m_path, parsePlan(planJson(m_server->port(), R"(, "duration": "200ms")")));
    {
        auto store = openStore(m_path);
        // Owned by a process of an earlier boot of this host: gone.
        ASSERT_EQ(
            sqlite3_exec(store->nativeHandle(),
                ("UPDATE experiments SET status = 'running', host_name = '" + localHostName()
                    + "', owner_pid = 4242, owner_token = 'no-such-boot/pid:[1]/1' WHERE id = " + std::to_string(id))
                    .c_str(),
                nullptr, nullptr, nullptr),
            SQLITE_OK);
    }
    auto store = openStore(m_path);
    EXPECT_EQ(store->experiments().get(id)->status, ExperimentStatus::Interrupted);
}

TEST_F(ExperimentRunnerTest, DeletingAnExperimentKeepsOrDeletesItsRuns)
{
    const ExperimentPlan plan = parsePlan(planJson(m_server->port(), R"(, "repetitions": 1, "duration": "200ms")"));
    const int64_t keep = createExperiment(m_path, plan);
    const int64_t drop = createExperiment(m_path, plan);
    for (int64_t id : { keep, drop }) {
        ExperimentRunner runner(m_path);
        ASSERT_TRUE(runner.run(id).ok());
    }
    auto store = openStore(m_path);
    EXPECT_EQ(store->experiments().all()->size(), 2u);
    EXPECT_EQ(store->targets().all()->size(), 2u); // the second experiment found the targets by name
    ASSERT_TRUE(store->experiments().remove(keep).ok());
    ASSERT_TRUE(store->experiments().remove(drop, true).ok());
    EXPECT_FALSE(store->experiments().get(keep).ok());
    auto runs = store->runs().list();
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 2u); // the first experiment's runs, now ordinary runs
    for (const RunRecord& r : *runs)
        EXPECT_EQ(r.experiment.experimentId, 0);
    EXPECT_FALSE(store->experiments().remove(keep).ok());
}

// Schema 2 from a file written by wrkbench with schema 1 (committed fixture):
// its runs are intact and outside any experiment, and it takes experiments.
TEST(ExperimentSchema, VersionOneSessionMigratesAndTakesAnExperiment)
{
    const std::string fixture = test::sourceDir() + "/tests/engine/store/fixtures/session-v1.wrkbench";
    ASSERT_TRUE(std::filesystem::exists(fixture)) << fixture << " (WB_SOURCE_DIR, set by CTest, is the source tree)";
    test::TempDir dir;
    const std::string copy = dir.file("old.wrkbench");
    std::filesystem::copy_file(fixture, copy);
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr);
        ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
        EXPECT_EQ(sqlite3_column_int(stmt, 0), 1) << "the fixture must stay a version 1 file";
        sqlite3_finalize(stmt);
        sqlite3_close(db);
    }
    auto store = SessionStore::open(copy);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ(sqlText(**store, "PRAGMA user_version"), std::to_string(SCHEMA_VERSION));
    EXPECT_EQ(sqlText(**store, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(sqlText(**store, "SELECT count(*) FROM experiments"), "0");
    EXPECT_EQ(sqlText(**store, "SELECT count(*) FROM sqlite_schema WHERE name = 'runs_by_experiment'"), "1");
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 9u); // one recorded run, eight imported reports
    EXPECT_EQ((*runs)[0].status, RunStatus::Completed);
    EXPECT_GT((*runs)[0].totals.requests, 0u);
    EXPECT_EQ((*runs)[1].status, RunStatus::Imported);
    for (const RunRecord& r : *runs) {
        EXPECT_EQ(r.experiment.experimentId, 0);
        EXPECT_EQ(r.experiment.cellIndex, -1);
        EXPECT_EQ(r.experiment.repetition, -1);
    }
    auto old = (*store)->runs().load((*runs)[0].id);
    ASSERT_TRUE(old.ok()) << old.error();
    EXPECT_FALSE(old->intervals.empty());
    EXPECT_TRUE(old->latency.has_value());

    // The fixture's "NEG" target is reused by name (its URL differs: a warning).
    auto plan = parseExperimentPlan(
        R"({"targets": [{"name": "NEG", "url": "http://127.0.0.1:1/"}, {"name": "New", "url": "http://127.0.0.1:2/"}]})");
    ASSERT_TRUE(plan.ok()) << plan.error();
    std::vector<std::string> warnings;
    auto id = ExperimentRunner::create(**store, *plan, &warnings);
    ASSERT_TRUE(id.ok()) << id.error();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("target 'NEG' was created with URL http://127.0.0.1:18931/"), std::string::npos)
        << warnings[0];
    auto record = (*store)->experiments().get(*id);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record->name, "NEG vs New");
    EXPECT_EQ(record->status, ExperimentStatus::Planned);
    auto stored = parseExperimentPlan(record->planJson);
    ASSERT_TRUE(stored.ok());
    EXPECT_EQ(stored->targets[0].sessionTargetId, (*runs)[0].targetId);
    EXPECT_EQ(sqlText(**store, "PRAGMA foreign_key_check"), "");
}

// A target's wrk script runs in each of its runs: request() builds what is sent (the built-in
// server answers /status/418 with 418, so every response of the scripted target is one), and
// what done() printed is kept with each run, equal to the run's stored count.
TEST_F(ExperimentRunnerTest, ATargetsScriptRunsInEachOfItsRunsAndItsOutputIsKept)
{
    const std::string script = m_dir.file("teapot.lua");
    test::writeFile(script,
        "function init(args) path = args[1] end\n"
        "function request() return wrk.format(nil, path) end\n"
        "function done(summary) io.write(string.format('requests=%d status=%d\\n', summary.requests, "
        "summary.errors.status)) end\n");
    const std::string base = "http://127.0.0.1:" + std::to_string(m_server->port()) + "/";
    const ExperimentPlan plan = parsePlan(R"({"name": "scripted", "targets": [{"name": "plain", "url": ")" + base
        + R"("}, {"name": "teapot", "url": ")" + base + R"(", "script": ")" + script
        + R"(", "script_args": ["/status/418"]}], "load": {"threads": 1, "connections": 2}, "repetitions": 2, )"
          R"("duration": "300ms", "cooldown": 0})");
    const int64_t id = createExperiment(m_path, plan);
    ASSERT_GT(id, 0);
    ExperimentRunner runner(m_path);
    auto outcome = runner.run(id);
    ASSERT_TRUE(outcome.ok()) << outcome.error();
    EXPECT_EQ(outcome->status, ExperimentStatus::Completed) << outcome->error;
    auto store = openStore(m_path);
    RunFilter filter;
    filter.experimentId = id;
    auto runs = store->runs().list(filter);
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 4u);
    int scripted = 0;
    for (const RunRecord& r : *runs) {
        auto data = store->runs().load(r.id);
        ASSERT_TRUE(data.ok()) << data.error();
        uint64_t teapots = 0;
        for (const auto& [code, count] : data->statusCodes)
            if (code == 418) teapots += count;
        if (r.config.script.empty()) {
            EXPECT_EQ(teapots, 0u);
            EXPECT_EQ(r.scriptOutput, "");
            continue;
        }
        ++scripted;
        EXPECT_GT(r.totals.requests, 0u);
        EXPECT_EQ(teapots, r.totals.requests); // every request was the script's
        EXPECT_EQ(r.scriptOutput,
            "requests=" + std::to_string(r.totals.requests) + " status=" + std::to_string(r.totals.requests) + "\n");
    }
    EXPECT_EQ(scripted, 2);
}

// A plan's target takes "scrape": every run of that target carries the target's metrics (here the
// server's own /metrics), stored with the run; the other target's runs scrape nothing. The results
// keep them by run, and the HTML report shows them.
TEST_F(ExperimentRunnerTest, EveryRunOfATargetCarriesItsMetrics)
{
    const std::string base = "http://127.0.0.1:" + std::to_string(m_server->port());
    const std::string json = R"({"name": "scraped", "targets": [{"name": "fast", "url": ")" + base
        + R"(/", "scrape": {"endpoints": ["server=)" + base + R"(/metrics"]}}, {"name": "slow", "url": ")" + base
        + R"(/delay/20"}], "load": {"threads": 1, "interval": "100ms"}, "cooldown": 0, "repetitions": 2, "duration": "400ms"})";
    const ExperimentPlan plan = parsePlan(json);
    ASSERT_EQ(plan.targets.size(), 2u);
    ASSERT_EQ(plan.targets[0].scrape.endpoints.size(), 1u);
    EXPECT_EQ(plan.targets[0].scrape.endpoints[0].name, "server");
    EXPECT_FALSE(plan.targets[1].scrape.enabled());
    auto again = parseExperimentPlan(experimentPlanToJson(plan));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->targets[0].scrape, plan.targets[0].scrape) << "the plan's JSON keeps it";
    auto bad = parseExperimentPlan(R"({"name": "x", "targets": [{"name": "a", "url": ")" + base
        + R"(/", "scrape": {"endpoints": ["ftp://x/"]}}, {"name": "b", "url": ")" + base
        + R"(/"}], "duration": "1s"})");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("targets[0].scrape"), std::string::npos) << bad.error();

    const int64_t id = createExperiment(m_path, plan);
    ExperimentRunner runner(m_path);
    auto outcome = runner.run(id);
    ASSERT_TRUE(outcome.ok()) << outcome.error();

    auto store = openStore(m_path);
    auto results = loadExperimentResults(*store, id);
    ASSERT_TRUE(results.ok()) << results.error();
    size_t fastRuns = 0;
    for (const RunRecord& r : results->runs) {
        auto scrape = store->runs().scrapeOf(r.id);
        ASSERT_TRUE(scrape.ok()) << scrape.error();
        if (r.targetName != "fast") {
            EXPECT_TRUE(scrape->empty()) << "run " << r.id;
            continue;
        }
        ++fastRuns;
        ASSERT_EQ(scrape->endpoints.size(), 1u);
        EXPECT_EQ(scrape->endpoints[0].failures, 0u);
        const bool rate = std::any_of(scrape->series.begin(), scrape->series.end(), [](const ScrapeSeries& s) {
            return s.name == "wrkbench_server_requests_total" && s.kind == SeriesKind::Rate && !s.points.empty();
        });
        EXPECT_TRUE(rate) << "run " << r.id;
        ASSERT_TRUE(results->scrapes.count(r.id));
        EXPECT_EQ(results->scrapes.at(r.id), *scrape);
    }
    EXPECT_EQ(fastRuns, 2u);
    const std::string html = formatHtmlReport(*results);
    const size_t section = html.find("<section id=\"target-metrics\">");
    ASSERT_NE(section, std::string::npos);
    EXPECT_NE(html.find("<svg", section), std::string::npos);
    EXPECT_NE(html.find("wrkbench_server_requests_total /s", section), std::string::npos);
}

// A search plan's baseline ("baseline": true, not first in the plan) is the search's first
// target, its baseline; each target's trials are runs of its own session target.
TEST_F(ExperimentRunnerTest, APlansSearchStartsWithItsMarkedBaseline)
{
    const std::string url = "http://127.0.0.1:" + std::to_string(m_server->port());
    const ExperimentPlan plan = parsePlan(R"({"name": "doors", "targets": [{"name": "other", "url": ")" + url
        + R"(/a"}, {"name": "base", "url": ")" + url + R"(/b", "baseline": true}, {"name": "third", "url": ")" + url
        + R"(/c"}], "search": {"slo": ["p99<50ms"]}})");
    auto store = openStore(m_path);
    auto setup = planSearchSetup(*store, plan);
    ASSERT_TRUE(setup.ok()) << setup.error();
    ASSERT_EQ(setup->targets.size(), 3u);
    EXPECT_EQ(setup->targets[0].first, url + "/b");
    EXPECT_EQ(setup->targets[1].first, url + "/a");
    EXPECT_EQ(setup->targets[2].first, url + "/c");
    ASSERT_EQ(setup->sessionTargetIds.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        auto target = store->targets().get(setup->sessionTargetIds[i]);
        ASSERT_TRUE(target.ok()) << target.error();
        EXPECT_EQ(target->name, std::vector<std::string>({ "base", "other", "third" })[i]);
    }
}
