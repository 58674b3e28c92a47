#include "experiment/comparability.h"

#include "experiment/experimentplan.h"
#include "experiment/experimentresults.h"
#include "report/loadersaturation.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

namespace wb {

namespace {

std::string rateValue(const RunConfig& c)
{
    if (!c.stages.empty()) {
        std::string text = c.stagesAreConnections ? "connection ramp " : "rate ramp ";
        for (size_t i = 0; i < c.stages.size(); ++i)
            text
                += (i ? "," : "") + planDurationText(c.stages[i].durationUs) + ":" + planNumberText(c.stages[i].target);
        return text;
    }
    return c.ratePerS > 0 ? planNumberText(c.ratePerS) + "/s" : "none (closed model)";
}

std::string loaderHost(const RunRecord& r)
{
    const LoaderPlacement& l = r.config.loaders;
    if (l.on == LoaderPlacement::On::Kubernetes)
        return std::to_string(l.count) + " Kubernetes loaders"
            + (l.kubeContext.empty() ? std::string() : " (context " + l.kubeContext + ")");
    if (l.count > 1)
        return std::to_string(l.count) + " local loaders" + (r.hostName.empty() ? "" : " on " + r.hostName);
    return r.hostName;
}

bool imported(const RunRecord& r)
{
    return r.status == RunStatus::Imported;
}

// A wrk script as a comparison names it: the file, a digest of the text that ran (the same file
// name may have held another script), the arguments.
std::string scriptValue(const ScriptSpec& s)
{
    if (s.empty()) return "none";
    uint64_t hash = 14695981039346656037ull; // FNV-1a
    for (const char c : s.text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ull;
    }
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(hash));
    std::string text = s.name + " (text " + std::string(digest, 8) + ")";
    for (const std::string& a : s.args)
        text += " " + a;
    return text;
}

/// A field's value for a run; nullopt when the run does not know it (never a difference).
using FieldValue = std::function<std::optional<std::string>(const RunRecord&)>;

const std::vector<std::pair<std::string, FieldValue>>& fields()
{
    static const std::vector<std::pair<std::string, FieldValue>> all {
        { "threads",
            [](const RunRecord& r) -> std::optional<std::string> { return std::to_string(r.config.threads); } },
        { "connections",
            [](const RunRecord& r) -> std::optional<std::string> {
                return std::to_string(r.config.normalized().connections);
            } },
        { "duration",
            [](const RunRecord& r) -> std::optional<std::string> {
                return planDurationText(r.config.normalized().durationUs);
            } },
        { "rate", [](const RunRecord& r) -> std::optional<std::string> { return rateValue(r.config); } },
        // The HTTP version asked for: wrk and wrk2 speak HTTP/1.1 only, which an imported run's config says.
        { "protocol",
            [](const RunRecord& r) -> std::optional<std::string> {
                return std::string(httpVersionId(r.config.httpVersion));
            } },
        // Only where there is TLS, and not for imported runs: wrk never verifies, but the log does not say
        // whether the URL's certificate would have passed.
        { "TLS verification",
            [](const RunRecord& r) -> std::optional<std::string> {
                if (imported(r) || !r.config.request.url.isTls()) return std::nullopt;
                if (!r.config.tls.verifyPeer) return std::string("off");
                return r.config.tls.caFile.empty() ? std::string("on") : "on (CA " + r.config.tls.caFile + ")";
            } },
        { "engine version",
            [](const RunRecord& r) -> std::optional<std::string> {
                if (r.engineVersion.empty()) return std::nullopt;
                return r.engineVersion;
            } },
        { "loader host",
            [](const RunRecord& r) -> std::optional<std::string> {
                std::string host = loaderHost(r);
                if (host.empty()) return std::nullopt;
                return host;
            } },
        { "source",
            [](const RunRecord& r) -> std::optional<std::string> {
                return std::string(imported(r) ? "imported" : "measured");
            } },
        // A wrk script decides what is sent: runs with other scripts (or none) measured other loads.
        // An imported run's log does not say which script it ran.
        { "script",
            [](const RunRecord& r) -> std::optional<std::string> {
                if (imported(r)) return std::nullopt;
                return scriptValue(r.config.script);
            } },
    };
    return all;
}

std::string runList(const std::vector<int64_t>& ids)
{
    std::string text = ids.size() == 1 ? "run " : "runs ";
    for (size_t i = 0; i < ids.size(); ++i)
        text += (i ? ", " : "") + std::to_string(ids[i]);
    return text;
}

} // namespace

const std::vector<std::string>& comparabilityFields()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& f : fields())
            out.push_back(f.first);
        out.push_back(LOADER_SATURATED_FIELD);
        return out;
    }();
    return names;
}

