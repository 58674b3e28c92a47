// The HTML report of a comparison of stored runs (what Compare's File > Export > HTML and
// `wrkbench-cli export --html` write): one row per run with the verdict against the baseline,
// a difference inside the runs' own interval-to-interval variation said to be within it (never a
// gain or a loss), latency in ms in the header only, each run in its target's window colour, the
// configuration side by side with every request header, every user text escaped, nothing fetched.
//
// Hand-worked noise: the baseline's four 1 s intervals make 1000, 1100, 900, 1000 req/s: median
// 1000, absolute deviations 0, 100, 100, 0 with median 50, robust CV 1.4826 × 50 / 1000 = 7.413 %.
// Run 2 (another target) makes 1050 flat (0): the Δ of +5 % is within the larger, 7.413 %. Run 3
// makes 1500 flat: +50 % is a gain.

#include "experiment/comparisonhtml.h"
#include "experiment/runcomparison.h"
#include "report/palette.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

namespace {

const std::string EVIL = "<script>alert(1)</script>";

RunData run(int64_t id, int64_t targetId, const std::string& name, const std::vector<double>& rates, double p50Us)
{
    RunData d;
    d.run.id = id;
    d.run.targetId = targetId;
    d.run.targetName = name;
    d.run.url = "http://127.0.0.1:8080/api?x=1";
    d.run.status = RunStatus::Completed;
    d.run.hasTotals = true;
    d.run.engineVersion = "0.1.0";
    d.run.config.request.method = "GET";
    d.run.config.request.headers = { { "X-Env", "staging" }, { "Authorization", "Bearer " + EVIL } };
    d.run.config.threads = 2;
    d.run.config.connections = 10;
    d.run.config.durationUs = static_cast<uint64_t>(rates.size()) * 1'000'000;
    double sum = 0;
    for (size_t i = 0; i < rates.size(); ++i) {
        IntervalRecord r;
        r.index = static_cast<uint32_t>(i);
        r.startS = static_cast<double>(i);
        r.endS = static_cast<double>(i + 1);
        r.requests = static_cast<uint64_t>(rates[i]);
        r.latency.p50Us = p50Us;
        r.latency.p99Us = 4 * p50Us;
        d.intervals.push_back(r);
        sum += rates[i];
    }
    d.run.totals.requestsPerS = sum / static_cast<double>(rates.size());
    d.run.totals.durationS = static_cast<double>(rates.size());
    d.run.totals.latency.p50Us = p50Us;
    d.run.totals.latency.p90Us = 2 * p50Us;
    d.run.totals.latency.p99Us = 4 * p50Us;
    return d;
}

std::string tableOf(const std::string& html, const std::string& id)
{
    const size_t at = html.find("<table id=\"" + id + "\"");
    return at == std::string::npos ? std::string() : html.substr(at, html.find("</table>", at) - at);
}

} // namespace

TEST(RunComparison, NoiseIsTheIntervalsRobustCoefficientOfVariation)
{
    const std::vector<RunData> runs { run(1, 1, "A", { 1000, 1100, 900, 1000 }, 59),
        run(2, 2, "B", { 1050, 1050, 1050, 1050 }, 1140), run(3, 3, "C", { 1500, 1500, 1500, 1500 }, 800) };
    const RunComparison c = compareRuns(runs);
    EXPECT_NEAR(c.noisePct("rps", 0), 1.4826 * 50 / 1000 * 100, 1e-9);
    EXPECT_NEAR(c.deltaPct("rps", 1), 5.0, 1e-9);
    EXPECT_TRUE(c.withinNoise("rps", 1));
    EXPECT_NEAR(c.noiseAgainstBaselinePct("rps", 1), 7.413, 1e-9);
    EXPECT_FALSE(c.withinNoise("rps", 2));
    EXPECT_EQ(comparisonVerdict(c, 0), "baseline");
    EXPECT_EQ(comparisonVerdict(c, 1).rfind("req/s within the runs' own variation (\xC2\xB1 7.4 %: +5.00 %)", 0), 0U)
        << comparisonVerdict(c, 1);
    EXPECT_EQ(comparisonVerdict(c, 2).rfind("50.00 % more req/s", 0), 0U) << comparisonVerdict(c, 2);
    // C against A: p50 800 vs 59 us, p90 1600 vs 118, p99 3200 vs 236, flat over the intervals:
    // real differences, each named.
    EXPECT_EQ(
        comparisonVerdict(c, 2), "50.00 % more req/s; p50 1255.9 % higher; p90 1255.9 % higher; p99 1255.9 % higher");

    // Another baseline: the order follows it, the others keep theirs.
    const RunComparison b = compareRuns(runs, 3);
    ASSERT_EQ(b.runs.size(), 3U);
    EXPECT_EQ(b.runs[0].id, 3);
    EXPECT_EQ(b.runs[1].id, 1);
    EXPECT_EQ(b.runs[2].id, 2);

    // Two runs of one setup: their spread is the noise another setup is held to.
    std::vector<RunData> repeated = runs;
    repeated.push_back(run(4, 2, "B", { 1150, 1150, 1150, 1150 }, 1140));
    const RunComparison r = compareRuns(repeated);
    EXPECT_TRUE(sameSetup(r.runs[1], r.runs[3]));
    EXPECT_NEAR(r.noisePct("rps", 1), 100.0 * std::sqrt(5000.0) / 1100, 1e-9);
}

