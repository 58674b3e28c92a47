// A capacity search's reports, from a search run against simulated targets: the Markdown and CSV
// list every trial of every target with its verdict, the HTML's chart has a mark per trial (rings
// for failures) and the latency SLO's line, the words claim no capacity for a loader-limited
// search, and text from the session (a URL) cannot break out of a table cell, a fence or the page.
#include "capacity/capacityreport.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

CapacityResult searchTo(double capacity, double loaderLimit = 0)
{
    CapacityOptions o;
    o.fromPerS = 100;
    o.trialUs = 1'000'000;
    o.finalUs = 2'000'000;
    o.repeat = 2;
    CapacitySearch s(o);
    while (auto trial = s.next()) {
        TrialOutcome out;
        out.loaderLimited = loaderLimit > 0 && trial->ratePerS >= loaderLimit;
        if (out.loaderLimited) out.loaderReason = "the loader was saturated";
        out.passed = !out.loaderLimited && trial->ratePerS <= capacity;
        if (!out.passed) out.failedSlo = "p99<50ms";
        out.slo = { { "p99<50ms", out.passed ? 10.0 : 90.0, "ms", out.passed } };
        out.runId = 7;
        out.elapsedS = 1;
        s.record(out);
    }
    return s.result();
}

CapacityReport reportOf(std::vector<CapacityResult> results, const std::string& secondUrl)
{
    CapacityReport r;
    r.slos = { *parseSlo("p99<50ms") };
    r.threads = 2;
    r.connections = 50;
    r.options.repeat = 2;
    for (size_t i = 0; i < results.size(); ++i) {
        CapacityReportTarget t;
        t.label = std::string(1, static_cast<char>('A' + i));
        t.url = i == 0 ? "http://a.example/" : secondUrl;
        t.result = std::move(results[i]);
        for (const CapacityTrialRecord& tr : t.result.trials)
            t.figures.push_back({ 1000, tr.outcome.passed ? 10'000.0 : 90'000.0, 0, 0,
                { { "srv: busy %", tr.outcome.passed ? 30.0 : 95.0 }, { "srv: connections", 50 } } });
        r.targets.push_back(std::move(t));
    }
    return r;
}

