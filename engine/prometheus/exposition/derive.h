#pragma once
// From two scrapes of one endpoint to the values of the window between them: counters become
// rates per second, gauges stay values, classic histograms give their quantiles (from their
// buckets' increase over the window, interpolated within a bucket as Prometheus'
// histogram_quantile does) and their mean, and the presets (metrics/presets.h) add their series.

#include "prometheus/exposition/exposition.h"
#include "prometheus/exposition/scraperecord.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace wb {

/// One scrape, indexed for the next window's differences.
struct ScrapeSnapshot
{
    int64_t atUnixMs = 0; ///< when the answer was complete
    Exposition data;
    /// Counter-like samples (counters, _count and _sum) by seriesKey(name, labels).
    std::unordered_map<std::string, double> counters;

    static ScrapeSnapshot of(int64_t atUnixMs, Exposition data);
    /// The value this scrape had for a counter-like series, or nullptr.
    const double* counter(const std::string& key) const;
};

struct DerivedValue
{
    std::string name; ///< name{labels}
    SeriesKind kind = SeriesKind::Value;
    double value = 0;
};

/// Which samples get the generic derivation (the rest were kept for a preset only).
using ShownFilter = std::function<bool(const MetricSample&)>;

/// The values of the window (previous, current]; without a previous scrape (the first of a run)
/// only the values of gauges. Non-finite results (no observation, a zero-length window) are left out.
std::vector<DerivedValue> deriveWindow(
    const ScrapeSnapshot* previous, const ScrapeSnapshot& current, const ShownFilter& shown);

/// A counter's increase from before to now, with a reset (now < before: the process restarted)
/// read as counting from zero, as Prometheus' rate() does (a negative counter is no counter: 0).
inline double counterIncrease(double before, double now)
{
    return now >= before ? now - before : (now > 0 ? now : 0.0);
}

/// The q-quantile (0 < q < 1) of a classic histogram's increase: buckets as (upper bound, cumulative
/// count), any order. Returns NaN when nothing was observed; a rank in the +Inf bucket is the
/// largest finite bound, as histogram_quantile answers.
double histogramQuantile(double q, std::vector<std::pair<double, double>> buckets);

} // namespace wb
