// --slo as a pipeline uses it: against a real nginx (and the built-in server with a
// delay), the verdict lines end the report, the JSON carries them, and the exit
// code is 4 when one fails, 0 when all hold; --slo-abort ends a hopeless run early.

#include "nginx.h"
#include "requirenginx.h"
#include "serve/targetserver.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace wb;

namespace {

class SloCli : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(); }
    static void TearDownTestSuite() { stopNginx(); }
    static std::string url(const std::string& path)
    {
        return "http://127.0.0.1:" + std::to_string(nginx().port()) + path;
    }
    static std::vector<std::string> lines(const std::string& text) { return test::splitLines(text); }
};

} // namespace

TEST_F(SloCli, EverySloMetExitsZero)
{
    const auto r = test::runCli({ "-t1", "-c2", "-n", "200", "--slo", "p99<10s", "--slo", "errors<1%", "--slo",
        "non2xx<1%", "--slo", "rps>1", "--slo", "connect_max<10s", "--slo", "ttfb_p99<10s", url("/") });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto l = lines(r.out);
    ASSERT_GE(l.size(), 6u);
    // The verdicts are the last lines, after wrk's.
    EXPECT_EQ(l[l.size() - 7].rfind("Transfer/sec:", 0), 0u) << r.out;
    EXPECT_EQ(l[l.size() - 6].rfind("SLO p99<10s: ok (", 0), 0u) << r.out;
    EXPECT_EQ(l[l.size() - 5], "SLO errors<1%: ok (0.00%)");
    EXPECT_EQ(l[l.size() - 4], "SLO non2xx<1%: ok (0.00%)");
    EXPECT_EQ(l[l.size() - 3].rfind("SLO rps>1: ok (", 0), 0u);
    EXPECT_EQ(l[l.size() - 1].rfind("SLO ttfb_p99<10s: ok (", 0), 0u);
}

TEST_F(SloCli, AFailingSloExitsFourAndSaysSo)
{
    const auto r = test::runCli(
        { "-t1", "-c2", "-n", "200", "--slo", "non2xx<1%", "--slo", "p99<10s", "--json", "-", url("/status/500") });
    EXPECT_EQ(r.exitCode, 4) << r.err;
    EXPECT_NE(r.err.find("\nSLO non2xx<1%: FAILED (100.00%)\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\nSLO p99<10s: ok ("), std::string::npos) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["slo"].size(), 2u);
    EXPECT_EQ(j["slo"][0]["expr"], "non2xx<1%");
    EXPECT_EQ(j["slo"][0]["value"], 100.0);
    EXPECT_EQ(j["slo"][0]["unit"], "%");
    EXPECT_EQ(j["slo"][0]["ok"], false);
    EXPECT_EQ(j["slo"][1]["ok"], true);
    EXPECT_EQ(j["slo_ok"], false);
    EXPECT_FALSE(j.contains("slo_aborted_by"));
}

TEST_F(SloCli, ADelayedAnswerFailsALatencySlo)
{
    TargetServerOptions options;
    options.delayUs = 30'000;
    TargetServer slow(options);
    ASSERT_TRUE(slow.start().ok());
    const auto r = test::runCli({ "-t1", "-c2", "-n", "20", "--slo", "p50<10ms", "--slo", "ttfb_p50<10ms",
        "http://127.0.0.1:" + std::to_string(slow.port()) + "/" });
    EXPECT_EQ(r.exitCode, 4) << r.out << r.err;
    // Every answer waited 30 ms, so the median is at least that: the verdict quotes it.
    EXPECT_NE(r.out.find("SLO p50<10ms: FAILED ("), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SLO ttfb_p50<10ms: FAILED ("), std::string::npos) << r.out;
}

TEST_F(SloCli, SloAbortStopsOnceTheBudgetIsSpent)
{
    const auto r = test::runCli(
        { "-t1", "-c2", "-d60s", "--slo", "non2xx<1%", "--slo-abort", "--json", "-", url("/status/500") }, 120'000);
    EXPECT_EQ(r.exitCode, 4) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["slo_aborted_by"], "non2xx<1%");
    EXPECT_EQ(j["summary"]["stopped_early"], true);
    // Judged after 5 s of measurement, well before the 60 s planned.
    const double measuredS = j["summary"]["duration_s"].get<double>();
    EXPECT_GE(measuredS, 5.0);
    EXPECT_LT(measuredS, 60.0);
    EXPECT_NE(r.err.find("SLO abort: stopped after "), std::string::npos) << r.err;
}

TEST_F(SloCli, BadExpressionsAreOneLineAndRunNothing)
{
    auto r = test::runCli({ "-d1s", "--slo", "p99<25x", url("/") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "wrkbench-cli: error: --slo: SLO 'p99<25x': at character 7, unknown unit 'x' (use us, ms or s)\n");
    EXPECT_EQ(r.out, "");
    r = test::runCli({ "-d1s", "--slo", "service_p99<5ms", url("/") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("open model only"), std::string::npos) << r.err;
    r = test::runCli({ "-d1s", "--slo", "p99<1s", "--slo-abort", url("/") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--slo-abort watches errors and non-2xx budgets"), std::string::npos) << r.err;
}
