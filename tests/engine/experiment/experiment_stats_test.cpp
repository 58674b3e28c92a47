// The statistics of experiments: Student's t against published table values,
// mean / sd / Fieller-Welch intervals against values computed independently in
// Python (stats_reference.py), the interval's coverage by simulation, and the
// verdict texts.

#include "experiment/experimentstats.h"
#include "experiment/studentt.h"
#include "testsupport.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>

using namespace wb;

namespace {

void expectRelative(double actual, double expected, double tolerance, const std::string& what)
{
    EXPECT_NEAR(actual, expected, std::fabs(expected) * tolerance + 1e-12) << what;
}

} // namespace

TEST(StudentT, IncompleteBetaExactValues)
{
    // Integer parameters have closed forms: I_x(a, 1) = x^a, I_x(1, b) = 1 - (1-x)^b,
    // I_0.5(2, 3) = (C(4,2) + C(4,3) + C(4,4)) / 16.
    EXPECT_NEAR(regularizedIncompleteBeta(3, 1, 0.2), 0.008, 1e-14);
    EXPECT_NEAR(regularizedIncompleteBeta(1, 4, 0.3), 1 - std::pow(0.7, 4), 1e-14);
    EXPECT_NEAR(regularizedIncompleteBeta(2, 3, 0.5), 11.0 / 16.0, 1e-14);
    EXPECT_NEAR(regularizedIncompleteBeta(0.5, 0.5, 0.5), 0.5, 1e-14); // symmetric
    EXPECT_EQ(regularizedIncompleteBeta(2, 2, 0), 0.0);
    EXPECT_EQ(regularizedIncompleteBeta(2, 2, 1), 1.0);
    EXPECT_TRUE(std::isnan(regularizedIncompleteBeta(-1, 2, 0.5)));
}

TEST(StudentT, CdfMatchesClosedForms)
{
    // df = 1 is the Cauchy distribution; df = 2 has F(t) = 1/2 + t / (2 sqrt(t^2 + 2)).
    for (double t : { -20.0, -3.0, -0.5, 0.0, 0.7, 2.0, 12.0 }) {
        EXPECT_NEAR(studentTCdf(t, 1), 0.5 + std::atan(t) / M_PI, 1e-13) << t;
        EXPECT_NEAR(studentTCdf(t, 2), 0.5 + t / (2 * std::sqrt(t * t + 2)), 1e-13) << t;
    }
}

TEST(StudentT, QuantilesMatchPublishedTables)
{
    struct Row
    {
        double p, df, t;
    };
    // Two-sided 95% and 99% critical values, as printed in any t table (6 significant digits).
    for (const Row& r : std::vector<Row> { { 0.975, 1, 12.7062 }, { 0.975, 2, 4.30265 }, { 0.975, 3, 3.18245 },
             { 0.975, 5, 2.57058 }, { 0.975, 10, 2.22814 }, { 0.975, 30, 2.04227 }, { 0.95, 4, 2.13185 },
             { 0.995, 1, 63.6567 }, { 0.995, 20, 2.84534 }, { 0.975, 1e7, 1.95996 } })
        expectRelative(
            studentTQuantile(r.p, r.df), r.t, 5e-6, "p=" + std::to_string(r.p) + " df=" + std::to_string(r.df));
    EXPECT_DOUBLE_EQ(studentTQuantile(0.5, 3), 0.0);
    EXPECT_NEAR(studentTQuantile(0.025, 2), -4.30265, 1e-4);
    EXPECT_TRUE(std::isnan(studentTQuantile(1.0, 3)));
    EXPECT_TRUE(std::isnan(studentTQuantile(0.9, 0)));
    // The quantile inverts the CDF, fractional df included.
    for (double df : { 1.3, 2.7, 9.5 })
        for (double p : { 0.6, 0.9, 0.975, 0.999 })
            EXPECT_NEAR(studentTCdf(studentTQuantile(p, df), df), p, 1e-11);
}

