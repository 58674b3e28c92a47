// wrkbench-cli as users run it: wrk's command lines, its report, JSON, errors.

#include "serve/targetserver.h"
#include "testsupport.h"

#include <chrono>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>

using namespace wb;
using test::runProcess;

namespace {

class Cli : public ::testing::Test
{
protected:
    void SetUp() override
    {
        TargetServerOptions options;
        options.text = "hello world\n";
        m_server = std::make_unique<TargetServer>(options);
        ASSERT_TRUE(m_server->start().ok());
        m_url = "http://127.0.0.1:" + std::to_string(m_server->port()) + "/";
    }

    test::ProcessResult cli(std::vector<std::string> args, int timeoutMs = 60'000)
    {
        return test::runCli(std::move(args), timeoutMs);
    }

    static std::vector<std::string> lines(const std::string& text) { return test::splitLines(text); }

    // One line on stderr, naming the problem; a clean non-zero exit (no signal).
    void expectCleanError(const test::ProcessResult& r, const std::string& part)
    {
        EXPECT_FALSE(r.timedOut);
        EXPECT_GT(r.exitCode, 0);
        EXPECT_LT(r.exitCode, 128) << "crashed";
        EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
        EXPECT_EQ(r.err.rfind("wrkbench-cli: error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
    }

    std::unique_ptr<TargetServer> m_server;
    std::string m_url;
};

} // namespace

TEST_F(Cli, WrkCommandLinePrintsWrkReport)
{
    // wrk's spellings: attached and separate values, bare seconds, flags after the URL.
    const auto r = cli({ "-c4", "-t", "2", "-d", "1", m_url, "--latency" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto l = lines(r.out);
    ASSERT_GE(l.size(), 14u) << r.out;
    EXPECT_EQ(l[0], "Running 1s test @ " + m_url);
    EXPECT_EQ(l[1], "  2 threads and 4 connections");
    EXPECT_EQ(l[2].rfind("  Closed loop (as wrk): latency is service time only", 0), 0u) << l[2];
    l.erase(l.begin() + 2); // from here on, wrk's lines exactly
    EXPECT_EQ(l[2], "  Thread Stats   Avg      Stdev     Max   +/- Stdev");
    // wrk's column layout: name padded to 10, values right-aligned, percentage with 2 decimals.
    const std::regex row(
        R"(    (Latency |Req/Sec ) {0,6}[ 0-9.]+[a-zA-Z]{0,2} +[0-9.]+[a-zA-Z]{0,2} +[0-9.]+[a-zA-Z]{0,2} +[0-9.]+%)");
    EXPECT_TRUE(std::regex_match(l[3], row)) << l[3];
    EXPECT_TRUE(std::regex_match(l[4], row)) << l[4];
    EXPECT_EQ(l[5], "  Latency Distribution");
    EXPECT_TRUE(std::regex_match(l[6], std::regex(R"(     50% +[0-9.]+(us|ms|s))"))) << l[6];
    EXPECT_TRUE(std::regex_match(l[9], std::regex(R"(     99% +[0-9.]+(us|ms|s))"))) << l[9];
    const std::regex total(R"(  ([0-9]+) requests in 1\.0[0-9]s, [0-9.]+[KMG]?B read)");
    std::smatch m;
    bool sawTotal = false, sawRps = false, sawTransfer = false;
    for (const auto& line : l) {
        if (std::regex_match(line, m, total)) {
            sawTotal = true;
            EXPECT_GT(std::stoull(m[1]), 10u); // a floor any build on any machine clears: requests happened
        }
        sawRps |= std::regex_match(line, std::regex(R"(Requests/sec: +[0-9]+\.[0-9]{2})"));
        sawTransfer |= std::regex_match(line, std::regex(R"(Transfer/sec: +[0-9.]+[KMG]?B)"));
        EXPECT_EQ(line.find("Socket errors"), std::string::npos);
    }
    EXPECT_TRUE(sawTotal) << r.out;
    EXPECT_TRUE(sawRps) << r.out;
    EXPECT_TRUE(sawTransfer) << r.out;
}

TEST_F(Cli, RunSubcommandAndJsonToStdout)
{
    const auto r = cli({ "run", "-t1", "-c2", "-n", "200", "--json", "-", m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // The text report moves to stderr so stdout is only JSON.
    EXPECT_NE(r.err.find("Requests/sec:"), std::string::npos);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["tool"], "wrkbench");
    EXPECT_EQ(j["config"]["threads"], 1);
    EXPECT_EQ(j["config"]["connections"], 2);
    EXPECT_EQ(j["summary"]["requests"], 200);
    EXPECT_EQ(j["summary"]["status_codes"]["200"], j["summary"]["requests"]);
    EXPECT_EQ(j["summary"]["errors"]["connect"], 0);
    EXPECT_GT(j["summary"]["latency_us"]["p99"].get<double>(), 0);
    EXPECT_GE(j["intervals"].size(), 1u);
}

// -n: the run ends at the count, exactly, in one process or over several loaders (each its share).
TEST_F(Cli, ResponsesEndTheRunAtTheirCount)
{
    for (const std::vector<std::string>& where : { std::vector<std::string> {}, { "--loaders", "2" } }) {
        std::vector<std::string> args { "-t2", "-c4", "-d60s", "-n", "301", "--json", "-" };
        args.insert(args.end(), where.begin(), where.end());
        args.push_back(m_url);
        const auto r = cli(args);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["summary"]["requests"], 301) << r.err;
        EXPECT_EQ(j["summary"]["status_codes"]["200"], 301);
        EXPECT_LT(j["summary"]["duration_s"].get<double>(), 60.0);
        EXPECT_NE(r.err.find("301 requests in "), std::string::npos) << r.err;
    }
    expectCleanError(cli({ "-t4", "-c4", "-n", "3", m_url }), "--responses 3 gives some of the 4 threads no response");
    expectCleanError(cli({ "-n", "0", m_url }), "--responses: must be between 1 and");
}

TEST_F(Cli, JsonToFile)
{
    test::TempDir dir;
    const auto path = dir.file("result.json");
    const auto r = cli({ "-t1", "-c1", "-n", "100", "--json", path, m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Requests/sec:"), std::string::npos);
    const auto j = nlohmann::json::parse(test::readFile(path));
    EXPECT_EQ(j["summary"]["requests"], 100);
}

TEST_F(Cli, ErrorsAndNon2xxAreReportedLikeWrk)
{
    const auto r
        = cli({ "-t1", "-c2", "-d300ms", "http://127.0.0.1:" + std::to_string(m_server->port()) + "/status/503" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  Non-2xx or 3xx responses: [0-9]+\n)"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  Status codes: 503 [0-9]+\n)"))) << r.out;
}

TEST_F(Cli, TimeoutsAreSocketErrors)
{
    // 2 s: room for the 300 ms timeout to be seen (every 100 ms) inside the run on a busy machine.
    const auto r = cli({ "-t1", "-c1", "-d2", "--timeout", "300ms",
        "http://127.0.0.1:" + std::to_string(m_server->port()) + "/silent" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(
        std::regex_search(r.out, std::regex(R"(\n  Socket errors: connect 0, read 0, write 0, timeout [1-9][0-9]*\n)")))
        << r.out;
}

TEST_F(Cli, InterruptStopsAndReports)
{
    // Ctrl-C 2 s into a 30 s run: the run stops there and the report covers what completed.
    // (Under ASan the set-up alone can take a second; an interrupt during it stops the run as
    // soon as it begins, which the checks below also accept.) What shows the stop is the
    // result itself: stopped early, with a measured time and intervals short of the 30 s,
    // not how long the process took.
    // --foreground: one SIGINT, to the CLI alone. Without it timeout(1) signals the CLI, then its own
    // process group again, and a second Ctrl-C kills (as in wrk) when the first was already handled,
    // which a busy machine makes likely.
    test::TempDir dir;
    const std::string json = dir.file("r.json");
    const auto r = runProcess({ "timeout", "--foreground", "-s", "INT", "2", test::cliPath(), "-t1", "-c2", "-d", "30s",
        "--json", json, m_url });
    EXPECT_EQ(r.exitCode, 124) << "timeout(1) reports 124 when it had to send the signal";
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  [0-9]+ requests in [0-9.]+(us|ms|s), )"))) << r.out << r.err;
    EXPECT_NE(r.out.find("Requests/sec:"), std::string::npos) << r.out;
    const auto j = nlohmann::json::parse(test::readFile(json));
    EXPECT_EQ(j["summary"]["stopped_early"], true) << "the run went on after the interrupt";
    EXPECT_LT(j["summary"]["duration_s"].get<double>(), 30.0);
    EXPECT_LT(j["intervals"].size(), 30u);
}

TEST_F(Cli, BadInputGivesOneClearLine)
{
    expectCleanError(cli({ "--no-such-flag", m_url }), "--no-such-flag");
    expectCleanError(cli({ "-c", "10", "not-a-url" }), "invalid URL 'not-a-url'");
    expectCleanError(cli({ "ftp://127.0.0.1/" }), "unsupported scheme 'ftp'");
    expectCleanError(cli({ "-R", "100", "--send-spin", "1s", m_url }), "--send-spin: must be at most 10ms");
    expectCleanError(cli({ "-R", "100", "--send-spin", "soon", m_url }), "--send-spin: invalid duration");
    expectCleanError(cli({ "-H", "NoColon", m_url }), "invalid header 'NoColon'");
    expectCleanError(cli({ "http://no-such-host.invalid/" }), "cannot resolve host 'no-such-host.invalid'");
    expectCleanError(cli({ "-c", "0", m_url }), "--connections: must be between 1 and 1000000");
    expectCleanError(cli({ "-t", "8", "-c", "4", m_url }), "must be at least the number of threads");
    expectCleanError(cli({ "-d", "3x", m_url }), "invalid duration '3x'");
    expectCleanError(cli({ "-c", "ten", m_url }), "invalid number 'ten'");
    expectCleanError(cli({ "-s", "no-such-script.lua", m_url }), "cannot read the script 'no-such-script.lua'");
    expectCleanError(cli({ "--body-file", "/nonexistent/body", m_url }), "cannot read body file");

    TargetServer closed({});
    ASSERT_TRUE(closed.start().ok());
    const auto port = std::to_string(closed.port());
    closed.stop();
    expectCleanError(cli({ "http://127.0.0.1:" + port + "/" }), "connection refused by 127.0.0.1:" + port);
}

TEST_F(Cli, VersionAndHelp)
{
    const auto v = cli({ "--version" });
    EXPECT_EQ(v.exitCode, 0);
    EXPECT_EQ(v.out.rfind("wrkbench-cli ", 0), 0u) << v.out;
    const auto h = cli({ "run", "--help" });
    EXPECT_EQ(h.exitCode, 0);
    EXPECT_NE(h.out.find("--connections"), std::string::npos);
    const auto none = cli({});
    EXPECT_NE(none.exitCode, 0);
    EXPECT_NE(none.err.find("Usage"), std::string::npos) << none.err;
}

TEST_F(Cli, ServeAnswersAndStopsByItself)
{
    const uint16_t port = test::freeTcpPort();
    test::ChildProcess server;
    test::TempDir dir;
    ASSERT_TRUE(server.start(
        { test::cliPath(), "serve", "--port", std::to_string(port), "--duration", "10s", "--text", "from serve\n" },
        dir.file("serve.log")));
    ASSERT_TRUE(test::waitForPort("127.0.0.1", port, 30'000));
    const auto r = cli({ "-t1", "-c1", "-d300ms", "--json", "-", "http://127.0.0.1:" + std::to_string(port) + "/" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_GT(j["summary"]["requests"].get<uint64_t>(), 5u);
    EXPECT_EQ(server.signalAndWait(0, 60'000), 0); // exits by itself after --duration, status 0
    EXPECT_NE(test::readFile(dir.file("serve.log")).find("listening on http://127.0.0.1:" + std::to_string(port)),
        std::string::npos);
}

TEST_F(Cli, TheBuiltinHostWorksFromTheCliToo)
{
    // As in the GUI: the built-in target server starts in-process; the report and the
    // session name the URL as typed.
    test::TempDir dir;
    const std::string db = dir.file("s.wrkbench");
    const auto r = cli({ "-t1", "-c2", "-d1s", "--db", db, "http://builtin/delay/1" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(r.out).at(0), "Running 1s test @ http://builtin/delay/1");
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  [1-9][0-9]* requests in )"))) << r.out;
    EXPECT_NE(r.out.find("Stored as run 1 in '" + db + "'"), std::string::npos) << r.out;
    const auto runs = cli({ "runs", "--db", db });
    ASSERT_EQ(runs.exitCode, 0) << runs.err;
    EXPECT_NE(runs.out.find("http://builtin/delay/1"), std::string::npos) << runs.out;

    expectCleanError(cli({ "-d1s", "https://builtin/" }), "the built-in server speaks plain http");
}
