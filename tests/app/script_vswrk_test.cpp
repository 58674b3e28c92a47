// The "done when" folder of issue #28: the ordinary wrk scripts of examples/scripts (a POST with a
// body, a counter in the path, auth from a response header, pipelining, setup/get/set, stop,
// delay, done() reports in JSON and CSV) run under wrkbench-cli with the same command line as
// under wrk itself (/usr/bin/wrk, against the same nginx), and print what they print under wrk:
// done()'s output is compared line for line (numbers aside where they measure time, exactly where
// the run is bounded), and nginx's own log shows the same requests reached it.

#include "nginx.h"
#include "requirenginx.h"
#include "testsupport.h"

#include <chrono>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <thread>
#include <unistd.h>

using namespace wb;

namespace {

constexpr const char* WRK = "/usr/bin/wrk";

struct Ran
{
    std::string done; ///< stdout after wrk's report (what done() printed)
    std::vector<std::string> served; ///< nginx's log lines of the run: "GET /mix/3 200"
    std::vector<std::string> bodies; ///< nginx's body log of the run
    std::string out, err;
    int exitCode = -1;
};

class ScriptVsWrk : public test::NginxTest
{
protected:
    static void SetUpTestSuite()
    {
        test::NginxOptions o;
        o.requestLog = true;
        o.bodyLog = true;
        startNginx(o);
    }
    static void TearDownTestSuite() { stopNginx(); }
    void SetUp() override
    {
        NginxTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        if (access(WRK, X_OK) != 0) GTEST_SKIP() << WRK << " is not installed";
        m_url = "http://127.0.0.1:" + std::to_string(nginx().port()) + "/";
    }
    static std::string example(const std::string& name) { return test::sourceDir() + "/examples/scripts/" + name; }
    std::string script(const std::string& name, const std::string& text)
    {
        const std::string path = m_dir.file(name);
        test::writeFile(path, text);
        return path;
    }
    // nginx's logs, once two reads 50 ms apart agree (it logs after it answered).
    std::vector<std::string> settledLog() const
    {
        std::vector<std::string> lines = test::splitLines(nginx().requestLog());
        for (int i = 0; i < 40; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            auto again = test::splitLines(nginx().requestLog());
            const bool settled = again.size() == lines.size();
            lines = std::move(again);
            if (settled) break;
        }
        return lines;
    }
    // One program ("wrk" or ours) with the same arguments: what done() printed and what nginx saw.
    Ran run(bool wrk, const std::vector<std::string>& args)
    {
        const size_t linesBefore = settledLog().size();
        const size_t bodiesBefore = nginx().bodyLog().size();
        std::vector<std::string> argv = args;
        test::ProcessResult r;
        if (wrk) {
            argv.insert(argv.begin(), WRK);
            r = test::runProcess(argv, 60'000);
        } else {
            r = test::runCli(argv, 60'000);
        }
        Ran out;
        out.out = r.out;
        out.err = r.err;
        out.exitCode = r.exitCode;
        // The report ends with the Transfer/sec line in both; done() prints after it.
        const size_t at = r.out.find("Transfer/sec:");
        if (at != std::string::npos) {
            const size_t eol = r.out.find('\n', at);
            out.done = eol == std::string::npos ? std::string() : r.out.substr(eol + 1);
        }
        const auto lines = settledLog();
        out.served.assign(lines.begin() + static_cast<long>(std::min(linesBefore, lines.size())), lines.end());
        const auto bodies = nginx().bodyLog();
        out.bodies.assign(bodies.begin() + static_cast<long>(std::min(bodiesBefore, bodies.size())), bodies.end());
        return out;
    }
    std::pair<Ran, Ran> both(const std::vector<std::string>& args)
    {
        Ran theirs = run(true, args);
        Ran ours = run(false, args);
        EXPECT_EQ(theirs.exitCode, 0) << theirs.err;
        EXPECT_EQ(ours.exitCode, 0) << ours.err;
        return { std::move(theirs), std::move(ours) };
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

    test::TempDir m_dir;
    std::string m_url;
};

} // namespace

TEST_F(ScriptVsWrk, PostWithABodySendsTheSameRequests)
{
    const auto [wrk, ours] = both({ "-t1", "-c1", "-d1s", "-s", example("post.lua"), m_url + "body" });
    EXPECT_EQ(
        std::set<std::string>(wrk.served.begin(), wrk.served.end()), std::set<std::string> { "POST /mix/body 200" });
    EXPECT_EQ(std::set<std::string>(ours.served.begin(), ours.served.end()),
        std::set<std::string>(wrk.served.begin(), wrk.served.end()));
    EXPECT_EQ(std::set<std::string>(ours.bodies.begin(), ours.bodies.end()),
        std::set<std::string>(wrk.bodies.begin(), wrk.bodies.end()));
    EXPECT_EQ(ours.done, wrk.done); // nothing: the script has no done()
}

// Each thread counts in its own state: the same paths, each once. Both start at /mix/1: wrk calls a
// thread's request() once before its connections (the request it checks), and sends what the
// following calls build.
TEST_F(ScriptVsWrk, CounterInThePathCountsAsUnderWrk)
{
    const auto [wrk, ours] = both({ "-t1", "-c1", "-d1s", "-s", example("counter.lua"), m_url });
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
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", s, m_url });
    EXPECT_NE(wrk.done.find("thread 2 token nginx"), std::string::npos) << wrk.done;
    EXPECT_EQ(ours.done, wrk.done);
    EXPECT_EQ(shapes(ours.served), shapes(wrk.served));
}

TEST_F(ScriptVsWrk, PipelinedRequestsGoOutInTheSameOrder)
{
    const auto [wrk, ours] = both({ "-t1", "-c1", "-d1s", "-s", example("pipeline.lua"), m_url });
    const std::vector<std::string> cycle { "GET /mix/1 200", "GET /mix/2 200", "GET /mix/3 200" };
    for (const Ran* r : { &wrk, &ours }) {
        ASSERT_GE(r->served.size(), 3u);
        for (size_t i = 0; i < r->served.size(); ++i)
            EXPECT_EQ(r->served[i], cycle[i % 3]) << i;
    }
}

TEST_F(ScriptVsWrk, SetupGetSetPrintsTheSameReport)
{
    const auto [wrk, ours] = both({ "-t2", "-c2", "-d1s", "-s", example("setup.lua"), m_url });
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
    // (wrk waits out -d after its only thread stopped; wrkbench-cli ends when every thread stopped.)
    const auto [wrk, ours] = both({ "-t1", "-c1", "-d2s", "-s", s, m_url, "--", "50" });
    EXPECT_EQ(wrk.done, "requests=50 non2xx=0\n");
    EXPECT_EQ(ours.done, wrk.done);
    EXPECT_NE(wrk.err.find("args[0]=" + m_url), std::string::npos) << wrk.err;
    EXPECT_NE(ours.err.find("args[0]=" + m_url), std::string::npos) << ours.err;
    // nginx served what was counted (and nothing in flight: one connection, stopped on an answer).
    EXPECT_EQ(ours.served.size(), wrk.served.size());
}

TEST_F(ScriptVsWrk, DelayHoldsEachConnectionAsUnderWrk)
{
    const auto [wrk, ours] = both({ "-t1", "-c2", "-d1s", "-s", example("delay.lua"), m_url });
    // 10 to 50 ms before each request: at most 100 per connection-second, at least 20 (less a
    // little for a busy machine's start), for both.
    for (const Ran* r : { &wrk, &ours }) {
        EXPECT_EQ(std::set<std::string>(r->served.begin(), r->served.end()), std::set<std::string> { "GET / 200" });
        EXPECT_LE(r->served.size(), 2u * 100 + 2);
        EXPECT_GE(r->served.size(), 10u);
    }
}

TEST_F(ScriptVsWrk, DoneReportsInJsonAndCsvHaveWrksShape)
{
    for (const char* name : { "report-json.lua", "report-csv.lua" }) {
        const auto [wrk, ours] = both({ "-t1", "-c2", "-d1s", "-s", example(name), m_url });
        ASSERT_FALSE(wrk.done.empty()) << name << wrk.out;
        EXPECT_EQ(shape(ours.done), shape(wrk.done)) << name << "\n" << ours.done << "---\n" << wrk.done;
    }
}
