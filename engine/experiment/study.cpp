#include "experiment/study.h"

#include "common/format.h"
#include "common/jsonint.h"
#include "common/jsontext.h"
#include "store/sessionstore.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace wb {

namespace {

using json = nlohmann::json;

// "1-3,5": the ids as ranges, for messages that name many runs.
std::string idRanges(std::vector<int64_t> ids)
{
    std::sort(ids.begin(), ids.end());
    std::string out;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(ids[i]) + (j > i ? "-" + std::to_string(ids[j]) : "");
        i = j + 1;
    }
    return out;
}

std::string runName(int64_t id)
{
    return "run " + std::to_string(id);
}

double levelValue(const RunRecord& run, StudyLevel level)
{
    switch (level) {
    case StudyLevel::Connections:
        return run.config.connections;
    case StudyLevel::Threads:
        return run.config.threads;
    case StudyLevel::Rate:
        return run.config.ratePerS;
    case StudyLevel::None:
        break;
    }
    return 0;
}

std::string levelLabel(double value, StudyLevel level)
{
    char number[32];
    std::snprintf(number, sizeof number, "%.15g", value);
    switch (level) {
    case StudyLevel::Connections:
        return std::string("c") + number;
    case StudyLevel::Threads:
        return std::string("t") + number;
    case StudyLevel::Rate:
        return value > 0 ? std::string("R") + number : "closed loop";
    case StudyLevel::None:
        break;
    }
    return "all";
}

// The one tag of `wanted` a run carries: "" with an error when it carries none or several.
Result<std::string> oneOf(const std::vector<std::string>& wanted, const std::set<std::string>& carried,
    const RunRecord& run, const char* what)
{
    std::vector<std::string> found;
    for (const auto& tag : wanted)
        if (carried.count(tag)) found.push_back(tag);
    if (found.empty())
        return Error { runName(run.id) + " carries none of the " + what + " tags " + joined(wanted)
            + ": it fits no cell (tag it, or leave it out of --runs)" };
    if (found.size() > 1)
        return Error { runName(run.id) + " carries " + std::to_string(found.size()) + " " + what + " tags, "
            + joined(found) + ": it would fall into " + std::to_string(found.size()) + " cells" };
    return found.front();
}

std::vector<std::string> variantsOf(const StudySpec& spec, const std::vector<StudyRunLink>& links)
{
    if (!spec.variantTags.empty()) return spec.variantTags;
    std::vector<std::string> out;
    for (const auto& link : links)
        if (std::find(out.begin(), out.end(), link.variant) == out.end()) out.push_back(link.variant);
    return out;
}

std::string defaultName(const std::vector<std::string>& variants, const std::vector<std::string>& groups)
{
    std::string out = joined(variants, " vs ");
    if (!groups.empty()) out += " (by " + joined(groups, ", ") + ")";
    return out;
}

} // namespace

const char* studyLevelName(StudyLevel level)
{
    switch (level) {
    case StudyLevel::Connections:
        return "connections";
    case StudyLevel::Threads:
        return "threads";
    case StudyLevel::Rate:
        return "rate";
    case StudyLevel::None:
        break;
    }
    return "none";
}

std::optional<StudyLevel> studyLevelFromName(const std::string& name)
{
    for (StudyLevel l : { StudyLevel::Connections, StudyLevel::Threads, StudyLevel::Rate, StudyLevel::None })
        if (name == studyLevelName(l)) return l;
    return std::nullopt;
}

const char* rateMetricName(RateMetric metric)
{
    return metric == RateMetric::PerThread ? "per-thread" : "total";
}

std::optional<RateMetric> rateMetricFromName(const std::string& name)
{
    for (RateMetric m : { RateMetric::Total, RateMetric::PerThread })
        if (name == rateMetricName(m)) return m;
    return std::nullopt;
}

Status parseStudyMetrics(const std::string& text, StudySpec& spec)
{
    auto names = parseTagList(text, "--metric");
    if (!names) return Error { names.error() };
    bool rateGiven = false;
    for (const std::string& name : *names) {
        if (const auto rate = rateMetricFromName(name)) {
            if (rateGiven) return Error { "--metric: give one of total and per-thread, not both" };
            rateGiven = true;
            spec.metric = *rate;
        } else if (const auto metric = runMetricFromName(name)) {
            spec.metrics.push_back(*metric);
        } else {
            return Error { "--metric: '" + name + "' is none of total, per-thread, " + runMetricNames() };
        }
    }
    return {};
}

