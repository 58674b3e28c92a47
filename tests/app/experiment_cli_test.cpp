// wrkbench-cli experiment, experiment-report and experiments, as users run
// them: nginx answering directly against the same nginx behind a rate-limited
// nginx reverse proxy (2 targets x 2 levels x 4 repetitions), Ctrl-C and
// SIGKILL half-way with resume, and plans or targets that are wrong.

#include "experiment/experimentresults.h"
#include "nginx.h"
#include "pythoncsv.h"
#include "requirenginx.h"
#include "serve/targetserver.h"
#include "store/sessionstore.h"
#include "storetestutil.h"
#include "testsupport.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

using namespace wb;
using test::runProcess;
using test::sourceDir;

namespace {

class ExperimentCli : public ::testing::Test
{
protected:
    void SetUp() override { m_db = m_dir.file("lab.wrkbench"); }

    test::ProcessResult cli(std::vector<std::string> args, int timeoutMs = 60'000)
    {
        return test::runCli(std::move(args), timeoutMs);
    }

    std::string writePlan(const std::string& json, const std::string& name = "plan.json")
    {
        const std::string path = m_dir.file(name);
        test::writeFile(path, json);
        return path;
    }

    static nlohmann::json csv(const std::string& text) { return test::parseResultsCsvWithPython(text); }

    std::unique_ptr<SessionStore> openReadOnly() { return storetest::openStore(m_db, true); }

    // Waits until experiment 1 has at least `runs` runs stored (the last one may still be running).
    bool waitForRuns(size_t runs, int timeoutMs)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (!std::filesystem::exists(m_db)) continue;
            SessionOpenOptions options;
            options.readOnly = true;
            auto store = SessionStore::open(m_db, options);
            if (!store) continue;
            auto list = (*store)->experiments().runs(1);
            if (list && list->size() >= runs) return true;
        }
        return false;
    }

    test::TempDir m_dir;
    std::string m_db;
};

// Runs of the Ctrl-C and kill tests: long enough that the run under way when
// the test sees it stored (polled every 50 ms) is still running when the signal
// lands, on a busy machine too.
constexpr const char* LONG_RUN = "3s";
constexpr double LONG_RUN_S = 3.0;

// Two targets on the built-in server: "/" at once, "/delay/1" a millisecond later.
std::string builtinPlan(uint16_t port, const std::string& duration)
{
    const std::string base = "http://127.0.0.1:" + std::to_string(port);
    return R"({"name": "quick", "targets": [{"name": "A", "url": ")" + base + R"(/"}, {"name": "B", "url": ")" + base
        + R"(/delay/1"}], "load": {"threads": 1, "connections": 2, "interval": "100ms"}, "repetitions": 2,
        "duration": ")"
        + duration + R"(", "cooldown": 0})";
}

} // namespace

