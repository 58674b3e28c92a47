#include "experiment/experimentresults.h"

#include "experiment/frontdoormetrics.h"
#include "experiment/study.h"
#include "report/palette.h"
#include "store/sessionstore.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace wb {

namespace {

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

/// "; the loader was saturated in 2 of the baseline's 3 runs: that spread may be the loader's", or
/// "" when no run of these was.
std::string saturatedRunsText(const std::vector<const RunRecord*>& runs, const std::string& who)
{
    size_t saturated = 0;
    for (const RunRecord* run : runs)
        saturated += run->hasTotals && run->totals.loaderCost.saturated() ? 1 : 0;
    if (saturated == 0) return {};
    return "; the loader was saturated in " + std::to_string(saturated) + " of " + who + "'s "
        + std::to_string(runs.size()) + " runs: that spread may be the loader's";
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

double rateOf(const RunRecord& run, RateMetric metric)
{
    return metric == RateMetric::PerThread ? run.totals.threadRate.mean : run.totals.requestsPerS;
}

std::vector<ExperimentRow> describeRows(
    const std::vector<RowRuns>& rows, const std::vector<Slo>& slos, RateMetric metric, const std::string& baselineName)
{
    struct Values
    {
        std::vector<double> requestsPerS, p50Us, p99Us, errors, non2xx;
    };
    auto valuesOf = [metric](const RowRuns& row) {
        Values v;
        for (const RunRecord* run : row.runs) {
            v.requestsPerS.push_back(rateOf(*run, metric));
            v.p50Us.push_back(run->totals.latency.p50Us);
            v.p99Us.push_back(run->totals.latency.p99Us);
            v.errors.push_back(static_cast<double>(run->totals.errors.transportErrors()));
            v.non2xx.push_back(static_cast<double>(run->totals.non2xx));
        }
        return v;
    };
    std::vector<ExperimentRow> out;
    for (const RowRuns& in : rows) {
        const Values s = valuesOf(in);
        ExperimentRow row;
        row.cell = in.cell;
        row.target = in.target;
        row.group = in.group;
        row.cellLabel = in.cellLabel;
        row.targetName = in.targetName;
        row.baseline = in.baseline;
        row.baselineName = in.baseline ? in.targetName : baselineName;
        for (const RunRecord* run : in.runs)
            row.runIds.push_back(run->id);
        row.requestsPerS = describeSample(s.requestsPerS);
        row.p50Us = describeSample(s.p50Us);
        row.p99Us = describeSample(s.p99Us);
        row.errors = describeSample(s.errors);
        row.non2xx = describeSample(s.non2xx);
        row.slo = tallySlos(slos, in.runs);
        if (row.baseline) {
            // Against itself the ratio is 1 by definition, not an estimate: no interval.
            for (RatioEstimate* r : { &row.requestsPerSRatio, &row.p50Ratio, &row.p99Ratio })
                *r = RatioEstimate { .ratio = in.runs.empty() ? RatioEstimate::NOT_KNOWN : 1.0 };
            row.verdict = "baseline";
            out.push_back(std::move(row));
            continue;
        }
        const auto base = std::find_if(rows.begin(), rows.end(),
            [&](const RowRuns& r) { return r.baseline && r.group == in.group && r.cell == in.cell; });
        if (base == rows.end() || base->runs.empty()) {
            // A study's group may lack the baseline at a level: listed, with no ratios.
            row.verdict = base == rows.end() ? "no " + baselineName + " run in this "
                    + (in.group.empty() ? std::string("level") : "group and level") + ": no ratio"
                                             : "no data";
            row.p99Verdict = "no data";
            out.push_back(std::move(row));
            continue;
        }
        row.baselineName = base->targetName;
        const Values b = valuesOf(*base);
        row.requestsPerSRatio = ratioOfMeans(b.requestsPerS, s.requestsPerS);
        row.p50Ratio = ratioOfMeans(b.p50Us, s.p50Us);
        row.p99Ratio = ratioOfMeans(b.p99Us, s.p99Us);
        if (!std::isnan(row.requestsPerSRatio.ratio) && !row.requestsPerSRatio.hasInterval()) {
            // One run on a side: the ratio and the loss stand, but nothing says how far to trust them.
            const bool lone = in.runs.size() < 2;
            const bool loneBase = base->runs.size() < 2;
            row.verdict = std::string(lone && loneBase ? "one run each"
                                  : lone               ? "one run"
                                                       : "one baseline run")
                + ": no confidence interval, no verdict";
        } else {
            row.verdict = ratioVerdict(row.requestsPerSRatio, row.targetName, base->targetName, Better::Higher,
                b.requestsPerS, s.requestsPerS);
        }
        row.p99Verdict = ratioVerdict(row.p99Ratio, row.targetName, base->targetName, Better::Lower, b.p99Us, s.p99Us);
        // A spread that decided nothing may be the loader's own: say so where its runs show it.
        const std::string loaderSpread
            = saturatedRunsText(base->runs, "the baseline") + saturatedRunsText(in.runs, row.targetName);
        for (std::string* v : { &row.verdict, &row.p99Verdict })
            if (v->starts_with(UNDECIDED_VERDICT)) *v += loaderSpread;
        out.push_back(std::move(row));
    }
    return out;
}

ExperimentResults computeExperimentResults(
    const ExperimentRecord& experiment, const ExperimentPlan& plan, std::vector<RunRecord> runs)
{
    ExperimentResults out;
    out.experiment = experiment;
    out.plan = plan;
    out.groups = plan.groups();
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

    std::map<std::pair<size_t, size_t>, std::vector<const RunRecord*>> cells; // by repetition
    for (const auto& [key, run] : slots)
        cells[{ std::get<0>(key), std::get<1>(key) }].push_back(run);

    // Group by group (one, unnamed, without groups), then cell by cell: each group is a block with its own baseline.
    std::vector<std::string> groups = out.groups;
    if (groups.empty()) groups.push_back("");
    std::vector<RowRuns> rows;
    for (const std::string& group : groups)
        for (size_t cell = 0; cell < plan.levels.size(); ++cell)
            for (size_t t = 0; t < plan.targets.size(); ++t) {
                if (plan.targets[t].group != group) continue;
                RowRuns row;
                row.cell = cell;
                row.target = t;
                row.group = group;
                row.cellLabel = plan.levels[cell].label;
                row.targetName = plan.targets[t].name;
                row.baseline = plan.baselineOf(t) == t;
                row.runs = cells[{ cell, t }];
                rows.push_back(std::move(row));
            }
    out.rows = describeRows(rows, plan.slos, RateMetric::Total, plan.targets[plan.baselineIndex()].name);
    out.metrics = plan.metrics;
    return out;
}

namespace {

// The runs' target metrics, kept beside the rows for the reports (the HTML report's section).
Result<ExperimentResults> withScrapes(SessionStore& store, Result<ExperimentResults> results)
{
    if (!results) return results;
    for (const RunRecord& r : results->runs) {
        auto scrape = store.runs().scrapeOf(r.id);
        if (!scrape) return Error { scrape.error() };
        if (!scrape->empty()) results->scrapes.emplace(r.id, std::move(*scrape));
    }
    return results;
}

} // namespace

uint32_t ExperimentResults::seriesColor(const std::string& group, size_t target) const
{
    const std::vector<std::string> order = grouped() ? groups : std::vector<std::string> { "" };
    std::vector<int64_t> ids;
    size_t index = 0;
    for (size_t g = 0; g < order.size(); ++g)
        for (size_t t = 0; t < plan.targets.size(); ++t) {
            if (order[g] == group && t == target) index = ids.size();
            ids.push_back(plan.targets[t].sessionTargetId);
        }
    return ids.empty() ? targetColorRgb(1) : distinctSeriesColors(ids).at(index);
}

Result<ExperimentResults> loadExperimentResults(SessionStore& store, int64_t experimentId)
{
    auto record = store.experiments().get(experimentId);
    if (!record) return Error { record.error() };
    Result<ExperimentResults> results = [&]() -> Result<ExperimentResults> {
        if (record->kind == ExperimentKind::Study) return loadStudyResults(store, *record);
        if (record->kind == ExperimentKind::Capacity)
            return Error { "experiment " + std::to_string(experimentId)
                + " is a capacity search: 'wrkbench-cli capacity --db FILE --resume " + std::to_string(experimentId)
                + "' shows it (and goes on with it if it did not end)" };
        auto plan = parseExperimentPlan(record->planJson);
        if (!plan) return Error { "the plan of experiment " + std::to_string(experimentId) + ": " + plan.error() };
        auto runs = store.experiments().runs(experimentId);
        if (!runs) return Error { runs.error() };
        return computeExperimentResults(*record, *plan, std::move(*runs));
    }();
    // The target metrics of every run that scraped some.
    results = withScrapes(store, std::move(results));
    if (!results) return results;
    // Behind the front door: the breakdowns of the runs that have one, and the metrics compared.
    if (auto st = attachFrontDoor(store, *results); !st) return Error { st.error() };
    return results;
}

} // namespace wb
