#include "charts/niceaxis.h"

#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

// Tick steps are these mantissas times a power of ten: the sequences people read
// without effort (0, 20, 40 / 0, 25, 50 / 0, 50, 100).
constexpr double MANTISSAS[] = { 1.0, 2.0, 2.5, 5.0 };

int decimalsFor(double step)
{
    // 2.5 x 10^k needs one more digit than 10^k; floating noise is absorbed by the epsilon.
    const double exponent = std::floor(std::log10(step) + 1e-9);
    const double mantissa = step / std::pow(10.0, exponent);
    const int extra = std::abs(mantissa - 2.5) < 1e-6 ? 1 : 0;
    return std::max(0, static_cast<int>(-exponent) + extra);
}

} // namespace

NiceScale niceScale(double lo, double hi, int maxIntervals)
{
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
    if (hi < lo) std::swap(lo, hi);
    if (hi - lo < 1e-12) hi = lo + (lo == 0 ? 1.0 : std::abs(lo) * 0.1);
    maxIntervals = std::max(1, maxIntervals);

    const double rough = (hi - lo) / maxIntervals;
    double exponent = std::floor(std::log10(rough));
    NiceScale s;
    // At most two decades are tried: the first mantissa >= rough always fits.
    for (int attempt = 0; attempt < 3; ++attempt, exponent += 1) {
        const double power = std::pow(10.0, exponent);
        for (double m : MANTISSAS) {
            const double step = m * power;
            const double first = std::floor(lo / step + 1e-9) * step;
            const double last = std::ceil(hi / step - 1e-9) * step;
            const int intervals = static_cast<int>(std::lround((last - first) / step));
            if (intervals <= maxIntervals) {
                s.min = first;
                s.max = last;
                s.step = step;
                s.tickCount = intervals + 1;
                s.decimals = decimalsFor(step);
                return s;
            }
        }
    }
    s.min = lo;
    s.max = hi;
    s.step = hi - lo;
    s.tickCount = 2;
    s.decimals = 2;
    return s;
}

DecadeRange decadeRange(double minPositive, double max)
{
    if (!(minPositive > 0) || !std::isfinite(minPositive)) minPositive = 0.01;
    if (!(max > minPositive) || !std::isfinite(max)) max = minPositive * 10;
    DecadeRange r;
    r.min = std::pow(10.0, std::floor(std::log10(minPositive) + 1e-9));
    // 5% headroom so a line at exactly a decade does not run along the frame.
    r.max = std::pow(10.0, std::ceil(std::log10(max * 1.05) - 1e-9));
    if (r.max <= r.min) r.max = r.min * 10;
    return r;
}

// QtCharts 6.4 re-lays out the whole chart (every axis label goes through
// QTextDocument::setHtml) whenever a label format is set, even to the same
// text, and some other setters signal without comparing. Live charts apply
// their scales several times a second, so the appliers only touch what changed.
namespace {

void setLabelFormatIfChanged(QValueAxis* axis, const QString& format)
{
    if (axis->labelFormat() != format) axis->setLabelFormat(format);
}

template<typename Axis> void setRangeIfChanged(Axis* axis, double min, double max)
{
    if (min != axis->min() || max != axis->max()) axis->setRange(min, max);
}

} // namespace

void applyScale(QValueAxis* axis, const NiceScale& scale)
{
    if (axis->tickType() != QValueAxis::TicksFixed) axis->setTickType(QValueAxis::TicksFixed);
    setRangeIfChanged(axis, scale.min, scale.max);
    if (axis->tickCount() != scale.tickCount) axis->setTickCount(scale.tickCount);
    if (axis->minorTickCount() != 0) axis->setMinorTickCount(0);
    setLabelFormatIfChanged(axis, QStringLiteral("%.%1f").arg(scale.decimals));
}

void applyTimeAxis(QValueAxis* axis, double maxS, int maxIntervals)
{
    const NiceScale s = niceScale(0, maxS, maxIntervals);
    setRangeIfChanged(axis, 0, maxS > 0 ? maxS : 1.0);
    if (axis->tickType() != QValueAxis::TicksDynamic) axis->setTickType(QValueAxis::TicksDynamic);
    if (axis->tickAnchor() != 0) axis->setTickAnchor(0);
    if (axis->tickInterval() != s.step) axis->setTickInterval(s.step);
    if (axis->minorTickCount() != 0) axis->setMinorTickCount(0);
    setLabelFormatIfChanged(axis, QStringLiteral("%.%1f s").arg(s.decimals));
}

void applyDecades(QLogValueAxis* axis, const DecadeRange& range)
{
    if (axis->base() != 10.0) axis->setBase(10.0);
    // Qt 6.4 places the first label at ceil(log10(min)): log10(0.01) comes out as
    // -1.9999999999999996, so a range starting exactly at 0.01 loses its bottom
    // label. A hair of slack on both ends keeps both end decades labelled.
    setRangeIfChanged(axis, range.min * (1 - LOG_RANGE_SLACK), range.max * (1 + LOG_RANGE_SLACK));
    if (axis->minorTickCount() != 8) axis->setMinorTickCount(8); // 2, 3, ..., 9 within each decade
    if (!axis->labelsVisible()) axis->setLabelsVisible(true);
    const QString format = QString::fromLatin1(LOG_LABEL_FORMAT);
    if (axis->labelFormat() != format) axis->setLabelFormat(format);
}

double ninesX(double percentile)
{
    const double tail = 1.0 - std::clamp(percentile, 0.0, 100.0) / 100.0;
    return tail > 0 ? -std::log10(tail) : HUGE_VAL;
}

double percentileFromNinesX(double x)
{
    return 100.0 * (1.0 - std::pow(10.0, -x));
}

QString percentileLabel(double percentile)
{
    // Up to 6 significant digits covers wrk2's levels (99.2188%) and the nines (99.999%).
    return QString::number(percentile, 'g', std::clamp(static_cast<int>(std::ceil(ninesX(percentile))) + 2, 2, 8))
        + QLatin1Char('%');
}

} // namespace wb::ui
