#pragma once
// What the Experiments tab's charts are fed: the per-level charts' series and the
// knee chart's curves, from an experiment's or a study's results (one place, so the
// two charts give a variant the same colour).

#include "charts/experimentcharts.h"
#include "charts/kneechart.h"

namespace wb {
struct ExperimentResults;
}

namespace wb::ui {

/// Per target (plan order, its session colour), one value per level. With groups, one series per
/// group and target ("go-gin docker"); a study's variants, which are no session targets, take the
/// colours of their order.
ExperimentChartData experimentChartData(const ExperimentResults& results);

/// Latency against throughput, one series per group and variant in the colours of
/// experimentChartData(); empty with fewer than two levels (engine/experiment/kneecurve.h).
KneeChartData experimentKneeData(const ExperimentResults& results);

} // namespace wb::ui
