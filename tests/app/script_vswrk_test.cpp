// wrk's scripts under wrkbench-cli and under wrk itself (/usr/bin/wrk), with the same command line,
// side by side: the nine example scripts Debian's wrk package installs (its original files, from
// /usr/share/doc/wrk/examples/scripts), run with two threads against a port that is not the
// default, and the ordinary scripts of examples/scripts (a POST with a body, a counter in the
// path, auth from a response header, pipelining, setup/get/set, stop, delay, done() reports in
// JSON and CSV). What done() prints is compared line for line (numbers aside where they measure
// time, exactly where the run is bounded), and nginx's own log shows the same requests reached it:
// their method, path, Host, whether they came pipelined, and the script's headers.
//
// Each program has an nginx of its own, started for each test (its logs hold that test's requests
// alone), and the two programs run at the same time: a comparison takes one run's time (wrk's -d
// is whole seconds).

#include "nginx.h"
#include "requirenginx.h"
#include "testsupport.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <thread>
#include <unistd.h>

using namespace wb;

namespace {

constexpr const char* WRK = "/usr/bin/wrk";
constexpr const char* WRK_EXAMPLES = "/usr/share/doc/wrk/examples/scripts/";
/// In a test's arguments: the URL of the nginx of the program that runs them.
constexpr const char* URL = "{url}";

struct Ran
{
    std::string done; ///< stdout after wrk's report (what done() printed)
    std::string before; ///< stdout before wrk's "Running" line (what init() printed)
    std::string report; ///< the rest of stdout: wrk's report
    std::vector<std::string> served; ///< nginx's log lines of the run: "GET /mix/3 200"
    /// What the client sent, as nginx logged it, its port as PORT: "GET /?bar 200 127.0.0.1:PORT p - -"
    std::vector<std::string> client;
    std::vector<std::string> bodies; ///< nginx's body log of the run
    std::string url; ///< the URL the program was given
    std::string out, err;
    int exitCode = -1;
};

test::NginxOptions nginxOptions()
{
    test::NginxOptions o;
    o.requestLog = true;
    o.bodyLog = true;
    o.clientLog = true;
    return o;
}

class ScriptVsWrk : public ::testing::Test
{
protected:
    void SetUp() override
    {
        WB_REQUIRE_NGINX();
        if (access(WRK, X_OK) != 0) GTEST_SKIP() << WRK << " is not installed";
        ASSERT_TRUE(m_theirs.start(nginxOptions())) << m_theirs.log();
        ASSERT_TRUE(m_ours.start(nginxOptions())) << m_ours.log();
    }
    static std::string example(const std::string& name) { return test::sourceDir() + "/examples/scripts/" + name; }
    // wrk's own file as its package installs it (compressed by dh_compress when it is large).
    std::string wrkExample(const std::string& name)
    {
        const std::string path = WRK_EXAMPLES + name;
        if (access(path.c_str(), R_OK) == 0) return path;
        const std::string gz = path + ".gz";
        EXPECT_EQ(access(gz.c_str(), R_OK), 0) << "wrk is installed without its example " << path;
        const auto r = test::runProcess({ "gzip", "-dc", gz });
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return script(name, r.out);
    }
    std::string script(const std::string& name, const std::string& text)
    {
        const std::string path = m_dir.file(name);
        test::writeFile(path, text);
        return path;
    }
    // nginx's log, once two reads 50 ms apart agree (it logs after it answered).
    static std::vector<std::string> settled(const test::Nginx& nginx)
    {
        const auto read = [&nginx] { return nginx.requestLog(); };
        std::vector<std::string> lines = test::splitLines(read());
        for (int i = 0; i < 40; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            auto again = test::splitLines(read());
            const bool same = again.size() == lines.size();
            lines = std::move(again);
            if (same) break;
        }
        return lines;
    }
    static std::vector<std::string> since(const std::vector<std::string>& lines, size_t from)
    {
        return { lines.begin() + static_cast<long>(std::min(from, lines.size())), lines.end() };
    }
    // One program ("wrk" or ours) against its own nginx: what it printed and what nginx saw.
    static Ran run(bool wrk, const test::Nginx& nginx, std::vector<std::string> args)
    {
        // (A test of two runs: the first one's requests have settled.)
        const size_t servedBefore = test::splitLines(nginx.requestLog()).size();
        const size_t clientBefore = test::splitLines(nginx.clientLog()).size();
        const size_t bodiesBefore = nginx.bodyLog().size();
        Ran out;
        out.url = "http://127.0.0.1:" + std::to_string(nginx.port()) + "/";
        for (std::string& a : args)
            if (const size_t at = a.find(URL); at != std::string::npos) a.replace(at, std::string(URL).size(), out.url);
        test::ProcessResult r;
        if (wrk) {
            args.insert(args.begin(), WRK);
            r = test::runProcess(args, 60'000);
        } else {
            r = test::runCli(args, 60'000);
        }
        out.out = r.out;
        out.err = r.err;
        out.exitCode = r.exitCode;
        // The report runs from "Running" to the Transfer/sec line in both; init() prints before
        // it, done() after it.
        const size_t running = r.out.find("Running ");
        const size_t transfer = r.out.find("Transfer/sec:");
        if (running != std::string::npos && transfer != std::string::npos) {
            const size_t eol = r.out.find('\n', transfer);
            out.before = r.out.substr(0, running);
            out.report = r.out.substr(running, eol - running);
            out.done = eol == std::string::npos ? std::string() : r.out.substr(eol + 1);
        }
        out.served = since(settled(nginx), servedBefore);
        // Written with the request log's line, request by request.
        const std::string port = ":" + std::to_string(nginx.port());
        for (std::string line : since(test::splitLines(nginx.clientLog()), clientBefore)) {
            if (const size_t at = line.find(port + " "); at != std::string::npos)
                line.replace(at, port.size(), ":PORT");
            out.client.push_back(std::move(line));
        }
        out.bodies = since(nginx.bodyLog(), bodiesBefore);
        return out;
    }
    // wrk and wrkbench-cli with the same arguments ({url}: each its nginx's URL), at the same time.
    std::pair<Ran, Ran> both(const std::vector<std::string>& args)
    {
        Ran theirs;
        std::thread wrk([&] { theirs = run(true, m_theirs, args); });
        Ran ours = run(false, m_ours, args);
        wrk.join();
        EXPECT_EQ(theirs.exitCode, 0) << theirs.err;
        EXPECT_EQ(ours.exitCode, 0) << ours.err;
        return { std::move(theirs), std::move(ours) };
    }
    // What each printed and what its nginx logged, one after the other (ctest -V shows it): the
    // script's lines, the report's request count, and nginx's distinct lines with their counts.
    static void show(const std::string& name, const Ran& wrk, const Ran& ours)
    {
        std::string out = "---- " + name + "\n";
        for (const auto& [who, r] : { std::pair("wrk", &wrk), std::pair("wrkbench-cli", &ours) }) {
            out += std::string("  ") + who + ": " + std::to_string(requestsIn(r->report).first) + " requests reported, "
                + std::to_string(r->client.size()) + " logged by nginx\n";
            for (const std::string& l : test::splitLines(r->before + r->done))
                out += "    printed: " + l + "\n";
            std::map<std::string, size_t> counts;
            for (const std::string& l : r->client)
                ++counts[l];
            size_t shown = 0;
            for (const auto& [line, n] : counts)
                if (++shown <= 4) out += "    nginx: " + std::to_string(n) + " x " + line + "\n";
            if (counts.size() > 4)
                out += "    nginx: ... " + std::to_string(counts.size() - 4) + " more distinct lines\n";
        }
        std::printf("%s", out.c_str());
    }
    // Numbers that measure the run (counts, latencies, rates) differ between any two runs: each
    // -?\d+(\.\d+)?(e[+-]?\d+)? becomes N. By hand, not std::regex_replace: nginx logs tens of
    // thousands of lines a run, and the regex took about two minutes over them in the ASan tree.
    static std::string shape(const std::string& text)
    {
        const auto digitAt = [&text](size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
        std::string out;
        out.reserve(text.size());
        size_t i = 0;
        while (i < text.size()) {
            size_t end = text[i] == '-' ? i + 1 : i;
            if (!digitAt(end)) {
                out += text[i++];
                continue;
            }
            while (digitAt(end))
                ++end;
            if (end < text.size() && text[end] == '.' && digitAt(end + 1)) {
                end += 2;
                while (digitAt(end))
                    ++end;
            }
            if (end < text.size() && text[end] == 'e') {
                size_t exponent = end + 1;
                if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) ++exponent;
                if (digitAt(exponent)) {
                    end = exponent;
                    while (digitAt(end))
                        ++end;
                }
            }
            out += 'N';
            i = end;
        }
        return out;
    }
    static std::set<std::string> shapes(const std::vector<std::string>& lines)
    {
        std::set<std::string> out;
        for (const std::string& l : lines)
            out.insert(shape(l));
        return out;
    }
    static std::set<std::string> distinct(const std::vector<std::string>& lines)
    {
        return { lines.begin(), lines.end() };
    }
    // The distinct lines of nginx's client log but those it wrote 499 for: nginx passes /body on
    // to /mix/body, and a request the run's end cut off while it waited for that is logged 499, by
    // either program, as timing has it.
    static std::set<std::string> answered(const std::vector<std::string>& lines)
    {
        std::set<std::string> out = distinct(lines);
        std::erase_if(out, [](const std::string& l) { return l.find(" 499 ") != std::string::npos; });
        return out;
    }
    // "  200 requests in 1.00s, 16.60KB read": the count and the time as printed.
    static std::pair<uint64_t, std::string> requestsIn(const std::string& report)
    {
        const size_t at = report.find(" requests in ");
        if (at == std::string::npos) return { 0, "" };
        const size_t start = report.rfind(' ', at - 1) + 1;
        const size_t comma = report.find(',', at);
        return { std::stoull(report.substr(start, at - start)), report.substr(at + 13, comma - at - 13) };
    }

    test::TempDir m_dir;
    test::Nginx m_theirs; ///< wrk's target
    test::Nginx m_ours; ///< wrkbench-cli's
};

} // namespace

// ---- wrk's own example scripts, as its package installs them: -t2, a port that is not 80 ----

// setup() gives each thread an address of wrk.lookup()'s that accepts a connection, and each
// thread's init() prints it. Host carries the URL's port, as wrk.init sets it.
TEST_F(ScriptVsWrk, WrksAddrPrintsEachThreadsAddress)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", wrkExample("addr.lua"), URL });
    show("addr.lua", wrk, ours);
    for (const auto& [r, port] : { std::pair(&wrk, m_theirs.port()), std::pair(&ours, m_ours.port()) }) {
        const std::string line = "thread addr: 127.0.0.1:" + std::to_string(port) + "\n";
        EXPECT_EQ(r->before, line + line);
    }
    EXPECT_EQ(distinct(wrk.client), std::set<std::string> { "GET / 200 127.0.0.1:PORT . - -" });
    EXPECT_EQ(distinct(ours.client), distinct(wrk.client));
}

// The token from the first response's X-Token is sent with every request after it: each thread
// asks /authenticate once (thread 1's first request() call is wrk's check, not sent).
TEST_F(ScriptVsWrk, WrksAuthSendsTheTokenOfTheFirstResponse)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", wrkExample("auth.lua"), URL });
    show("auth.lua", wrk, ours);
    for (const Ran* r : { &wrk, &ours }) {
        EXPECT_EQ(distinct(r->client),
            (std::set<std::string> { "GET /authenticate 200 127.0.0.1:PORT . - -",
                "GET /resource 404 127.0.0.1:PORT . - token-from-nginx" }));
        EXPECT_EQ(std::count(r->client.begin(), r->client.end(), "GET /authenticate 200 127.0.0.1:PORT . - -"), 2);
    }
}