size_t count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST(CapacityReport, EveryTrialIsInEveryReport)
{
    const CapacityReport r = reportOf({ searchTo(1234), searchTo(800) }, "http://b.example/");
    const size_t trialsA = r.targets[0].result.trials.size(), trialsB = r.targets[1].result.trials.size();
    ASSERT_GT(trialsA, 5u);

    const std::string csv = capacityCsv(r);
    EXPECT_EQ(count(csv, "\n"), 1 + trialsA + trialsB);
    EXPECT_EQ(count(csv, "\nA,http://a.example/,"), trialsA);
    EXPECT_EQ(count(csv, "\nB,http://b.example/,"), trialsB);
    EXPECT_NE(csv.find(",passed,,1.000,10.000,0.00,0.00,,7\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",failed,,1.000,90.000,0.00,0.00,p99<50ms,7\n"), std::string::npos) << csv;

    const std::string md = capacityMarkdown(r);
    EXPECT_TRUE(md.starts_with("# Capacity under p99<50ms\n")) << md;
    EXPECT_EQ(count(md, "\n| A | "), trialsA);
    EXPECT_EQ(count(md, "\n| B | "), trialsB);
    EXPECT_NE(md.find("A http://a.example/: capacity "), std::string::npos) << md;
    EXPECT_NE(md.find("B carries "), std::string::npos) << md;

    const std::string html = capacityHtml(r);
    size_t failures = 0;
    for (const CapacityReportTarget& t : r.targets)
        for (const CapacityTrialRecord& tr : t.result.trials)
            failures += tr.outcome.passed ? 0 : 1;
    // A mark per trial (a ring per failure) and the SLO line's two ends.
    EXPECT_EQ(count(html, "<circle "), trialsA + trialsB + 2);
    EXPECT_EQ(count(html, "fill=\"white\""), failures);
    EXPECT_NE(html.find("data-name=\"SLO p99&lt;50ms\""), std::string::npos);
    EXPECT_NE(html.find("stroke-dasharray"), std::string::npos);
    EXPECT_EQ(count(html, "<tr><td>"), trialsA + trialsB);
}

TEST(CapacityReport, TheTargetsMetricsSayWhatMovedAtTheBracket)
{
    const CapacityReport r = reportOf({ searchTo(1234) }, "");
    const std::string text = capacitySummaryText(r.targets[0], r.options);
    // What moved between the last pass and the first failure, and not what stayed put.
    EXPECT_NE(
        text.find("  the target's metrics from 1225 req/s to 1238 req/s: srv: busy % 30 -> 95\n"), std::string::npos)
        << text;
    EXPECT_EQ(text.find("srv: connections"), std::string::npos) << text;
    // Without scraped metrics, no such line.
    CapacityReport bare = r;
    for (CapacityTrialFigures& f : bare.targets[0].figures)
        f.metrics.clear();
    EXPECT_EQ(capacitySummaryText(bare.targets[0], bare.options).find("the target's metrics"), std::string::npos);
}

TEST(CapacityReport, ALoaderLimitedSearchClaimsNoCapacity)
{
    const CapacityReport r = reportOf({ searchTo(1e9, 3000) }, "");
    const std::string text = capacitySummaryText(r.targets[0], r.options);
    EXPECT_NE(text.find("limited by the loader at 3200 req/s"), std::string::npos) << text;
    EXPECT_EQ(text.find(": capacity "), std::string::npos) << text;
    EXPECT_NE(text.find("No capacity is claimed; the target carried at least 1600 req/s"), std::string::npos) << text;
    EXPECT_NE(capacityCsv(r).find(",loader,the loader was saturated,"), std::string::npos);
    EXPECT_NE(capacityHtml(r).find("loader: the loader was saturated"), std::string::npos);
}

TEST(CapacityReport, TheHeadlineSaysNoMoreThanTheSummary)
{
    // A capacity found: its value and the bracket that the summary gives.
    const CapacityResult found = searchTo(1234);
    const CapacityHeadline h = capacityHeadline(found);
    EXPECT_EQ(h.value, rateText(found.ratePerS) + " req/s");
    EXPECT_NE(h.detail.find("passes " + rateText(found.lowerPerS) + " req/s, fails " + rateText(found.upperPerS)),
        std::string::npos)
        << h.detail;
    EXPECT_NE(h.detail.find("above it p99<50ms failed first"), std::string::npos) << h.detail;
    // A loader that could not make a rate: no number as the headline, the loader's limit below it.
    const CapacityHeadline loader = capacityHeadline(searchTo(1e9, 3000));
    EXPECT_EQ(loader.value, "limited by the loader");
    EXPECT_NE(loader.detail.find("could not make 3200 req/s"), std::string::npos) << loader.detail;
    EXPECT_NE(loader.detail.find("at least 1600 req/s"), std::string::npos) << loader.detail;
    // Nothing failed up to --to: "at least".
    CapacityOptions o;
    o.fromPerS = 100;
    o.toPerS = 400;
    CapacitySearch upTo(o);
    while (auto trial = upTo.next()) {
        TrialOutcome out;
        out.passed = true;
        upTo.record(out);
    }
    EXPECT_EQ(capacityHeadline(upTo.result()).value, "at least 400 req/s");
    // Failing at --min: "below".
    o.toPerS = 1'000'000;
    o.minPerS = 50;
    CapacitySearch never(o);
    while (auto trial = never.next()) {
        TrialOutcome out;
        out.failedSlo = "p99<50ms";
        never.record(out);
    }
    const CapacityHeadline below = capacityHeadline(never.result());
    EXPECT_EQ(below.value, "below 50 req/s") << below.detail;
    EXPECT_NE(below.detail.find("even at --min"), std::string::npos) << below.detail;
}

TEST(CapacityReport, TextFromTheSessionStaysInItsPlace)
{
    const std::string hostile = "http://b/|x\n```\n<script>alert(1)</script>\xff";
    const CapacityReport r = reportOf({ searchTo(1234), searchTo(800) }, hostile);
    const std::string md = capacityMarkdown(r);
    EXPECT_EQ(count(md, "```"), 2u) << md; // the block's own fences only
    EXPECT_EQ(md.find('\xff'), std::string::npos);
    const std::string html = capacityHtml(r);
    EXPECT_EQ(html.find("<script>"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
    const std::string csv = capacityCsv(r);
    EXPECT_NE(csv.find("\"http://b/|x\n```\n<script>alert(1)</script>\xef\xbf\xbd\""), std::string::npos) << csv;
}

} // namespace
} // namespace wb
