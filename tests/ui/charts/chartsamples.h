#pragma once
// Realistic synthetic runs for the chart tests and the screenshot tool:
// deterministic (fixed seeds), shaped like real wrkbench output.

#include "charts/chartdata.h"

#include <QtMath>
#include <random>

namespace wb::ui::samples {

/// The percentile levels wrk2 prints: 0..50 in steps of 10, then halving the
/// distance to 100% in 5 ticks per half, up to ~99.999%.
inline QVector<double> spectrumLevels()
{
    QVector<double> levels;
    for (double p = 0; p < 50; p += 10)
        levels.append(p);
    double remaining = 50;
    while (remaining > 0.0008) {
        const double start = 100 - remaining;
        for (int t = 0; t < 5; ++t)
            levels.append(start + remaining / 2 * t / 5);
        remaining /= 2;
    }
    levels.append(100);
    return levels;
}

/// A power-law latency spectrum through p50 and p99: L(p) = m * (1/(1-p))^k.
inline QVector<SpectrumPoint> spectrum(double p50Ms, double p99Ms)
{
    const double k = std::log(p99Ms / p50Ms) / std::log(50.0);
    const double m = p50Ms / std::pow(2.0, k);
    QVector<SpectrumPoint> out;
    for (double p : spectrumLevels()) {
        const double tail = p >= 100 ? 1e-6 : 1 - p / 100;
        out.append({ p, m * std::pow(1 / tail, k) });
    }
    return out;
}

struct RunShape
{
    double rps = 30000;
    double p50Ms = 3, p90Ms = 6, p99Ms = 14;
    double durationS = 60;
    double intervalS = 1;
    bool openModel = false;
    double spikeAtS = -1; ///< a latency spike (GC pause, autoscaling) around this time
    unsigned seed = 1;
};

inline QVector<IntervalPoint> intervals(const RunShape& s)
{
    std::mt19937 rng(s.seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    QVector<IntervalPoint> out;
    for (double t = s.intervalS; t <= s.durationS + 1e-9; t += s.intervalS) {
        IntervalPoint p;
        p.endS = t;
        const double spike = s.spikeAtS >= 0 ? std::exp(-std::pow((t - s.spikeAtS) / 1.5, 2)) : 0.0;
        const double ramp = std::min(1.0, t / 3.0);
        p.targetRatePerS = s.openModel ? s.rps : 0;
        p.requestsPerS = s.rps * (0.85 + 0.15 * ramp) * (1 + 0.012 * noise(rng)) * (1 - 0.25 * spike);
        p.p50Ms = s.p50Ms * (1 + 0.04 * noise(rng)) * (1 + 0.8 * spike);
        p.p90Ms = s.p90Ms * (1 + 0.05 * noise(rng)) * (1 + 1.6 * spike);
        p.p99Ms = s.p99Ms * (1 + 0.08 * std::abs(noise(rng))) * (1 + 3.5 * spike);
        if (s.openModel) {
            p.serviceP50Ms = p.p50Ms * 0.92;
            p.serviceP90Ms = p.p90Ms * 0.85;
            p.serviceP99Ms = p.p99Ms * 0.7;
        }
        p.errorsPerS = spike > 0.3 ? std::round(6 * spike) : 0;
        p.non2xxPerS = spike > 0.1 ? std::round(14 * spike) : (noise(rng) > 2.2 ? 1 : 0);
        out.append(p);
    }
    return out;
}

/// A minimal interval: p50 and p90 derived from p99.
inline IntervalPoint point(double endS, double rps, double p99Ms)
{
    IntervalPoint p;
    p.endS = endS;
    p.requestsPerS = rps;
    p.p50Ms = p99Ms / 5;
    p.p90Ms = p99Ms / 2;
    p.p99Ms = p99Ms;
    return p;
}

inline RunSeries run(const QString& label, const QColor& color, const RunShape& shape)
{
    RunSeries r;
    r.label = label;
    r.color = color;
    r.openModel = shape.openModel;
    r.intervals = intervals(shape);
    r.spectrum = spectrum(shape.p50Ms, shape.p99Ms);
    double sum = 0;
    for (const IntervalPoint& p : r.intervals)
        sum += p.requestsPerS;
    r.requestsPerS = r.intervals.isEmpty() ? 0 : sum / r.intervals.size();
    return r;
}

} // namespace wb::ui::samples
