// wrkbench-cli with session files: run --db, runs, export, import; a run killed
// with SIGKILL, two runs writing one file, files that are not sessions.

#include "pythoncsv.h"
#include "serve/targetserver.h"
#include "stats/ratesamples.h"
#include "store/schema.h"
#include "store/sessionstore.h"
#include "storetestutil.h"
#include "testsupport.h"
#include "wrk/wrklog.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <sys/stat.h>
#include <thread>

using namespace wb;
using test::runProcess;
using test::sourceDir;

namespace {

class StoreCli : public ::testing::Test
{
protected:
    void SetUp() override
    {
        TargetServerOptions options;
        options.text = "hello world\n";
        options.threads = 2;
        m_server = std::make_unique<TargetServer>(options);
        ASSERT_TRUE(m_server->start().ok());
        m_url = "http://127.0.0.1:" + std::to_string(m_server->port()) + "/";
        m_db = m_dir.file("lab.wrkbench");
    }

    test::ProcessResult cli(std::vector<std::string> args, int timeoutMs = 60'000)
    {
        return test::runCli(std::move(args), timeoutMs);
    }

    static nlohmann::json csv(const std::string& text) { return test::parseCsvWithPython(text); }

    // Waits (a minute at most) until run 1 of m_db has `count` intervals stored; returns how many it has.
    size_t intervalsWritten(size_t count) const
    {
        size_t seen = 0;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (seen < count && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (!std::filesystem::exists(m_db)) continue;
            // Not openReadOnly(): a file the run has only begun to create is no failure here.
            SessionOpenOptions options;
            options.readOnly = true;
            if (auto store = SessionStore::open(m_db, options); store)
                if (auto data = (*store)->runs().load(1); data) seen = data->intervals.size();
        }
        return seen;
    }
    nlohmann::json runsCsv(const std::vector<std::string>& extra = {})
    {
        std::vector<std::string> args { "runs", "--db", m_db, "--csv" };
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return csv(r.out)["rows"];
    }

    std::unique_ptr<SessionStore> openReadOnly() { return storetest::openStore(m_db, true); }

    static double number(const nlohmann::json& field) { return std::stod(field.get<std::string>()); }

    test::TempDir m_dir;
    std::unique_ptr<TargetServer> m_server;
    std::string m_url;
    std::string m_db;
};

std::string integrityCheck(SessionStore& store)
{
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(store.nativeHandle(), "PRAGMA integrity_check", -1, &stmt, nullptr);
    std::string out
        = sqlite3_step(stmt) == SQLITE_ROW ? reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)) : "";
    sqlite3_finalize(stmt);
    return out;
}

} // namespace

