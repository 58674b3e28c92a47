#pragma once
// The statistics of an experiment: mean and sample standard deviation across repetitions, and the ratio of two means
// with Fieller's confidence interval, using Welch's standard errors and Welch-Satterthwaite degrees of freedom
// (docs/EXPERIMENTS.md, "Statistics", has the formulas). Why: with 2 to 5 repetitions a bootstrap gives intervals far
// too narrow, the targets' variances differ (a proxy adds jitter), and the delta method's symmetric interval
// undercovers a ratio. When the baseline mean is not significantly different from zero the interval is unbounded.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// n, mean and sample standard deviation (n - 1 in the denominator; NaN for n < 2).
struct SampleStats
{
    size_t n = 0;
    double mean = 0; ///< NaN when n == 0
    double stdev = 0; ///< NaN when n < 2
};

SampleStats describeSample(const std::vector<double>& values);

/// mean(other) / mean(baseline) with its confidence interval (see above).
struct RatioEstimate
{
    static constexpr double NOT_KNOWN = std::numeric_limits<double>::quiet_NaN();
    double ratio = NOT_KNOWN; ///< NaN when it cannot be computed (no data, baseline mean 0)
    double low = NOT_KNOWN; ///< NaN when there is no interval (fewer than 2 values on a side)
    double high = NOT_KNOWN; ///< +infinity when the interval is unbounded
    double df = NOT_KNOWN; ///< Welch-Satterthwaite degrees of freedom used
    double confidence = 0.95;

    bool hasInterval() const;
    bool bounded() const;
    /// The interval excludes 1: the two means differ at this confidence.
    bool significant() const;
};

RatioEstimate ratioOfMeans(
    const std::vector<double>& baseline, const std::vector<double>& other, double confidence = 0.95);

/// mean(other) - mean(baseline) with Welch's t interval (unequal variances, Welch-Satterthwaite
/// degrees of freedom): for metrics near zero (a backend CV of an even split), where a ratio
/// has no meaning.
struct DifferenceEstimate
{
    double difference = RatioEstimate::NOT_KNOWN; ///< NaN without data on a side
    double low = RatioEstimate::NOT_KNOWN; ///< NaN when there is no interval (fewer than 2 values on a side)
    double high = RatioEstimate::NOT_KNOWN;
    double df = RatioEstimate::NOT_KNOWN;
    double confidence = 0.95;

    bool hasInterval() const;
    /// The interval excludes 0: the two means differ at this confidence.
    bool significant() const;
};

DifferenceEstimate differenceOfMeans(
    const std::vector<double>& baseline, const std::vector<double>& other, double confidence = 0.95);

/// Which way is better for a metric: more requests/s, less latency, or neither (a count, a
/// setting: a difference is shown, never coloured as a gain or a loss). One definition for the
/// experiments' verdicts, the run metrics and Compare's rows.
enum class Better : uint8_t { Higher, Lower, Neither };

/// A verdict only where the interval excludes 1: "NodePort is 4.1% slower than
/// NEG (CI 2.3–5.9%)" or "... faster ..." (Better::Higher, throughput), "NodePort
/// has 12.0% higher latency than NEG (CI ...)" (Better::Lower); otherwise "no
/// significant difference", "too few repetitions for a confidence interval" or "no data".
/// Where the runs cannot decide (undecided()), never "no significant difference" but "too few
/// repetitions to judge: the baseline varies ±43% between its runs; about 52 repetitions would
/// detect a 10% difference", from the more variable side's runs when they are given.
inline constexpr std::string_view UNDECIDED_VERDICT = "too few repetitions to judge";
std::string ratioVerdict(const RatioEstimate& r, const std::string& name, const std::string& baselineName,
    Better better = Better::Higher, const std::vector<double>& baselineValues = {},
    const std::vector<double>& otherValues = {});

/// What it takes to detect a difference: the repetitions per target that a two-sided
/// two-sample t-test on log req/s needs to detect a ratio of `effect` (1.10: a 10%
/// difference) at level `alpha` with probability `power`, when the runs of a target
/// spread with standard deviation `sigmaLog` on the log scale. The smallest n >= 2 with
///   n >= 2 sigma^2 (t_{1-alpha/2, 2n-2} + t_{power, 2n-2})^2 / ln(effect)^2
/// (the t-based sample size formula, docs/EXPERIMENTS.md). 0 when sigmaLog is not a finite
/// number > 0 (nothing to go on, or no spread at all); capped at 100000.
unsigned repetitionsToDetect(double sigmaLog, double effect = 1.10, double alpha = 0.05, double power = 0.8);

/// The standard deviation of ln(values) (NaN for fewer than 2 values or a value <= 0).
double logStdev(const std::vector<double>& values);

/// The ratio's interval is unbounded, or too wide to rule out a 10% difference on either
/// side (it reaches below 0.9 or above 1.1) while not excluding 1: the runs cannot decide.
bool undecided(const RatioEstimate& r);

/// "4.1%" style percentage of |ratio - 1| (one decimal; two below 1%).
std::string percentText(double fraction);

} // namespace wb