// Each thread counts in its own state, the counter in the path and in X-Counter. wrk calls thread
// 1's request() once before its connections, to check the request: thread 1 sends /1, /2, ...,
// thread 2 /0, /1, ...
TEST_F(ScriptVsWrk, WrksCounterCountsPerThreadFromWhereWrkDoes)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", wrkExample("counter.lua"), URL });
    show("counter.lua", wrk, ours);
    for (const Ran* r : { &wrk, &ours }) {
        std::map<long, int> times; // path number -> requests
        for (const std::string& l : r->client) {
            // GET /<n> 404 127.0.0.1:PORT . <n> - (by hand: a std::regex per line is slow under ASan)
            ASSERT_TRUE(l.starts_with("GET /")) << l;
            const size_t space = l.find(' ', 5);
            const std::string n = l.substr(5, space - 5);
            ASSERT_EQ(n.find_first_not_of("0123456789"), std::string::npos) << l;
            ASSERT_EQ(l.substr(space), " 404 127.0.0.1:PORT . " + n + " -") << l;
            ++times[std::stol(n)];
        }
        ASSERT_FALSE(times.empty());
        EXPECT_EQ(times[0], 1) << "/0 once: thread 2's first request";
        for (const auto& [n, count] : times)
            EXPECT_LE(count, 2) << n;
    }
}