// The issue's acceptance test: nginx direct against the same nginx behind an
// nginx reverse proxy, both on loopback, both fetching the 256 KiB /big. The
// proxy sends its answers at 2 MiB/s (limit_rate), so each proxied answer takes
// about 125 ms: some 8 req/s per connection, where the direct target serves
// hundreds or thousands. A plain proxy hop costs only 2 to 4 times the work,
// which a slow client (a sanitizer build on a busy machine) can hide by being
// the bottleneck for both targets; a gap this wide no such client can hide, so
// the verdicts below hold by a large margin wherever the test runs.
//
// Four repetitions per cell: with two, Welch's t has about one degree of
// freedom (t = 12.7), and the interval excludes 1 only when the direct runs of
// a cell agree closely, which 1 s runs on a shared machine need not do; with
// four (t = 2.4 to 3.2, and se halved) it does even when they swing by 30%.
TEST_F(ExperimentCli, RateLimitedProxyIsSignificantlySlowerThanDirect)
{
    WB_REQUIRE_NGINX();
    test::Nginx nginx;
    test::NginxOptions options;
    options.reverseProxy = true;
    options.proxyLimitRate = "2m";
    ASSERT_TRUE(nginx.start(options)) << nginx.log();
    // The proxy answers like nginx itself.
    const auto probe
        = cli({ "run", "-t1", "-c1", "-n", "4", "http://127.0.0.1:" + std::to_string(nginx.proxyPort()) + "/big" });
    ASSERT_EQ(probe.exitCode, 0) << probe.err;
    ASSERT_EQ(probe.out.find("Non-2xx"), std::string::npos) << probe.out;

    const std::string plan = writePlan(R"({"name": "direct vs proxied",
        "targets": [{"name": "direct", "url": "http://127.0.0.1:)"
        + std::to_string(nginx.port()) + R"(/big", "baseline": true},
                    {"name": "proxied", "url": "http://127.0.0.1:)"
        + std::to_string(nginx.proxyPort()) + R"(/big"}],
        "load": {"threads": 1},
        "sweep": {"axis": "connections", "values": [4, 8]},
        "repetitions": 4, "duration": "1s", "cooldown": 0, "order": "interleaved"})");
    const std::string csvPath = m_dir.file("results.csv");
    const std::string mdPath = m_dir.file("report.md");
    const auto r = cli({ "experiment", "--db", m_db, plan, "--csv", csvPath, "--markdown", mdPath }, 300'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;

    // A progress line per run, in the interleaved order, then the table.
    const std::regex line(
        R"(cell (\d)/2 \((c\d)\) rep (\d)/4: (direct|proxied) \.\.\. [\d,]+ req/s, p99 [^,]+, 0 errors  \[run (\d+); (\d+)/16 done.*\])");
    std::vector<std::string> order;
    std::istringstream out(r.out);
    for (std::string text; std::getline(out, text);) {
        std::smatch m;
        if (std::regex_match(text, m, line)) order.push_back(m[2].str() + "/" + m[3].str() + "/" + m[4].str());
    }
    std::vector<std::string> expected;
    for (const char* level : { "c4", "c8" })
        for (int rep = 1; rep <= 4; ++rep)
            for (const char* target : { "direct", "proxied" })
                expected.push_back(std::string(level) + "/" + std::to_string(rep) + "/" + target);
    EXPECT_EQ(order, expected) << r.out;
    EXPECT_NE(r.out.find("Experiment 1 complete: 16 runs"), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nlevel +target +runs +req/s +p50 +p99 +errors)"))) << r.out;
    EXPECT_TRUE(
        std::regex_search(r.out, std::regex(R"(\nc4 +proxied +4 .* proxied is [\d.]+% slower than direct \(CI )")))
        << r.out;

    // Ordinary runs, linked to the experiment.
    auto store = openReadOnly();
    auto runs = store->experiments().runs(1);
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 16u);
    for (const RunRecord& run : *runs) {
        EXPECT_EQ(run.status, RunStatus::Completed);
        EXPECT_EQ((run.totals.errors.transportErrors() + run.totals.non2xx), 0u);
    }
    EXPECT_EQ(store->runs().list()->size(), 16u);

    // The table: per level, the proxied target slower, with an interval that excludes 1.
    const std::string csvText = test::readFile(csvPath);
    const auto table = csv(csvText);
    ASSERT_EQ(table["rows"].size(), 4u) << csvText;
    for (const auto& row : table["rows"]) {
        EXPECT_EQ(row["runs"], "4");
        if (row["target"] == "direct") {
            EXPECT_EQ(row["baseline"], "1");
            continue;
        }
        EXPECT_EQ(row["significant"], "1") << row.dump();
        ASSERT_FALSE(row["rps_ratio_ci_high"].get<std::string>().empty()) << row.dump();
        EXPECT_LT(std::stod(row["rps_ratio_ci_high"].get<std::string>()), 1.0) << row.dump();
        EXPECT_LT(std::stod(row["rps_ratio"].get<std::string>()), 0.9) << row.dump();
        EXPECT_GT(std::stod(row["loss_pct"].get<std::string>()), 10.0) << row.dump();
        EXPECT_TRUE(row["verdict"].get<std::string>().starts_with("proxied is ")) << row.dump();
    }
    const std::string md = test::readFile(mdPath);
    EXPECT_TRUE(md.starts_with("# direct vs proxied\n")) << md;
    EXPECT_NE(md.find("| c8 | proxied | 4 |"), std::string::npos) << md;

    // The report command gives the same table later, from the session alone.
    const auto again = cli({ "experiment-report", "--db", m_db, "--experiment", "1", "--csv", "-" });
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(again.out, csvText);
    const auto list = cli({ "experiments", "--db", m_db });
    ASSERT_EQ(list.exitCode, 0) << list.err;
    EXPECT_TRUE(
        std::regex_search(list.out, std::regex(R"(\n1\s+plan\s+completed\s+\S+ \S+\s+16/16\s+direct vs proxied\n)")))
        << list.out;
}

