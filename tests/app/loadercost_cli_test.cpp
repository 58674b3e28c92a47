// The loader's honesty, as users run it: against a real nginx on this machine, a loader with no
// CPU to spare (-t8 on this 2-core machine, each worker truly busy) is flagged in the text report
// and the JSON, with its numbers; a light run (-R so low the workers sleep) is not; a loader that
// shares the machine with its target (the built-in server, as wrk -t12 is often run beside its
// server) is flagged for it; an open-model loader whose send spin keeps it on a CPU but that keeps
// its schedule is not. Each loader is busy, shared or idle by construction; the spinning one also
// needs its CPU to keep its schedule, so a run the machine paused is made again (pausemeter.h).
// The suite judges the machine's own load, so it runs alone (RUN_SERIAL).

#include "pausemeter.h"
#include "requirenginx.h"
#include "serve/targetserver.h"
#include "testsupport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>

using namespace wb;

namespace {

class LoaderCostCli : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(); }
    static void TearDownTestSuite() { stopNginx(); }
    static std::string url() { return "http://127.0.0.1:" + std::to_string(nginx().port()) + "/"; }
};

// Every response costs its worker about a millisecond of CPU (a loop LuaJIT cannot skip): the
// loader, not nginx, is the bottleneck, as with a heavy script in real use.
const char* const BURNING_SCRIPT = R"(
response = function(status, headers, body)
  local x = 0
  for i = 1, 400000 do x = (x + i * 7) % 1000003 end
  if x < 0 then print(x) end
end
)";

/// Runs the CLI, again while the machine paused a run out of the bounds boundsOf(summary) sets
/// (pausemeter.h). A summary that is not there yet (no JSON) is out of every bound.
template<class Bounds>
std::pair<test::ProcessResult, test::Pauses> runUnpaused(
    const std::vector<std::string>& args, int timeoutMs, const Bounds& boundsOf)
{
    return test::untilUnpaused([&] { return test::runCli(args, timeoutMs); },
        [&](const test::ProcessResult& p) {
            const auto j = nlohmann::json::parse(p.out, nullptr, false);
            return p.exitCode == 0 && !j.is_discarded() && boundsOf(j["summary"]).ok();
        });
}

} // namespace