// 10 to 50 ms before each request: at most 100 per connection-second, at least 10 in all (a busy
// machine's start aside), for both.
TEST_F(ScriptVsWrk, WrksDelayHoldsEachConnection)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", wrkExample("delay.lua"), URL });
    show("delay.lua", wrk, ours);
    for (const Ran* r : { &wrk, &ours }) {
        EXPECT_EQ(distinct(r->client), std::set<std::string> { "GET / 200 127.0.0.1:PORT . - -" });
        EXPECT_LE(r->client.size(), 2u * 100 + 2);
        EXPECT_GE(r->client.size(), 10u);
    }
}

// The three requests of one request() string go out together: nginx finds the second and third
// pipelined behind the first (wrk takes its pipelining depth from that string).
TEST_F(ScriptVsWrk, WrksPipelineSendsTheThreeRequestsAtOnce)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", wrkExample("pipeline.lua"), URL });
    show("pipeline.lua", wrk, ours);
    for (const Ran* r : { &wrk, &ours }) {
        std::map<std::string, long> n;
        for (const std::string& l : r->client)
            ++n[l];
        const long foo = n["GET /?foo 200 127.0.0.1:PORT . - -"];
        const long bar = n["GET /?bar 200 127.0.0.1:PORT p - -"];
        const long baz = n["GET /?baz 200 127.0.0.1:PORT p - -"];
        EXPECT_GT(foo, 0) << r->out;
        // Every batch is pipelined (a write split by the network would not be, hence the margin).
        EXPECT_GE(bar + baz, static_cast<long>(r->client.size() - static_cast<size_t>(foo)) * 9 / 10);
        EXPECT_LE(std::abs(foo - bar), 2) << "requests in flight at the end: one batch per thread";
    }
    EXPECT_EQ(distinct(ours.client), distinct(wrk.client));
}

