// wrk scripts (-s) as users run them: the examples in examples/scripts against a real nginx,
// counts checked against nginx's own log, the script stored with the run, bad scripts refused
// or stopping the run with Lua's message, and done()'s output shaped as /usr/bin/wrk prints it.

#include "nginx.h"
#include "requirenginx.h"
#include "store/sessionstore.h"
#include "testsupport.h"

#include <chrono>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>
#include <unistd.h>

using namespace wb;

namespace {

class ScriptCli : public test::NginxTest
{
protected:
    static void SetUpTestSuite()
    {
        test::NginxOptions o;
        o.requestLog = true;
        o.bodyLog = true;
        o.http2 = true;
        o.secondAddress = true; // thread.addr: 127.0.0.2 reaches the same server
        startNginx(o);
    }
    static void TearDownTestSuite() { stopNginx(); }
    void SetUp() override
    {
        NginxTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        m_url = "http://127.0.0.1:" + std::to_string(nginx().port()) + "/";
        m_logBefore = test::splitLines(nginx().requestLog()).size();
    }
    static std::string example(const std::string& name) { return test::sourceDir() + "/examples/scripts/" + name; }
    std::string script(const std::string& name, const std::string& text)
    {
        const std::string path = m_dir.file(name);
        test::writeFile(path, text);
        return path;
    }
    // The lines nginx logged since the test started: "<method> <uri> <status>". nginx writes a
    // line after it sent the response, so the last few may land just after the CLI exits: read
    // until two reads 50 ms apart agree.
    std::vector<std::string> served() const
    {
        std::vector<std::string> lines = test::splitLines(nginx().requestLog());
        for (int i = 0; i < 40; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            auto again = test::splitLines(nginx().requestLog());
            const bool settled = again.size() == lines.size();
            lines = std::move(again);
            if (settled) break;
        }
        return { lines.begin() + static_cast<long>(m_logBefore), lines.end() };
    }
    static uint64_t reportedRequests(const std::string& out)
    {
        std::smatch m;
        if (!std::regex_search(out, m, std::regex(R"((\d+) requests in)"))) return UINT64_MAX;
        return std::stoull(m[1]);
    }
    // Every request counted reached nginx; nginx saw at most the pre-run check and what was
    // still in flight at the end besides.
    void expectConserved(const std::string& out, size_t servedCount, unsigned inFlight)
    {
        const uint64_t counted = reportedRequests(out);
        ASSERT_NE(counted, UINT64_MAX) << out;
        EXPECT_GT(counted, 0u) << out;
        EXPECT_GE(servedCount, counted) << out;
        EXPECT_LE(servedCount, counted + inFlight + 1) << out;
    }

    test::TempDir m_dir;
    std::string m_url;
    size_t m_logBefore = 0;
};

} // namespace

