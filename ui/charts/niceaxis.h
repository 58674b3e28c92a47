#pragma once
// Axis arithmetic shared by the charts: "nice" linear ranges with round ticks,
// decade ranges for log axes, and the percentile "nines" mapping of the
// latency spectrum. Pure functions (plus two small appliers), easy to test.

#include <QString>

class QValueAxis;
class QLogValueAxis;

namespace wb::ui {

/// A linear axis range whose ticks fall on round numbers (1, 2, 2.5 or 5 times a power of ten).
struct NiceScale
{
    double min = 0;
    double max = 1;
    double step = 1; ///< distance between ticks
    int tickCount = 2; ///< including both ends
    int decimals = 0; ///< digits after the point needed to print every tick exactly
};

/// The smallest round range covering [lo, hi] with at most maxIntervals tick intervals.
NiceScale niceScale(double lo, double hi, int maxIntervals = 5);

/// Decades covering [minPositive, max] for a base-10 log axis (both powers of ten, max > min).
struct DecadeRange
{
    double min = 1;
    double max = 10;
};
DecadeRange decadeRange(double minPositive, double max);

/// Applies a nice scale to a Qt value axis (range, fixed tick count, label format).
void applyScale(QValueAxis* axis, const NiceScale& scale);
/// A time axis from 0 to exactly maxS (the data's end, not a rounded-up one)
/// with ticks at round multiples (the step of niceScale(0, maxS, maxIntervals))
/// labelled with their unit ("30 s").
void applyTimeAxis(QValueAxis* axis, double maxS, int maxIntervals);
/// Label format of the log axes: "0.01", "0.1", "1", "10", "1,000". It needs an
/// explicit precision: with localized numbers (every wrkbench chart), Qt 6.4
/// formats a label only when the format matches "%.<digits><f|e|g>", and
/// draws no label at all for a bare "%g".
inline constexpr char LOG_LABEL_FORMAT[] = "%.6g";
/// Relative slack added to both ends of a decade range (see applyDecades()).
inline constexpr double LOG_RANGE_SLACK = 1e-9;

/// Applies a decade range to a Qt log axis (one label per decade, minor ticks at 2..9).
void applyDecades(QLogValueAxis* axis, const DecadeRange& range);

/// The spectrum's x coordinate of a percentile: log10(1 / (1 - p)), so 90% -> 1, 99% -> 2,
/// 99.9% -> 3. `percentile` is in 0..100 and must be below 100.
double ninesX(double percentile);
/// Inverse of ninesX.
double percentileFromNinesX(double x);
/// "99.9%" style label of a percentile (no trailing zeros).
QString percentileLabel(double percentile);

} // namespace wb::ui
