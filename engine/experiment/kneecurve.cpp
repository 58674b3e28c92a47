#include "experiment/kneecurve.h"

#include "experiment/experimentplan.h"
#include "experiment/experimentresults.h"
#include "stats/latencysummary.h"

#include <cmath>
#include <map>

namespace wb {

std::vector<KneeCurve> experimentKneeCurves(const ExperimentResults& results)
{
    std::vector<KneeCurve> curves;
    if (results.plan.levels.size() < 2) return curves;
    std::map<int64_t, const RunRecord*> byId;
    for (const RunRecord& r : results.runs)
        byId[r.id] = &r;
    const std::vector<std::string> groups = results.grouped() ? results.groups : std::vector<std::string> { "" };
    for (const std::string& group : groups)
        for (size_t t = 0; t < results.plan.targets.size(); ++t) {
            KneeCurve curve;
            curve.name = group.empty() ? results.plan.targets[t].name : group + " " + results.plan.targets[t].name;
            for (size_t cell = 0; cell < results.plan.levels.size(); ++cell)
                for (const ExperimentRow& row : results.rows) {
                    if (row.group != group || row.cell != cell || row.target != t || row.p50Us.n == 0) continue;
                    // The x axis is what the target achieved: the whole run's requests/s, even when the
                    // table compares the per-thread metric.
                    double sum = 0;
                    size_t n = 0;
                    for (int64_t id : row.runIds)
                        if (auto it = byId.find(id); it != byId.end() && it->second->hasTotals) {
                            sum += it->second->totals.requestsPerS;
                            ++n;
                        }
                    if (n == 0) continue;
                    curve.points.push_back({ row.cellLabel, sum / static_cast<double>(n), row.p50Us.mean,
                        row.p99Us.n > 0 ? row.p99Us.mean : UNKNOWN });
                }
            if (!curve.points.empty()) curves.push_back(std::move(curve));
        }
    return curves;
}

std::vector<KneePoint> stageKneePoints(const RunConfig& config, const std::vector<IntervalRecord>& intervals)
{
    std::vector<KneePoint> points;
    if (config.stages.empty()) return points;
    double stageStartS = 0;
    for (size_t s = 0; s < config.stages.size(); ++s) {
        const Stage& stage = config.stages[s];
        const double stageEndS = stageStartS + static_cast<double>(stage.durationUs) / 1e6;
        const bool last = s + 1 == config.stages.size();
        LatencyHistogram latency;
        uint64_t requests = 0;
        double seconds = 0;
        for (const IntervalRecord& in : intervals) {
            const double middle = (in.startS + in.endS) / 2;
            // The last stage takes what runs past the planned end (a drain, a late last interval).
            if (middle < stageStartS || (middle >= stageEndS && !last)) continue;
            requests += in.requests;
            seconds += in.durationS();
            if (!in.latencyHistogram.empty()) latency.merge(in.latencyHistogramDecoded());
        }
        stageStartS = stageEndS;
        if (requests == 0 || seconds <= 0 || latency.count() == 0) continue;
        const LatencySummary summary = LatencySummary::of(latency);
        const std::string target = config.stagesAreConnections ? planNumberText(stage.target) + " connections"
                                                               : planNumberText(stage.target) + "/s";
        points.push_back({ "stage " + std::to_string(s + 1) + ": " + target, static_cast<double>(requests) / seconds,
            summary.p50Us, summary.p99Us });
    }
    return points;
}

} // namespace wb