TEST_F(StoreCli, RunIsStoredAndListed)
{
    const std::string json = m_dir.file("r.json");
    const auto r = cli({ "run", "-c4", "-t2", "-n", "400", "--interval", "250ms", "--db", m_db, "--target", "NEG",
        "--tag", "baseline", "--tag", "GKE", "--json", json, m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Stored as run 1 in '" + m_db + "'"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
    const auto result = nlohmann::json::parse(test::readFile(json));

    const auto rows = runsCsv();
    ASSERT_EQ(rows.size(), 1u);
    const auto& row = rows[0];
    EXPECT_EQ(row["id"], "1");
    EXPECT_EQ(row["target"], "NEG");
    EXPECT_EQ(row["tags"], "GKE,baseline");
    EXPECT_EQ(row["status"], "completed");
    EXPECT_EQ(row["threads"], "2");
    EXPECT_EQ(row["connections"], "4");
    EXPECT_NEAR(number(row["requests_per_s"]), result["summary"]["rps"].get<double>(), 1e-6);
    EXPECT_NEAR(number(row["duration_s"]), result["summary"]["duration_s"].get<double>(), 1e-6);
    EXPECT_NEAR(number(row["p99_ms"]), result["summary"]["latency_us"]["p99"].get<double>() / 1000, 1e-9);
    EXPECT_EQ(row["errors"], "0");
    EXPECT_EQ(row["non2xx"], "0");
    EXPECT_FALSE(row["started"].get<std::string>().empty());

    // The target was created from the URL; a second run reuses it. Filters work from the CLI.
    ASSERT_EQ(cli({ "run", "-c2", "-t1", "-n", "100", "--db", m_db, "--target", "NEG", m_url }).exitCode, 0);
    ASSERT_EQ(cli({ "run", "-c2", "-t1", "-n", "100", "--db", m_db, m_url }).exitCode, 0);
    auto store = openReadOnly();
    auto targets = store->targets().all();
    ASSERT_TRUE(targets.ok());
    ASSERT_EQ(targets->size(), 2u);
    auto byUrl = store->targets().byName(m_url);
    ASSERT_TRUE(byUrl.ok() && byUrl->has_value()) << "named after the URL";
    EXPECT_EQ((*byUrl)->url, m_url);
    auto neg = store->targets().byName("NEG");
    ASSERT_TRUE(neg.ok() && neg->has_value());
    EXPECT_EQ((*neg)->url, m_url);
    EXPECT_EQ((*neg)->method, "GET");
    EXPECT_EQ(runsCsv({ "--target", "NEG" }).size(), 2u);
    EXPECT_EQ(runsCsv({ "--tag", "baseline" }).size(), 1u);
    const auto text = cli({ "runs", "--db", m_db });
    ASSERT_EQ(text.exitCode, 0);
    EXPECT_EQ(text.out.rfind("id  target", 0), 0u) << text.out;
    EXPECT_NE(text.out.find("completed"), std::string::npos);
}

TEST_F(StoreCli, UnreachableTargetIsStoredAsFailed)
{
    const auto r = cli({ "run", "-d1", "--db", m_db, "http://127.0.0.1:9/" });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("connection refused"), std::string::npos) << r.err;
    const auto rows = runsCsv();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0]["status"], "failed");
    auto store = openReadOnly();
    EXPECT_NE(store->runs().record(1)->error.find("connection refused"), std::string::npos);
}

TEST_F(StoreCli, ProbeIsStoredWithTheRunItPreceded)
{
    const auto r = cli({ "run", "-c2", "-t1", "-n", "100", "--probe", "--db", m_db, m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.rfind("Probe: HTTP/1.1 200 OK in ", 0), 0u) << r.out;
    auto store = openReadOnly();
    const auto run = store->runs().record(1);
    ASSERT_TRUE(run.ok());
    const auto probe = nlohmann::json::parse(run->probeJson);
    EXPECT_EQ(probe["status_code"], 200) << run->probeJson;

    // A probe that fails keeps the run from starting; the reason is stored with the failed run.
    const auto refused = cli({ "run", "-d1", "--probe", "--db", m_db, "http://127.0.0.1:9/" });
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_NE(refused.err.find("probe: connection refused by 127.0.0.1:9"), std::string::npos) << refused.err;
    auto again = openReadOnly();
    EXPECT_EQ(again->runs().record(2)->status, RunStatus::Failed);
    EXPECT_NE(again->runs().record(2)->error.find("probe: connection refused"), std::string::npos);
    // A run without --probe has none.
    ASSERT_EQ(cli({ "run", "-c2", "-t1", "-n", "100", "--db", m_db, m_url }).exitCode, 0);
    EXPECT_EQ(openReadOnly()->runs().record(3)->probeJson, "");
}

TEST_F(StoreCli, KilledRunBecomesInterruptedWithItsIntervals)
{
    test::ChildProcess child;
    ASSERT_TRUE(child.start(
        { test::cliPath(), "run", "-c4", "-t2", "-d30s", "--interval", "200ms", "--db", m_db, "--tag", "crash", m_url },
        m_dir.file("child.log")));
    // Wait until the run has written a few intervals (1 s of its 30), then kill it without warning.
    const size_t seen = intervalsWritten(5);
    ASSERT_GE(seen, 5u) << test::readFile(m_dir.file("child.log"));
    EXPECT_EQ(child.signalAndWait(SIGKILL, 60'000), 128 + SIGKILL);

    // Reading it with the CLI marks the run interrupted.
    const auto rows = runsCsv();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0]["status"], "interrupted");
    EXPECT_EQ(rows[0]["tags"], "crash");

    auto store = openReadOnly();
    EXPECT_EQ(integrityCheck(*store), "ok");
    auto data = store->runs().load(1);
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.status, RunStatus::Interrupted);
    EXPECT_GE(data->intervals.size(), seen);
    uint64_t requests = 0;
    for (const auto& interval : data->intervals)
        requests += interval.requests;
    EXPECT_GT(requests, 0u);
    EXPECT_EQ(data->run.totals.requests, requests) << "the summary is rebuilt from the intervals";
    ASSERT_TRUE(data->latency.has_value());
    EXPECT_EQ(data->latency->count(), requests);
    EXPECT_GT(data->run.finishedAtMs, data->run.startedAtMs);
}