// One interval's latency spike (a 35 ms p99 among 0.2 ms ones) cannot make a tenfold regression
// read as noise: the spread is the median's, not the mean's.
TEST(RunComparison, OneSpikeDoesNotWidenTheBand)
{
    RunData a = run(1, 1, "nginx", { 1000, 1000, 1000, 1000, 1000 }, 200);
    for (IntervalRecord& r : a.intervals)
        r.latency.p99Us = 300;
    a.intervals[2].latency.p99Us = 35'000;
    a.run.totals.latency.p99Us = 400;
    RunData b = run(2, 2, "slower", { 120, 120, 120, 120, 120 }, 2250);
    for (IntervalRecord& r : b.intervals)
        r.latency.p99Us = 600;
    b.run.totals.latency.p99Us = 600;
    const RunComparison c = compareRuns({ a, b });
    // The classic CV of the baseline's p99 is about 180 %: +50 % would have been "noise".
    std::vector<double> p99s;
    for (const IntervalRecord& r : a.intervals)
        p99s.push_back(r.latency.p99Us);
    EXPECT_GT(cvPct(p99s), 150.0);
    EXPECT_NEAR(c.noisePct("p99", 0), 0.0, 1e-9);
    EXPECT_FALSE(c.withinNoise("p99", 1));
    EXPECT_EQ(
        comparisonVerdict(c, 1), "88.00 % fewer req/s; p50 1025.0 % higher; p90 1025.0 % higher; p99 50.0 % higher");
}

TEST(ComparisonHtml, OneRowPerRunWithAVerdictThatRespectsNoise)
{
    const std::vector<RunData> runs { run(1, 1, "A", { 1000, 1100, 900, 1000 }, 59),
        run(2, 2, EVIL, { 1050, 1050, 1050, 1050 }, 1140), run(3, 3, "C", { 1500, 1500, 1500, 1500 }, 800) };
    ComparisonReportOptions options;
    options.sessionName = "lab.wrkbench";
    options.generatedAtMs = 1'700'000'000'000;
    const std::string html = formatComparisonHtml(runs, options);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
    EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(html.find("lab.wrkbench"), std::string::npos);

    const std::string results = tableOf(html, "comparison-table");
    ASSERT_FALSE(results.empty()) << html;
    EXPECT_NE(results.find("<tr class=\"baseline\" id=\"run-1\">"), std::string::npos);
    EXPECT_NE(results.find("<th class=\"verdict\">vs baseline</th>"), std::string::npos);
    EXPECT_NE(results.find("req/s within the runs&#39; own variation"), std::string::npos) << results;
    EXPECT_NE(results.find("50.00 % more req/s"), std::string::npos);
    // Latency in ms, the unit in the header only: 59 us and 1.14 ms read 0.059 and 1.140.
    EXPECT_NE(results.find("<th>p50 (ms)</th>"), std::string::npos);
    EXPECT_NE(results.find("<td class=\"num\">0.059</td>"), std::string::npos) << results;
    EXPECT_NE(results.find("<td class=\"num\">1.140</td>"), std::string::npos) << results;
    for (const char* unit : { "us<", "\xC2\xB5s", "ms<" })
        EXPECT_EQ(results.find(unit), std::string::npos) << unit;
    // Each run in its target's window colour.
    for (const int64_t target : { 1, 2, 3 })
        EXPECT_NE(results.find("background: " + targetColorHex(target)), std::string::npos) << target;
    EXPECT_NE(html.find("stroke=\"" + targetColorHex(3) + "\""), std::string::npos);

    // The configuration side by side, the headers as sent, escaped.
    const std::string config = tableOf(html, "config-table");
    EXPECT_NE(config.find("<th>headers</th>"), std::string::npos) << config;
    EXPECT_NE(config.find("X-Env: staging<br>Authorization: Bearer &lt;script&gt;"), std::string::npos) << config;
    EXPECT_NE(config.find("GET http://127.0.0.1:8080/api?x=1"), std::string::npos);
    // Two charts: req/s over time and the latency percentiles.
    size_t charts = 0;
    for (size_t at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at + 1))
        ++charts;
    EXPECT_EQ(charts, 2U);
}

TEST(ComparisonHtml, AStoppedRunSaysHowLongItRan)
{
    RunData stopped = run(2, 1, "A", { 1000, 1000 }, 100);
    stopped.run.status = RunStatus::Stopped;
    stopped.run.config.durationUs = 10'000'000;
    stopped.run.totals.durationS = 2.34;
    const std::string config
        = tableOf(formatComparisonHtml({ run(1, 1, "A", { 1000 }, 100), stopped }), "config-table");
    EXPECT_NE(config.find("10s planned, ran 2.34 s"), std::string::npos) << config;
}