std::vector<FieldDifference> compareRuns(const std::vector<const RunRecord*>& runs)
{
    std::vector<FieldDifference> out;
    for (const auto& [name, valueOf] : fields()) {
        FieldDifference d { name, {} };
        for (const RunRecord* run : runs) {
            const std::optional<std::string> v = valueOf(*run);
            if (!v) continue;
            auto it = std::find_if(d.values.begin(), d.values.end(), [&](const auto& x) { return x.text == *v; });
            if (it == d.values.end())
                d.values.push_back({ *v, { run->id } });
            else
                it->runIds.push_back(run->id);
        }
        if (d.values.size() > 1) out.push_back(std::move(d));
    }
    // A run whose loader was saturated is named even when every run had one: such runs compare
    // loaders rather than targets. Runs whose loader's cost was not measured (imported, stored
    // before) are left out.
    FieldDifference saturated { LOADER_SATURATED_FIELD, {} };
    bool any = false;
    for (const RunRecord* run : runs) {
        const LoaderCost& cost = run->totals.loaderCost;
        if (!run->hasTotals || !cost.measured()) continue;
        any = any || cost.saturated();
        const std::string text = cost.saturated() ? "yes, " + describeLoaderCost(cost) : "no";
        auto it = std::find_if(
            saturated.values.begin(), saturated.values.end(), [&](const auto& x) { return x.text == text; });
        if (it == saturated.values.end())
            saturated.values.push_back({ text, { run->id } });
        else
            it->runIds.push_back(run->id);
    }
    if (any) out.push_back(std::move(saturated));
    return out;
}

std::string describeDifferences(const std::vector<FieldDifference>& differences)
{
    std::string text;
    for (const FieldDifference& d : differences) {
        if (!text.empty()) text += "; ";
        text += d.field == "source" ? std::string("imported vs measured") : d.field;
        text += " (";
        for (size_t i = 0; i < d.values.size(); ++i)
            text += (i ? "; " : "") + d.values[i].text + ": " + runList(d.values[i].runIds);
        text += ")";
    }
    return text;
}

std::string differencesSentence(const std::vector<FieldDifference>& differences, std::string_view compared)
{
    if (differences.empty()) return {};
    const bool onlySaturation = differences.size() == 1 && differences[0].field == LOADER_SATURATED_FIELD;
    return (onlySaturation ? std::string("the figures may measure the loader rather than the target: ")
                           : "the runs differ in more than the " + std::string(compared) + ": ")
        + describeDifferences(differences);
}

std::string ComparabilityWarning::text() const
{
    return (scope.empty() ? std::string() : scope + ": ") + differencesSentence(differences, "variant");
}

std::string ComparabilityWarning::fieldList() const
{
    std::string text;
    for (const FieldDifference& d : differences)
        text += (text.empty() ? "" : ", ") + (d.field == "source" ? std::string("imported vs measured") : d.field);
    return text;
}

std::vector<ComparabilityWarning> experimentComparability(const ExperimentResults& results)
{
    std::map<int64_t, const RunRecord*> byId;
    for (const RunRecord& r : results.runs)
        byId[r.id] = &r;
    // The rows come group by group and cell by cell: gather each (group, cell)'s runs in that order.
    std::vector<ComparabilityWarning> out;
    std::vector<std::pair<std::string, size_t>> seen;
    for (const ExperimentRow& row : results.rows) {
        const std::pair<std::string, size_t> key { row.group, row.cell };
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        std::vector<const RunRecord*> runs;
        std::string label;
        for (const ExperimentRow& r : results.rows) {
            if (r.group != row.group || r.cell != row.cell) continue;
            label = r.cellLabel;
            for (int64_t id : r.runIds)
                if (auto it = byId.find(id); it != byId.end()) runs.push_back(it->second);
        }
        auto differences = compareRuns(runs);
        // A plan that varies the protocol ("protocols": ["h2", "h3"]) has it as its variant.
        const bool protocolIsVariant = std::any_of(results.plan.targets.begin(), results.plan.targets.end(),
            [](const ExperimentTarget& t) { return t.protocolVariant; });
        if (protocolIsVariant)
            std::erase_if(differences, [](const FieldDifference& d) { return d.field == "protocol"; });
        if (differences.empty()) continue;
        ComparabilityWarning w;
        w.scope = row.group.empty() ? label : row.group + ", " + label;
        for (const RunRecord* r : runs)
            w.runIds.push_back(r->id);
        w.differences = std::move(differences);
        out.push_back(std::move(w));
    }
    return out;
}

} // namespace wb