std::string studySpecToJson(const StudySpec& spec)
{
    json j = {
        { "kind", "study" },
        { "name", spec.name },
        { "runs", spec.runs },
        { "run_ids", spec.runIds },
        { "variant_by", spec.variantTags.empty() ? "target" : "tags" },
        { "variant_tags", spec.variantTags },
        { "group_tags", spec.groupTags },
        { "level", studyLevelName(spec.level) },
        { "baseline", spec.baseline },
        { "metric", rateMetricName(spec.metric) },
    };
    if (!spec.metrics.empty()) {
        json metrics = json::array();
        for (RunMetric m : spec.metrics)
            metrics.push_back(runMetricInfo(m).name);
        j["metrics"] = metrics;
    }
    return jsonText(j);
}

Result<StudySpec> studySpecFromJson(const std::string& text)
{
    const json j = parseJsonTextOrDiscarded<json>(text);
    // json::value() throws when the key holds another type: "kind": [] is not a study either.
    const auto kind = j.is_object() ? j.find("kind") : j.end();
    if (kind == j.end() || !kind->is_string() || *kind != "study") return Error { "not a study definition" };
    try {
        StudySpec spec;
        spec.name = j.at("name").get<std::string>();
        spec.runs = j.at("runs").get<std::string>();
        for (const json& id : j.at("run_ids")) {
            const auto runId = jsonInt64(id);
            if (!runId) return Error { "the study's run_ids must be whole numbers" };
            spec.runIds.push_back(*runId);
        }
        spec.variantTags = j.at("variant_tags").get<std::vector<std::string>>();
        spec.groupTags = j.at("group_tags").get<std::vector<std::string>>();
        spec.baseline = j.at("baseline").get<std::string>();
        auto level = studyLevelFromName(j.at("level").get<std::string>());
        auto metric = rateMetricFromName(j.at("metric").get<std::string>());
        if (!level || !metric) return Error { "the study's level or metric is unknown" };
        spec.level = *level;
        spec.metric = *metric;
        if (j.contains("metrics"))
            for (const auto& name : j.at("metrics").get<std::vector<std::string>>()) {
                const auto m = runMetricFromName(name);
                if (!m) return Error { "the study's metric '" + name + "' is unknown" };
                spec.metrics.push_back(*m);
            }
        return spec;
    } catch (const json::exception& e) {
        return Error { std::string("the study definition is incomplete: ") + e.what() };
    }
}

Result<std::vector<std::string>> parseTagList(const std::string& text, const std::string& option)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        std::string tag = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        while (!tag.empty() && tag.front() == ' ')
            tag.erase(tag.begin());
        while (!tag.empty() && tag.back() == ' ')
            tag.pop_back();
        if (tag.empty()) return Error { option + ": an empty tag in '" + text + "'" };
        if (std::find(out.begin(), out.end(), tag) != out.end())
            return Error { option + ": '" + tag + "' is given twice" };
        out.push_back(tag);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