// A run killed with SIGKILL and recovered keeps every field a finished run has: `export --what
// summary`, field by field, against a run of the same command line that finished (an open-model run,
// so the open model's fields are there too). The threads' Req/Sec figures are those of the samples
// its stored intervals carry, as a finished run's are.
TEST_F(StoreCli, RecoveredRunHasEveryFieldAFinishedRunHas)
{
    const std::vector<std::string> load { "run", "-t2", "-c8", "-R", "1000", "--interval", "200ms", m_url };
    const std::string finishedDb = m_dir.file("finished.wrkbench");
    std::vector<std::string> finishedArgs = load;
    finishedArgs.insert(finishedArgs.end(), { "-d2s", "--db", finishedDb });
    const auto finished = cli(finishedArgs);
    ASSERT_EQ(finished.exitCode, 0) << finished.err;

    test::ChildProcess child;
    std::vector<std::string> killedArgs = load;
    killedArgs.insert(killedArgs.begin(), test::cliPath());
    killedArgs.insert(killedArgs.end(), { "-d30s", "--db", m_db });
    ASSERT_TRUE(child.start(killedArgs, m_dir.file("child.log")));
    const size_t seen = intervalsWritten(5);
    ASSERT_GE(seen, 5u) << test::readFile(m_dir.file("child.log"));
    EXPECT_EQ(child.signalAndWait(SIGKILL, 60'000), 128 + SIGKILL);
    ASSERT_EQ(runsCsv()[0]["status"], "interrupted"); // reading it recovers it

    const auto summary = [&](const std::string& db) {
        const auto r = cli({ "export", "--db", db, "--run", "1", "--what", "summary", "--csv" });
        EXPECT_EQ(r.exitCode, 0) << r.err;
        const auto rows = csv(r.out)["rows"];
        return rows.size() == 1 ? rows[0] : nlohmann::json::object();
    };
    const nlohmann::json whole = summary(finishedDb);
    const nlohmann::json recovered = summary(m_db);
    ASSERT_FALSE(whole.empty());
    std::vector<std::string> lost;
    for (const auto& [field, value] : whole.items())
        if (!value.get<std::string>().empty() && recovered.value(field, "").empty()) lost.push_back(field);
    EXPECT_EQ(lost, std::vector<std::string> {}) << "fields a finished run has and the recovered one lacks";
    EXPECT_EQ(whole["status"], "completed");
    EXPECT_EQ(recovered["stopped_early"], "1");

    // Each run's Req/Sec figures are its intervals' samples (none of them empty).
    for (const auto& [db, row] : { std::pair(finishedDb, whole), std::pair(m_db, recovered) }) {
        SessionOpenOptions options;
        options.readOnly = true;
        auto store = SessionStore::open(db, options);
        ASSERT_TRUE(store.ok()) << store.error();
        auto data = (*store)->runs().load(1);
        ASSERT_TRUE(data.ok()) << data.error();
        RateSamples samples;
        for (const IntervalRecord& interval : data->intervals)
            samples.perThreadRequestsPerS.insert(samples.perThreadRequestsPerS.end(),
                interval.threadRateSamples.begin(), interval.threadRateSamples.end());
        ASSERT_GT(samples.perThreadRequestsPerS.size(), 2 * seen) << db; // 2 threads, 2 samples an interval
        EXPECT_NEAR(number(row["thread_rps_mean"]), samples.mean(), 0.01) << db;
        EXPECT_NEAR(number(row["thread_rps_max"]), samples.max(), 0.01) << db;
    }
}

TEST_F(StoreCli, RunsListKeepsNon2xxApartFromErrors)
{
    // Every answer a 404: answers, not transport errors (as the GUI's Runs table counts them).
    const auto r = cli({ "run", "-c2", "-t1", "-d1s", "--db", m_db, "--target", "404s", m_url + "status/404" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = runsCsv();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0]["errors"], "0");
    const double non2xx = number(rows[0]["non2xx"]);
    EXPECT_GT(non2xx, 20); // enough answers for the 1% below to mean something
    EXPECT_NEAR(non2xx, number(rows[0]["requests_per_s"]) * number(rows[0]["duration_s"]), non2xx * 0.01 + 1);
    const auto table = cli({ "runs", "--db", m_db });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("non-2xx"), std::string::npos) << table.out;
}

TEST_F(StoreCli, TwoRunsWritingOneFileBothLand)
{
    test::ChildProcess a, b;
    for (auto* child : { &a, &b })
        ASSERT_TRUE(
            child->start({ test::cliPath(), "run", "-c2", "-t1", "-d2s", "--interval", "100ms", "--db", m_db, m_url }));
    EXPECT_EQ(a.signalAndWait(0, 60'000), 0);
    EXPECT_EQ(b.signalAndWait(0, 60'000), 0);
    const auto rows = runsCsv();
    ASSERT_EQ(rows.size(), 2u);
    auto store = openReadOnly();
    for (int64_t id : { 1, 2 }) {
        auto data = store->runs().load(id);
        ASSERT_TRUE(data.ok()) << data.error();
        EXPECT_EQ(data->run.status, RunStatus::Completed);
        EXPECT_GE(data->intervals.size(), 19u);
        uint64_t requests = 0;
        for (const auto& interval : data->intervals)
            requests += interval.requests;
        EXPECT_EQ(requests, data->run.totals.requests);
    }
    EXPECT_EQ(integrityCheck(*store), "ok");
}

TEST_F(StoreCli, FilesThatAreNotSessionsGiveClearErrorsAndStayUnchanged)
{
    // A real session to truncate and to make "newer".
    ASSERT_EQ(cli({ "run", "-c2", "-t1", "-d500ms", "--interval", "100ms", "--db", m_db, m_url }).exitCode, 0);
    const std::string session = test::readFile(m_db);
    const std::string future = m_dir.file("future.wrkbench");
    test::writeFile(future, session);
    {
        sqlite3* db = nullptr;
        sqlite3_open(future.c_str(), &db);
        sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    struct Case
    {
        std::string file;
        std::string content;
        std::string problem;
    };
    const std::vector<Case> cases {
        { m_dir.file("notes.txt"), "Running 30s test @ http://x/\n",
            "is not a wrkbench session (not an SQLite database)" },
        { m_dir.file("empty.wrkbench"), "", "is empty" },
        { m_dir.file("cut.wrkbench"), session.substr(0, session.size() / 2), "is damaged" },
        { future, test::readFile(future),
            "was written by a newer wrkbench (schema 99, this version understands " + std::to_string(SCHEMA_VERSION)
                + ")" },
    };
    for (const Case& c : cases) {
        if (c.file != future) test::writeFile(c.file, c.content);
        for (const std::vector<std::string>& args :
            std::vector<std::vector<std::string>> {
                { "runs", "--db", c.file },
                { "run", "-n", "100", "--db", c.file, m_url },
                { "export", "--db", c.file, "--run", "1", "--what", "summary", "--csv" },
                { "import", "--db", c.file, sourceDir() + "/../shared/reference/container-performance-comparison.txt" },
            }) {
            const auto r = cli(args);
            EXPECT_EQ(r.exitCode, 1) << args[0] << " " << c.file << ": " << r.err;
            EXPECT_EQ(r.err.rfind("wrkbench-cli: error: '" + c.file + "' ", 0), 0u) << "names the file: " << r.err;
            EXPECT_NE(r.err.find(c.problem), std::string::npos) << args[0] << ": " << r.err;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
            EXPECT_EQ(r.out, "") << "no run happens";
            EXPECT_EQ(test::readFile(c.file), c.content) << args[0] << " changed " << c.file;
        }
    }
}

TEST_F(StoreCli, ReadOnlySessionIsReadableAndARunIntoItIsReported)
{
    ASSERT_EQ(cli({ "run", "-c2", "-t1", "-n", "100", "--db", m_db, m_url }).exitCode, 0);
    ASSERT_EQ(::chmod(m_db.c_str(), 0444), 0);
    const std::string before = test::readFile(m_db);
    EXPECT_EQ(runsCsv().size(), 1u);

    const auto r = cli({ "run", "-c2", "-t1", "-n", "100", "--db", m_db, m_url });
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_NE(r.out.find("Requests/sec:"), std::string::npos) << "the run itself went on";
    EXPECT_NE(
        r.err.find("wrkbench-cli: warning: the run was not stored: '" + m_db + "' is read-only"), std::string::npos)
        << r.err;

    const auto imported
        = cli({ "import", "--db", m_db, sourceDir() + "/../shared/reference/container-performance-comparison.txt" });
    EXPECT_EQ(imported.exitCode, 1);
    EXPECT_NE(imported.err.find("is read-only"), std::string::npos) << imported.err;
    EXPECT_EQ(test::readFile(m_db), before);
    EXPECT_EQ(runsCsv().size(), 1u);
}

TEST_F(StoreCli, ImportsTheReferenceLogs)
{
    const std::string dir = sourceDir() + "/../shared/reference/";
    const std::string containers = dir + "container-performance-comparison.txt";
    const std::string ambassador = dir + "ambassador-vs-service-wrk.txt";
    const size_t ambassadorReports = parseWrkLog(test::readFile(ambassador)).reports.size();
    const auto r = cli({ "import", "--db", m_db, "--tag", "containers", containers, ambassador });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find(containers + ": 8 reports found, stored as runs 1-8\n"), std::string::npos) << r.out;
    if (ambassadorReports == 0)
        EXPECT_NE(r.out.find(ambassador + ": no reports found"), std::string::npos) << r.out;
    else
        EXPECT_NE(r.out.find(ambassador + ": " + std::to_string(ambassadorReports) + " report"), std::string::npos);

    const auto rows = runsCsv({ "--tag", "containers" });
    ASSERT_EQ(rows.size(), 8u + ambassadorReports);
    EXPECT_EQ(rows[0]["status"], "imported");
    EXPECT_EQ(rows[0]["target"], "http://localhost:8080");
    EXPECT_EQ(rows[0]["threads"], "12");
    EXPECT_EQ(rows[0]["connections"], "400");
    EXPECT_EQ(rows[0]["duration_s"], "30.09");
    EXPECT_EQ(rows[0]["requests_per_s"], "104418.14");
    EXPECT_EQ(rows[0]["errors"], "376");
    EXPECT_EQ(rows[7]["target"], "http://localhost:8000");
    EXPECT_EQ(rows[7]["requests_per_s"], "159194.28");

    const auto summary = cli({ "export", "--db", m_db, "--run", "3", "--what", "summary", "--csv" });
    ASSERT_EQ(summary.exitCode, 0) << summary.err;
    const auto s = csv(summary.out)["rows"][0];
    EXPECT_EQ(s["requests"], "1076704");
    EXPECT_NEAR(number(s["latency_mean_ms"]), 11.16, 1e-9);
    EXPECT_NEAR(number(s["latency_max_ms"]), 95.97, 1e-9);
    EXPECT_NEAR(number(s["thread_rps_stdev"]), 397.64, 1e-9);
    EXPECT_EQ(s["errors_read"], "261");
    EXPECT_EQ(s["engine_version"], "wrk");
    EXPECT_NE(s["source"].get<std::string>().find(containers + ":"), std::string::npos);

    // --target puts every report on one target.
    const std::string other = m_dir.file("other.wrkbench");
    ASSERT_EQ(cli({ "import", "--db", other, "--target", "Containers", containers }).exitCode, 0);
    const auto again = cli({ "runs", "--db", other, "--csv", "--target", "Containers" });
    EXPECT_EQ(csv(again.out)["rows"].size(), 8u);
}

TEST_F(StoreCli, ImportSkipsUnreadableReportsWithTheirLine)
{
    const std::string log = m_dir.file("broken.txt");
    const std::string good = "$ wrk -t2 -c10 -d5s http://a/\nRunning 5s test @ http://a/\n"
                             "  2 threads and 10 connections\n"
                             "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                             "    Latency     1.00ms    0.50ms   5.00ms   70.00%\n"
                             "    Req/Sec     5.00k     1.00k    6.00k    60.00%\n"
                             "  50000 requests in 5.00s, 6.00MB read\n"
                             "Requests/sec:  10000.00\nTransfer/sec:      1.20MB\n";
    const std::string cut = "Running 5s test @ http://b/\n  2 threads and 10 connections\n"
                            "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                            "    Latency     1.00ms    0.50ms   5.00ms   70.00%\n";
    test::writeFile(log, good + "\nsome prose\n" + cut);
    const WrkLogParseResult parsed = parseWrkLog(test::readFile(log));
    ASSERT_EQ(parsed.reports.size(), 1u);
    ASSERT_EQ(parsed.skipped.size(), 1u);
    const auto r = cli({ "import", "--db", m_db, log });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find(
                  log + ":" + std::to_string(parsed.skipped[0].line) + ": report skipped: " + parsed.skipped[0].reason),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(log + ": 1 report found, stored as run 1; 1 skipped"), std::string::npos) << r.out;
    EXPECT_EQ(runsCsv().size(), 1u) << "nothing of the half report is stored";
}

TEST_F(StoreCli, ExportsRoundTripThroughPythonsCsvModule)
{
    ASSERT_EQ(cli({ "run", "-c4", "-t2", "-d1", "--interval", "200ms", "--db", m_db, "--target", "a \"quoted\", name",
                      m_url })
                  .exitCode,
        0);
    auto store = openReadOnly();
    auto data = store->runs().load(1);
    ASSERT_TRUE(data.ok());
    const uint64_t requests = data->run.totals.requests;
    ASSERT_GT(requests, 0u);

    auto exported = [&](const std::string& what) {
        const std::string out = m_dir.file(what + ".csv");
        const auto r = cli({ "export", "--db", m_db, "--run", "1", "--what", what, "--csv", out });
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.out, "");
        return csv(test::readFile(out));
    };
    const auto summary = exported("summary");
    EXPECT_EQ(summary["rows"][0]["target"], "a \"quoted\", name");
    EXPECT_EQ(summary["rows"][0]["requests"], std::to_string(requests));

    const auto series = exported("series");
    ASSERT_EQ(series["rows"].size(), data->intervals.size());
    uint64_t sum = 0;
    double previousEnd = 0;
    for (const auto& row : series["rows"]) {
        sum += std::stoull(row["requests"].get<std::string>());
        EXPECT_NEAR(number(row["start_s"]), previousEnd, 1e-9) << "seconds, back to back";
        previousEnd = number(row["end_s"]);
    }
    EXPECT_EQ(sum, requests);

    const auto spectrum = exported("percentiles")["rows"];
    ASSERT_FALSE(spectrum.empty());
    EXPECT_EQ(spectrum.back()["percentile"], "100");
    EXPECT_EQ(spectrum.back()["count"], std::to_string(requests));
    EXPECT_NEAR(number(spectrum.back()["latency_ms"]), data->latency->maxUs() / 1000.0, 1e-9);

    const auto status = exported("status")["rows"];
    ASSERT_EQ(status.size(), 1u);
    EXPECT_EQ(status[0]["status_code"], "200");
    EXPECT_EQ(status[0]["count"], std::to_string(requests));

    // To stdout, and an unknown run is a clear error.
    const auto toStdout = cli({ "export", "--db", m_db, "--run", "1", "--what", "status", "--csv" });
    EXPECT_EQ(toStdout.out, "run_id,status_code,count\n1,200," + std::to_string(requests) + "\n");
    const auto missing = cli({ "export", "--db", m_db, "--run", "42", "--what", "series", "--csv" });
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_EQ(missing.err, "wrkbench-cli: error: no run with id 42 in '" + m_db + "'\n");
}

TEST_F(StoreCli, TagAddsAndRemovesTagsOnRunRangesAtOnce)
{
    const std::string log = sourceDir() + "/../shared/reference/container-performance-comparison.txt";
    ASSERT_EQ(cli({ "import", "--db", m_db, log }).exitCode, 0);
    ASSERT_EQ(runsCsv().size(), 8u);
    auto r = cli({ "tag", "--db", m_db, "--run", "1-2,5", "--add", "native", "--add", "http-pkg" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "Tagged 3 runs in '" + m_db + "'\n");
    EXPECT_EQ(runsCsv({ "--tag", "native" }).size(), 3u);
    r = cli({ "tag", "--db", m_db, "--run", "2", "--remove", "native", "--add", "go-gin" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = runsCsv();
    EXPECT_EQ(rows[0]["tags"], "http-pkg,native");
    EXPECT_EQ(rows[1]["tags"], "go-gin,http-pkg");
    EXPECT_EQ(runsCsv({ "--tag", "native" }).size(), 2u);

    // A missing run, a bad range or a bad tag changes nothing, with one line naming it.
    const std::string before = test::readFile(m_db);
    for (const auto& args : std::vector<std::vector<std::string>> {
             { "tag", "--db", m_db, "--run", "1-9", "--add", "x" },
             { "tag", "--db", m_db, "--run", "3-1", "--add", "x" },
             { "tag", "--db", m_db, "--run", "1", "--add", "a,b" },
             { "tag", "--db", m_db, "--run", "1" },
         }) {
        const auto bad = cli(args);
        EXPECT_GT(bad.exitCode, 0) << args[4];
        EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
        EXPECT_EQ(bad.out, "");
    }
    EXPECT_NE(
        cli({ "tag", "--db", m_db, "--run", "1-9", "--add", "x" }).err.find("no run with id 9"), std::string::npos);
    EXPECT_EQ(test::readFile(m_db), before);
}

TEST_F(StoreCli, ImportTagsEachReportWithItsHeading)
{
    std::string text;
    const std::string log = test::readFile(sourceDir() + "/../shared/reference/container-performance-comparison.txt");
    // The reference log's reports, pasted under two headings of notes.
    const size_t split = log.find("Docker - http-pkg");
    ASSERT_NE(split, std::string::npos);
    text = "# native\n" + log.substr(0, split) + "\n## docker and k8s\n" + log.substr(split);
    const std::string file = m_dir.file("notes.md");
    test::writeFile(file, text);
    const auto r = cli({ "import", "--db", m_db, "--tag-headings", "--tag", "containers", file });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("tagged by heading: 'native' x2, 'docker and k8s' x6"), std::string::npos) << r.out;
    EXPECT_EQ(runsCsv({ "--tag", "native" }).size(), 2u);
    EXPECT_EQ(runsCsv({ "--tag", "docker and k8s" }).size(), 6u);
    EXPECT_EQ(runsCsv({ "--tag", "containers" }).size(), 8u);

    const auto plain = cli({ "import", "--db", m_dir.file("other.wrkbench"), "--tag-headings",
        sourceDir() + "/../shared/reference/container-performance-comparison.txt" });
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_NE(plain.out.find("no headings found to tag by"), std::string::npos) << plain.out;
}
