#include "experiment/experimentstats.h"

#include "common/nan.h"
#include "experiment/studentt.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace wb {

namespace {

constexpr double INF = std::numeric_limits<double>::infinity();

} // namespace

SampleStats describeSample(const std::vector<double>& values)
{
    SampleStats s;
    s.n = values.size();
    if (s.n == 0) {
        s.mean = s.stdev = NaN;
        return s;
    }
    // Two passes: the textbook one-pass formula loses digits when the spread
    // is small next to the mean (50,000 req/s +- 40).
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / static_cast<double>(s.n);
    if (s.n < 2) {
        s.stdev = NaN;
        return s;
    }
    double squares = 0;
    for (double v : values)
        squares += (v - s.mean) * (v - s.mean);
    s.stdev = std::sqrt(squares / static_cast<double>(s.n - 1));
    return s;
}

bool RatioEstimate::hasInterval() const
{
    return !std::isnan(low) && !std::isnan(high);
}

bool RatioEstimate::bounded() const
{
    return hasInterval() && std::isfinite(low) && std::isfinite(high);
}

bool RatioEstimate::significant() const
{
    return bounded() && (high < 1.0 || low > 1.0);
}

RatioEstimate ratioOfMeans(const std::vector<double>& baseline, const std::vector<double>& other, double confidence)
{
    RatioEstimate r;
    r.confidence = confidence;
    const SampleStats a = describeSample(baseline);
    const SampleStats b = describeSample(other);
    if (a.n == 0 || b.n == 0 || a.mean == 0) return r;
    r.ratio = b.mean / a.mean;
    if (a.n < 2 || b.n < 2) return r;

    const double vA = a.stdev * a.stdev / static_cast<double>(a.n);
    const double vB = b.stdev * b.stdev / static_cast<double>(b.n);
    const double rr = r.ratio * r.ratio;
    const double denominator
        = vB * vB / static_cast<double>(b.n - 1) + rr * rr * vA * vA / static_cast<double>(a.n - 1);
    // No spread at all on either side (identical repetitions): the df formula
    // is 0/0; the pooled df is the natural limit, and the interval is the point.
    r.df = denominator > 0 ? (vB + rr * vA) * (vB + rr * vA) / denominator : static_cast<double>(a.n + b.n - 2);
    const double t = studentTQuantile(0.5 + confidence / 2.0, r.df);
    const double t2 = t * t;

    // (mA^2 - t^2 vA) rho^2 - 2 mA mB rho + (mB^2 - t^2 vB) <= 0
    const double qa = a.mean * a.mean - t2 * vA;
    const double qb = a.mean * b.mean;
    const double qc = b.mean * b.mean - t2 * vB;
    if (qa <= 0) { // the baseline mean is not distinguishable from 0: no finite interval
        r.low = -INF;
        r.high = INF;
        return r;
    }
    const double discriminant = std::max(0.0, qb * qb - qa * qc);
    const double root = std::sqrt(discriminant);
    r.low = (qb - root) / qa;
    r.high = (qb + root) / qa;
    return r;
}

unsigned repetitionsToDetect(double sigmaLog, double effect, double alpha, double power)
{
    if (!std::isfinite(sigmaLog) || sigmaLog <= 0 || !(effect > 0) || effect == 1.0) return 0;
    const double delta = std::fabs(std::log(effect));
    const double k = 2.0 * sigmaLog * sigmaLog / (delta * delta);
    // The required n grows with k while the t quantiles shrink with n: the left side
    // n - k (t_a + t_b)^2 increases in n, so the first n where it is >= 0 is the answer.
    constexpr unsigned CAP = 100000;
    for (unsigned n = 2; n < CAP; ++n) {
        const double df = 2.0 * n - 2.0;
        const double t = studentTQuantile(1.0 - alpha / 2.0, df) + studentTQuantile(power, df);
        if (static_cast<double>(n) >= k * t * t) return n;
    }
    return CAP;
}

double logStdev(const std::vector<double>& values)
{
    std::vector<double> logs;
    logs.reserve(values.size());
    for (double v : values) {
        if (!(v > 0)) return NaN;
        logs.push_back(std::log(v));
    }
    return describeSample(logs).stdev;
}

bool DifferenceEstimate::hasInterval() const
{
    return !std::isnan(low) && !std::isnan(high);
}

bool DifferenceEstimate::significant() const
{
    return hasInterval() && (low > 0.0 || high < 0.0);
}

