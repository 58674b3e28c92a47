#include "experiment/runcomparison.h"

#include "experiment/runfigures.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wb {

namespace {

constexpr double NOT_KNOWN = std::numeric_limits<double>::quiet_NaN();

struct LatencyKey
{
    const char* key;
    double LatencySummary::*field;
};
const LatencyKey LATENCY_KEYS[] = { { "avg", &LatencySummary::meanUs }, { "p50", &LatencySummary::p50Us },
    { "p75", &LatencySummary::p75Us }, { "p90", &LatencySummary::p90Us }, { "p99", &LatencySummary::p99Us },
    { "p99_9", &LatencySummary::p999Us }, { "p99_99", &LatencySummary::p9999Us }, { "max", &LatencySummary::maxUs } };

} // namespace

double robustCvPct(std::vector<double> values)
{
    if (values.size() < 2) return NOT_KNOWN;
    const auto median = [](std::vector<double>& v) {
        const size_t mid = v.size() / 2;
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
        const double upper = v[mid];
        if (v.size() % 2 == 1) return upper;
        return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
    };
    const double m = median(values);
    if (m <= 0) return NOT_KNOWN;
    for (double& v : values)
        v = std::fabs(v - m);
    // 1.4826 × MAD estimates the standard deviation of normal data; one interval's spike moves
    // neither the median nor the MAD.
    return 1.4826 * median(values) / m * 100.0;
}

double cvPct(const std::vector<double>& values)
{
    if (values.size() < 2) return NOT_KNOWN;
    double mean = 0;
    for (double v : values)
        mean += v;
    mean /= static_cast<double>(values.size());
    if (mean <= 0) return NOT_KNOWN;
    double squares = 0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    return std::sqrt(squares / static_cast<double>(values.size() - 1)) / mean * 100.0;
}

namespace {

// The connection phases whose percentiles the intervals carry as histograms.
struct PhaseKey
{
    const char* key;
    LatencyHistogram (IntervalRecord::*decoded)() const;
};
const PhaseKey PHASE_KEYS[] = { { "connect", &IntervalRecord::connectHistogramDecoded },
    { "tls_handshake", &IntervalRecord::tlsHandshakeHistogramDecoded },
    { "first_byte", &IntervalRecord::firstByteHistogramDecoded } };
const std::pair<const char*, double> PHASE_PERCENTILES[] = { { "_p50", 50.0 }, { "_p99", 99.0 } };

} // namespace

const std::vector<std::string>& noiseKeys()
{
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k { "rps" };
        for (const LatencyKey& l : LATENCY_KEYS)
            k.push_back(l.key);
        for (const PhaseKey& p : PHASE_KEYS)
            for (const auto& [suffix, percentile] : PHASE_PERCENTILES)
                k.push_back(std::string(p.key) + suffix);
        return k;
    }();
    return keys;
}

std::map<std::string, double> intervalNoisePct(const RunData& data)
{
    // A run that ends (or is stopped) mid-interval leaves a short last interval whose figures
    // are mostly noise: only intervals at least half as long as the longest one count.
    double longestS = 0;
    for (const IntervalRecord& r : data.intervals)
        longestS = std::max(longestS, r.endS - r.startS);
    std::vector<const IntervalRecord*> whole;
    for (const IntervalRecord& r : data.intervals)
        if (longestS > 0 && r.endS - r.startS >= longestS / 2) whole.push_back(&r);
    std::map<std::string, double> noise;
    std::vector<double> rates;
    for (const IntervalRecord* r : whole)
        rates.push_back(r->requestsPerS());
    noise["rps"] = robustCvPct(rates);
    for (const LatencyKey& k : LATENCY_KEYS) {
        std::vector<double> values;
        for (const IntervalRecord* r : whole)
            if (!std::isnan(r->latency.*k.field)) values.push_back(r->latency.*k.field);
        noise[k.key] = robustCvPct(values);
    }
    // The phases by the same rule, so a first byte's p99 is judged as the response's p99 is.
    for (const PhaseKey& p : PHASE_KEYS) {
        std::vector<LatencyHistogram> histograms;
        for (const IntervalRecord* r : whole)
            if (LatencyHistogram h = (r->*p.decoded)(); !h.empty()) histograms.push_back(std::move(h));
        for (const auto& [suffix, percentile] : PHASE_PERCENTILES) {
            std::vector<double> values;
            for (const LatencyHistogram& h : histograms)
                values.push_back(static_cast<double>(h.valueAtPercentileUs(percentile)));
            noise[std::string(p.key) + suffix] = robustCvPct(values);
        }
    }
    return noise;
}

