#include "models/runseries.h"

#include "models/comparemodel.h"
#include "stats/spectrum.h"

#include <cmath>

namespace wb::ui {

namespace {
double msOr(double us, double fallbackMs)
{
    return std::isnan(us) ? fallbackMs : us / 1000.0;
}
} // namespace

IntervalPoint intervalPointOf(const IntervalRecord& r, const IntervalPoint& previous)
{
    IntervalPoint p;
    const double seconds = r.endS > r.startS ? r.endS - r.startS : 1.0;
    p.endS = r.endS;
    p.requestsPerS = r.requestsPerS();
    p.targetRatePerS = std::isnan(r.targetRatePerS) ? 0 : r.targetRatePerS;
    // An interval without a response has no latency: the line holds its last value instead of dropping to 0.
    p.p50Ms = msOr(r.latency.p50Us, previous.p50Ms);
    p.p90Ms = msOr(r.latency.p90Us, previous.p90Ms);
    p.p99Ms = msOr(r.latency.p99Us, previous.p99Ms);
    p.serviceP50Ms = msOr(r.serviceLatency.p50Us, previous.serviceP50Ms);
    p.serviceP90Ms = msOr(r.serviceLatency.p90Us, previous.serviceP90Ms);
    p.serviceP99Ms = msOr(r.serviceLatency.p99Us, previous.serviceP99Ms);
    const uint64_t non2xx = r.non2xx();
    p.errorsPerS = static_cast<double>(r.errors.transportErrors()) / seconds;
    p.non2xxPerS = static_cast<double>(non2xx) / seconds;
    return p;
}

QVector<SpectrumPoint> spectrumOf(const RunData& data, bool service)
{
    QVector<SpectrumPoint> out;
    const auto& histogram = service ? data.serviceLatency : data.latency;
    if (histogram && !histogram->empty()) {
        for (const auto& s : percentileSpectrum(*histogram))
            if (s.percentile < 100) out.push_back({ s.percentile, static_cast<double>(s.valueUs) / 1000.0 });
        return out;
    }
    if (service) return out;
    // Imported: wrk2's full spectrum when it was printed, else wrk's four-line distribution.
    const auto& rows = !data.spectrum.empty() ? data.spectrum : data.latencyDistribution;
    for (const PercentileRow& row : rows)
        if (row.percentile < 100) out.push_back({ row.percentile, row.valueUs / 1000.0 });
    return out;
}

RunSeries runSeriesOf(const RunData& data, const QColor& color)
{
    RunSeries s;
    s.label = CompareModel::runLabel(data.run);
    s.color = color;
    s.openModel = data.run.config.openModel();
    s.requestsPerS = data.run.hasTotals ? data.run.totals.requestsPerS : 0;
    IntervalPoint previous;
    s.intervals.reserve(static_cast<int>(data.intervals.size()));
    for (const IntervalRecord& r : data.intervals) {
        previous = intervalPointOf(r, previous);
        s.intervals.push_back(previous);
    }
    s.spectrum = spectrumOf(data);
    return s;
}

QColor variantColor(const QColor& base, int repeat)
{
    if (repeat <= 0) return base;
    // Darker and turned a little in hue (1: +24 degrees, 2: -24, 3: +48, ...): a lighter variant
    // of the gold or the teal went too pale to see on white, and the palette's colours are already
    // as light as a thin line allows (report/palette.cpp).
    const int step = (repeat + 1) / 2;
    const double turn = (repeat % 2 == 1 ? 24.0 : -24.0) * step / 360.0;
    const QColor hsv = base.toHsv();
    double hue = hsv.hueF() + turn;
    hue -= std::floor(hue);
    const double value = std::max(0.25, hsv.valueF() * std::pow(0.8, step));
    return QColor::fromHsvF(static_cast<float>(hue), hsv.saturationF(), static_cast<float>(value));
}

} // namespace wb::ui