TEST_F(LoaderCostCli, EightBusyWorkersOnThisMachineAreFlagged)
{
    test::TempDir dir;
    const std::string script = dir.file("burn.lua");
    test::writeFile(script, BURNING_SCRIPT);
    // Busy is CPU time over the run's: a machine that stops the loader (steal, a stop signal)
    // takes that time away, and such a run is made again.
    const auto boundsOf = [](const nlohmann::json& s) {
        test::TimeBounds bounds;
        bounds.atLeast("worker busy %", s["loader_cost"]["worker_busy_pct"].get<double>(), 90.0);
        return bounds;
    };
    const auto [r, pauses]
        = runUnpaused({ "-t8", "-c16", "-d3s", "-s", script, "--json", "-", url() }, 120'000, boundsOf);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& s = j["summary"];
    ASSERT_TRUE(s.contains("loader_cost")) << r.out;
    const auto& c = s["loader_cost"];
    const test::TimeBounds bounds = boundsOf(s);
    if (!bounds.ok() && pauses.material()) GTEST_SKIP() << bounds.text() << "; " << pauses.text() << "; " << c.dump();
    EXPECT_TRUE(bounds.ok()) << bounds.text() << "; " << c.dump();
    EXPECT_EQ(s["loader_saturated"], true) << c.dump();
    ASSERT_TRUE(s.contains("loader_warning"));
    const std::string warning = s["loader_warning"];
    EXPECT_EQ(warning.rfind("the loader was saturated (workers ", 0), 0u) << warning;
    EXPECT_NE(warning.find("the figures may measure the loader rather than the target"), std::string::npos);
    // The text report (on stderr beside --json -) says it in one line, with the same numbers.
    EXPECT_NE(r.err.find("\n  Warning: " + warning + "\n"), std::string::npos) << r.err;
    // Every interval carries its own cost, and they add up to the run's.
    uint64_t cpuUs = 0;
    for (const auto& interval : j["intervals"])
        cpuUs += interval["loader_cost"]["worker_cpu_us"].get<uint64_t>();
    EXPECT_EQ(cpuUs, c["worker_cpu_us"].get<uint64_t>());
    EXPECT_GT(c["process_cpu_us"].get<uint64_t>(), 0u);
    EXPECT_GT(c["machine_cpu_us"].get<uint64_t>(), 0u);
}

TEST_F(LoaderCostCli, ALightRunIsNotFlagged)
{
    // 20 requests a second over one connection: the worker sleeps between them.
    const auto r = test::runCli({ "-t1", "-c1", "-R", "20", "-d2s", "--latency", "--json", "-", url() }, 60'000);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& s = j["summary"];
    ASSERT_TRUE(s.contains("loader_cost")) << r.out;
    const auto& c = s["loader_cost"];
    EXPECT_LT(c["worker_busy_pct"].get<double>(), 50.0) << c.dump();
    EXPECT_GT(c["worker_wall_us"].get<uint64_t>(), 1'000'000u) << "measured over the run";
    // The hypervisor may steal this VM's CPUs: then, and only then, the flag says so.
    const bool stolen = c["machine_steal_pct"].get<double>() >= 10.0;
    EXPECT_EQ(s["loader_saturated"], stolen) << c.dump();
    EXPECT_EQ(s.contains("loader_warning"), stolen);
    if (!stolen) {
        EXPECT_EQ(r.err.find("Warning: the loader was saturated"), std::string::npos) << r.err;
    }
    // --latency prints the figures themselves.
    EXPECT_NE(r.err.find("\n  Loader: workers "), std::string::npos) << r.err;
}

// The open model's end when the loader is behind: a busy worker reads a batch of responses that
// takes it past the end of the run, before its drain begins. Every request it sent is still a
// request of the run (or a timeout), as nginx's log counts them; none is lost between the two.
TEST_F(LoaderCostCli, ABusyOpenModelLoaderCountsEveryRequestItSent)
{
    test::Nginx logged;
    test::NginxOptions options;
    options.requestLog = true;
    ASSERT_TRUE(logged.start(options)) << logged.log();
    test::TempDir dir;
    const std::string script = dir.file("burn.lua");
    test::writeFile(script, BURNING_SCRIPT);
    // ~1 ms of CPU per response and 2,000 due a second on one worker: always behind, so a batch
    // of ready responses is being read when the end comes. The timeout leaves the drain room.
    const auto r = test::runCli({ "-t1", "-c8", "-R", "2000", "-d1s", "--timeout", "60s", "-s", script, "--json", "-",
                                    "http://127.0.0.1:" + std::to_string(logged.port()) + "/" },
        180'000);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& s = j["summary"];
    const uint64_t counted = s["requests"].get<uint64_t>();
    const uint64_t timedOut = s["errors"]["timeout"].get<uint64_t>();
    const uint64_t served = logged.requestLines(counted + timedOut).size();
    ASSERT_GT(counted, 0u);
    EXPECT_EQ(served, counted + timedOut)
        << "nginx served " << served << ", the run counted " << counted << " and " << timedOut << " timeouts";
    EXPECT_EQ(counted + timedOut, 2000u) << "every request due in the 1 s window: sent, then counted";
}

// The target on the loader's machine. As many loader threads as CPUs and a built-in server with
// half as many threads, all of them wanting a CPU: the machine is full and the workers wait for a
// CPU a good part of their time (19-43% on this 2-core machine, its CPUs 84-99% busy, by
// bench/loader-shared.sh), though neither busy enough nor half the machine by themselves.
TEST_F(LoaderCostCli, ALoaderSharingTheMachineWithItsTargetIsFlagged)
{
    const unsigned cpus = std::max(2u, std::thread::hardware_concurrency());
    TargetServerOptions options;
    options.threads = cpus / 2;
    TargetServer server(options);
    ASSERT_TRUE(server.start().ok());
    // Waiting needs a machine that runs the threads: one that stops them all (a stop signal) is
    // idle meanwhile, and such a run is made again. Full: busy, or stolen by the hypervisor (the
    // machine did not have that time either).
    const auto boundsOf = [](const nlohmann::json& s) {
        const auto& c = s["loader_cost"];
        test::TimeBounds bounds;
        bounds.atLeast("worker wait %", c["worker_wait_pct"].get<double>(), 5.0);
        bounds.atLeast("machine busy and stolen %",
            c["machine_busy_pct"].get<double>() + c["machine_steal_pct"].get<double>(), 80.0);
        return bounds;
    };
    const auto [r, pauses] = runUnpaused({ "-t" + std::to_string(cpus), "-c64", "-d2s", "--json", "-",
                                             "http://127.0.0.1:" + std::to_string(server.port()) + "/" },
        120'000, boundsOf);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& s = j["summary"];
    const auto& c = s["loader_cost"];
    const test::TimeBounds bounds = boundsOf(s);
    if (!bounds.ok() && pauses.material()) GTEST_SKIP() << bounds.text() << "; " << pauses.text() << "; " << c.dump();
    EXPECT_TRUE(bounds.ok()) << bounds.text() << "; " << c.dump();
    EXPECT_EQ(s["loader_saturated"], true) << c.dump();
    ASSERT_TRUE(s.contains("loader_warning")) << c.dump();
    const std::string warning = s["loader_warning"];
    EXPECT_NE(warning.find("shared the machine with other work: its workers waited for a CPU "), std::string::npos)
        << warning;
    EXPECT_NE(r.err.find("\n  Warning: " + warning + "\n"), std::string::npos) << r.err;
}

// The open model's send spin keeps a worker on a CPU before each due send (here all the time: a
// 5 ms spin before sends 1 ms apart), which is waiting, not work: a loader that keeps its schedule
// is not saturated for it. The figures still show the spin.
TEST_F(LoaderCostCli, ASpinningOpenModelLoaderThatKeepsItsScheduleIsNotFlagged)
{
    // Spinning on a CPU and keeping the schedule need the CPU: a hypervisor that steals it (38% on
    // a CI machine once) takes the worker off it and the run behind. Such a run is made again, and
    // skipped with its figures if every attempt was paused.
    const auto boundsOf = [](const nlohmann::json& s) {
        const auto& c = s["loader_cost"];
        test::TimeBounds bounds;
        bounds.atLeast("worker busy %", c["worker_busy_pct"].get<double>(), 90.0);
        bounds.atLeast("worker spin %", c["worker_spin_pct"].get<double>(), 50.0);
        bounds.atMost("late requests", s["late_requests"].get<double>(), 0.05 * s["requests"].get<double>());
        return bounds;
    };
    const auto [r, pauses]
        = runUnpaused({ "-t1", "-c10", "-R", "1000", "--send-spin", "5ms", "-d2s", "--latency", "--json", "-", url() },
            60'000, boundsOf);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& s = j["summary"];
    const auto& c = s["loader_cost"];
    // What no pause changes: the spin is not counted as work, and the report shows the figures.
    EXPECT_LT(c["worker_work_pct"].get<double>(), 50.0) << c.dump();
    EXPECT_NE(r.err.find("\n  Loader: workers "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("busy, the send spin aside ("), std::string::npos) << r.err;
    const test::TimeBounds bounds = boundsOf(s);
    if (!bounds.ok() && pauses.material()) GTEST_SKIP() << bounds.text() << "; " << pauses.text() << "; " << c.dump();
    EXPECT_TRUE(bounds.ok()) << bounds.text() << "; " << c.dump();
    // Other work on this machine (another process keeping a core busy) takes the CPU the spin
    // needs, and the flag then rightly says the loader shared the machine: this test is in the
    // quiet tier for that reason, and a run that was not given a quiet machine is skipped with its
    // figures rather than judged.
    const double otherCpus = (c["machine_busy_us"].get<double>() - c["process_cpu_us"].get<double>())
        / std::max(1.0, c["process_wall_us"].get<double>());
    if (s["loader_saturated"] == true && otherCpus >= 0.5)
        GTEST_SKIP() << "other work kept " << otherCpus << " CPUs busy beside the loader; " << c.dump();
    // The hypervisor may steal this VM's CPUs: then, and only then, the flag says so.
    const bool stolen = c["machine_steal_pct"].get<double>() >= 10.0;
    EXPECT_EQ(s["loader_saturated"], stolen) << c.dump();
}