DifferenceEstimate differenceOfMeans(
    const std::vector<double>& baseline, const std::vector<double>& other, double confidence)
{
    DifferenceEstimate d;
    d.confidence = confidence;
    const SampleStats a = describeSample(baseline);
    const SampleStats b = describeSample(other);
    if (a.n == 0 || b.n == 0) return d;
    d.difference = b.mean - a.mean;
    if (a.n < 2 || b.n < 2) return d;
    const double vA = a.stdev * a.stdev / static_cast<double>(a.n);
    const double vB = b.stdev * b.stdev / static_cast<double>(b.n);
    const double denominator = vA * vA / static_cast<double>(a.n - 1) + vB * vB / static_cast<double>(b.n - 1);
    // Identical repetitions on both sides: as for the ratio, the pooled df and the point.
    d.df = denominator > 0 ? (vA + vB) * (vA + vB) / denominator : static_cast<double>(a.n + b.n - 2);
    const double halfWidth = studentTQuantile(0.5 + confidence / 2.0, d.df) * std::sqrt(vA + vB);
    d.low = d.difference - halfWidth;
    d.high = d.difference + halfWidth;
    return d;
}

bool undecided(const RatioEstimate& r)
{
    constexpr double NEAR = 0.10; // the difference a verdict should be able to tell from none
    if (!r.hasInterval() || r.significant()) return false;
    return !r.bounded() || r.low < 1.0 - NEAR || r.high > 1.0 + NEAR;
}

std::string percentText(double fraction)
{
    const double pct = std::fabs(fraction) * 100.0;
    char buf[32];
    std::snprintf(buf, sizeof buf, pct < 1.0 ? "%.2f%%" : "%.1f%%", pct);
    return buf;
}

namespace {

// "too few repetitions to judge: the baseline varies ±43% between its runs; about 52
// repetitions would detect a 10% difference", from the more variable side.
std::string undecidedText(const RatioEstimate& r, const std::string& name, const std::vector<double>& baselineValues,
    const std::vector<double>& otherValues)
{
    std::string out(UNDECIDED_VERDICT);
    const double sdBase = logStdev(baselineValues);
    const double sdOther = logStdev(otherValues);
    const bool otherWider = std::isnan(sdBase) || (!std::isnan(sdOther) && sdOther > sdBase);
    const double sigma = otherWider ? sdOther : sdBase;
    if (std::isnan(sigma)) return out + (r.bounded() ? ": the interval is too wide" : ": the interval is unbounded");
    char buf[48];
    std::snprintf(buf, sizeof buf, sigma * 100 < 10 ? "%.1f%%" : "%.0f%%", sigma * 100);
    out += std::string(": ") + (otherWider ? name : "the baseline") + " varies \xC2\xB1" + buf + " between its runs";
    // The runs at hand did not decide, so the answer is at least one more than they are.
    const size_t have = std::max(baselineValues.size(), otherValues.size());
    const auto needed = [&](double effect) {
        return std::max<unsigned>(repetitionsToDetect(sigma, effect), static_cast<unsigned>(have + 1));
    };
    out += "; about " + std::to_string(needed(1.10)) + " repetitions would detect a 10% difference";
    // And the difference these runs suggest, when it is another size: what it would take to
    // confirm what is seen, not only a textbook 10%.
    if (std::isfinite(r.ratio) && r.ratio > 0 && std::fabs(r.ratio - 1.0) >= 0.005
        && std::fabs(std::fabs(std::log(r.ratio)) - std::log(1.10)) > 0.01)
        out += ", about " + std::to_string(needed(r.ratio)) + " the " + percentText(r.ratio - 1.0) + " seen";
    return out;
}

} // namespace

std::string ratioVerdict(const RatioEstimate& r, const std::string& name, const std::string& baselineName,
    Better better, const std::vector<double>& baselineValues, const std::vector<double>& otherValues)
{
    if (std::isnan(r.ratio)) return "no data";
    if (!r.hasInterval()) return "too few repetitions for a confidence interval";
    if (undecided(r)) return undecidedText(r, name, baselineValues, otherValues);
    if (!r.significant()) return "no significant difference";
    const bool above = r.low > 1.0;
    // The interval on the ratio maps onto an interval on the difference in percent.
    const double nearFraction = above ? r.low - 1.0 : 1.0 - r.high;
    const double farFraction = above ? r.high - 1.0 : 1.0 - r.low;
    std::string ci = percentText(nearFraction);
    ci.pop_back(); // "2.3-5.9%": one percent sign for the range
    ci = "(CI " + ci + "\xE2\x80\x93" + percentText(farFraction) + ")"; // en dash
    const std::string amount = percentText(r.ratio - 1.0);
    if (better == Better::Higher)
        return name + " is " + amount + (above ? " faster" : " slower") + " than " + baselineName + " " + ci;
    return name + " has " + amount + (above ? " higher" : " lower") + " latency than " + baselineName + " " + ci;
}

} // namespace wb
