#pragma once
// An experiment's results as text: the terminal table (wrkbench-cli), a
// Markdown report like the hand-written study write-ups (tables, the method,
// optional chart images), and CSV (one record per cell and target).

#include "experiment/experimentresults.h"

#include <string>
#include <vector>

namespace wb {

/// A chart picture to link from the Markdown report (the GUI renders them as PNG).
struct ReportImage
{
    std::string title; ///< alt text and caption, e.g. "Requests/s per level"
    std::string path; ///< as written in the link: relative to the report, or a URL
};

struct MarkdownOptions
{
    std::string sessionName; ///< the session file, for the header line ("" = not shown)
    std::vector<ReportImage> images; ///< linked under "Charts" in this order; none = no such section
    bool listRuns = true; ///< an appendix with every run of the experiment
};

/// The plain-text table printed at the end of `wrkbench-cli experiment`:
/// level, target, runs, req/s, p50, p99, errors (mean +- sd), ratio with its CI, loss, verdict,
/// and one column per SLO of the plan: repetitions that met it ("3/3").
std::string formatResultsTable(const ExperimentResults& results);

/// The whole report in Markdown: title, setup, results table, latency ratios,
/// the statistical method, charts (when images are given) and the runs.
std::string formatMarkdownReport(const ExperimentResults& results, const MarkdownOptions& options = {});

/// The terminal table's cells: a header row, then one row per results row (level, target or
/// variant, runs, req/s, p50, p99, errors, non-2xx, ratio with its CI, loss, verdict, SLO columns;
/// "group" first when there are groups). What formatResultsTable() aligns and the HTML report shows.
std::vector<std::vector<std::string>> resultsTableRows(const ExperimentResults& results);

/// The pooled verdict across cells (pooledeffect.h), one line per variant, for results with more
/// than one cell: "NodePort vs NEG 0.920 (0.905–0.935): pooled over 3 cells: NodePort is 8.0% slower
/// than NEG (CI ...); interaction F(2, 6) = 0.00, p = 1"; without the ratio where the effect is not
/// common. Empty with one cell. What the terminal, Markdown, CSV, HTML and the GUI show.
std::vector<std::string> pooledLines(const ExperimentResults& results);

/// The statistical method, one paragraph (Markdown and HTML reports).
std::string reportMethodText(const ExperimentResults& results);
/// A study's setup, one paragraph: its runs, variants, groups and levels.
std::string studySetupText(const ExperimentResults& results);
/// "c50 (2 threads, 50 connections, 1,000 req/s)".
std::string levelDescriptionText(const LoadLevel& level);

/// One record per cell and target (RFC 4180, as the other CSV exports). Latencies
/// in milliseconds; an unknown value is an empty field. Columns: experiment_id,
/// cell, level, axis, axis_value, threads, connections, rate, target, baseline, runs,
/// rps_mean, rps_stdev, p50_ms_mean, p50_ms_stdev, p99_ms_mean, p99_ms_stdev, errors_mean,
/// errors_stdev, rps_ratio, rps_ratio_ci_low, rps_ratio_ci_high, loss_pct, p50_ratio,
/// p50_ratio_ci_low, p50_ratio_ci_high, p99_ratio, p99_ratio_ci_low, p99_ratio_ci_high,
/// df, significant, verdict, run_ids, differs (the fields in which the runs of the row's group and
/// level differ beyond the variant: comparability.h; empty when none), then one "slo EXPR" column per SLO of the plan
/// ("2/3": repetitions that met it / repetitions judged).
std::string resultsCsv(const ExperimentResults& results);

} // namespace wb