TEST(ExperimentStats, MatchesIndependentPythonComputation)
{
    const std::string script = test::sourceDir() + "/tests/engine/experiment/stats_reference.py";
    ASSERT_TRUE(std::filesystem::exists(script)) << script << " (WB_SOURCE_DIR, set by CTest, is the source tree)";
    const auto out = test::runProcess({ "python3", script }, 60'000);
    ASSERT_EQ(out.exitCode, 0) << out.err;
    const auto reference = nlohmann::json::parse(out.out);

    for (const auto& q : reference["quantiles"])
        expectRelative(studentTQuantile(q["p"], q["df"]), q["t"], 1e-8, "quantile " + q.dump());

    ASSERT_EQ(reference["datasets"].size(), 5u);
    for (const auto& d : reference["datasets"]) {
        const auto baseline = d["baseline"].get<std::vector<double>>();
        const auto other = d["other"].get<std::vector<double>>();
        const std::string name = d["baseline"].dump() + " vs " + d["other"].dump();
        const SampleStats a = describeSample(baseline);
        const SampleStats b = describeSample(other);
        EXPECT_EQ(a.n, baseline.size());
        expectRelative(a.mean, d["baseline_mean"], 1e-13, name);
        expectRelative(a.stdev, d["baseline_stdev"], 1e-12, name);
        expectRelative(b.mean, d["other_mean"], 1e-13, name);
        expectRelative(b.stdev, d["other_stdev"], 1e-12, name);

        const RatioEstimate r = ratioOfMeans(baseline, other);
        expectRelative(r.ratio, d["ratio"], 1e-13, name);
        expectRelative(r.df, d["df"], 1e-12, name);
        if (d["low"].is_null()) {
            EXPECT_TRUE(r.hasInterval()) << name;
            EXPECT_FALSE(r.bounded()) << name;
            EXPECT_FALSE(r.significant()) << name;
        } else {
            ASSERT_TRUE(r.bounded()) << name;
            expectRelative(r.low, d["low"], 1e-8, name);
            expectRelative(r.high, d["high"], 1e-8, name);
            EXPECT_LT(r.low, r.ratio);
            EXPECT_GT(r.high, r.ratio);
            EXPECT_EQ(r.significant(), r.low > 1 || r.high < 1);
        }
    }
}

// Normal samples of two targets whose true ratio is known: the 95% interval
// must contain it about 95% of the time (Welch-Satterthwaite is an
// approximation; a broken interval is off by far more than the tolerance).
TEST(ExperimentStats, FiellerIntervalCoversTheTrueRatio)
{
    std::mt19937_64 rng(20240501);
    for (const auto& [nA, nB] : { std::pair { 3, 3 }, std::pair { 2, 4 }, std::pair { 6, 5 } }) {
        std::normal_distribution<double> a(50000, 1500);
        std::normal_distribution<double> b(45000, 3000); // true ratio 0.9, twice the spread
        constexpr int TRIALS = 4000;
        int covered = 0;
        for (int i = 0; i < TRIALS; ++i) {
            std::vector<double> xa, xb;
            for (int k = 0; k < nA; ++k)
                xa.push_back(a(rng));
            for (int k = 0; k < nB; ++k)
                xb.push_back(b(rng));
            const RatioEstimate r = ratioOfMeans(xa, xb);
            covered += r.low <= 0.9 && 0.9 <= r.high ? 1 : 0;
        }
        const double coverage = static_cast<double>(covered) / TRIALS;
        EXPECT_GT(coverage, 0.93) << nA << " vs " << nB;
        EXPECT_LT(coverage, 0.985) << nA << " vs " << nB;
    }
}

TEST(ExperimentStats, EdgeCases)
{
    EXPECT_EQ(describeSample({}).n, 0u);
    EXPECT_TRUE(std::isnan(describeSample({}).mean));
    EXPECT_DOUBLE_EQ(describeSample({ 7 }).mean, 7);
    EXPECT_TRUE(std::isnan(describeSample({ 7 }).stdev));
    // Large values with a small spread keep their digits (two-pass variance).
    EXPECT_NEAR(describeSample({ 1e9 + 1, 1e9 + 2, 1e9 + 3 }).stdev, 1.0, 1e-9);

    const RatioEstimate one = ratioOfMeans({ 100 }, { 90 });
    EXPECT_DOUBLE_EQ(one.ratio, 0.9);
    EXPECT_FALSE(one.hasInterval());
    EXPECT_FALSE(one.significant());
    EXPECT_TRUE(std::isnan(ratioOfMeans({}, { 1, 2 }).ratio));
    EXPECT_TRUE(std::isnan(ratioOfMeans({ 0, 0 }, { 1, 2 }).ratio));
    // No spread on either side: the interval is the point itself.
    const RatioEstimate exact = ratioOfMeans({ 10, 10 }, { 8, 8 });
    EXPECT_DOUBLE_EQ(exact.low, 0.8);
    EXPECT_DOUBLE_EQ(exact.high, 0.8);
    EXPECT_TRUE(exact.significant());
}

TEST(ExperimentStats, VerdictOnlyWhereTheIntervalExcludesOne)
{
    RatioEstimate slower;
    slower.ratio = 0.959;
    slower.low = 0.941;
    slower.high = 0.977;
    EXPECT_EQ(ratioVerdict(slower, "NodePort", "NEG"),
        "NodePort is 4.1% slower than NEG (CI 2.3\xE2\x80\x93"
        "5.9%)");
    RatioEstimate faster = slower;
    faster.ratio = 1.05;
    faster.low = 1.004;
    faster.high = 1.1;
    EXPECT_EQ(ratioVerdict(faster, "B", "A"),
        "B is 5.0% faster than A (CI 0.40\xE2\x80\x93"
        "10.0%)");
    EXPECT_EQ(ratioVerdict(faster, "B", "A", Better::Lower),
        "B has 5.0% higher latency than A (CI 0.40\xE2\x80\x93"
        "10.0%)");
    RatioEstimate overlap = slower;
    overlap.high = 1.01;
    EXPECT_EQ(ratioVerdict(overlap, "B", "A"), "no significant difference");
    RatioEstimate unbounded = slower;
    unbounded.low = -INFINITY;
    unbounded.high = INFINITY;
    // An unbounded interval cannot decide, and the verdict says so.
    EXPECT_EQ(ratioVerdict(unbounded, "B", "A"), "too few repetitions to judge: the interval is unbounded");
    RatioEstimate wide = slower;
    wide.low = 0.85; // a 15% loss is inside the interval: not "no significant difference"
    wide.high = 1.02;
    EXPECT_EQ(ratioVerdict(wide, "B", "A"), "too few repetitions to judge: the interval is too wide");
    EXPECT_EQ(ratioVerdict(ratioOfMeans({ 1 }, { 2 }), "B", "A"), "too few repetitions for a confidence interval");
}

// The repetitions a two-sided two-sample t-test on ln(req/s) needs to detect a 10%
// difference (ratio 1.10, delta = ln 1.1 = 0.09531) at alpha 0.05 with power 0.8: the smallest
// n >= 2 with n >= k (t_{0.975, 2n-2} + t_{0.80, 2n-2})^2, k = 2 sigma^2 / delta^2.
// Worked by hand from a printed t table (two-sided 0.05 and one-sided 0.20 columns):
//   sigma = 0.45 delta, k = 2 * 0.45^2 = 0.405
//   n = 3, df 4: t = 2.776 + 0.941 = 3.717, 3.717^2 = 13.816, * 0.405 = 5.60 > 3
//   n = 4, df 6: t = 2.447 + 0.906 = 3.353, 3.353^2 = 11.243, * 0.405 = 4.55 > 4
//   n = 5, df 8: t = 2.306 + 0.889 = 3.195, 3.195^2 = 10.208, * 0.405 = 4.13 <= 5  -> 5
//   sigma = delta, k = 2
//   n = 17, df 32: t = 2.037 + 0.853 = 2.890, 2.890^2 = 8.352, * 2 = 16.70 <= 17
//   n = 16, df 30: t = 2.042 + 0.854 = 2.896, 2.896^2 = 8.387, * 2 = 16.77 > 16    -> 17
//   (the normal approximation 2 (1.960 + 0.842)^2 = 15.7 would say 16: t matters here)
//   The NEG c25 cell of docs/EXPERIMENTS.md, 144,000 and 113,000 req/s: sigma = |ln(144/113)| / sqrt 2
//   = 0.24243 / 1.41421 = 0.17142, k = 2 * 0.17142^2 / 0.09531^2 = 6.470
//   n = 52, df 102: t = 1.9835 + 0.8452 = 2.8287, ^2 = 8.0015, * 6.470 = 51.77 <= 52
//   n = 51, df 100: t = 1.9840 + 0.8452 = 2.8292, ^2 = 8.0044, * 6.470 = 51.79 > 51 -> 52
TEST(ExperimentStats, RepetitionsToDetectMatchTheHandWorkedTTable)
{
    const double delta = std::log(1.1);
    EXPECT_EQ(repetitionsToDetect(0.45 * delta), 5u);
    EXPECT_EQ(repetitionsToDetect(delta), 17u);
    const double sigma = logStdev({ 144000, 113000 });
    EXPECT_NEAR(sigma, 0.17142, 1e-5);
    EXPECT_EQ(repetitionsToDetect(sigma), 52u);
    // Tiny spreads need the minimum; none at all, or nothing to go on, gives no number.
    EXPECT_EQ(repetitionsToDetect(0.001), 2u);
    EXPECT_EQ(repetitionsToDetect(0.0), 0u);
    EXPECT_EQ(repetitionsToDetect(std::nan("")), 0u);
    EXPECT_TRUE(std::isnan(logStdev({ 1000 })));
    EXPECT_TRUE(std::isnan(logStdev({ 1000, 0 })));
}

// The docs' NEG c25 cell: two baseline runs 144k and 113k, an 84% loss, an unbounded
// interval. The verdict must not read "no significant difference".
TEST(ExperimentStats, UndecidedVerdictSaysWhatWouldDecide)
{
    const std::vector<double> neg { 144000, 113000 };
    const std::vector<double> nodePort { 20460, 20800 };
    const RatioEstimate r = ratioOfMeans(neg, nodePort);
    ASSERT_FALSE(r.bounded());
    EXPECT_TRUE(undecided(r));
    EXPECT_EQ(ratioVerdict(r, "NodePort", "NEG", Better::Higher, neg, nodePort),
        "too few repetitions to judge: the baseline varies \xC2\xB1"
        "17% between its runs; about 52 repetitions would detect a 10% difference, about 3 the 83.9% seen");
    // The more variable side is the one named.
    EXPECT_EQ(ratioVerdict(r, "NodePort", "NEG", Better::Higher, nodePort, neg),
        "too few repetitions to judge: NodePort varies \xC2\xB1"
        "17% between its runs; about 52 repetitions would detect a 10% difference, about 3 the 83.9% seen");
    // Narrow and not significant stays "no significant difference": a 10% difference is ruled out.
    const RatioEstimate close = ratioOfMeans({ 1000, 1010, 990 }, { 1005, 995, 1000 });
    EXPECT_FALSE(undecided(close));
    EXPECT_EQ(ratioVerdict(close, "B", "A"), "no significant difference");
}

// Welch's interval on a difference of means, for metrics near zero where a ratio means nothing.
TEST(ExperimentStats, DifferenceOfMeansHasWelchsInterval)
{
    // Equal sizes and variances: df = 2n - 2 = 4, t(0.975, 4) = 2.776445105 (published tables),
    // half width t * sqrt(1/3 + 1/3).
    const DifferenceEstimate d = differenceOfMeans({ 1, 2, 3 }, { 4, 5, 6 });
    EXPECT_DOUBLE_EQ(d.difference, 3.0);
    EXPECT_NEAR(d.df, 4.0, 1e-12);
    EXPECT_NEAR(d.low, 3.0 - 2.776445105 * std::sqrt(2.0 / 3.0), 1e-8);
    EXPECT_NEAR(d.high, 3.0 + 2.776445105 * std::sqrt(2.0 / 3.0), 1e-8);
    EXPECT_TRUE(d.significant());
    // Overlapping samples: the interval holds zero.
    EXPECT_FALSE(differenceOfMeans({ 1, 2, 3 }, { 2, 3, 4 }).significant());
    // Identical repetitions on each side: the point, and significant when the sides differ.
    const DifferenceEstimate same = differenceOfMeans({ 0, 0 }, { 0.447, 0.447 });
    EXPECT_DOUBLE_EQ(same.low, 0.447);
    EXPECT_DOUBLE_EQ(same.high, 0.447);
    EXPECT_TRUE(same.significant());
    // One value on a side: a difference, no interval; none on a side: nothing.
    const DifferenceEstimate lone = differenceOfMeans({ 1 }, { 2, 3 });
    EXPECT_DOUBLE_EQ(lone.difference, 1.5);
    EXPECT_FALSE(lone.hasInterval());
    EXPECT_TRUE(std::isnan(differenceOfMeans({}, { 1, 2 }).difference));
}