double comparedValue(const RunRecord& run, const std::string& key)
{
    const RunFigure* figure = runFigure(key);
    return figure ? figure->value(run) : NOT_KNOWN;
}

bool sameSetup(const RunRecord& a, const RunRecord& b)
{
    if (a.targetId != b.targetId) return false;
    const RunConfig x = a.config.normalized();
    const RunConfig y = b.config.normalized();
    auto stagesEqual = [](const std::vector<Stage>& s, const std::vector<Stage>& t) {
        return s.size() == t.size() && std::equal(s.begin(), s.end(), t.begin(), [](const Stage& p, const Stage& q) {
            return p.durationUs == q.durationUs && p.target == q.target;
        });
    };
    return x.threads == y.threads && x.connections == y.connections && x.durationUs == y.durationUs
        && x.ratePerS == y.ratePerS && stagesEqual(x.stages, y.stages)
        && x.stagesAreConnections == y.stagesAreConnections && x.pipeline == y.pipeline && x.streams == y.streams
        && x.httpVersion == y.httpVersion && x.loaders.count == y.loaders.count;
}

double RunComparison::deltaPct(const std::string& key, size_t run) const
{
    if (runs.empty() || run >= runs.size()) return NOT_KNOWN;
    const double base = comparedValue(runs.front(), key);
    const double v = comparedValue(runs[run], key);
    if (std::isnan(base) || std::isnan(v) || base == 0) return NOT_KNOWN;
    return (v - base) / base * 100.0;
}

double RunComparison::noisePct(const std::string& key, size_t run) const
{
    if (run >= runs.size()) return NOT_KNOWN;
    // Repetitions of the same setup: how much their results differ is the noise a comparison
    // with another setup faces.
    std::vector<double> repeated;
    for (size_t j = 0; j < runs.size(); ++j)
        if (sameSetup(runs[run], runs[j]))
            if (const double v = comparedValue(runs[j], key); !std::isnan(v)) repeated.push_back(v);
    if (repeated.size() >= 2) return cvPct(repeated);
    if (run >= intervalNoise.size()) return NOT_KNOWN;
    const auto it = intervalNoise[run].find(key);
    return it == intervalNoise[run].end() ? NOT_KNOWN : it->second;
}

double RunComparison::noiseAgainstBaselinePct(const std::string& key, size_t run) const
{
    if (run == 0 || run >= runs.size()) return NOT_KNOWN;
    auto ofIntervals = [&](size_t i) {
        if (i >= intervalNoise.size()) return NOT_KNOWN;
        const auto it = intervalNoise[i].find(key);
        return it == intervalNoise[i].end() ? NOT_KNOWN : it->second;
    };
    // Two runs of one setup: only their own intervals say how much either varies by itself.
    const bool repeats = sameSetup(runs[0], runs[run]);
    const double a = repeats ? ofIntervals(0) : noisePct(key, 0);
    const double b = repeats ? ofIntervals(run) : noisePct(key, run);
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    return std::max(a, b);
}

bool RunComparison::withinNoise(const std::string& key, size_t run) const
{
    const double pct = deltaPct(key, run);
    const double noise = noiseAgainstBaselinePct(key, run);
    return !std::isnan(pct) && !std::isnan(noise) && std::fabs(pct) < noise;
}

RunComparison compareRuns(const std::vector<RunData>& runs, int64_t baselineId)
{
    RunComparison out;
    auto it = std::find_if(runs.begin(), runs.end(), [&](const RunData& d) { return d.run.id == baselineId; });
    const size_t first = it == runs.end() ? 0 : static_cast<size_t>(it - runs.begin());
    for (size_t k = 0; k < runs.size(); ++k) {
        const size_t i = k == 0 ? first : (k <= first ? k - 1 : k);
        out.runs.push_back(runs[i].run);
        out.intervalNoise.push_back(intervalNoisePct(runs[i]));
    }
    return out;
}

} // namespace wb
