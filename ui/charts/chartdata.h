#pragma once
// Plain data the charts draw. Pages and models fill these; only ui/charts/
// includes QtCharts, so the rest of the UI never depends on it.

#include <QColor>
#include <QPointF>
#include <QString>
#include <QVector>

namespace wb::ui {

/// One interval of a run as the charts need it (times in seconds since the
/// measurement began, latencies in milliseconds).
struct IntervalPoint
{
    double endS = 0;
    double requestsPerS = 0;
    double targetRatePerS = 0; ///< open model: the schedule's rate (0 in the closed model)
    double p50Ms = 0, p90Ms = 0, p99Ms = 0; ///< corrected in the open model
    double serviceP50Ms = 0, serviceP90Ms = 0, serviceP99Ms = 0; ///< open model only
    double errorsPerS = 0; ///< socket, TLS and parse errors per second
    double non2xxPerS = 0; ///< responses outside 2xx/3xx per second
};

/// One point of a percentile spectrum: percentile in 0..100 (exclusive of
/// 100 for the "nines" axis), latency in milliseconds.
struct SpectrumPoint
{
    double percentile = 0;
    double latencyMs = 0;
};

/// Everything the charts show for one run.
struct RunSeries
{
    QString label; ///< e.g. "#12 NEG ingress c100"
    QColor color; ///< the run's target colour (same in every chart and table)
    bool openModel = false;
    QVector<IntervalPoint> intervals;
    QVector<SpectrumPoint> spectrum; ///< from the stored histogram (or an imported wrk2 spectrum)
    double requestsPerS = 0; ///< the run's overall rate (bar chart)
};

} // namespace wb::ui
