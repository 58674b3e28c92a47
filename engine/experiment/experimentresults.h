#pragma once
// The results of an experiment: one row per cell (load level) and target,
// with mean and standard deviation across the completed repetitions, and the
// ratio to the baseline target in the same cell with its confidence interval
// (experimentstats.h for the method). What the CLI table, the Markdown and CSV
// reports and the GUI's table and charts are made from.

#include "common/result.h"
#include "experiment/experimentplan.h"
#include "experiment/experimentstats.h"
#include "experiment/runmetric.h"
#include "store/frontdoorview.h"
#include "store/sessiontypes.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wb {

class SessionStore;

/// How the repetitions of one cell and target fared against one of the plan's SLOs.
struct SloTally
{
    std::string expr; ///< the plan's expression: "p99<250ms"
    size_t met = 0; ///< repetitions whose stored verdict is ok
    size_t judged = 0; ///< repetitions with a verdict for it (the completed runs used)

    bool allMet() const { return met == judged; }
    /// "3/3", "2/3"; "-" when no run was judged.
    std::string text() const;
};

/// Which requests/s a table compares.
enum class RateMetric {
    Total, ///< the whole run's requests/s ("Requests/sec:")
    /// The mean of the per-thread Req/Sec averages, as wrk's Thread Stats row prints it: what
    /// hand-made "loss" columns were computed from, so a study reproduces them exactly.
    PerThread,
};

/// A run's requests/s by that metric (NaN when the run has no per-thread statistics).
double rateOf(const RunRecord& run, RateMetric metric);

struct ExperimentRow
{
    size_t cell = 0;
    size_t target = 0;
    std::string group; ///< the block the row belongs to, each with its own baseline; "" = no groups
    std::string cellLabel;
    std::string targetName;
    bool baseline = false;
    std::string baselineName; ///< the baseline of the row's group (its own name on a baseline row)
    std::vector<int64_t> runIds; ///< the completed runs used, by repetition
    SampleStats requestsPerS; ///< by the results' metric
    SampleStats p50Us;
    SampleStats p99Us;
    SampleStats errors; ///< socket, TLS and parse errors per run (requests without a usable answer)
    SampleStats non2xx; ///< responses outside 2xx/3xx per run, apart from errors
    /// Versus the baseline target in the same cell (ratio 1, no interval, on the baseline's own row).
    RatioEstimate requestsPerSRatio;
    RatioEstimate p50Ratio;
    RatioEstimate p99Ratio;
    std::vector<SloTally> slo; ///< one per plan.slos, in order
    std::vector<MetricComparison> metrics; ///< one per ExperimentResults::metrics (frontdoormetrics.h)

    /// True when a repetition used failed one of the SLOs.
    bool anySloFailed() const;

    /// Throughput lost against the baseline, in percent: (1 - ratio) * 100 (negative = gained).
    double lossPct() const { return (1.0 - requestsPerSRatio.ratio) * 100.0; }
    /// "NodePort is 4.1% slower than NEG (CI 2.3-5.9%)", "no significant difference", "baseline".
    std::string verdict;
    /// The same for p99 ("NodePort has 12.0% higher latency than NEG (CI ...)"); "" on a baseline row.
    std::string p99Verdict;
};

/// The runs of one row before any statistics (describeRows()).
struct RowRuns
{
    size_t cell = 0;
    size_t target = 0;
    std::string group;
    std::string cellLabel;
    std::string targetName;
    bool baseline = false;
    std::vector<const RunRecord*> runs; ///< the repetitions used
};

/// Each row's statistics, and its ratios against the baseline row of the same group and
/// cell: without that row (or its runs) the ratios are unknown and the verdict says why.
/// A side with one run has a ratio but no interval, and the verdict says so.
std::vector<ExperimentRow> describeRows(
    const std::vector<RowRuns>& rows, const std::vector<Slo>& slos, RateMetric metric, const std::string& baselineName);

struct ExperimentResults
{
    ExperimentRecord experiment;
    /// For a study, made from its runs: its variants as targets, its levels (label, axis value,
    /// the load of the level's first run), no durations or SLOs.
    ExperimentPlan plan;
    ExperimentKind kind = ExperimentKind::Plan;
    RateMetric metric = RateMetric::Total;
    /// The run metrics compared beside req/s and latency (a plan's "metrics", `study --metric`).
    std::vector<RunMetric> metrics;
    /// The breakdown of each run made with --backend-from or --upstream-time, by run id.
    std::map<int64_t, FrontDoorView> frontDoor;
    /// The groups in order (each with its own baseline); empty when there is one, unnamed.
    std::vector<std::string> groups;
    /// Group by group, cell by cell within a group, targets in plan order within a cell. A study lists
    /// only the cells that have runs.
    std::vector<ExperimentRow> rows;
    std::vector<RunRecord> runs; ///< every run of the experiment (failed and stopped ones too), oldest first
    size_t runsDone = 0; ///< completed runs that fill a planned slot
    size_t runsTotal = 0;
    /// The target's metrics of the runs that scraped any (--scrape, a target's "scrape"), by run id.
    std::map<int64_t, ScrapeRecord> scrapes;

    const ExperimentRow* row(size_t cell, size_t target) const;
    bool grouped() const { return !groups.empty(); }
    /// The colour (0xRRGGBB) of the series of `target` in `group` ("" ungrouped), the same in the
    /// window's charts and the HTML report: its session target's colour unless another series of
    /// the experiment has it (the same target in two groups), else a free one (distinctSeriesColors).
    uint32_t seriesColor(const std::string& group, size_t target) const;
    /// A completed run the results use failed one of the plan's SLOs (the experiment's exit code 4).
    bool anySloFailed() const;
};

/// Computes the rows from an experiment's runs. A run counts when it completed
/// and fills a slot of the plan (cell, target by session id, repetition); of
/// two runs in one slot, the later is used.
ExperimentResults computeExperimentResults(
    const ExperimentRecord& experiment, const ExperimentPlan& plan, std::vector<RunRecord> runs);

/// Loads the experiment, its plan and its runs from the store and computes the rows
/// (a study's from its definition and linked runs: study.h).
Result<ExperimentResults> loadExperimentResults(SessionStore& store, int64_t experimentId);

} // namespace wb
