#pragma once
// The axes of a TimePlot as plain values: a y scale (linear with round ticks,
// or base-10 log by decades), a time axis from 0 s, their tick positions and
// labels, and the mapping from values to pixels. No widget, no QtCharts: two
// scales compare equal exactly when they draw the same frame, which is what
// decides between drawing only new segments and a whole repaint.

#include "charts/niceaxis.h"

#include <QList>
#include <QRectF>
#include <QString>

namespace wb::ui {

/// A y axis: linear (ticks every `step` from min to max) or log (one labelled
/// tick per decade from min to max, both powers of ten).
struct PlotYScale
{
    bool log = false;
    double min = 0;
    double max = 1;
    double step = 1; ///< linear only: distance between ticks
    int decimals = 0; ///< linear only: digits after the point in the labels

    static PlotYScale linear(const NiceScale& scale);
    static PlotYScale decades(const DecadeRange& range);
    bool operator==(const PlotYScale&) const = default;
};

/// A time axis from 0 to maxS, ticks every stepS labelled "30 s".
struct PlotTimeAxis
{
    double maxS = 10;
    double stepS = 1;
    int decimals = 0;

    /// Ticks at round multiples: the step of niceScale(0, maxS, maxIntervals).
    static PlotTimeAxis upTo(double maxS, int maxIntervals);
    bool operator==(const PlotTimeAxis&) const = default;
};

/// One tick: where (in value units) and its label (empty for a minor log tick).
struct PlotTick
{
    double value = 0;
    QString label;
};

/// Labelled ticks of a y scale, bottom to top; a log scale adds unlabelled
/// minor ticks at 2..9 times each decade (drawn as lighter grid lines).
QList<PlotTick> yTicks(const PlotYScale& scale);
/// Labelled ticks of a time axis, left to right.
QList<PlotTick> timeTicks(const PlotTimeAxis& axis);

/// Pixel y of a value inside `plot` (values off the scale land outside it; on a
/// log scale, values <= 0 land at the bottom edge).
double yPixel(const PlotYScale& scale, const QRectF& plot, double value);
/// Pixel x of a time inside `plot`, and back.
double xPixel(const PlotTimeAxis& axis, const QRectF& plot, double timeS);
double timeAtPixel(const PlotTimeAxis& axis, const QRectF& plot, double x);

/// The live view's time axis: at least minS, then grown a whole tick step at a
/// time past the newest point, so that a new interval changes the axis (and
/// repaints the whole plot) about once every ten intervals rather than every one.
PlotTimeAxis growingTimeAxis(double lastS, double minS, int maxIntervals);

} // namespace wb::ui