TEST_F(ExperimentCli, CtrlCStopsCleanlyAndResumeRerunsTheStoppedRun)
{
    TargetServer server(TargetServerOptions {});
    ASSERT_TRUE(server.start().ok());
    const std::string plan = writePlan(builtinPlan(server.port(), LONG_RUN));
    test::ChildProcess child;
    const std::string log = m_dir.file("child.log");
    ASSERT_TRUE(child.start({ test::cliPath(), "experiment", "--db", m_db, plan }, log));
    // The first run completed, the second is under way (for seconds yet): Ctrl-C.
    ASSERT_TRUE(waitForRuns(2, 60'000)) << test::readFile(log);
    EXPECT_EQ(child.signalAndWait(SIGINT, 60'000), 130) << test::readFile(log);
    const std::string text = test::readFile(log);
    EXPECT_NE(text.find("cell 1/1 (t1 c2) rep 1/2: B ... "), std::string::npos) << text;
    EXPECT_NE(text.find("[stopped: kept as run 2, not counted]"), std::string::npos) << text;
    EXPECT_NE(text.find("Experiment 1 stopped: 1 of 4 runs complete. Resume with: wrkbench-cli experiment --db "),
        std::string::npos)
        << text;
    {
        auto store = openReadOnly();
        EXPECT_EQ(store->experiments().get(1)->status, ExperimentStatus::Stopped);
        auto runs = store->experiments().runs(1);
        ASSERT_EQ(runs->size(), 2u);
        EXPECT_EQ((*runs)[0].status, RunStatus::Completed);
        EXPECT_EQ((*runs)[1].status, RunStatus::Stopped);
        EXPECT_LT((*runs)[1].totals.durationS, LONG_RUN_S); // stopped, not run to its end
    }

    const auto resumed = cli({ "experiment", "--db", m_db, "--resume", "1" }, 180'000);
    ASSERT_EQ(resumed.exitCode, 0) << resumed.out << resumed.err;
    EXPECT_NE(resumed.out.find("Resuming experiment 1 'quick'"), std::string::npos) << resumed.out;
    EXPECT_EQ(resumed.out.find("rep 1/2: A ... "), std::string::npos) << "the completed run is not made again";
    EXPECT_NE(resumed.out.find("rep 1/2: B ... "), std::string::npos) << resumed.out;
    auto store = openReadOnly();
    auto results = loadExperimentResults(*store, 1);
    ASSERT_TRUE(results.ok());
    EXPECT_EQ(results->runsDone, 4u);
    EXPECT_EQ(results->runs.size(), 5u); // the stopped run stays in the session
    EXPECT_EQ(store->experiments().get(1)->status, ExperimentStatus::Completed);
}

TEST_F(ExperimentCli, KilledExperimentIsInterruptedAndResumable)
{
    TargetServer server(TargetServerOptions {});
    ASSERT_TRUE(server.start().ok());
    const std::string plan = writePlan(builtinPlan(server.port(), LONG_RUN));
    test::ChildProcess child;
    ASSERT_TRUE(child.start({ test::cliPath(), "experiment", "--db", m_db, plan }, m_dir.file("child.log")));
    // The first run completed, the second is under way (for seconds yet): kill.
    ASSERT_TRUE(waitForRuns(2, 60'000)) << test::readFile(m_dir.file("child.log"));
    EXPECT_EQ(child.signalAndWait(SIGKILL, 60'000), 128 + SIGKILL);

    const auto list = cli({ "experiments", "--db", m_db });
    ASSERT_EQ(list.exitCode, 0) << list.err;
    EXPECT_NE(list.out.find("interrupted"), std::string::npos) << list.out;
    const auto resumed = cli({ "experiment", "--db", m_db, "--resume", "1", "--markdown", "-" }, 180'000);
    ASSERT_EQ(resumed.exitCode, 0) << resumed.out << resumed.err;
    EXPECT_NE(resumed.out.find("# quick\n"), std::string::npos) << resumed.out;
    EXPECT_NE(resumed.out.find("| interrupted |"), std::string::npos) << "the killed run is listed";
    auto store = openReadOnly();
    auto results = loadExperimentResults(*store, 1);
    ASSERT_TRUE(results.ok());
    EXPECT_EQ(results->runsDone, 4u);
}

TEST_F(ExperimentCli, WrongPlansTargetsAndArguments)
{
    TargetServer server(TargetServerOptions {});
    ASSERT_TRUE(server.start().ok());

    auto r = cli({ "experiment", "--db", m_db, writePlan(R"({"targets": [{"name": "A", "url": "http://127.0.0.1:1/"},
        {"name": "B", "url": "htp://x/"}]})") });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err,
        "wrkbench-cli: error: '" + m_dir.file("plan.json")
            + "': targets[1].url: unsupported scheme 'htp' in 'htp://x/' (use http or https)\n");
    EXPECT_FALSE(std::filesystem::exists(m_db)) << "a bad plan creates nothing";

    const uint16_t closed = test::freeTcpPort();
    r = cli({ "experiment", "--db", m_db,
        writePlan(R"({"targets": [{"name": "A", "url": "http://127.0.0.1:)" + std::to_string(server.port())
            + R"(/"}, {"name": "B", "url": "http://127.0.0.1:)" + std::to_string(closed) + R"(/"}]})") });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(
        r.err, "wrkbench-cli: error: target 'B': connection refused by 127.0.0.1:" + std::to_string(closed) + "\n");
    if (std::filesystem::exists(m_db)) {
        EXPECT_EQ(openReadOnly()->experiments().all()->size(), 0u);
    }

    r = cli({ "experiment", writePlan(builtinPlan(server.port(), "1s")) });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--db FILE is required"), std::string::npos) << r.err;
    r = cli({ "experiment", "--db", m_db });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "wrkbench-cli: error: give either a plan file or --resume ID\n");
    r = cli({ "experiment", "--db", m_db, "--resume", "9" });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no experiment with id 9"), std::string::npos) << r.err;
    r = cli({ "experiment-report", "--db", m_db, "--experiment", "9" });
    EXPECT_EQ(r.exitCode, 1);

    // --check validates and shows the schedule without running anything.
    const uint64_t served = server.requestsServed();
    r = cli({ "experiment", "--check", writePlan(builtinPlan(server.port(), "1s")) });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("2 targets (baseline A), 1 level, 2 repetitions: 4 runs of 1s"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  t1 c2 rep 2: B\n"), std::string::npos) << r.out;
    EXPECT_EQ(server.requestsServed(), served);
}

// SLOs in a plan: the progress says each run's verdict, the table and the CSV get a column
// per SLO, and the exit code follows `run`'s: 4 when a run failed one, 0 when all held.
TEST_F(ExperimentCli, SlosGetAColumnAndAFailedOneExitsWith4)
{
    TargetServer server(TargetServerOptions {});
    ASSERT_TRUE(server.start().ok());
    std::string plan = builtinPlan(server.port(), "300ms");
    plan.insert(plan.rfind('}'), R"(, "slo": ["p99<60s", "rps>1000000000"])");
    const std::string csvPath = m_dir.file("results.csv");
    auto r = cli({ "experiment", "--db", m_db, "--csv", csvPath, writePlan(plan) });
    EXPECT_EQ(r.exitCode, 4) << r.out << r.err;
    EXPECT_NE(r.out.find("Every run is judged by the SLOs p99<60s, rps>1000000000"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(", SLO FAILED: rps>1000000000  [run 1;"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SLO p99<60s  SLO rps>1000000000"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("A run failed an SLO"), std::string::npos) << r.out;
    const nlohmann::json table = csv(test::readFile(csvPath));
    ASSERT_TRUE(table.contains("header") && table["rows"].size() == 2) << table.dump();
    EXPECT_EQ(table["header"].back(), "slo rps>1000000000");
    for (const auto& row : table["rows"]) {
        EXPECT_EQ(row["slo p99<60s"], "2/2") << row.dump();
        EXPECT_EQ(row["slo rps>1000000000"], "0/2") << row.dump();
    }

    // Only SLOs that hold: a plain success. The report of the first still says what failed.
    std::string holds = builtinPlan(server.port(), "300ms");
    holds.insert(holds.rfind('}'), R"(, "slo": ["errors<100%", "p99<60s"])");
    r = cli({ "experiment", "--db", m_db, writePlan(holds, "holds.json") });
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(", SLOs met  [run 5;"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("every run met every SLO"), std::string::npos) << r.out;
    r = cli({ "experiment-report", "--db", m_db, "--experiment", "1" });
    EXPECT_EQ(r.exitCode, 0) << "a report is not a verdict: " << r.err;
    EXPECT_NE(r.out.find("at least one run failed an SLO"), std::string::npos) << r.out;

    // A malformed SLO is a plan error naming its place and character; nothing runs.
    std::string bad = builtinPlan(server.port(), "300ms");
    bad.insert(bad.rfind('}'), R"(, "slo": ["p99<25x"])");
    const uint64_t served = server.requestsServed();
    r = cli({ "experiment", "--db", m_db, writePlan(bad, "bad.json") });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("slo[0]: SLO 'p99<25x': at character 7"), std::string::npos) << r.err;
    EXPECT_EQ(server.requestsServed(), served);
}

// The Quick start's example keeps the study's shape: two cluster sizes, each with its own NEG
// baseline, c25/c50/c100, two repetitions (examples_cli_test checks every plan of examples/).
TEST_F(ExperimentCli, ExamplePlanIsValid)
{
    const auto r = cli({ "experiment", "--check", sourceDir() + "/examples/neg-vs-nodeport.json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("4 targets in 2 groups (baselines NEG 4 nodes, NEG 10 nodes), 3 levels, 2 repetitions: "
                         "24 runs"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  c100 rep 2: NodePort 10 nodes\n"), std::string::npos) << r.out;
}