TEST_F(ScriptCli, StaticPostSendsItsBodyAndHeaderEveryTime)
{
    const auto r = test::runCli({ "-t2", "-c4", "-n", "200", "-s", example("post.lua"), m_url + "body" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // nginx logs /body in its body log and the hop it proxies to (/mix/body) in the request log.
    const auto lines = served();
    for (const std::string& l : lines)
        EXPECT_EQ(l, "POST /mix/body 200");
    const auto bodies = nginx().bodyLog();
    expectConserved(r.out, bodies.size(), 4);
    EXPECT_EQ(std::set<std::string>(bodies.begin(), bodies.end()), std::set<std::string> { "foo=bar&baz=quux" });
}

TEST_F(ScriptCli, CounterInThePathReachesNginxAsEachThreadCounts)
{
    const auto r = test::runCli({ "-t2", "-c2", "-n", "200", "-s", example("counter.lua"), m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto lines = served();
    expectConserved(r.out, lines.size(), 2);
    // Each thread has a counter of its own (its own Lua state): every path at most twice.
    std::map<std::string, int> seen;
    for (const std::string& l : lines)
        if (l.starts_with("GET /mix/")) ++seen[l];
    for (const auto& [path, n] : seen)
        EXPECT_LE(n, 2) << path;
    EXPECT_GE(seen.size() * 2, lines.size() - 1);
    // As wrk: thread 1's first request() call builds the request that is checked, not sent;
    // thread 2 sends its first.
    EXPECT_EQ(seen["GET /mix/0 200"], 1);
    EXPECT_EQ(seen["GET /mix/1 200"], 2);
}

TEST_F(ScriptCli, PipelinedRequestsAreAllSent)
{
    const auto r = test::runCli({ "-t1", "-c2", "-n", "300", "-s", example("pipeline.lua"), m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto lines = served();
    expectConserved(r.out, lines.size(), 2 * 3);
    std::map<std::string, long> n;
    for (const std::string& l : lines)
        ++n[l];
    EXPECT_GT(n["GET /mix/1 200"], 0);
    EXPECT_LE(std::abs(n["GET /mix/1 200"] - n["GET /mix/3 200"]), 2);
}

TEST_F(ScriptCli, AuthTokenFromAResponseHeaderIsSent)
{
    const auto r = test::runCli({ "-t1", "-c1", "-n", "100", "-s", example("auth.lua"), m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    expectConserved(r.out, served().size(), 1);
}

TEST_F(ScriptCli, SetupGetSetAndDoneCountWhatNginxServed)
{
    const auto r = test::runCli({ "-t2", "-c2", "-n", "200", "-s", example("setup.lua"), m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::regex line(R"(thread (\d): (\d+) responses \(127\.0\.0\.1:\d+\))");
    uint64_t sum = 0;
    int threads = 0;
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), line); it != std::sregex_iterator(); ++it) {
        ++threads;
        sum += std::stoull((*it)[2]);
    }
    EXPECT_EQ(threads, 2) << r.out;
    // response() saw every answer nginx sent (the pre-run check is not the script's), and every
    // one it saw is counted.
    const auto lines = served();
    EXPECT_EQ(sum, reportedRequests(r.out));
    EXPECT_EQ(sum, 200u) << r.out; // -n: 100 a thread
    EXPECT_LE(sum, lines.size());
    // done() prints after the report, as wrk.
    EXPECT_LT(r.out.find("Transfer/sec"), r.out.find("thread 1:")) << r.out;
}

// setup() gives each thread an address of its own, as wrk: the first thread 127.0.0.1, the second
// 127.0.0.2 (by wrk.lookup, as wrk's scripts do). nginx logs which address each request reached:
// what each thread's response() saw is what nginx served on its address (the HTTP/1.1 pre-run
// check only connects; the requests in flight at the end reached nginx but no response()).
TEST_F(ScriptCli, SetupSetsEachThreadsAddress)
{
    const std::string s = script("addr.lua",
        "local threads = {}\n"
        "function setup(thread)\n"
        "  local n = #threads + 1\n"
        "  if n == 1 then thread.addr = '127.0.0.1:' .. wrk.port\n"
        "  else thread.addr = wrk.lookup('127.0.0.' .. n, wrk.port)[1] end\n"
        "  table.insert(threads, thread)\n"
        "end\n"
        "function init(args) responses = 0 end\n"
        "function response(status, headers, body) responses = responses + 1 end\n"
        "function done(summary, latency, requests)\n"
        "  for _, t in ipairs(threads) do print(string.format('%s %d', t.addr, t:get('responses'))) end\n"
        "end\n");
    const size_t before = test::splitLines(nginx().addressLog()).size();
    const auto r = test::runCli({ "-t2", "-c4", "-n", "200", "-s", s, m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::map<std::string, uint64_t> seen; // thread.addr -> responses its response() saw
    std::regex line(R"((127\.0\.0\.\d):\d+ (\d+))");
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), line); it != std::sregex_iterator(); ++it)
        seen[(*it)[1]] = std::stoull((*it)[2]);
    ASSERT_EQ(seen.size(), 2u) << r.out;
    ASSERT_TRUE(seen.count("127.0.0.1") && seen.count("127.0.0.2")) << r.out;
    served(); // until nginx's logs settle
    const auto lines = test::splitLines(nginx().addressLog());
    std::map<std::string, uint64_t> byAddress;
    for (size_t i = before; i < lines.size(); ++i)
        ++byAddress[lines[i]];
    EXPECT_EQ(byAddress.size(), 2u);
    for (const auto& [address, responses] : seen) {
        EXPECT_GT(responses, 0u) << address;
        EXPECT_GE(byAddress[address], responses) << address;
        EXPECT_LE(byAddress[address], responses + 2) << address; // -c4 over 2 threads: 2 in flight each
    }
    EXPECT_GE(seen["127.0.0.1"] + seen["127.0.0.2"], reportedRequests(r.out)) << r.out;
}

TEST_F(ScriptCli, ThreadAddrThatIsNotAnAddressStopsTheRun)
{
    const std::string s = script("badaddr.lua", "function setup(thread) thread.addr = 'nowhere' end\n");
    const auto r = test::runCli({ "-t1", "-c1", "-d20s", "-s", s, m_url });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("the script stopped the run: setup(): " + s
                  + ":1: thread.addr: 'nowhere' is not an address (ip:port or [ipv6]:port)"),
        std::string::npos)
        << r.err;
}

// A worker whose setup() failed still prepares its sessions (it once had no request to prepare against).
TEST_F(ScriptCli, SetupErrorStopsTheRunWithItsMessage)
{
    const std::string s = script("setuperror.lua", "function setup(thread) error('no threads today') end\n");
    const auto r = test::runCli({ "-t2", "-c2", "-d20s", "-s", s, m_url });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("the script stopped the run: setup(): " + s + ":1: no threads today"), std::string::npos)
        << r.err;
    EXPECT_EQ(reportedRequests(r.out), 0u) << r.out;
}

// As wrk's thread:stop(): each thread stops sending at its 300th response, the other goes on, and
// the run lasts -d. A thread that stops still reads its other connection's answer: every request
// nginx served is counted.
TEST_F(ScriptCli, StopStopsThatThreadAndTheRunLastsItsDuration)
{
    const auto r = test::runCli({ "-t2", "-c4", "-d1s", "-s", example("stop.lua"), m_url, "--", "300" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const uint64_t counted = reportedRequests(r.out);
    EXPECT_GE(counted, 600u) << r.out;
    EXPECT_LE(counted, 602u) << r.out;
    EXPECT_EQ(served().size(), counted) << r.out;
    EXPECT_NE(r.out.find(" requests in 1."), std::string::npos) << r.out;
}

// wrk's loop clears a thread's stop when it starts: thread:stop() in setup() or init() does nothing.
TEST_F(ScriptCli, StopBeforeTheThreadRunsDoesNothing)
{
    const std::string s = script("stopearly.lua",
        "function setup(thread) thread:stop() end\n"
        "function init(args) wrk.thread:stop() end\n");
    const auto r = test::runCli({ "-t2", "-c2", "-d1s", "-s", s, m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_GT(reportedRequests(r.out), 100u) << r.out;
    EXPECT_NE(r.out.find(" requests in 1."), std::string::npos) << r.out;
}

TEST_F(ScriptCli, DoneWritesJsonWithTheRunsFigures)
{
    const auto r = test::runCli({ "-t1", "-c2", "-n", "200", "-s", example("report-json.lua"), m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto lines = test::splitLines(r.out);
    ASSERT_FALSE(lines.empty());
    const auto j = nlohmann::json::parse(lines.back());
    EXPECT_EQ(j["requests"].get<uint64_t>(), reportedRequests(r.out));
    EXPECT_EQ(j["requests"].get<uint64_t>(), 200u); // -n
    EXPECT_GT(j["latency_us"]["p99"].get<double>(), 0);
    EXPECT_LE(j["latency_us"]["min"].get<double>(), j["latency_us"]["p50"].get<double>());
    EXPECT_EQ(j["errors"]["status"], 0);
}

TEST_F(ScriptCli, ScriptTextAndArgumentsAreStoredWithTheRun)
{
    const std::string db = m_dir.file("s.wrkbench");
    // -n 20: the run ends before the script's stop at 50 responses.
    const auto r = test::runCli({ "-t1", "-c1", "-n", "20", "-s", example("stop.lua"), "--db", db, m_url, "--", "50" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto store = SessionStore::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && runs->size() == 1u);
    auto data = (*store)->runs().load(runs->front().id);
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.config.script.text, test::readFile(example("stop.lua")));
    EXPECT_EQ(data->run.config.script.args, std::vector<std::string> { "50" });
}

TEST_F(ScriptCli, SyntaxErrorIsOneLineWithFileAndLineBeforeAnyLoad)
{
    const std::string bad = script("bad.lua", "wrk.method = 'POST'\nlocal x = = 1\n");
    const auto r = test::runCli({ "-d1s", "-s", bad, m_url });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "wrkbench-cli: error: " + bad + ":2: unexpected symbol near '='\n");
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(served().empty());
}

TEST_F(ScriptCli, RuntimeErrorStopsTheRunWithMessageAndTraceback)
{
    const std::string s = script("boom.lua",
        "n = 0\nrequest = function()\n  n = n + 1\n  if n > 21 then error('boom') end\n  return wrk.format()\nend\n");
    const auto r = test::runCli({ "-t1", "-c1", "-d20s", "-s", s, m_url });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("the script stopped the run: request(): " + s + ":4: boom"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("stack traceback:"), std::string::npos) << r.err;
    EXPECT_EQ(reportedRequests(r.out), 20u) << r.out; // what was measured is reported
}

// A Lua error at run time never loses data: the run is stored as failed, with the message and
// traceback, and everything measured until then (request(), response() and delay() alike).
TEST_F(ScriptCli, RuntimeErrorStoresTheRunAsFailedWithWhatWasMeasured)
{
    struct Case
    {
        const char* name;
        const char* text;
        const char* where;
    };
    const Case cases[] = {
        { "request.lua",
            // 21 calls: the first builds the request that is checked, as wrk's, the next 20 are sent.
            "n = 0\nrequest = function()\n  n = n + 1\n  if n > 21 then error('boom') end\n  return "
            "wrk.format()\nend\n",
            "request(): " },
        { "response.lua",
            "n = 0\nresponse = function(status, headers, body)\n  n = n + 1\n  if n == 20 then error('boom') end\nend\n"
            "\n",
            "response(): " },
        { "delay.lua", "n = 0\ndelay = function()\n  n = n + 1\n  if n > 20 then error('boom') end\n  return 0\nend\n",
            "delay(): " },
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const std::string db = m_dir.file(std::string(c.name) + ".wrkbench");
        const std::string s = script(c.name, c.text);
        const size_t before = served().size();
        const auto r = test::runCli({ "-t1", "-c1", "-d20s", "-s", s, "--db", db, m_url });
        EXPECT_EQ(r.exitCode, 1) << r.err;
        // Nothing is sent after the error (the HTTP/1.1 pre-run check sends no request).
        EXPECT_EQ(served().size() - before, 20u);
        EXPECT_NE(r.out.find("Stored as run 1 in"), std::string::npos) << r.out;
        auto store = SessionStore::open(db);
        ASSERT_TRUE(store.ok()) << store.error();
        auto runs = (*store)->runs().list();
        ASSERT_TRUE(runs.ok() && runs->size() == 1u);
        auto data = (*store)->runs().load(runs->front().id);
        ASSERT_TRUE(data.ok()) << data.error();
        const RunRecord& run = data->run;
        EXPECT_EQ(run.status, RunStatus::Failed);
        EXPECT_EQ(run.error.rfind(std::string(c.where) + s + ":4: boom\nstack traceback:", 0), 0u) << run.error;
        ASSERT_TRUE(run.hasTotals);
        // The 20 requests before the error were answered and counted (response()'s 20th included).
        EXPECT_EQ(run.totals.requests, 20u);
        EXPECT_EQ(run.totals.requests, reportedRequests(r.out));
        uint64_t intervals = 0;
        for (const IntervalRecord& i : data->intervals)
            intervals += i.requests;
        EXPECT_EQ(intervals, 20u);
        EXPECT_EQ(run.config.script.text, c.text);
    }
}

// done() runs after the run is stored: its error is said, the run stays as it completed.
TEST_F(ScriptCli, DoneErrorIsReportedAfterTheRunIsStored)
{
    const std::string db = m_dir.file("done.wrkbench");
    const std::string s = script("doneerror.lua", "function done(summary, latency, requests) error('no report') end\n");
    const auto r = test::runCli({ "-t1", "-c1", "-n", "100", "-s", s, "--db", db, m_url });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("done(): " + s + ":1: no report"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("Stored as run 1 in"), std::string::npos) << r.out;
    auto store = SessionStore::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    auto data = (*store)->runs().load(1);
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.status, RunStatus::Completed);
    EXPECT_EQ(data->run.error, "");
    EXPECT_GT(data->run.totals.requests, 0u);
    EXPECT_EQ(data->run.totals.requests, reportedRequests(r.out));
}

TEST_F(ScriptCli, RequestReturningANonStringNamesWhatItReturned)
{
    const std::string s = script("num.lua", "request = function() return 42 end\n");
    const auto r = test::runCli({ "-t1", "-c1", "-d20s", "-s", s, m_url });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("request() returned number, not a request"), std::string::npos) << r.err;
}

// delay() as wrk: the milliseconds before each request of a connection. 100 ms on two
// connections for a second: each sends at most 10, whatever the machine's speed. Every request
// follows a delay of its own, and at most one delay per connection has no answer yet at the end.
TEST_F(ScriptCli, DelayPausesEachConnectionBeforeEachRequest)
{
    const std::string s = script("delay100.lua",
        "delays, responses = 0, 0\n"
        "local threads = {}\n"
        "function setup(thread) table.insert(threads, thread) end\n"
        "function delay() delays = delays + 1; return 100 end\n"
        "function response(status, headers, body) responses = responses + 1 end\n"
        "function done(summary, latency, requests)\n"
        "  for _, t in ipairs(threads) do print(string.format('delays %d responses %d', t:get('delays'),\n"
        "    t:get('responses'))) end\n"
        "end\n");
    const auto r = test::runCli({ "-t1", "-c2", "-d1s", "-s", s, m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const uint64_t counted = reportedRequests(r.out);
    EXPECT_LE(counted, 2u * 10u) << r.out;
    const auto lines = served();
    expectConserved(r.out, lines.size(), 2);
    EXPECT_LE(lines.size(), 2u * 10u + 1u) << r.out; // the pre-run check besides
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(delays (\d+) responses (\d+))"))) << r.out;
    const uint64_t delays = std::stoull(m[1]);
    const uint64_t responses = std::stoull(m[2]);
    EXPECT_GE(responses, counted);
    EXPECT_GE(delays, responses);
    EXPECT_LE(delays, responses + 2);
}

// wrk's example (10 to 50 ms at random) runs as it is: at most 1 s / 10 ms per connection.
TEST_F(ScriptCli, DelayExampleRunsAsUnderWrk)
{
    const auto r = test::runCli({ "-t2", "-c2", "-d1s", "-s", example("delay.lua"), m_url });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_LE(reportedRequests(r.out), 2u * 100u) << r.out;
    expectConserved(r.out, served().size(), 2);
}

TEST_F(ScriptCli, DelayReturningSomethingElseThanANumberStopsTheRun)
{
    const std::string s = script("delaytable.lua", "function delay() return {} end\n");
    const auto r = test::runCli({ "-t1", "-c1", "-d20s", "-s", s, m_url });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("the script stopped the run: delay() returned table, not a number of milliseconds"),
        std::string::npos)
        << r.err;
}

TEST_F(ScriptCli, DelayIsRefusedUnderTheOpenModelWithAClearLine)
{
    const auto r = test::runCli({ "-t1", "-c1", "-d1s", "-R100", "-s", example("delay.lua"), m_url });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err,
        "wrkbench-cli: error: delay() cannot run with -R: the open model's schedule decides when requests are sent "
        "(remove delay() or -R)\n");
    EXPECT_TRUE(served().empty());
}

TEST_F(ScriptCli, RequestOfTheScriptIsSentOverHttp2)
{
    const size_t before = test::splitLines(nginx().http2AccessLog()).size();
    const std::string h2 = "http://127.0.0.1:" + std::to_string(nginx().h2cPort()) + "/";
    const auto r = test::runCli({ "--http2", "-t1", "-c1", "-n", "100", "-s", example("counter.lua"), h2 });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto lines = test::splitLines(nginx().http2AccessLog());
    const uint64_t counted = reportedRequests(r.out);
    EXPECT_GT(counted, 0u);
    EXPECT_GE(lines.size() - before, counted);
    EXPECT_EQ(lines.back(), "HTTP/2.0 200");
}

// The same script under Debian's wrk prints the same shape from done().
TEST_F(ScriptCli, DoneCsvHasTheShapeWrkPrints)
{
    if (access("/usr/bin/wrk", X_OK) != 0) GTEST_SKIP() << "/usr/bin/wrk is not installed";
    const auto ours = test::runCli({ "-t1", "-c2", "-d1s", "-s", example("report-csv.lua"), m_url });
    ASSERT_EQ(ours.exitCode, 0) << ours.err;
    const auto wrk = test::runProcess({ "/usr/bin/wrk", "-t1", "-c2", "-d1s", "-s", example("report-csv.lua"), m_url });
    ASSERT_EQ(wrk.exitCode, 0) << wrk.err;
    const auto shape = [](const std::string& out) {
        std::vector<std::string> rows;
        bool in = false;
        for (const std::string& l : test::splitLines(out)) {
            if (l == "percentile,latency_us") in = true;
            if (in) rows.push_back(std::regex_replace(l, std::regex(R"(,\d+)"), ",N"));
        }
        return rows;
    };
    EXPECT_EQ(shape(ours.out), shape(wrk.out)) << ours.out << "\n---\n" << wrk.out;
    EXPECT_EQ(shape(ours.out).size(), 8u);
}