Result<std::vector<StudyRunLink>> assignStudyCells(const StudySpec& spec, const std::vector<RunRecord>& runs,
    const std::map<int64_t, std::vector<std::string>>& targetTags)
{
    if (runs.empty()) return Error { "a study needs runs: --runs names none" };
    auto tagsOf = [&targetTags](const RunRecord& run) {
        std::set<std::string> tags(run.tags.begin(), run.tags.end());
        if (auto t = targetTags.find(run.targetId); t != targetTags.end())
            tags.insert(t->second.begin(), t->second.end());
        return tags;
    };
    // A tag no run carries is most likely a typo ("k8s" for "kubernetes"): said first, as such,
    // rather than as the first run that then fits no cell.
    std::set<std::string> carried;
    std::vector<int64_t> ids;
    for (const RunRecord& run : runs) {
        const std::set<std::string> tags = tagsOf(run);
        carried.insert(tags.begin(), tags.end());
        ids.push_back(run.id);
    }
    for (const auto* list : { &spec.variantTags, &spec.groupTags })
        for (const auto& tag : *list)
            if (!carried.count(tag))
                return Error { "tag '" + tag + "' ("
                    + (list == &spec.variantTags ? "--variant-by-tags" : "--group-by-tags")
                    + ") is carried by none of the runs " + idRanges(ids) };

    std::vector<StudyRunLink> links;
    std::vector<int64_t> openModel, closedLoop;
    for (const RunRecord& run : runs) {
        if (!run.hasTotals || (run.status != RunStatus::Completed && run.status != RunStatus::Imported))
            return Error { runName(run.id) + " is " + runStatusName(run.status)
                + ": only completed and imported runs have results to compare" };
        const std::set<std::string> tags = tagsOf(run);
        StudyRunLink link;
        link.runId = run.id;
        if (spec.variantTags.empty()) {
            link.variant = run.targetName;
        } else {
            auto variant = oneOf(spec.variantTags, tags, run, "variant");
            if (!variant) return Error { variant.error() };
            link.variant = *variant;
        }
        if (!spec.groupTags.empty()) {
            auto group = oneOf(spec.groupTags, tags, run, "group");
            if (!group) return Error { group.error() };
            link.group = *group;
        }
        if (spec.metric == RateMetric::PerThread
            && !(std::isfinite(run.totals.threadRate.mean) && run.totals.threadRate.mean > 0))
            return Error { runName(run.id)
                + " has no per-thread Req/Sec statistics: --metric per-thread needs them (use --metric total)" };
        for (RunMetric m : spec.metrics) {
            const RunMetricInfo& info = runMetricInfo(m);
            if (info.needsBackends ? !run.config.backendFrom.enabled() : !run.config.upstreamTime.enabled())
                return Error { runName(run.id) + " was made without "
                    + (info.needsBackends ? "--backend-from" : "--upstream-time") + ": --metric " + info.name
                    + " needs it" };
        }
        (run.config.openModel() ? openModel : closedLoop).push_back(run.id);
        links.push_back(std::move(link));
    }
    // A closed loop's req/s is what the target could serve; an open model's is the rate it was
    // offered, and its latency is corrected: the two measure different things.
    if (!openModel.empty() && !closedLoop.empty())
        return Error { "mixed metrics: runs " + idRanges(closedLoop)
            + " are closed-loop (req/s is the capacity served, latency the service time), runs " + idRanges(openModel)
            + " open-model (req/s is the rate offered, latency corrected); a study compares like with like" };
    return links;
}