// wrk.method, wrk.body and a header set at load; -H headers are in wrk.headers too.
TEST_F(ScriptVsWrk, WrksPostSendsItsBodyAndTheCommandLinesHeader)
{
    const auto [wrk, ours]
        = both({ "-t2", "-c2", "-d1s", "-H", "X-Counter: 7", "-s", wrkExample("post.lua"), std::string(URL) + "body" });
    show("post.lua", wrk, ours);
    EXPECT_EQ(answered(wrk.client),
        (std::set<std::string> { "POST /body 200 127.0.0.1:PORT . 7 -", "POST /mix/body 200 127.0.0.1:PORT . 7 -" }));
    EXPECT_EQ(answered(ours.client), answered(wrk.client));
    EXPECT_EQ(distinct(wrk.bodies), std::set<std::string> { "foo=bar&baz=quux" });
    EXPECT_EQ(distinct(ours.bodies), distinct(wrk.bodies));
}

// done() prints latency percentiles as CSV: the same lines (the numbers are each run's).
TEST_F(ScriptVsWrk, WrksReportPrintsTheSameLines)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", wrkExample("report.lua"), URL });
    show("report.lua", wrk, ours);
    EXPECT_EQ(shape(wrk.done), "------------------------------\nN%,N\nN%,N\nN%,N\nN%,N\n") << wrk.done;
    EXPECT_EQ(shape(ours.done), shape(wrk.done)) << ours.done;
    EXPECT_EQ(distinct(ours.client), distinct(wrk.client));
}

// wrk.request() (made by wrk.init) is what request() returns; done() reads each thread's counts.
// Thread 1 made one request more than the others: wrk's check; each thread made at most one more
// than it got answered: the request in flight at the end.
TEST_F(ScriptVsWrk, WrksSetupCountsAsWrkDoes)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", wrkExample("setup.lua"), URL });
    show("setup.lua", wrk, ours);
    EXPECT_EQ(wrk.before, "thread 1 created\nthread 2 created\n");
    EXPECT_EQ(ours.before, wrk.before);
    EXPECT_EQ(shape(wrk.done),
        "thread N made N requests and got N responses\nthread N made N requests and got N responses\n");
    EXPECT_EQ(shape(ours.done), shape(wrk.done)) << ours.done;
    for (const Ran* r : { &wrk, &ours }) {
        for (const std::string& line : test::splitLines(r->done)) {
            unsigned thread = 0;
            unsigned long made = 0, got = 0;
            ASSERT_EQ(
                std::sscanf(line.c_str(), "thread %u made %lu requests and got %lu responses", &thread, &made, &got),
                3);
            ASSERT_GE(made, got) << line;
            if (thread == 1)
                EXPECT_TRUE(made - got == 1 || made - got == 2) << line;
            else
                EXPECT_LE(made - got, 1u) << line;
        }
    }
}

