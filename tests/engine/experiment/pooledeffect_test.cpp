// The pooled verdict across cells, checked against a hand-worked example.

#include "experiment/experimentreport.h"
#include "experiment/experimentresults.h"
#include "experiment/htmlreport.h"
#include "experiment/pooledeffect.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

namespace {

std::vector<PooledObservation> twoByTwo(double b2First, double b2Second)
{
    // ln(req/s) of 2 cells x (baseline A, variant B) x 2 runs.
    return { { 0, -1, 9.99 }, { 0, -1, 10.01 }, { 0, 0, 9.89 }, { 0, 0, 9.91 }, { 1, -1, 10.99 }, { 1, -1, 11.01 },
        { 1, 0, b2First }, { 1, 0, b2Second } };
}

} // namespace

// By hand, balanced 2 x 2 with 2 runs per (cell, target):
//   cell means: A1 10.00, B1 9.90 (d1 = -0.10); A2 11.00, B2 10.88 (d2 = -0.12)
//   balanced, so beta = (d1 + d2) / 2 = -0.11
//   within: every group is m +- 0.01: 2 x 0.0001 each, 4 groups: 0.0008; df = 8 - 2 x 2 = 4; s^2 = 0.0002
//   var(beta) = s^2 (1/4) sum over cells (1/2 + 1/2) = s^2 / 2 = 0.0001, se = 0.01
//   t(0.975; 4) = 2.776 (t table): ln CI = -0.11 +- 0.02776 = (-0.13776, -0.08224)
//   ratio exp(-0.11) = 0.895834, CI (0.871309, 0.921050): B 10.4% slower (CI 7.9-12.9%)
//   interaction: the additive fit misses each group mean by +-(d1 - d2)/4 = +-0.005, 2 runs each:
//   RSS_common - RSS_percell = 8 x 0.000025 = 0.0002 on 2 - 1 = 1 df; F = 0.0002 / 0.0002 = 1
//   p = P(F(1, 4) > 1) = P(|t_4| > 1); for 4 df P(|t| <= t) = sin u (1 + cos^2 u / 2), tan u = t / 2:
//   sin u = 1/sqrt 5 = 0.447214, cos^2 u = 0.8: 0.447214 x 1.4 = 0.626099, p = 0.373901
TEST(PooledEffect, MatchesTheHandWorkedTwoByTwo)
{
    const std::vector<PooledEffect> effects = fitPooledEffects(twoByTwo(10.87, 10.89));
    ASSERT_EQ(effects.size(), 1u);
    const PooledEffect& e = effects[0];
    EXPECT_EQ(e.cells, 2u);
    EXPECT_EQ(e.runs, 4u);
    EXPECT_NEAR(e.ratio.ratio, 0.895834, 1e-6);
    EXPECT_DOUBLE_EQ(e.ratio.df, 4.0);
    EXPECT_NEAR(std::log(e.ratio.low), -0.11 - 0.0277645, 1e-5); // t(0.975; 4) = 2.776445
    EXPECT_NEAR(std::log(e.ratio.high), -0.11 + 0.0277645, 1e-5);
    EXPECT_TRUE(e.ratio.significant());
    EXPECT_NEAR(e.interactionF, 1.0, 1e-9);
    EXPECT_DOUBLE_EQ(e.interactionDf, 1.0);
    EXPECT_NEAR(e.interactionP, 0.373901, 1e-6);
    EXPECT_FALSE(e.notCommon());
}

// The same with B2 faster than A2 by as much as B1 is slower than A1: d1 = -0.10, d2 = +0.10, beta = 0;
// the misfit is +-0.05 per group: 8 x 0.0025 = 0.02, F = 0.02 / 0.0002 = 100;
// p = 1 - sin u (1 + cos^2 u / 2) with tan u = 10 / 2 = 5: sin u = 0.980581, cos^2 u = 1/26:
// 0.980581 x 1.019231 = 0.999438, p = 0.000562. Not common: no pooled verdict.
TEST(PooledEffect, AnEffectThatDiffersBetweenCellsIsNotPooled)
{
    const std::vector<PooledEffect> effects = fitPooledEffects(twoByTwo(11.09, 11.11));
    ASSERT_EQ(effects.size(), 1u);
    EXPECT_NEAR(effects[0].ratio.ratio, 1.0, 1e-9);
    EXPECT_NEAR(effects[0].interactionF, 100.0, 1e-6);
    EXPECT_NEAR(effects[0].interactionP, 0.000562, 1e-6);
    EXPECT_TRUE(effects[0].notCommon());
}

// Unbalanced cells (3 runs against 2): the least-squares fit is no longer the mean of the cell
// differences. Checked against the normal equations solved by hand: with cells of n_A = 2, n_B = 3
// (cell 0) and n_A = 3, n_B = 2 (cell 1) and within-cell weights w = n_A n_B / (n_A + n_B) = 6/5 in both,
// beta = sum w d / sum w = (d0 + d1) / 2 and var(beta) = s^2 / sum w = s^2 / 2.4.
TEST(PooledEffect, UnbalancedCellsWeighByTheirRuns)
{
    const std::vector<PooledObservation> obs { { 0, -1, 10.0 }, { 0, -1, 10.02 }, { 0, 0, 9.9 }, { 0, 0, 9.92 },
        { 0, 0, 9.91 }, { 1, -1, 11.0 }, { 1, -1, 11.02 }, { 1, -1, 11.01 }, { 1, 0, 10.88 }, { 1, 0, 10.9 } };
    // d0 = 9.91 - 10.01 = -0.10, d1 = 10.89 - 11.01 = -0.12; beta = -0.11.
    // within: cell 0 A 0.0002, B 0.0002; cell 1 A 0.0002, B 0.0002: 0.0008 on 10 - 4 = 6 df, s^2 = 0.000133333
    const std::vector<PooledEffect> effects = fitPooledEffects(obs);
    ASSERT_EQ(effects.size(), 1u);
    EXPECT_NEAR(std::log(effects[0].ratio.ratio), -0.11, 1e-9);
    EXPECT_DOUBLE_EQ(effects[0].ratio.df, 6.0);
    const double se = std::sqrt(0.0008 / 6.0 / 2.4);
    EXPECT_NEAR(std::log(effects[0].ratio.high), -0.11 + 2.446912 * se, 1e-6); // t(0.975; 6) = 2.446912
}

