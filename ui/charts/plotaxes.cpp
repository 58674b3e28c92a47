#include "charts/plotaxes.h"

#include "charts/chartstyle.h"

#include <algorithm>
#include <cmath>

namespace wb::ui {

PlotYScale PlotYScale::linear(const NiceScale& scale)
{
    return { .log = false, .min = scale.min, .max = scale.max, .step = scale.step, .decimals = scale.decimals };
}

PlotYScale PlotYScale::decades(const DecadeRange& range)
{
    return { .log = true, .min = range.min, .max = range.max, .step = 0, .decimals = 0 };
}

PlotTimeAxis PlotTimeAxis::upTo(double maxS, int maxIntervals)
{
    const NiceScale s = niceScale(0, maxS, maxIntervals);
    return { .maxS = maxS > 0 ? maxS : 1.0, .stepS = s.step, .decimals = s.decimals };
}

PlotTimeAxis growingTimeAxis(double lastS, double minS, int maxIntervals)
{
    if (lastS <= minS) return PlotTimeAxis::upTo(minS, maxIntervals);
    return PlotTimeAxis::upTo(niceScale(0, lastS, maxIntervals).max, maxIntervals);
}

QList<PlotTick> yTicks(const PlotYScale& scale)
{
    QList<PlotTick> ticks;
    const QLocale locale = chartLocale();
    if (scale.log) {
        const int first = static_cast<int>(std::lround(std::log10(scale.min)));
        const int last = static_cast<int>(std::lround(std::log10(scale.max)));
        for (int e = first; e <= last; ++e) {
            const double decade = std::pow(10.0, e);
            ticks.append({ decade, locale.toString(decade, 'g', 6) });
            if (e < last)
                for (int m = 2; m <= 9; ++m)
                    ticks.append({ m * decade, QString() });
        }
        return ticks;
    }
    const int count = std::max(1, static_cast<int>(std::lround((scale.max - scale.min) / scale.step)));
    for (int i = 0; i <= count; ++i) {
        const double v = scale.min + i * scale.step;
        ticks.append({ v, locale.toString(v, 'f', scale.decimals) });
    }
    return ticks;
}

QList<PlotTick> timeTicks(const PlotTimeAxis& axis)
{
    QList<PlotTick> ticks;
    const QLocale locale = chartLocale();
    const QString unit = QStringLiteral(" s");
    for (int i = 0;; ++i) {
        const double t = i * axis.stepS;
        if (t > axis.maxS + axis.stepS * 1e-9 || i > 1000) break;
        ticks.append({ t, locale.toString(t, 'f', axis.decimals) + unit });
    }
    return ticks;
}

double yPixel(const PlotYScale& scale, const QRectF& plot, double value)
{
    double fraction = 0;
    if (scale.log) {
        const double lo = std::log10(scale.min);
        const double hi = std::log10(scale.max);
        fraction = value > 0 && hi > lo ? (std::log10(value) - lo) / (hi - lo) : 0.0;
    } else if (scale.max > scale.min) {
        fraction = (value - scale.min) / (scale.max - scale.min);
    }
    return plot.bottom() - fraction * plot.height();
}

double xPixel(const PlotTimeAxis& axis, const QRectF& plot, double timeS)
{
    return plot.left() + (axis.maxS > 0 ? timeS / axis.maxS : 0.0) * plot.width();
}

double timeAtPixel(const PlotTimeAxis& axis, const QRectF& plot, double x)
{
    return plot.width() > 0 ? (x - plot.left()) / plot.width() * axis.maxS : 0.0;
}

} // namespace wb::ui
