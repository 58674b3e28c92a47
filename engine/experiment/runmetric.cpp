#include "experiment/runmetric.h"

namespace wb {

const std::vector<RunMetricInfo>& runMetricInfos()
{
    static const std::vector<RunMetricInfo> infos {
        { RunMetric::BackendCv, "backend-cv", "backend CV",
            "the coefficient of variation of the requests per backend (population standard deviation / mean; 0 is "
            "an even split)",
            Better::Lower, false, true },
        { RunMetric::BackendMaxMin, "backend-max-min", "backend max/min share",
            "the busiest backend's share of the requests over the idlest's (1 is an even split)", Better::Lower, false,
            true },
        { RunMetric::FrontDoorShare, "front-door-share", "front-door share",
            "the mean front-door time over the mean total time, over the responses that stated an upstream time "
            "(means add, percentiles do not)",
            Better::Lower, true, false },
    };
    return infos;
}

const RunMetricInfo& runMetricInfo(RunMetric metric)
{
    for (const RunMetricInfo& info : runMetricInfos())
        if (info.metric == metric) return info;
    return runMetricInfos().front();
}

std::optional<RunMetric> runMetricFromName(const std::string& name)
{
    for (const RunMetricInfo& info : runMetricInfos())
        if (name == info.name) return info.metric;
    return std::nullopt;
}

std::string runMetricNames()
{
    std::string out;
    for (const RunMetricInfo& info : runMetricInfos())
        out += (out.empty() ? "" : ", ") + std::string(info.name);
    return out;
}

} // namespace wb
