#pragma once
// The metrics behind the front door that an experiment or a study compares beside
// req/s and latency (a plan's "metrics", `study --metric`): how evenly the load was
// spread over the backends (--backend-from) and how much of the time is the
// gateway's own (--upstream-time). Each is defined once, here (its name, what it
// is, which way is better) and in runMetricValue() (frontdoormetrics.h).

#include "experiment/experimentstats.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

enum class RunMetric {
    BackendCv, ///< coefficient of variation of the per-backend counts (0 = even)
    BackendMaxMin, ///< the busiest backend's share over the idlest's (1 = even)
    FrontDoorShare, ///< mean front-door time / mean total, over the responses that stated an upstream time
};

struct RunMetricInfo
{
    RunMetric metric;
    const char* name; ///< as a plan and --metric spell it: "backend-cv"
    const char* title; ///< as reports head it: "backend CV"
    const char* meaning; ///< one sentence for the method text
    Better better; ///< which way is better
    bool percent; ///< shown as a percentage (and its differences in points)
    bool needsBackends; ///< --backend-from (else --upstream-time)
};

const std::vector<RunMetricInfo>& runMetricInfos();
const RunMetricInfo& runMetricInfo(RunMetric metric);
std::optional<RunMetric> runMetricFromName(const std::string& name);
/// "backend-cv, backend-max-min, front-door-share".
std::string runMetricNames();

} // namespace wb

namespace wb {

/// One run metric over the repetitions of a results row, against its baseline row.
struct MetricComparison
{
    RunMetric metric = RunMetric::BackendCv;
    SampleStats stats; ///< over the row's runs that carry it
    DifferenceEstimate difference; ///< this row's mean minus the baseline row's (none on the baseline row)
    /// "NodePort's backend CV is 0.447 higher than NEG's (CI 0.430–0.464)", "no significant
    /// difference (CI ...)", "baseline", "no data: ...".
    std::string verdict;
};

} // namespace wb