// Each thread stops at its 100th response, the other goes on, and the run lasts -d: 200 requests
// in 1 s, each one nginx served (a thread reads what is in flight when it stops).
TEST_F(ScriptVsWrk, WrksStopStopsEachThreadAtItsHundredthResponse)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", wrkExample("stop.lua"), URL });
    show("stop.lua", wrk, ours);
    for (const Ran* r : { &wrk, &ours }) {
        const auto [requests, in] = requestsIn(r->report);
        EXPECT_EQ(requests, 200u) << r->report;
        EXPECT_TRUE(in.starts_with("1.")) << "the run lasts -d 1s: " << r->report;
        EXPECT_EQ(r->client.size(), requests);
    }
}

// done()'s errors.status counts every response above 399 that response() saw, and summary.requests
// every response: a script that counts them itself prints the same numbers.
TEST_F(ScriptVsWrk, DoneCountsEveryResponseTheScriptSaw)
{
    const std::string s = script("seen.lua",
        "local threads = {}\n"
        "function setup(thread) table.insert(threads, thread) end\n"
        "function init(args) seen, above399 = 0, 0 end\n"
        "function response(status) seen = seen + 1 if status > 399 then above399 = above399 + 1 end end\n"
        "function done(summary)\n"
        "  local seen, above399 = 0, 0\n"
        "  for _, t in ipairs(threads) do seen = seen + t:get('seen') above399 = above399 + t:get('above399') end\n"
        "  print(seen == summary.requests, above399 == summary.errors.status, seen > 0)\n"
        "end\n");
    const auto [wrk, ours] = both({ "-t2", "-c4", "-d1s", "-s", s, std::string(URL) + "missing" });
    EXPECT_EQ(wrk.done, "true\ttrue\ttrue\n");
    EXPECT_EQ(ours.done, wrk.done);
}

// ---- the scripts of examples/scripts ----

TEST_F(ScriptVsWrk, PostWithABodySendsTheSameRequests)
{
    const auto [wrk, ours] = both({ "-t1", "-c1", "-d1s", "-s", example("post.lua"), std::string(URL) + "body" });
    EXPECT_EQ(distinct(wrk.served), std::set<std::string> { "POST /mix/body 200" });
    EXPECT_EQ(distinct(ours.served), distinct(wrk.served));
    EXPECT_EQ(answered(ours.client), answered(wrk.client));
    EXPECT_EQ(distinct(ours.bodies), distinct(wrk.bodies));
    EXPECT_EQ(ours.done, wrk.done); // nothing: the script has no done()
}

// Each thread counts in its own state: the same paths, each once. Both start at /mix/1: wrk calls
// thread 1's request() once before its connections (the request it checks), and sends what the
// following calls build.
TEST_F(ScriptVsWrk, CounterInThePathCountsAsUnderWrk)
{
    const auto [wrk, ours] = both({ "-t1", "-c1", "-d1s", "-s", example("counter.lua"), URL });
    for (const Ran* r : { &wrk, &ours }) {
        std::set<int> paths;
        const std::string_view prefix = "GET /mix/", suffix = " 200";
        for (const std::string& l : r->served) {
            // GET /mix/<digits> 200 (by hand: a std::regex per line took half a minute under ASan)
            const std::string_view line = l;
            ASSERT_TRUE(
                line.size() > prefix.size() + suffix.size() && line.starts_with(prefix) && line.ends_with(suffix))
                << l;
            const std::string_view number = line.substr(prefix.size(), line.size() - prefix.size() - suffix.size());
            ASSERT_EQ(number.find_first_not_of("0123456789"), std::string_view::npos) << l;
            paths.insert(std::stoi(std::string(number)));
        }
        ASSERT_FALSE(paths.empty());
        EXPECT_EQ(*paths.begin(), 1);
        EXPECT_EQ(static_cast<size_t>(*paths.rbegin()), paths.size());
        EXPECT_EQ(paths.size(), r->served.size()); // each path once
    }
}

