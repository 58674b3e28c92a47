#pragma once
// An A-vs-B experiment: two or more targets (one the baseline), a matrix of load levels, repetitions per cell, and how
// the runs are spaced and ordered, written as JSON (docs/EXPERIMENTS.md, "Plan format"). parseExperimentPlan() checks
// everything a run would check before the first run starts and names the field at fault. The canonical JSON stored in
// the session spells out every level and every default, so a resumed experiment runs exactly as planned even if
// defaults change in a later version.

#include "common/result.h"
#include "experiment/runmetric.h"
#include "prometheus/exposition/scraperecord.h"
#include "run/runconfig.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

struct ExperimentTarget
{
    std::string name; ///< the session target's name
    RequestSpec request; ///< URL, method, headers, body
    TlsOptions tls;
    HttpVersion httpVersion = HttpVersion::Http1; ///< "http_version": "h2" in the plan
    /// Made from a target's "protocols" list ("protocols": ["h2", "h3"]): one target per protocol,
    /// the protocol is the experiment's variant (the comparability check does not flag it).
    bool protocolVariant = false;
    /// "requests": a request mix file sent instead of `request` ("mix_order", "seed"); read when
    /// the plan is parsed (a resumed experiment reads the file again). Its entries go to the URL's origin.
    std::string requestsPath;
    RequestMixSpec mix;
    /// "script" and "script_args": a wrk Lua script every run of this target runs (as `-s`), read
    /// and checked when the plan is parsed (a resumed experiment reads the file again).
    ScriptSpec script;
    bool baseline = false; ///< the baseline of its group (of the experiment when there are no groups)
    /// "group": the block the target belongs to (frameworks, cluster sizes), compared with its
    /// group's own baseline; "" when the plan has no groups.
    std::string group;
    int64_t sessionTargetId = 0; ///< set once the experiment is in a session (survives renaming the target)
    /// "scrape": the target's own metrics read during each of its runs (docs/METRICS.md):
    /// {"endpoints": ["node=http://10.0.0.5:9100/metrics", ...], "metric": "REGEX"}.
    ScrapeSpec scrape;
};

/// One level of the load matrix: a cell of the experiment (run against every target).
struct LoadLevel
{
    std::string label; ///< "c50": the row name in tables, the x-axis tick in charts
    double axisValue = 0; ///< the swept value (connections, threads or rate); the level's number otherwise
    /// threads, connections, pipeline, rate, timeouts, interval. request, tls,
    /// duration and warm-up come from the target and the plan.
    RunConfig load;
};

enum class ExperimentOrder {
    Interleaved, ///< within a cell: A B A B ... so that drift over time hits every target alike
    Sequential, ///< within a cell: A A ... B B ...
};

/// One run of the plan's schedule(): the cell, the target and the repetition it fills.
struct ScheduledRun
{
    size_t cell = 0;
    size_t target = 0;
    unsigned repetition = 0; ///< 0-based
};

/// "search": the plan is a capacity search over its targets instead of a matrix of runs
/// (docs/CAPACITY.md): {"slo": [...], "precision": "2%", "trial": "5s", ...}, the options as
/// `wrkbench-cli capacity` takes them (capacity/capacityoptions.h), read and checked here.
struct PlanSearch
{
    std::vector<Slo> slos; ///< required: the capacity is the most load that keeps them
    std::vector<std::pair<std::string, std::string>> options; ///< by key ("precision", "2%"), as given
};

struct ExperimentPlan
{
    std::string name;
    /// "description": free text for people (what the targets stand for, how to point the plan
    /// at real URLs); a list of strings in the plan is joined with newlines. Not used by runs.
    std::string description;
    std::vector<ExperimentTarget> targets;
    std::vector<LoadLevel> levels;
    std::string axis; ///< "connections", "threads", "rate", or "" for a list of levels
    unsigned repetitions = 3;
    uint64_t durationUs = 10'000'000; ///< measured part of each run
    uint64_t warmupUs = 0; ///< each run: load before measuring (not recorded)
    uint64_t cooldownUs = 0; ///< idle time between two runs
    ExperimentOrder order = ExperimentOrder::Interleaved;
    /// Thresholds every run is judged by ("slo" in the plan, as --slo): each run stores its
    /// verdicts, and the results count per cell and target how many repetitions met each.
    /// No "slo_abort": a run stopped early does not count, and a resume would make it again.
    std::vector<Slo> slos;
    /// Run metrics compared beside req/s and latency ("metrics": ["backend-cv", "front-door-share"]):
    /// they need the load's "backend_from" or "upstream_time" (runmetric.h).
    std::vector<RunMetric> metrics;
    /// A capacity search instead of runs at fixed loads (then one level, no rate: the search sets it).
    std::optional<PlanSearch> search;

    /// The baseline of the first group (of the experiment when there are no groups).
    size_t baselineIndex() const;
    /// The baseline of target's group.
    size_t baselineOf(size_t target) const;
    /// The groups in the order their first target appears; empty when the plan has none.
    std::vector<std::string> groups() const;
    size_t runCount() const { return levels.size() * targets.size() * repetitions; }
    /// The planned wall time: every run's warm-up and measured time, and the cool-downs between
    /// runs (what the CLI prints before it starts and the GUI's plan editor shows before Run).
    uint64_t plannedDurationUs() const;
    /// The complete configuration of the run of target in cell.
    RunConfig runConfig(size_t cell, size_t target) const;
    /// Every run in the order they are made.
    std::vector<ScheduledRun> schedule() const;
};

/// Parses and validates a plan. The error names the field: "sweep.values[2]:
/// must be a positive whole number", "targets: an experiment needs at least two
/// targets", "unknown key 'durations' (expected one of ...)".
Result<ExperimentPlan> parseExperimentPlan(const std::string& json);

/// The canonical JSON (pretty-printed when indent >= 0); parseExperimentPlan() reads it back unchanged.
std::string experimentPlanToJson(const ExperimentPlan& plan, int indent = -1);

const char* experimentOrderName(ExperimentOrder order);

/// The plan in one line, before it runs (the CLI prints it, the GUI's plan editor shows it): "2 targets
/// (baseline NEG), 3 levels, 2 repetitions: 12 runs of 10s (+2s warm-up), interleaved, about 2m46s".
std::string planSummaryText(const ExperimentPlan& plan);
/// "45s", "2m46s", "1h05m": a wall time in seconds, rounded.
std::string wallTimeText(double seconds);

/// The label of a level of a sweep along axis ("c50", "t4", "R1500"), as "sweep" names its levels.
std::string sweepLevelLabel(const std::string& axis, const RunConfig& load);

/// The shortest exact spelling of a duration, as plans write it: "2m", "30s", "500ms", "1250us".
std::string planDurationText(uint64_t us);
/// A rate or a stage target as plans and reports write it: "1500", "2.5" (no exponent below 1e15).
std::string planNumberText(double v);

} // namespace wb
