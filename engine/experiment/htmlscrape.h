#pragma once
// The HTML report's "Target metrics" section: the runs' own metrics of their targets (--scrape,
// a plan target's "scrape"), as inline SVG charts over each run's time (one line per run, coloured
// by target, the shares and quantiles first) and a table of each series' mean and max per run.

#include "experiment/experimentresults.h"

#include <string>

namespace wb {

/// "" when no run of the results scraped anything.
std::string htmlTargetMetricsSection(const ExperimentResults& results);

} // namespace wb
