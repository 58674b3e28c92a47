#pragma once
// A capacity search's result in words, tables and a chart: the text the CLI prints, and the
// Markdown, CSV and HTML reports (`capacity --markdown/--csv/--html`), from one description of the
// search. Every sentence claims no more than the brackets measured (no capacity on a loader that
// could not make the rate), and with --scrape it says what the target's own metrics did between
// the last rate that passed and the first that failed; the chart plots each trial's p99 against the rate it offered,
// passes filled and failures hollow, with the latency SLO as a line.

#include "capacity/capacityoptions.h"
#include "capacity/capacitysearch.h"
#include "prometheus/exposition/scraperecord.h"
#include "run/slo.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wb {

/// What one trial showed beside its verdict (NaN: not known, such as a trial whose run is gone).
struct CapacityTrialFigures
{
    double p50Us = 0;
    double p99Us = 0;
    double errorsPct = 0;
    double non2xxPct = 0;
    /// The target's own metrics (--scrape): each series' mean over the measured window, by
    /// "endpoint: series label" ("node: node_cpu_busy_percent %").
    std::vector<std::pair<std::string, double>> metrics;
};

/// A trial's figures from its run's totals: errors and non-2xx as shares of the requests sent.
CapacityTrialFigures capacityTrialFigures(double p50Us, double p99Us, uint64_t requests, uint64_t transportErrors,
    uint64_t non2xx, std::vector<std::pair<std::string, double>> metrics);

/// CapacityTrialFigures::metrics of a trial's scrapes, from points at or after fromUnixMs.
std::vector<std::pair<std::string, double>> capacityTrialMetrics(const ScrapeRecord& record, int64_t fromUnixMs);

struct CapacityReportTarget
{
    std::string label; ///< "A", "B"...
    std::string url;
    double restLatencyUs = 0;
    CapacityResult result;
    std::vector<CapacityTrialFigures> figures; ///< by trial, as result.trials
};

struct CapacityReport
{
    std::vector<Slo> slos;
    unsigned threads = 0;
    unsigned connections = 0;
    CapacityOptions options;
    std::vector<CapacityReportTarget> targets;
};

/// A result in a few words, as a card shows it: the value ("2,000 req/s", "at least 4,000 req/s",
/// "limited by the loader") and the line under it, saying no more than capacitySummaryText().
struct CapacityHeadline
{
    std::string value;
    std::string detail;
};
CapacityHeadline capacityHeadline(const CapacityResult& result);

/// "p99<50ms, errors<0.1%".
std::string capacitySlosText(const std::vector<Slo>& slos);

/// "p99<20ms 9.6ms, non2xx<0.1% 0.00% FAILED": a trial's verdicts.
std::string capacityVerdictsText(const std::vector<SloVerdict>& verdicts);
/// One target's result and what changed at its bracket, a few lines ending in '\n'.
std::string capacitySummaryText(const CapacityReportTarget& target, const CapacityOptions& options);
/// Each target after the first against the first, one line each ('\n'-ended; "" for one target).
std::string capacityComparisonText(const CapacityReport& report);

std::string capacityMarkdown(const CapacityReport& report);
/// Every trial of every target, one row each, with a header row.
std::string capacityCsv(const CapacityReport& report);
/// One self-contained page: the results, the chart (inline SVG) and the trials.
std::string capacityHtml(const CapacityReport& report);

} // namespace wb
