#include "capacity/capacityrecord.h"

#include "common/jsontext.h"
#include "wire/configcodec.h"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

/// Definitions the window or the CLI wrote hold a few targets; this bounds a hostile file's.
constexpr size_t MAX_TARGETS = 64;

} // namespace

std::vector<CapacitySearch> CapacityDefinition::searches() const
{
    std::vector<CapacitySearch> out;
    out.reserve(targets.size());
    for (const CapacityTargetDefinition& t : targets) {
        CapacityOptions own = options;
        own.fromPerS = t.fromPerS;
        out.emplace_back(own);
    }
    return out;
}

std::string capacityDefinitionToJson(const CapacityDefinition& d)
{
    Json options = Json::object();
    for (const CapacityOption& o : capacityOptions())
        if (std::string text = o.text(d.options); !text.empty()) // "" is "derived" (--from): the target's own
            options[std::string(o.key)] = std::move(text);
    Json targets = Json::array();
    for (const CapacityTargetDefinition& t : d.targets) {
        targets.push_back(Json { { "label", t.label }, { "url", t.url },
            { "config", parseJsonTextOrDiscarded<Json>(runConfigToJson(t.config)) },
            { "rest_latency_us", t.restLatencyUs }, { "from_per_s", t.fromPerS } });
        if (t.sessionTargetId > 0) targets.back()["session_target_id"] = t.sessionTargetId;
    }
    Json out { { "kind", "capacity" }, { "options", std::move(options) }, { "targets", std::move(targets) } };
    if (d.scrape.enabled()) out["scrape"] = parseJsonTextOrDiscarded<Json>(jsonText(scrapeSpecToJson(d.scrape)));
    return jsonText(out);
}

Result<CapacityDefinition> capacityDefinitionFromJson(const std::string& text)
{
    auto parsed = parseJsonText<Json>(text);
    if (!parsed) return Error { "the search's definition is not JSON: " + parsed.error() };
    const Json& j = *parsed;
    if (!j.is_object() || j.value("kind", "") != "capacity") return Error { "not a capacity search's definition" };
    CapacityDefinition d;
    if (j.contains("options") && j["options"].is_object())
        for (const auto& [key, value] : j["options"].items())
            for (const CapacityOption& o : capacityOptions())
                if (o.key == key) {
                    if (!value.is_string()) return Error { "the search's option '" + key + "' is not text" };
                    if (Status st = o.read(d.options, value.get<std::string>()); !st)
                        return Error { "the search's option '" + key + "': " + st.error() };
                }
    if (Status st = d.options.validate(); !st) return Error { "the search's options: " + st.error() };
    if (j.contains("scrape")) {
        auto scrape = scrapeSpecFromJson(parseJsonTextOrDiscarded<nlohmann::json>(jsonText(j["scrape"])));
        if (!scrape) return Error { "the search's --scrape: " + scrape.error() };
        d.scrape = std::move(*scrape);
    }
    if (!j.contains("targets") || !j["targets"].is_array() || j["targets"].empty() || j["targets"].size() > MAX_TARGETS)
        return Error { fmt::format("the search's definition needs 1 to {} targets", MAX_TARGETS) };
    for (const Json& t : j["targets"]) {
        if (!t.is_object() || !t.contains("config") || !t["config"].is_object())
            return Error { "a target of the search has no configuration" };
        // A session file is untrusted: a field of another type is refused, never thrown on.
        const auto textOf = [&t](const char* key) -> std::optional<std::string> {
            auto it = t.find(key);
            if (it == t.end()) return std::string();
            if (!it->is_string()) return std::nullopt;
            return it->get<std::string>();
        };
        const auto numberOf = [&t](const char* key) -> std::optional<double> {
            auto it = t.find(key);
            if (it == t.end()) return 0.0;
            if (!it->is_number()) return std::nullopt;
            return it->get<double>();
        };
        CapacityTargetDefinition target;
        const auto label = textOf("label"), url = textOf("url");
        const auto rest = numberOf("rest_latency_us"), from = numberOf("from_per_s");
        if (!label || !url || !rest || !from) return Error { "a target of the search has a field of the wrong type" };
        target.label = *label;
        target.url = *url;
        auto config = runConfigFromJson(jsonText(t["config"]));
        if (!config) return Error { "target '" + target.label + "': " + config.error() };
        target.config = std::move(*config);
        target.restLatencyUs = *rest;
        target.fromPerS = *from;
        if (auto id = t.find("session_target_id"); id != t.end()) {
            if (!id->is_number_integer() || id->get<int64_t>() <= 0)
                return Error { "target '" + target.label + "': its session target is not an id" };
            target.sessionTargetId = id->get<int64_t>();
        }
        if (!std::isfinite(target.restLatencyUs) || target.restLatencyUs < 0 || !std::isfinite(target.fromPerS)
            || target.fromPerS < d.options.minPerS || target.fromPerS > d.options.toPerS)
            return Error { "target '" + target.label + "': its rest latency or first rate is out of range" };
        d.targets.push_back(std::move(target));
    }
    return d;
}

CapacityTrialRow capacityTrialRow(int target, const CapacityTrial& trial, const TrialOutcome& outcome)
{
    CapacityTrialRow row;
    row.target = target;
    row.runId = outcome.runId;
    row.ratePerS = trial.ratePerS;
    row.durationUs = trial.durationUs;
    row.final = trial.final;
    row.passed = outcome.passed;
    row.loaderLimited = outcome.loaderLimited;
    row.loaderReason = outcome.loaderReason;
    row.failedSlo = outcome.failedSlo;
    row.sloJson = sloVerdictsToJson(outcome.slo);
    row.elapsedS = outcome.elapsedS;
    return row;
}

Status replayCapacityTrials(std::vector<CapacitySearch>& searches, const std::vector<CapacityTrialRow>& trials)
{
    for (size_t i = 0; i < trials.size(); ++i) {
        const CapacityTrialRow& row = trials[i];
        const auto wrong = [&](const std::string& why) {
            return Error { fmt::format(
                "stored trial {} ({} req/s) {}: the search cannot go on from it", i + 1, rateText(row.ratePerS), why) };
        };
        if (row.target < 0 || static_cast<size_t>(row.target) >= searches.size()) return wrong("names no target");
        CapacitySearch& search = searches[static_cast<size_t>(row.target)];
        const auto next = search.next();
        if (!next) return wrong("comes after its target's search ended");
        if (next->ratePerS != row.ratePerS || next->durationUs != row.durationUs || next->final != row.final)
            return wrong(fmt::format("is not the trial the search asked for ({} req/s for {} us)",
                rateText(next->ratePerS), next->durationUs));
        TrialOutcome outcome;
        outcome.passed = row.passed;
        outcome.loaderLimited = row.loaderLimited;
        outcome.loaderReason = row.loaderReason;
        outcome.failedSlo = row.failedSlo;
        outcome.slo = sloVerdictsFromJson(row.sloJson);
        outcome.runId = row.runId;
        outcome.elapsedS = std::isfinite(row.elapsedS) && row.elapsedS >= 0 ? row.elapsedS : 0;
        search.record(outcome);
    }
    return {};
}

} // namespace wb
