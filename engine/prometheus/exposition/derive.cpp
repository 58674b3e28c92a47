#include "prometheus/exposition/derive.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_set>
#include <vector>

namespace wb {

namespace {

bool isCounterLike(const MetricSample& s)
{
    switch (s.role) {
    case SampleRole::Value:
    case SampleRole::Total:
        return s.type == MetricType::Counter;
    case SampleRole::Bucket:
        return s.type == MetricType::Histogram;
    case SampleRole::Sum:
    case SampleRole::Count:
        return s.type == MetricType::Histogram || s.type == MetricType::Summary;
    default:
        return false;
    }
}

bool parseBound(std::string_view text, double& out)
{
    if (text == "+Inf" || text == "Inf" || text == "+inf" || text == "inf") {
        out = std::numeric_limits<double>::infinity();
        return true;
    }
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !std::isnan(out);
}

struct HistogramWindow
{
    std::vector<std::pair<double, double>> buckets; ///< (le, increase of the cumulative count)
    double sum = 0;
    double count = 0;
    bool hasSum = false;
    bool hasCount = false;
};

} // namespace

ScrapeSnapshot ScrapeSnapshot::of(int64_t atUnixMs, Exposition data)
{
    ScrapeSnapshot s;
    s.atUnixMs = atUnixMs;
    s.data = std::move(data);
    // A series printed twice in one answer: the first counts, here once for every derivation (a
    // later copy with another value would read as a counter reset, or add a second point).
    std::unordered_set<std::string> seen;
    std::erase_if(s.data.samples, [&](const MetricSample& sample) {
        std::string key = seriesKey(sample.name, sample.labels);
        if (!seen.insert(key).second) return true;
        if (isCounterLike(sample)) s.counters.emplace(std::move(key), sample.value);
        return false;
    });
    return s;
}

const double* ScrapeSnapshot::counter(const std::string& key) const
{
    auto it = counters.find(key);
    return it == counters.end() ? nullptr : &it->second;
}

double histogramQuantile(double q, std::vector<std::pair<double, double>> buckets)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (buckets.empty() || !(q > 0 && q < 1)) return nan;
    std::sort(buckets.begin(), buckets.end());
    // Cumulative counts never fall with the bound; a scrape taken while buckets were being
    // updated can show it, and Prometheus evens it out the same way.
    for (size_t i = 1; i < buckets.size(); ++i)
        buckets[i].second = std::max(buckets[i].second, buckets[i - 1].second);
    const double total = buckets.back().second;
    if (!(total > 0) || !std::isinf(buckets.back().first)) return nan; // no +Inf bucket: not a histogram
    const double rank = q * total;
    size_t i = 0;
    while (i < buckets.size() && buckets[i].second < rank)
        ++i;
    if (i == buckets.size() - 1) return buckets.size() >= 2 ? buckets[i - 1].first : nan; // in +Inf
    const double upper = buckets[i].first;
    double lower = i == 0 ? 0 : buckets[i - 1].first;
    const double below = i == 0 ? 0 : buckets[i - 1].second;
    if (i == 0 && upper <= 0) return upper; // a first bucket at or below zero holds its bound
    const double inBucket = buckets[i].second - below;
    if (inBucket <= 0) return upper;
    return lower + (upper - lower) * (rank - below) / inBucket;
}

std::vector<DerivedValue> deriveWindow(
    const ScrapeSnapshot* previous, const ScrapeSnapshot& current, const ShownFilter& shown)
{
    std::vector<DerivedValue> out;
    const double dtS = previous ? static_cast<double>(current.atUnixMs - previous->atUnixMs) / 1000.0 : 0.0;
    const bool window = previous && dtS > 0;
    std::vector<std::string> order;
    std::unordered_map<std::string, HistogramWindow> histograms;
    auto histogram = [&](const MetricSample& s) -> HistogramWindow& {
        std::string key = seriesKey(s.family, s.labels, "le");
        auto it = histograms.find(key);
        if (it == histograms.end()) {
            order.push_back(key);
            it = histograms.emplace(std::move(key), HistogramWindow {}).first;
        }
        return it->second;
    };
    auto push = [&out](std::string name, SeriesKind kind, double value) {
        if (std::isfinite(value)) out.push_back({ std::move(name), kind, value });
    };
    for (const MetricSample& s : current.data.samples) {
        if (shown && !shown(s)) continue;
        if (s.role == SampleRole::Created) continue; // a start time, not a measurement
        if (!isCounterLike(s)) {
            if (s.role == SampleRole::Bucket) continue; // a gauge histogram's buckets: not derived
            push(seriesKey(s.name, s.labels), SeriesKind::Value, s.value);
            continue;
        }
        if (!window) continue;
        const std::string key = seriesKey(s.name, s.labels);
        const double* before = previous->counter(key);
        if (!before) continue; // appeared in this window: its increase is unknown
        const double increase = counterIncrease(*before, s.value);
        switch (s.role) {
        case SampleRole::Bucket: {
            double le = 0;
            if (parseBound(s.label("le"), le)) histogram(s).buckets.emplace_back(le, increase);
            break;
        }
        case SampleRole::Sum: {
            HistogramWindow& h = histogram(s);
            h.sum = increase;
            h.hasSum = true;
            break;
        }
        case SampleRole::Count: {
            HistogramWindow& h = histogram(s);
            h.count = increase;
            h.hasCount = true;
            push(key, SeriesKind::Rate, increase / dtS);
            break;
        }
        default:
            push(key, SeriesKind::Rate, increase / dtS);
            break;
        }
    }
    for (const std::string& key : order) {
        const HistogramWindow& h = histograms[key];
        if (!h.buckets.empty()) {
            push(key, SeriesKind::P50, histogramQuantile(0.5, h.buckets));
            push(key, SeriesKind::P90, histogramQuantile(0.9, h.buckets));
            push(key, SeriesKind::P99, histogramQuantile(0.99, h.buckets));
        }
        if (h.hasSum && h.hasCount && h.count > 0) push(key, SeriesKind::Mean, h.sum / h.count);
    }
    return out;
}

} // namespace wb
