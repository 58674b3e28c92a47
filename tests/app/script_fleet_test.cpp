// wrk scripts on a fleet of loaders (--loaders N, --on agents): request() and response() run in
// every loader's threads, setup() and done() once on the coordinator. Checked against nginx's own
// log (what the loaders' request() built, how many requests) and against the run's merged JSON
// (done()'s latency:percentile() is the fold's merged figure). An agent runs a script only when
// its operator allows it.

#include "nginx.h"
#include "requirenginx.h"
#include "testagent.h"
#include "testsupport.h"

#include <chrono>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

using namespace wb;
using Json = nlohmann::json;

namespace {

// setup() numbers the threads of the whole fleet and hands each its number (thread:set); each
// thread's request() puts its number and a counter in the path; response() counts; done()
// prints what it saw of the merged run, and what setup() set.
constexpr const char* FLEET_SCRIPT = R"lua(
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
  thread:set("tag", { name = "t" .. #threads })
end
function init(args)
  counter = 0
  prefix = args[1]
end
function request()
  counter = counter + 1
  return wrk.format(nil, "/mix/" .. prefix .. "-" .. tag.name .. "-" .. id .. "-" .. counter)
end
function done(summary, latency, requests)
  local ids = {}
  for _, t in ipairs(threads) do ids[#ids + 1] = t:get("id") end
  io.write(string.format("done requests=%d p50=%d p99=%d max=%d threads=%s\n", summary.requests,
    latency:percentile(50), latency:percentile(99), latency.max, table.concat(ids, ",")))
end
)lua";

class ScriptFleet : public test::NginxTest
{
protected:
    static void SetUpTestSuite()
    {
        test::NginxOptions o;
        o.requestLog = true;
        startNginx(o);
    }
    static void TearDownTestSuite() { stopNginx(); }
    void SetUp() override
    {
        NginxTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        m_url = "http://127.0.0.1:" + std::to_string(nginx().port()) + "/";
        m_script = m_dir.file("fleet.lua");
        test::writeFile(m_script, FLEET_SCRIPT);
    }
    // nginx's log lines since `before`, once two reads 50 ms apart agree (nginx logs after it
    // answered, so the last few land just after the CLI exits).
    std::vector<std::string> served(size_t before) const
    {
        std::vector<std::string> lines = test::splitLines(nginx().requestLog());
        for (int i = 0; i < 40; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            auto again = test::splitLines(nginx().requestLog());
            const bool settled = again.size() == lines.size();
            lines = std::move(again);
            if (settled) break;
        }
        return { lines.begin() + static_cast<long>(before), lines.end() };
    }
    // What each fleet thread's request() sent, from nginx's log: thread id -> its counters.
    static std::map<int, std::vector<int>> byThread(const std::vector<std::string>& lines, const std::string& prefix)
    {
        std::map<int, std::vector<int>> out;
        const std::regex line("GET /mix/" + prefix + R"(-t(\d+)-(\d+)-(\d+) 200)");
        for (const std::string& l : lines) {
            std::smatch m;
            if (!std::regex_match(l, m, line)) continue;
            EXPECT_EQ(m[1], m[2]) << l; // the table and the number setup() gave the same thread
            out[std::stoi(m[2])].push_back(std::stoi(m[3]));
        }
        return out;
    }

    test::TempDir m_dir;
    std::string m_url;
    std::string m_script;
};

} // namespace

TEST_F(ScriptFleet, TwoLocalLoadersRunRequestAndDoneSeesTheMergedRun)
{
    const size_t before = test::splitLines(nginx().requestLog()).size();
    const std::string json = m_dir.file("r.json");
    const auto r = test::runCli(
        { "--loaders", "2", "-t2", "-c4", "-n", "400", "--json", json, "-s", m_script, m_url, "--", "fleet" }, 60'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const Json j = Json::parse(test::readFile(json));
    ASSERT_EQ(j["loaders"].size(), 2u);
    const uint64_t counted = j["summary"]["requests"].get<uint64_t>();
    ASSERT_GT(counted, 0u);
    EXPECT_EQ(counted, 400u); // -n: 100 a thread

    // Every thread of the fleet (2 loaders x 2 threads) ran request() with what setup() gave it,
    // counting without a gap: the fleet's thread 0 (id 1) from 2, as wrk's first thread, whose
    // first request() call builds the request that is checked, not sent; the others from 1, their
    // first call's request sent, as wrk's other threads. nginx served exactly what they built.
    const auto lines = served(before);
    const auto threads = byThread(lines, "fleet");
    ASSERT_EQ(threads.size(), 4u) << r.err;
    size_t built = 0;
    for (const auto& [id, counters] : threads) {
        std::set<int> seen(counters.begin(), counters.end());
        EXPECT_EQ(seen.size(), counters.size()) << "thread " << id << " sent a path twice";
        const int first = id == 1 ? 2 : 1;
        EXPECT_EQ(*seen.begin(), first) << id;
        EXPECT_EQ(static_cast<size_t>(*seen.rbegin()), seen.size() + static_cast<size_t>(first) - 1) << id;
        built += counters.size();
    }
    // Nothing else reached nginx from the run but what request() built (the HTTP/1.1 pre-run
    // checks only connect); what was counted was served, and at most the 4 connections' last
    // requests were in flight when the run ended.
    EXPECT_EQ(built, lines.size());
    EXPECT_GE(built, counted);
    EXPECT_LE(built, counted + 4);

    // done() ran once, on the coordinator, with the merged run: its counts and percentiles are
    // the merged JSON's, and thread:get() reads what setup() set for the fleet's threads.
    std::smatch m;
    ASSERT_TRUE(
        std::regex_search(r.out, m, std::regex(R"(done requests=(\d+) p50=(\d+) p99=(\d+) max=(\d+) threads=(\S+))")))
        << r.out;
    EXPECT_EQ(std::stoull(m[1]), counted);
    EXPECT_EQ(std::stoull(m[2]), j["summary"]["latency_us"]["p50"].get<uint64_t>());
    EXPECT_EQ(std::stoull(m[3]), j["summary"]["latency_us"]["p99"].get<uint64_t>());
    EXPECT_EQ(std::stoull(m[4]), j["summary"]["latency_us"]["max"].get<uint64_t>());
    EXPECT_EQ(m[5], "1,2,3,4");
    EXPECT_EQ(r.out.find("done requests="), r.out.rfind("done requests=")) << r.out;
}

// A loader's stdout is its stream to the coordinator: what request() prints there goes to the
// loader's stderr (shown as the loader's lines) and the run still reads every loader.
TEST_F(ScriptFleet, WhatALoadersScriptPrintsDoesNotBreakItsStream)
{
    const std::string s = m_dir.file("print.lua");
    test::writeFile(s,
        "print('top level')\n"
        "function init(args) io.write('init ', wrk.thread:get('n') or 'none', '\\n') end\n"
        "function setup(thread) thread:set('n', 7) end\n");
    const std::string json = m_dir.file("p.json");
    const auto r
        = test::runCli({ "--loaders", "2", "-t1", "-c2", "-n", "100", "--json", json, "-s", s, m_url }, 60'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const Json j = Json::parse(test::readFile(json));
    ASSERT_EQ(j["loaders"].size(), 2u);
    for (const Json& l : j["loaders"])
        EXPECT_EQ(l["state"], "completed") << l.dump();
    EXPECT_NE(r.err.find("loader 0: init 7"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("loader 1: init 7"), std::string::npos) << r.err;
}

// A Lua error in one loader's request() stops that loader and the run is failed with the message.
TEST_F(ScriptFleet, ALoadersLuaErrorFailsTheRunWithItsMessage)
{
    const std::string s = m_dir.file("boom.lua");
    test::writeFile(s,
        "n = 0\nfunction request()\n  n = n + 1\n  if n > 5 then error('boom in a loader') end\n"
        "  return wrk.format()\nend\n");
    const std::string db = m_dir.file("s.wrkbench");
    const auto r = test::runCli({ "--loaders", "2", "-t1", "-c2", "-d3s", "--db", db, "-s", s, m_url }, 60'000);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("boom in a loader"), std::string::npos) << r.err;
    const auto listed = test::runCli({ "runs", "--db", db });
    EXPECT_NE(listed.out.find("failed"), std::string::npos) << listed.out;
}

TEST_F(ScriptFleet, AnAgentRunsAScriptOnlyWhenAllowed)
{
    test::TempDir dir;
    const auto onAgent = [&](const test::Agent& agent) -> std::vector<std::string> {
        return { "--on", "agents", agent.address(), "--agent-token-file", agent.tokenFile(), "--agent-fingerprint",
            agent.fingerprint(), "-t1", "-c2", "-n", "100", "-s", m_script, m_url, "--", "agent" };
    };
    {
        test::Agent refusing(dir, "refusing");
        ASSERT_FALSE(refusing.address().empty()) << refusing.log();
        const auto r = test::runCli(onAgent(refusing), 60'000);
        EXPECT_NE(r.exitCode, 0);
        EXPECT_NE(r.err.find("this agent does not run scripts; start it with --allow-scripts"), std::string::npos)
            << r.err;
    }
    test::Agent allowing(dir, "allowing", "127.0.0.1", "127.0.0.1", { "--allow-scripts" });
    ASSERT_FALSE(allowing.address().empty()) << allowing.log();
    const size_t before = test::splitLines(nginx().requestLog()).size();
    const auto r = test::runCli(onAgent(allowing), 60'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto threads = byThread(served(before), "agent");
    ASSERT_EQ(threads.size(), 1u);
    EXPECT_EQ(threads.begin()->first, 1);
    EXPECT_NE(r.out.find("threads=1"), std::string::npos) << r.out;
}