Result<ExperimentResults> computeStudyResults(const ExperimentRecord& record, const StudySpec& spec,
    const std::vector<RunRecord>& runs, const std::vector<StudyRunLink>& links)
{
    std::map<int64_t, const RunRecord*> byId;
    for (const RunRecord& r : runs)
        byId[r.id] = &r;

    const std::vector<std::string> variants = variantsOf(spec, links);
    const std::vector<std::string> groups = spec.groupTags.empty() ? std::vector<std::string> { "" } : spec.groupTags;
    if (variants.empty()) return Error { "a study needs runs: --runs names none" };
    const std::string baseline = spec.baseline.empty() ? variants.front() : spec.baseline;
    if (std::find(variants.begin(), variants.end(), baseline) == variants.end())
        return Error { "baseline '" + baseline + "' is in no group: it is none of the variants " + joined(variants)
            + (spec.variantTags.empty() ? " (targets)" : " (tags)") };

    std::set<double> levelValues;
    for (const auto& link : links)
        if (auto r = byId.find(link.runId); r != byId.end()) levelValues.insert(levelValue(*r->second, spec.level));
    const std::vector<double> levels(levelValues.begin(), levelValues.end());

    ExperimentResults out;
    out.experiment = record;
    out.kind = ExperimentKind::Study;
    out.metric = spec.metric;
    out.metrics = spec.metrics;
    out.groups = spec.groupTags;
    ExperimentPlan& plan = out.plan;
    plan.name = record.name;
    plan.axis = spec.level == StudyLevel::None ? "" : studyLevelName(spec.level);
    for (const auto& v : variants) {
        ExperimentTarget t;
        t.name = v;
        t.baseline = v == baseline;
        plan.targets.push_back(std::move(t));
    }
    for (double value : levels) {
        LoadLevel level;
        level.label = levelLabel(value, spec.level);
        level.axisValue = value;
        plan.levels.push_back(std::move(level));
    }

    // group, level, variant -> the cell's runs, oldest first (links come in run id order).
    std::map<std::tuple<size_t, size_t, size_t>, std::vector<const RunRecord*>> cells;
    std::vector<int64_t> used;
    std::vector<bool> levelSet(levels.size(), false);
    for (const auto& link : links) {
        auto r = byId.find(link.runId);
        if (r == byId.end()) continue; // deleted since the study was made
        const size_t g = std::find(groups.begin(), groups.end(), link.group) - groups.begin();
        const size_t v = std::find(variants.begin(), variants.end(), link.variant) - variants.begin();
        const size_t l = std::find(levels.begin(), levels.end(), levelValue(*r->second, spec.level)) - levels.begin();
        if (g == groups.size() || v == variants.size()) continue;
        cells[{ g, l, v }].push_back(r->second);
        used.push_back(link.runId);
        // The level's load as its first run had it (the CSV's threads, connections and rate columns).
        if (!levelSet[l]) {
            levelSet[l] = true;
            plan.levels[l].load.threads = r->second->config.threads;
            plan.levels[l].load.connections = r->second->config.connections;
            plan.levels[l].load.ratePerS = r->second->config.ratePerS;
        }
    }

    std::vector<RowRuns> rows;
    unsigned repetitions = 0;
    for (size_t g = 0; g < groups.size(); ++g)
        for (size_t l = 0; l < levels.size(); ++l)
            for (size_t v = 0; v < variants.size(); ++v) {
                auto cell = cells.find({ g, l, v });
                if (cell == cells.end()) continue;
                RowRuns row;
                row.cell = l;
                row.target = v;
                row.group = groups[g];
                row.cellLabel = plan.levels[l].label;
                row.targetName = variants[v];
                row.baseline = variants[v] == baseline;
                row.runs = cell->second;
                repetitions = std::max(repetitions, static_cast<unsigned>(row.runs.size()));
                rows.push_back(std::move(row));
            }
    plan.repetitions = repetitions;
    out.rows = describeRows(rows, {}, spec.metric, baseline);
    for (const RunRecord& r : runs)
        if (std::find(used.begin(), used.end(), r.id) != used.end()) out.runs.push_back(r);
    out.runsDone = out.runs.size();
    out.runsTotal = out.runs.size();
    return out;
}

Result<int64_t> createStudy(SessionStore& store, StudySpec spec)
{
    std::vector<RunRecord> runs;
    for (int64_t id : spec.runIds) {
        auto run = store.runs().record(id);
        if (!run) return Error { run.error() };
        runs.push_back(std::move(*run));
    }
    std::sort(runs.begin(), runs.end(), [](const RunRecord& a, const RunRecord& b) { return a.id < b.id; });
    auto targets = store.targets().all();
    if (!targets) return Error { targets.error() };
    std::map<int64_t, std::vector<std::string>> targetTags;
    for (const Target& t : *targets)
        targetTags[t.id] = t.tags;

    auto links = assignStudyCells(spec, runs, targetTags);
    if (!links) return Error { links.error() };
    if (spec.name.empty()) spec.name = defaultName(variantsOf(spec, *links), spec.groupTags);
    ExperimentRecord record;
    record.name = spec.name;
    // Every check a report makes, before anything is stored.
    if (auto results = computeStudyResults(record, spec, runs, *links); !results) return Error { results.error() };
    return store.experiments().addStudy(spec.name, studySpecToJson(spec), *links);
}

Result<ExperimentResults> loadStudyResults(SessionStore& store, const ExperimentRecord& record)
{
    auto spec = studySpecFromJson(record.planJson);
    if (!spec) return Error { "study " + std::to_string(record.id) + ": " + spec.error() };
    auto links = store.experiments().studyLinks(record.id);
    if (!links) return Error { links.error() };
    auto runs = store.experiments().runs(record.id);
    if (!runs) return Error { runs.error() };
    return computeStudyResults(record, *spec, *runs, *links);
}

} // namespace wb