// The study of the issue in miniature: every cell alone says nothing, pooled they decide.
TEST(PooledEffect, ResultsGetOneLinePerVariantAndTheReportsShowIt)
{
    auto plan = parseExperimentPlan(R"({"name": "NEG vs NodePort", "targets": [
        {"name": "NEG", "url": "http://10.0.0.1/", "baseline": true, "session_target_id": 7},
        {"name": "NodePort", "url": "http://10.0.0.2:30080/", "session_target_id": 9}],
        "sweep": {"axis": "connections", "values": [25, 50, 100], "match_threads": true},
        "repetitions": 2, "duration": "30s"})");
    ASSERT_TRUE(plan.ok()) << plan.error();
    std::vector<RunRecord> runs;
    int64_t id = 1;
    auto add = [&](int64_t target, int cell, int rep, double rps) {
        RunRecord r;
        r.id = id++;
        r.targetId = target;
        r.status = RunStatus::Completed;
        r.hasTotals = true;
        r.totals.requestsPerS = rps;
        r.experiment = ExperimentSlot { 1, cell, rep };
        runs.push_back(r);
    };
    const double base[3][2] = { { 10000, 10300 }, { 20000, 20600 }, { 30000, 30900 } };
    for (int c = 0; c < 3; ++c)
        for (int rep = 0; rep < 2; ++rep) {
            add(7, c, rep, base[c][rep]);
            add(9, c, rep, base[c][rep] * 0.92);
        }
    ExperimentRecord record;
    record.id = 1;
    record.name = "NEG vs NodePort";
    const ExperimentResults results = computeExperimentResults(record, *plan, runs);
    for (const ExperimentRow& row : results.rows)
        if (!row.baseline) {
            EXPECT_TRUE(row.verdict.starts_with("too few repetitions to judge")) << row.verdict;
        }
    const std::vector<PooledEffect> pooled = pooledEffects(results);
    ASSERT_EQ(pooled.size(), 1u);
    EXPECT_NEAR(pooled[0].ratio.ratio, 0.92, 1e-9);
    EXPECT_TRUE(pooled[0].ratio.significant());
    EXPECT_TRUE(pooled[0].verdict.starts_with("pooled over 3 cells: NodePort is 8.0% slower than NEG (CI "))
        << pooled[0].verdict;
    EXPECT_NE(pooled[0].verdict.find("; interaction F(2, 6) = 0.00, p = 1"), std::string::npos) << pooled[0].verdict;

    // The same line in the terminal table, the Markdown, the CSV and the HTML report.
    const std::vector<std::string> lines = pooledLines(results);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(lines[0].starts_with("NodePort vs NEG 0.920 (")) << lines[0];
    EXPECT_NE(lines[0].find(pooled[0].verdict), std::string::npos) << lines[0];
    EXPECT_NE(formatResultsTable(results).find("  " + lines[0] + "\n"), std::string::npos);
    EXPECT_NE(formatMarkdownReport(results).find("## Pooled over the cells"), std::string::npos);
    EXPECT_NE(formatMarkdownReport(results).find("- " + lines[0]), std::string::npos);
    EXPECT_NE(resultsCsv(results).find(",pooled,"), std::string::npos);
    EXPECT_NE(formatHtmlReport(results).find("<li>" + lines[0] + "</li>"), std::string::npos);
}

// An effect that is not common gets no pooled figure, in the line either.
TEST(PooledEffect, NotCommonLinesShowNoFigure)
{
    auto plan = parseExperimentPlan(R"({"name": "x", "targets": [
        {"name": "A", "url": "http://10.0.0.1/", "baseline": true, "session_target_id": 7},
        {"name": "B", "url": "http://10.0.0.2/", "session_target_id": 9}],
        "sweep": {"axis": "connections", "values": [25, 50]}, "repetitions": 2, "duration": "30s"})");
    ASSERT_TRUE(plan.ok()) << plan.error();
    std::vector<RunRecord> runs;
    int64_t id = 1;
    auto add = [&](int64_t target, int cell, int rep, double rps) {
        RunRecord r;
        r.id = id++;
        r.targetId = target;
        r.status = RunStatus::Completed;
        r.hasTotals = true;
        r.totals.requestsPerS = rps;
        r.experiment = ExperimentSlot { 1, cell, rep };
        runs.push_back(r);
    };
    for (int rep = 0; rep < 2; ++rep) {
        add(7, 0, rep, 10000 + rep * 10);
        add(9, 0, rep, 5000 + rep * 5); // half as fast at c25
        add(7, 1, rep, 10000 + rep * 10);
        add(9, 1, rep, 20000 + rep * 20); // twice as fast at c50
    }
    ExperimentRecord record;
    record.id = 1;
    const ExperimentResults results = computeExperimentResults(record, *plan, runs);
    const std::vector<std::string> lines = pooledLines(results);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(lines[0].starts_with("B: the effect of B is not common to the cells (interaction F(1, 4) = "))
        << lines[0];
    EXPECT_TRUE(lines[0].ends_with("): no pooled verdict")) << lines[0];
    EXPECT_EQ(lines[0].find("slower"), std::string::npos);
}
