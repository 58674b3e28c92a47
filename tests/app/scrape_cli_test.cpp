// wrkbench-cli run --scrape: the target's own metrics beside the load, in the text report, the
// JSON, the session and `export --what scrape` (CSV and JSON), all saying the same; a bad flag is a
// usage error before anything runs, a failing endpoint a warning after a run that went through.

#include "testsupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace wb;
using nlohmann::json;

TEST(ScrapeCli, BuiltinMetricsInReportJsonSessionAndExport)
{
    test::TempDir dir;
    const std::string db = dir.file("s.wrkbench");
    const std::string out = dir.file("run.json");
    auto run = test::runCli({ "run", "-t1", "-c2", "-d2s", "--interval", "500ms", "http://builtin/", "--scrape",
        "server=http://builtin/metrics", "--scrape-metric", "wrkbench_server_threads", "--db", db, "--json", out });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("Target metrics"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("  server (http://builtin/metrics): "), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("wrkbench_server_requests_total /s"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("wrkbench_server_busy_percent %"), std::string::npos) << run.out;

    const json report = json::parse(test::readFile(out));
    ASSERT_TRUE(report.contains("scrape")) << report.dump();
    const json& scrape = report["scrape"];
    ASSERT_EQ(scrape["endpoints"].size(), 1u);
    EXPECT_EQ(scrape["endpoints"][0]["name"], "server");
    // A scrape within the run has 400 ms (80% of the interval): on a busy machine one may time out.
    EXPECT_LT(scrape["endpoints"][0]["failures"].get<int>(), scrape["endpoints"][0]["scrapes"].get<int>());
    EXPECT_EQ(scrape["metric"], "wrkbench_server_threads");
    size_t points = 0;
    bool threads = false;
    for (const json& s : scrape["series"]) {
        points += s["points"].size();
        if (s["name"] == "wrkbench_server_threads") {
            threads = true;
            for (const json& p : s["points"])
                EXPECT_EQ(p[1], 2) << "the built-in server's two threads";
        }
    }
    EXPECT_TRUE(threads) << "kept by --scrape-metric";
    EXPECT_GT(points, 0u);

    // The session's copy is the report's.
    auto exported = test::runCli({ "export", "--db", db, "--run", "1", "--what", "scrape", "--json" });
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    const json stored = json::parse(exported.out);
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_EQ(stored[0]["run_id"], 1);
    EXPECT_EQ(stored[0]["scrape"], scrape);

    auto csv = test::runCli({ "export", "--db", db, "--run", "1", "--what", "scrape", "--csv" });
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    const auto lines = test::splitLines(csv.out);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], "run_id,endpoint,url,series,kind,at_unix_ms,t_s,value");
    EXPECT_EQ(lines.size(), points + 1) << "one row per point";
    EXPECT_EQ(lines[1].rfind("1,server,http://builtin/metrics,", 0), 0u) << lines[1];

    auto wrongFormat = test::runCli({ "export", "--db", db, "--run", "1", "--what", "series", "--json" });
    EXPECT_EQ(wrongFormat.exitCode, 2);
    EXPECT_NE(wrongFormat.err.find("--json goes with --what scrape"), std::string::npos) << wrongFormat.err;
}

TEST(ScrapeCli, BadFlagsAreUsageErrors)
{
    auto r = test::runCli({ "run", "-d1s", "http://builtin/", "--scrape", "ftp://127.0.0.1/metrics" });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--scrape 'ftp://127.0.0.1/metrics'"), std::string::npos) << r.err;
    r = test::runCli(
        { "run", "-d1s", "http://builtin/", "--scrape", "http://builtin/metrics", "--scrape-metric", "(" });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("is not a regular expression"), std::string::npos) << r.err;
    r = test::runCli({ "run", "-d1s", "http://builtin/", "--scrape-metric", "x" });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--scrape-metric needs --scrape"), std::string::npos) << r.err;
    r = test::runCli({ "run", "-d1s", "http://builtin/", "--scrape", "a=http://builtin/metrics", "--scrape",
        "a=http://builtin/metrics" });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("two scrape endpoints are named 'a'"), std::string::npos) << r.err;
}

TEST(ScrapeCli, FailingEndpointIsAWarning)
{
    const uint16_t closed = test::freeTcpPort();
    auto r = test::runCli({ "run", "-t1", "-c2", "-d1s", "http://builtin/", "--scrape",
        "gone=http://127.0.0.1:" + std::to_string(closed) + "/metrics" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("scrape 'gone': "), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("Requests/sec:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("failed"), std::string::npos) << r.out;
}
