#pragma once
// Stored runs as chart data: intervals as points, the final histogram as a
// percentile spectrum (or the spectrum/distribution an imported wrk2/wrk log
// printed).

#include "charts/chartdata.h"
#include "store/sessiontypes.h"

namespace wb::ui {

/// Chart data for a stored run, in color.
RunSeries runSeriesOf(const RunData& data, const QColor& color);
/// The run's spectrum, percentiles below 100 (the nines axis ends before 100 %).
QVector<SpectrumPoint> spectrumOf(const RunData& data, bool service = false);
/// One stored interval as a chart point (unknown latencies repeat `previous`).
IntervalPoint intervalPointOf(const IntervalRecord& record, const IntervalPoint& previous);
/// Distinct colours for runs of the same target in one chart: the target's
/// colour for its first run, then lighter/darker variants.
QColor variantColor(const QColor& base, int repeat);

} // namespace wb::ui
