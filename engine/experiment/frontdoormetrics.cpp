#include "experiment/frontdoormetrics.h"

#include "common/format.h"
#include "common/nan.h"
#include "store/csvexport.h"
#include "store/sessionstore.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace wb {

namespace {

// A difference's magnitude in the metric's unit, without sign: "0.447", "5.7 points".
std::string amountText(RunMetric metric, double difference)
{
    const double a = std::fabs(difference);
    return runMetricInfo(metric).percent ? printedNumber("%.1f points", 100.0 * a) : printedNumber("%.3f", a);
}

std::string verdictOf(const MetricComparison& c, const std::string& name, const std::string& baselineName)
{
    const RunMetricInfo& info = runMetricInfo(c.metric);
    const DifferenceEstimate& d = c.difference;
    if (c.stats.n == 0)
        return std::string("no data: its runs were made without ")
            + (info.needsBackends ? "--backend-from" : "--upstream-time") + " or stated nothing";
    if (std::isnan(d.difference)) return "no data in " + baselineName + "'s runs: no difference";
    if (!d.hasInterval()) return "one run on a side: no confidence interval, no verdict";
    const std::string ci
        = "(CI " + runMetricDifferenceText(c.metric, d.low) + " to " + runMetricDifferenceText(c.metric, d.high) + ")";
    if (!d.significant()) return "no significant difference " + ci;
    const bool higher = d.difference > 0;
    const bool worse = higher == (info.better == Better::Lower);
    return name + "'s " + info.title + " is " + amountText(c.metric, d.difference) + (higher ? " higher" : " lower")
        + " than " + baselineName + "'s " + ci + (worse ? ", worse" : ", better");
}

std::vector<double> valuesOf(const ExperimentResults& results, const ExperimentRow& row, RunMetric metric)
{
    std::vector<double> out;
    for (int64_t id : row.runIds)
        if (const auto it = results.frontDoor.find(id); it != results.frontDoor.end())
            if (const double v = runMetricValue(metric, it->second); !std::isnan(v)) out.push_back(v);
    return out;
}

} // namespace

double runMetricValue(RunMetric metric, const FrontDoorView& view)
{
    switch (metric) {
    case RunMetric::BackendCv:
        return view.backendsAsked && view.balance.backends > 0 ? view.balance.cv : NaN;
    case RunMetric::BackendMaxMin:
        return view.backendsAsked && view.balance.backends > 0 ? view.balance.maxMinRatio : NaN;
    case RunMetric::FrontDoorShare:
        return view.upstreamAsked ? view.meanSplit.frontDoorShare() : NaN;
    }
    return NaN;
}

std::string runMetricValueText(RunMetric metric, double value)
{
    if (std::isnan(value)) return "-";
    return runMetricInfo(metric).percent ? printedNumber("%.1f%%", 100.0 * value) : printedNumber("%.3f", value);
}

std::string runMetricDifferenceText(RunMetric metric, double difference)
{
    if (std::isnan(difference)) return "-";
    return (difference < 0 ? "-" : "+") + amountText(metric, difference);
}

Status attachFrontDoor(SessionStore& store, ExperimentResults& results)
{
    for (const RunRecord& r : results.runs) {
        if (!r.config.notesResponses() || results.frontDoor.count(r.id)) continue;
        auto data = store.runs().load(r.id);
        if (!data) return Error { "run " + std::to_string(r.id) + ": " + data.error() };
        results.frontDoor.emplace(r.id, frontDoorViewOf(*data));
    }
    compareRunMetrics(results);
    return {};
}

void compareRunMetrics(ExperimentResults& results)
{
    for (ExperimentRow& row : results.rows) {
        row.metrics.clear();
        const ExperimentRow* base = nullptr;
        for (const ExperimentRow& r : results.rows)
            if (r.baseline && r.group == row.group && r.cell == row.cell) base = &r;
        for (RunMetric metric : results.metrics) {
            MetricComparison c;
            c.metric = metric;
            const std::vector<double> values = valuesOf(results, row, metric);
            c.stats = describeSample(values);
            if (row.baseline) {
                c.verdict = "baseline";
            } else if (!base) {
                c.verdict = "no baseline run: no difference";
            } else {
                c.difference = differenceOfMeans(valuesOf(results, *base, metric), values);
                c.verdict = verdictOf(c, row.targetName, base->targetName);
            }
            row.metrics.push_back(std::move(c));
        }
    }
}

std::vector<std::string> runMetricLines(const ExperimentResults& results)
{
    std::vector<std::string> out;
    for (const ExperimentRow& row : results.rows)
        for (const MetricComparison& c : row.metrics) {
            const std::string where = (row.group.empty() ? "" : row.group + " ") + row.cellLabel + " " + row.targetName;
            std::string line = where + ": " + runMetricInfo(c.metric).title + " ";
            if (c.stats.n == 0)
                line += "-";
            else
                line += runMetricValueText(c.metric, c.stats.mean)
                    + (c.stats.n > 1 ? " \xC2\xB1 " + runMetricValueText(c.metric, c.stats.stdev) : std::string())
                    + " (" + std::to_string(c.stats.n) + (c.stats.n == 1 ? " run)" : " runs)");
            out.push_back(line + ": " + c.verdict);
        }
    return out;
}

std::vector<std::string> runMetricCsvHeader(const ExperimentResults& results)
{
    std::vector<std::string> out;
    for (RunMetric m : results.metrics)
        for (const char* field : { "_mean", "_stdev", "_diff", "_diff_ci_low", "_diff_ci_high" })
            out.push_back(std::string(runMetricInfo(m).name) + field);
    return out;
}

std::vector<std::string> runMetricCsvCells(const ExperimentResults& results, const ExperimentRow& row)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < results.metrics.size(); ++i) {
        if (i >= row.metrics.size()) {
            out.insert(out.end(), 5, "");
            continue;
        }
        const MetricComparison& c = row.metrics[i];
        const auto cell = [](double v) { return std::isfinite(v) ? csvNumber(v) : std::string(); };
        out.insert(out.end(),
            { cell(c.stats.mean), cell(c.stats.stdev), cell(c.difference.difference), cell(c.difference.low),
                cell(c.difference.high) });
    }
    return out;
}

} // namespace wb