// The token comes from the first response's headers (nginx's Server header here): done() reads it
// back from the thread, and both print the same token.
TEST_F(ScriptVsWrk, AuthFromAResponseHeaderTakesTheSameToken)
{
    const std::string s = script("auth-report.lua",
        test::readFile(example("auth.lua"))
            + "local threads = {}\n"
              "function setup(thread) table.insert(threads, thread) end\n"
              "function done(summary, latency, requests)\n"
              "  for i, t in ipairs(threads) do print(string.format('thread %d token %s', i, t:get('token'))) end\n"
              "end\n");
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", s, URL });
    EXPECT_NE(wrk.done.find("thread 2 token nginx"), std::string::npos) << wrk.done;
    EXPECT_EQ(ours.done, wrk.done);
    EXPECT_EQ(shapes(ours.served), shapes(wrk.served));
}

TEST_F(ScriptVsWrk, PipelinedRequestsGoOutInTheSameOrder)
{
    const auto [wrk, ours] = both({ "-t1", "-c1", "-d1s", "-s", example("pipeline.lua"), URL });
    const std::vector<std::string> cycle { "GET /mix/1 200", "GET /mix/2 200", "GET /mix/3 200" };
    for (const Ran* r : { &wrk, &ours }) {
        ASSERT_GE(r->served.size(), 3u);
        for (size_t i = 0; i < r->served.size(); ++i)
            EXPECT_EQ(r->served[i], cycle[i % 3]) << i;
    }
    EXPECT_EQ(distinct(ours.client), distinct(wrk.client)); // pipelined alike
}

TEST_F(ScriptVsWrk, SetupGetSetPrintsTheSameReport)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", example("setup.lua"), URL });
    EXPECT_EQ(shape(ours.done), shape(wrk.done)) << ours.done << "---\n" << wrk.done;
    EXPECT_NE(wrk.done.find("thread 2:"), std::string::npos) << wrk.done;
}

// A bounded run prints the same numbers: one thread stops after 50 responses (args after --, and
// args[0] is the URL as wrk gives it); done() counts what the summary says.
TEST_F(ScriptVsWrk, StopAfterNResponsesPrintsTheSameCounts)
{
    const std::string s = script("stop-report.lua",
        test::readFile(example("stop.lua"))
            + "function setup(thread) thread:set('first', 1) end\n"
              "function done(summary, latency, requests)\n"
              "  print(string.format('requests=%d non2xx=%d', summary.requests, summary.errors.status))\n"
              "end\n"
              "local init0 = init\n"
              "function init(args) init0(args) io.stderr:write('args[0]=', args[0], '\\n') end\n");
    const auto [wrk, ours] = both({ "-t1", "-c1", "-d1s", "-s", s, URL, "--", "50" });
    EXPECT_EQ(wrk.done, "requests=50 non2xx=0\n");
    EXPECT_EQ(ours.done, wrk.done);
    EXPECT_NE(wrk.err.find("args[0]=" + wrk.url), std::string::npos) << wrk.err;
    EXPECT_NE(ours.err.find("args[0]=" + ours.url), std::string::npos) << ours.err;
    // nginx served what was counted (and nothing in flight: one connection, stopped on an answer).
    EXPECT_EQ(ours.served.size(), wrk.served.size());
}

TEST_F(ScriptVsWrk, DelayHoldsEachConnectionAsUnderWrk)
{
    const auto [wrk, ours] = both({ "-t1", "-c2", "-d1s", "-s", example("delay.lua"), URL });
    // 10 to 50 ms before each request: at most 100 per connection-second, at least 20 (less a
    // little for a busy machine's start), for both.
    for (const Ran* r : { &wrk, &ours }) {
        EXPECT_EQ(distinct(r->served), std::set<std::string> { "GET / 200" });
        EXPECT_LE(r->served.size(), 2u * 100 + 2);
        EXPECT_GE(r->served.size(), 10u);
    }
}

TEST_F(ScriptVsWrk, DoneReportsInJsonAndCsvHaveWrksShape)
{
    for (const char* name : { "report-json.lua", "report-csv.lua" }) {
        const auto [wrk, ours] = both({ "-t1", "-c2", "-d1s", "-s", example(name), URL });
        ASSERT_FALSE(wrk.done.empty()) << name << wrk.out;
        EXPECT_EQ(shape(ours.done), shape(wrk.done)) << name << "\n" << ours.done << "---\n" << wrk.done;
    }
}
