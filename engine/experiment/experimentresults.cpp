#include "experiment/experimentresults.h"

#include "store/sessionstore.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace wb {

namespace {

struct Samples
{
    std::vector<int64_t> runIds;
    std::vector<double> requestsPerS, p50Us, p99Us, errors, non2xx;
    std::vector<const RunRecord*> runs;
};

// Each run judged itself when it ended (RunResult::slo, stored in runs.slo): the
// tally reads those verdicts by expression rather than judging the totals again.
std::vector<SloTally> tallySlos(const std::vector<Slo>& slos, const std::vector<const RunRecord*>& runs)
{
    std::vector<SloTally> out;
    for (const Slo& slo : slos) {
        SloTally tally;
        tally.expr = slo.expr;
        for (const RunRecord* run : runs)
            for (const SloVerdict& v : run->totals.slo)
                if (v.expr == slo.expr) {
                    ++tally.judged;
                    tally.met += v.ok ? 1 : 0;
                    break;
                }
        out.push_back(std::move(tally));
    }
    return out;
}

} // namespace

std::string SloTally::text() const
{
    return judged == 0 ? "-" : std::to_string(met) + "/" + std::to_string(judged);
}

bool ExperimentRow::anySloFailed() const
{
    return std::any_of(slo.begin(), slo.end(), [](const SloTally& t) { return !t.allMet(); });
}

bool ExperimentResults::anySloFailed() const
{
    return std::any_of(rows.begin(), rows.end(), [](const ExperimentRow& r) { return r.anySloFailed(); });
}

const ExperimentRow* ExperimentResults::row(size_t cell, size_t target) const
{
    for (const auto& r : rows)
        if (r.cell == cell && r.target == target) return &r;
    return nullptr;
}

ExperimentResults computeExperimentResults(
    const ExperimentRecord& experiment, const ExperimentPlan& plan, std::vector<RunRecord> runs)
{
    ExperimentResults out;
    out.experiment = experiment;
    out.plan = plan;
    out.runs = std::move(runs);
    out.runsTotal = plan.runCount();

    // The run filling each slot: the latest completed one (runs are oldest first).
    std::map<std::tuple<size_t, size_t, unsigned>, const RunRecord*> slots;
    for (const RunRecord& r : out.runs) {
        const ExperimentSlot& s = r.experiment;
        if (r.status != RunStatus::Completed || !r.hasTotals || s.cellIndex < 0 || s.repetition < 0) continue;
        if (static_cast<size_t>(s.cellIndex) >= plan.levels.size()
            || static_cast<unsigned>(s.repetition) >= plan.repetitions)
            continue;
        for (size_t t = 0; t < plan.targets.size(); ++t)
            if (plan.targets[t].sessionTargetId == r.targetId)
                slots[{ static_cast<size_t>(s.cellIndex), t, static_cast<unsigned>(s.repetition) }] = &r;
    }
    out.runsDone = slots.size();

    std::map<std::pair<size_t, size_t>, Samples> samples;
    for (const auto& [key, run] : slots) {
        Samples& s = samples[{ std::get<0>(key), std::get<1>(key) }];
        s.runIds.push_back(run->id);
        s.requestsPerS.push_back(run->totals.requestsPerS);
        s.p50Us.push_back(run->totals.latency.p50Us);
        s.p99Us.push_back(run->totals.latency.p99Us);
        s.errors.push_back(static_cast<double>(run->totals.errors.transportErrors()));
        s.non2xx.push_back(static_cast<double>(run->totals.errors.status));
        s.runs.push_back(run);
    }

    const size_t base = plan.baselineIndex();
    for (size_t cell = 0; cell < plan.levels.size(); ++cell) {
        const Samples& b = samples[{ cell, base }];
        for (size_t t = 0; t < plan.targets.size(); ++t) {
            const Samples& s = samples[{ cell, t }];
            ExperimentRow row;
            row.cell = cell;
            row.target = t;
            row.cellLabel = plan.levels[cell].label;
            row.targetName = plan.targets[t].name;
            row.baseline = t == base;
            row.runIds = s.runIds;
            row.requestsPerS = describeSample(s.requestsPerS);
            row.p50Us = describeSample(s.p50Us);
            row.p99Us = describeSample(s.p99Us);
            row.errors = describeSample(s.errors);
            row.non2xx = describeSample(s.non2xx);
            row.requestsPerSRatio = ratioOfMeans(b.requestsPerS, s.requestsPerS);
            row.p50Ratio = ratioOfMeans(b.p50Us, s.p50Us);
            row.p99Ratio = ratioOfMeans(b.p99Us, s.p99Us);
            row.slo = tallySlos(plan.slos, s.runs);
            if (row.baseline) {
                // Against itself the ratio is 1 by definition, not an estimate: no interval.
                for (RatioEstimate* r : { &row.requestsPerSRatio, &row.p50Ratio, &row.p99Ratio })
                    *r = RatioEstimate { .ratio = s.runIds.empty() ? RatioEstimate::NOT_KNOWN : 1.0 };
                row.verdict = "baseline";
            } else {
                row.verdict = ratioVerdict(row.requestsPerSRatio, row.targetName, plan.targets[base].name);
            }
            out.rows.push_back(std::move(row));
        }
    }
    return out;
}

Result<ExperimentResults> loadExperimentResults(SessionStore& store, int64_t experimentId)
{
    auto record = store.experiment(experimentId);
    if (!record) return Error { record.error() };
    auto plan = parseExperimentPlan(record->planJson);
    if (!plan) return Error { "the plan of experiment " + std::to_string(experimentId) + ": " + plan.error() };
    auto runs = store.experimentRuns(experimentId);
    if (!runs) return Error { runs.error() };
    return computeExperimentResults(*record, *plan, std::move(*runs));
}

} // namespace wb
