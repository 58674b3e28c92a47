#pragma once
// The run metrics of runmetric.h over an experiment's results: each run's value from
// its stored breakdown (store/frontdoorview.h), each row's mean and standard deviation,
// and the difference to the baseline row with Welch's t interval (a ratio would mean
// nothing for a CV of 0, an even split). Shown by the text, Markdown, CSV and HTML
// reports when the plan or the study asks for them.

#include "common/result.h"
#include "experiment/experimentresults.h"

#include <string>
#include <vector>

namespace wb {

class SessionStore;

/// The value of a metric for a stored run (NaN when the run was made without the option it needs,
/// or has no data for it).
double runMetricValue(RunMetric metric, const FrontDoorView& view);

/// "0.447", "8.8%"; "-" for NaN.
std::string runMetricValueText(RunMetric metric, double value);
/// A difference: "+0.447", "+5.7 points".
std::string runMetricDifferenceText(RunMetric metric, double difference);

/// Loads the breakdown of every run of the results made with --backend-from or --upstream-time
/// (results.frontDoor) and compares the results' metrics row by row.
Status attachFrontDoor(SessionStore& store, ExperimentResults& results);
/// Fills each row's metrics from results.frontDoor (one MetricComparison per results.metrics).
void compareRunMetrics(ExperimentResults& results);

/// One line per row and metric, for the text and Markdown reports: "c25  NodePort 4 nodes  backend
/// CV 0.447 ± 0.001 (2 runs): NodePort 4 nodes's backend CV is 0.447 higher than ...". Empty when
/// the results compare no run metric.
std::vector<std::string> runMetricLines(const ExperimentResults& results);
/// The CSV columns of the metrics (per metric: mean, stdev, diff, diff_ci_low, diff_ci_high) and
/// a row's cells for them.
std::vector<std::string> runMetricCsvHeader(const ExperimentResults& results);
std::vector<std::string> runMetricCsvCells(const ExperimentResults& results, const ExperimentRow& row);

} // namespace wb
