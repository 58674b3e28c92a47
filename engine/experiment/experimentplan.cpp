#include "experiment/experimentplan.h"

#include "capacity/capacityoptions.h"
#include "common/jsonint.h"
#include "common/jsontext.h"
#include "parse/quantity.h"
#include "parse/requestmix.h"
#include "run/responsenotes.h"
#include "script/luastate.h"
#include "settings/runsettings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

constexpr int FORMAT = 1;
constexpr unsigned MAX_REPETITIONS = 1000;
constexpr unsigned MAX_COUNT = 10'000'000; // as the CLI: -c10M is already far beyond one loader

// Thrown inside this file only, caught by parseExperimentPlan(): validation is a
// long chain of checks, each of which can end it, and a plan is parsed once.
struct PlanError
{
    std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& message)
{
    throw PlanError { (path.empty() ? "" : path + ": ") + message };
}

std::string member(const std::string& path, const std::string& key)
{
    return path.empty() ? key : path + "." + key;
}

std::string element(const std::string& path, size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

// The keys of "load" and of each entry of "levels": every load setting (settings/runsettings.h).
std::vector<std::string> withLoadKeys(std::vector<std::string> keys)
{
    const std::vector<std::string> load = planLoadKeys();
    keys.insert(keys.end(), load.begin(), load.end());
    return keys;
}

// A typo ("durations") is an error rather than a silently ignored key.
void checkObject(const Json& j, const std::string& path, const std::vector<std::string>& allowed)
{
    if (!j.is_object()) fail(path, "must be an object");
    for (const auto& [key, value] : j.items()) {
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        std::string list;
        for (const auto& k : allowed)
            list += (list.empty() ? "" : ", ") + k;
        fail(path, "unknown key '" + key + "' (expected one of: " + list + ")");
    }
}

std::string readString(const Json& j, const std::string& path)
{
    if (!j.is_string()) fail(path, "must be a string");
    return j.get<std::string>();
}

bool readBool(const Json& j, const std::string& path)
{
    if (!j.is_boolean()) fail(path, "must be true or false");
    return j.get<bool>();
}

// "30s", "500ms", "2m" as on the command line, or a number of seconds.
uint64_t readDurationUs(const Json& j, const std::string& path)
{
    if (j.is_string()) {
        auto us = parseDurationUs(j.get<std::string>());
        if (!us) fail(path, us.error());
        return *us;
    }
    if (j.is_number()) {
        const double s = j.get<double>();
        if (!std::isfinite(s) || s < 0 || s > 1e9)
            fail(path, "must be a duration such as \"30s\" or a number of seconds >= 0");
        return static_cast<uint64_t>(std::llround(s * 1e6));
    }
    fail(path, "must be a duration such as \"30s\" or a number of seconds");
}

// 50, or "10k" as on the command line; a whole number from 1 to MAX_COUNT.
unsigned readCount(const Json& j, const std::string& path)
{
    double v = 0;
    if (j.is_string()) {
        auto n = parseCount(j.get<std::string>());
        if (!n) fail(path, n.error());
        v = static_cast<double>(*n);
    } else if (j.is_number()) {
        v = j.get<double>();
    } else {
        fail(path, "must be a positive whole number");
    }
    if (!(v >= 1) || v != std::floor(v)) fail(path, "must be a positive whole number");
    if (v > MAX_COUNT) fail(path, "is too large (at most " + std::to_string(MAX_COUNT) + ")");
    return static_cast<unsigned>(v);
}

// A plan's value as the text its setting reads: a string as it is, a number as written (50, 0.5),
// true or false; null is the default.
std::string settingText(const Json& v, const std::string& path)
{
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer() || v.is_number_unsigned()) return jsonText(v);
    if (v.is_number()) {
        if (!std::isfinite(v.get<double>()) || v.get<double>() < 0) fail(path, "must not be negative");
        return planNumberText(v.get<double>());
    }
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_null()) return {};
    fail(path, "must be text or a number");
}

// The load settings of "load" and each entry of "levels", each read by its own entry of the table
// (as the CLI and the window read it), in the table's order.
void readLoad(const Json& j, const std::string& path, RunConfig& cfg)
{
    for (const RunSetting& setting : runSettings()) {
        if (setting.plan != PlanPlace::Load) continue;
        const std::string key(setting.key);
        if (!j.contains(key)) continue;
        const std::string at = member(path, key);
        if (Status st = setting.read(cfg, settingText(j[key], at)); !st) fail(at, st.error());
    }
}

// "requests": the mix replaces the target's one request (its headers apply to every entry).
void readMix(const Json& j, const std::string& path, ExperimentTarget& t)
{
    t.requestsPath = readString(j["requests"], member(path, "requests"));
    MixOrder order = MixOrder::RoundRobin;
    if (j.contains("mix_order")) {
        auto parsed = parseMixOrder(readString(j["mix_order"], member(path, "mix_order")));
        if (!parsed) fail(member(path, "mix_order"), parsed.error());
        order = *parsed;
    }
    uint64_t seed = 1;
    if (j.contains("seed")) {
        if (!j["seed"].is_number_unsigned()) fail(member(path, "seed"), "must be a whole number");
        seed = j["seed"].get<uint64_t>();
    }
    auto mix = loadRequestMix(t.requestsPath);
    if (!mix) fail(member(path, "requests"), mix.error());
    const Url origin = mix->origin();
    if (!origin.sameOrigin(t.request.url))
        fail(member(path, "requests"),
            "the mix goes to " + origin.toString() + ", the target's url to " + t.request.url.scheme + "://"
                + t.request.url.hostHeader() + "/");
    RunConfig cfg;
    applyRequestMix(cfg, *mix, order, seed, t.request.headers);
    t.mix = std::move(cfg.mix);
}

// "script" and "script_args": the file is read and parsed now (nothing of it runs), so that a
// plan with a broken script stops before its first run, naming the target.
void readScript(const Json& j, const std::string& path, ExperimentTarget& t)
{
    const std::string file = readString(j["script"], member(path, "script"));
    std::vector<std::string> args;
    if (j.contains("script_args")) {
        const std::string at = member(path, "script_args");
        if (!j["script_args"].is_array()) fail(at, "must be a list of strings (init(args))");
        for (size_t i = 0; i < j["script_args"].size(); ++i)
            args.push_back(readString(j["script_args"][i], element(at, i)));
    }
    if (j.contains("requests"))
        fail(member(path, "script"), "a script builds the requests itself: use \"script\" or \"requests\", not both");
    auto script = readScriptFile(file, std::move(args));
    if (!script) fail(member(path, "script"), script.error());
    if (Status st = checkScriptSyntax(*script); !st) fail(member(path, "script"), st.error());
    t.script = std::move(*script);
}

ExperimentTarget readTarget(const Json& j, const std::string& path)
{
    checkObject(j, path,
        { "name", "url", "baseline", "group", "method", "headers", "body", "insecure", "cacert", "http_version",
            "session_target_id", "requests", "mix_order", "seed", "script", "script_args", "protocols",
            "protocol_variant", "scrape" });
    ExperimentTarget t;
    if (!j.contains("name")) fail(path, "a target needs a \"name\"");
    t.name = readString(j["name"], member(path, "name"));
    if (t.name.empty()) fail(member(path, "name"), "must not be empty");
    if (!j.contains("url")) fail(path, "a target needs a \"url\"");
    auto url = parseUrl(readString(j["url"], member(path, "url")));
    if (!url) fail(member(path, "url"), url.error());
    t.request.url = *url;
    if (j.contains("method")) {
        t.request.method = readString(j["method"], member(path, "method"));
        // Checked here as well as by RunConfig::validate(), so that the error names the target.
        RunConfig probe;
        probe.request.method = t.request.method;
        if (auto st = probe.validate(); !st) fail(member(path, "method"), st.error());
    }
    if (j.contains("headers")) {
        const std::string at = member(path, "headers");
        if (!j["headers"].is_array()) fail(at, "must be a list of \"Name: value\" strings");
        for (size_t i = 0; i < j["headers"].size(); ++i) {
            auto header = parseHeader(readString(j["headers"][i], element(at, i)));
            if (!header) fail(element(at, i), header.error());
            t.request.headers.push_back(*header);
        }
    }
    if (j.contains("body")) t.request.body = readString(j["body"], member(path, "body"));
    if (j.contains("insecure")) t.tls.verifyPeer = !readBool(j["insecure"], member(path, "insecure"));
    if (j.contains("cacert")) t.tls.caFile = readString(j["cacert"], member(path, "cacert"));
    if (j.contains("http_version")) {
        auto version = parseHttpVersion(readString(j["http_version"], member(path, "http_version")));
        if (!version) fail(member(path, "http_version"), version.error());
        t.httpVersion = *version;
    }
    if (j.contains("protocol_variant"))
        t.protocolVariant = readBool(j["protocol_variant"], member(path, "protocol_variant"));
    if (j.contains("requests")) readMix(j, path, t);
    if (j.contains("script")) readScript(j, path, t);
    if (j.contains("baseline")) t.baseline = readBool(j["baseline"], member(path, "baseline"));
    if (j.contains("group")) {
        t.group = readString(j["group"], member(path, "group"));
        if (t.group.empty()) fail(member(path, "group"), "a group needs a name (leave \"group\" out for none)");
    }
    if (j.contains("scrape")) {
        // The same JSON a target keeps in the session (metrics/scraperecord.h owns it).
        auto spec = scrapeSpecFromJson(nlohmann::json(j["scrape"]));
        if (!spec) fail(member(path, "scrape"), spec.error());
        t.scrape = *spec;
    }
    if (j.contains("session_target_id")) {
        const auto id = jsonInt64(j["session_target_id"]);
        if (!id || *id < 0) fail(member(path, "session_target_id"), "must be a target id");
        t.sessionTargetId = *id;
    }
    return t;
}

// "protocols": ["h2", "h3"]: the same front door over each protocol, one target per protocol
// ("NAME h2", "NAME h3"), so the protocol is the experiment's variant. The first is the baseline
// when the target was (or when no target is). The canonical form writes the expanded targets,
// each with its "http_version" and "protocol_variant": true.
std::vector<ExperimentTarget> expandProtocols(const Json& j, ExperimentTarget t, const std::string& path)
{
    if (!j.contains("protocols")) return { std::move(t) };
    const std::string at = member(path, "protocols");
    if (j.contains("http_version")) fail(at, "give either \"protocols\" or \"http_version\"");
    if (!j["protocols"].is_array() || j["protocols"].size() < 2)
        fail(at, "must list at least two protocols, e.g. [\"h2\", \"h3\"]");
    std::vector<ExperimentTarget> out;
    for (size_t i = 0; i < j["protocols"].size(); ++i) {
        auto version = parseHttpVersion(readString(j["protocols"][i], element(at, i)));
        if (!version) fail(element(at, i), version.error());
        for (const ExperimentTarget& seen : out)
            if (seen.httpVersion == *version) fail(element(at, i), "is listed twice");
        ExperimentTarget v = t;
        v.name = t.name + " " + httpVersionId(*version);
        v.httpVersion = *version;
        v.protocolVariant = true;
        v.baseline = t.baseline && i == 0;
        v.sessionTargetId = 0;
        out.push_back(std::move(v));
    }
    return out;
}

std::string defaultLabel(const RunConfig& c)
{
    std::string label = "t" + std::to_string(c.threads) + " c" + std::to_string(c.connections);
    if (c.ratePerS > 0) label += " R" + planNumberText(c.ratePerS);
    return label;
}

double axisValueOf(const std::string& axis, const RunConfig& c, size_t index)
{
    if (axis == "connections") return c.connections;
    if (axis == "threads") return c.threads;
    if (axis == "rate") return c.ratePerS;
    return static_cast<double>(index + 1);
}

std::string sweepableKeys()
{
    std::string list;
    for (const RunSetting& s : runSettings())
        if (s.sweepable) list += (list.empty() ? "" : ", ") + std::string(s.key);
    return list;
}

std::vector<LoadLevel> readSweep(const Json& j, const RunConfig& base, std::string& axis)
{
    const std::string path = "sweep";
    checkObject(j, path, { "axis", "values", "match_threads" });
    if (!j.contains("axis")) fail(path, "a sweep needs an \"axis\": one of " + sweepableKeys());
    axis = readString(j["axis"], member(path, "axis"));
    const RunSetting* setting = findRunSetting(axis);
    if (!setting || !setting->sweepable)
        fail(member(path, "axis"), "must be one of " + sweepableKeys() + " (not '" + axis + "')");
    bool matchThreads = false;
    if (j.contains("match_threads")) {
        matchThreads = readBool(j["match_threads"], member(path, "match_threads"));
        if (matchThreads && axis != "connections")
            fail(member(path, "match_threads"), "applies only to a sweep of connections");
    }
    if (!j.contains("values") || !j["values"].is_array() || j["values"].empty())
        fail(member(path, "values"), "must be a non-empty list");
    std::vector<LoadLevel> levels;
    for (size_t i = 0; i < j["values"].size(); ++i) {
        const std::string at = element(member(path, "values"), i);
        LoadLevel level;
        level.load = base;
        if (Status st = setting->read(level.load, settingText(j["values"][i], at)); !st) fail(at, st.error());
        if (axis == "rate" && level.load.ratePerS <= 0) fail(at, "a rate level must be greater than zero");
        if (matchThreads) level.load.threads = level.load.connections;
        level.label = sweepLevelLabel(axis, level.load);
        levels.push_back(level);
    }
    return levels;
}

std::vector<LoadLevel> readLevels(const Json& j, const RunConfig& base)
{
    if (!j.is_array() || j.empty()) fail("levels", "must be a non-empty list of load levels");
    std::vector<LoadLevel> levels;
    for (size_t i = 0; i < j.size(); ++i) {
        const std::string path = element("levels", i);
        checkObject(j[i], path, withLoadKeys({ "label" }));
        LoadLevel level;
        level.load = base;
        readLoad(j[i], path, level.load);
        level.label = j[i].contains("label") ? readString(j[i]["label"], member(path, "label")) : "";
        if (level.label.empty()) level.label = defaultLabel(level.load);
        levels.push_back(level);
    }
    return levels;
}

// "slo": a list of expressions as --slo takes them (one string alone is a list of one).
std::vector<Slo> readSlos(const Json& j)
{
    if (j.is_string()) return readSlos(Json::array({ j }));
    if (!j.is_array()) fail("slo", "must be a list of thresholds such as [\"p99<250ms\", \"errors<0.1%\"]");
    std::vector<Slo> slos;
    for (size_t i = 0; i < j.size(); ++i) {
        auto slo = parseSlo(readString(j[i], element("slo", i)));
        if (!slo) fail(element("slo", i), slo.error());
        if (std::any_of(slos.begin(), slos.end(), [&](const Slo& s) { return s.expr == slo->expr; }))
            fail(element("slo", i), "'" + slo->expr + "' is given twice");
        slos.push_back(*slo);
    }
    return slos;
}

// The path that names level i in errors: where the user wrote it.
std::string levelPath(const Json& root, size_t i)
{
    if (root.contains("sweep")) return element("sweep.values", i);
    if (root.contains("levels")) return element("levels", i);
    return "load";
}

// "search": the capacity search's SLOs and options, each option read as the CLI's flag reads it.
PlanSearch readSearch(const Json& j, const ExperimentPlan& plan)
{
    std::vector<std::string> keys { "slo" };
    for (const CapacityOption& o : capacityOptions())
        keys.emplace_back(o.key);
    checkObject(j, "search", keys);
    PlanSearch search;
    if (!j.contains("slo"))
        fail("search.slo", "a search needs its SLOs: the capacity is the most load that keeps them");
    search.slos = readSlos(j["slo"]);
    if (search.slos.empty()) fail("search.slo", "give at least one SLO");
    CapacityOptions options;
    for (const CapacityOption& o : capacityOptions()) {
        const std::string key(o.key);
        if (!j.contains(key)) continue;
        const std::string at = member("search", key);
        const std::string text = settingText(j[key], at);
        if (Status st = o.read(options, text); !st) fail(at, st.error());
        search.options.emplace_back(key, text);
    }
    if (Status st = options.validate(); !st) fail("search", st.error());
    // The search sets the rate and the length of each trial: a plan's own would be ignored.
    if (plan.levels.size() != 1) fail("search", "goes with one load (\"load\"), not \"sweep\" or several \"levels\"");
    const RunConfig& load = plan.levels.front().load;
    if (load.ratePerS > 0 || !load.stages.empty())
        fail("search", "the search sets each trial's rate: give no \"rate\" or \"stages\" in \"load\"");
    if (load.responses > 0)
        fail("search", "a trial lasts its length (\"trial\", \"final\"): give no \"responses\" in \"load\"");
    return search;
}

ExperimentPlan readPlan(const Json& root)
{
    checkObject(root, "",
        { "format", "name", "description", "targets", "load", "sweep", "levels", "axis", "repetitions", "duration",
            "warmup", "cooldown", "order", "slo", "slo_abort", "metrics", "search" });
    ExperimentPlan plan;
    if (root.contains("format")) {
        if (!root["format"].is_number_integer() || root["format"].get<int>() != FORMAT)
            fail("format", "this version of wrkbench reads plan format " + std::to_string(FORMAT));
    }
    if (root.contains("name")) plan.name = readString(root["name"], "name");
    if (root.contains("description")) {
        // A string, or a list of strings (one a line: JSON has no multi-line strings).
        const Json& d = root["description"];
        if (d.is_array()) {
            for (size_t i = 0; i < d.size(); ++i)
                plan.description += (i ? "\n" : "") + readString(d[i], element("description", i));
        } else {
            plan.description = readString(d, "description");
        }
    }

    if (!root.contains("targets") || !root["targets"].is_array())
        fail("targets", "must be a list of targets ({\"name\": ..., \"url\": ...})");
    std::set<std::string> names;
    for (size_t i = 0; i < root["targets"].size(); ++i) {
        const Json& j = root["targets"][i];
        for (ExperimentTarget& t : expandProtocols(j, readTarget(j, element("targets", i)), element("targets", i))) {
            plan.targets.push_back(std::move(t));
            if (!names.insert(plan.targets.back().name).second)
                fail(element("targets", i) + ".name", "'" + plan.targets.back().name + "' is used twice");
        }
    }
    // A capacity search may measure one front door; an experiment compares at least two.
    if (root.contains("search") ? plan.targets.empty() : plan.targets.size() < 2)
        fail("targets",
            root.contains("search") ? "a search needs a target"
                                    : "an experiment needs at least two targets to compare");
    // Groups are blocks with a baseline each (frameworks, cluster sizes): every target has one, or none does.
    for (size_t i = 1; i < plan.targets.size(); ++i)
        if (plan.targets[i].group.empty() != plan.targets.front().group.empty())
            fail(element("targets", plan.targets[i].group.empty() ? i : 0),
                "has no \"group\" while other targets have one: give every target a group, or none");
    for (const std::string& group : plan.groups().empty() ? std::vector<std::string> { "" } : plan.groups()) {
        size_t baselines = 0, first = plan.targets.size();
        for (size_t i = 0; i < plan.targets.size(); ++i) {
            if (plan.targets[i].group != group) continue;
            baselines += plan.targets[i].baseline ? 1 : 0;
            first = std::min(first, i);
        }
        if (baselines > 1)
            fail("targets",
                group.empty() ? "only one target can be the baseline"
                              : "group '" + group + "' has " + std::to_string(baselines)
                        + " baselines: one target per group can be the baseline");
        if (baselines == 0) plan.targets[first].baseline = true; // the first one, as documented
    }

    RunConfig base;
    if (root.contains("load")) {
        checkObject(root["load"], "load", planLoadKeys());
        readLoad(root["load"], "load", base);
    }
    if (root.contains("sweep") && root.contains("levels"))
        fail("", "give either \"sweep\" (one axis swept) or \"levels\" (a list of load levels), not both");
    if (root.contains("axis") && !root.contains("levels")) fail("axis", "goes with \"levels\" (use \"sweep\" instead)");
    if (root.contains("sweep")) {
        plan.levels = readSweep(root["sweep"], base, plan.axis);
    } else if (root.contains("levels")) {
        plan.levels = readLevels(root["levels"], base);
        if (root.contains("axis")) {
            plan.axis = readString(root["axis"], "axis");
            if (const RunSetting* axisSetting = findRunSetting(plan.axis);
                !plan.axis.empty() && (!axisSetting || !axisSetting->sweepable))
                fail("axis", "must be one of " + sweepableKeys());
        }
    } else {
        plan.levels.push_back(LoadLevel { defaultLabel(base), 1, base });
    }
    for (size_t i = 0; i < plan.levels.size(); ++i)
        plan.levels[i].axisValue = axisValueOf(plan.axis, plan.levels[i].load, i);
    std::set<std::string> labels;
    for (size_t i = 0; i < plan.levels.size(); ++i)
        if (!labels.insert(plan.levels[i].label).second)
            fail(levelPath(root, i), "the level '" + plan.levels[i].label + "' appears twice");

    if (root.contains("repetitions")) {
        plan.repetitions = readCount(root["repetitions"], "repetitions");
        if (plan.repetitions > MAX_REPETITIONS) fail("repetitions", "at most " + std::to_string(MAX_REPETITIONS));
    }
    if (root.contains("duration")) plan.durationUs = readDurationUs(root["duration"], "duration");
    if (root.contains("warmup")) plan.warmupUs = readDurationUs(root["warmup"], "warmup");
    if (root.contains("cooldown")) plan.cooldownUs = readDurationUs(root["cooldown"], "cooldown");
    if (root.contains("order")) {
        const std::string order = readString(root["order"], "order");
        if (order == "interleaved")
            plan.order = ExperimentOrder::Interleaved;
        else if (order == "sequential")
            plan.order = ExperimentOrder::Sequential;
        else
            fail("order", "must be \"interleaved\" or \"sequential\" (not '" + order + "')");
    }

    if (root.contains("slo")) plan.slos = readSlos(root["slo"]);
    if (root.contains("search")) plan.search = readSearch(root["search"], plan);
    if (root.contains("slo_abort"))
        fail("slo_abort",
            "not for experiments: a run stopped early is not counted (a resume would make it again); "
            "the SLOs judge every run when it ends");
    if (root.contains("metrics")) {
        const Json& m = root["metrics"];
        if (!m.is_array()) fail("metrics", "must be a list of metric names (" + runMetricNames() + ")");
        for (size_t i = 0; i < m.size(); ++i) {
            const std::string at = element("metrics", i);
            const std::string name = readString(m[i], at);
            const auto metric = runMetricFromName(name);
            if (!metric) fail(at, "'" + name + "' is no metric; the metrics are " + runMetricNames());
            if (std::find(plan.metrics.begin(), plan.metrics.end(), *metric) != plan.metrics.end())
                fail(at, "'" + name + "' is given twice");
            // A metric the runs cannot measure would be an empty column: refused before the first run.
            const RunMetricInfo& info = runMetricInfo(*metric);
            for (size_t cell = 0; cell < plan.levels.size(); ++cell) {
                const RunConfig& load = plan.levels[cell].load;
                if (info.needsBackends ? !load.backendFrom.enabled() : !load.upstreamTime.enabled())
                    fail(at,
                        "'" + name + "' needs \"" + (info.needsBackends ? "backend_from" : "upstream_time")
                            + "\" in \"load\" (or in every level)");
            }
            plan.metrics.push_back(*metric);
        }
    }

    // Everything a run would refuse, refused now rather than half-way through.
    if (plan.durationUs < 100'000) fail("duration", "must be at least 100ms");
    for (size_t cell = 0; cell < plan.levels.size(); ++cell)
        if (auto st = plan.runConfig(cell, 0).validate(); !st) fail(levelPath(root, cell), st.error());
    // An SLO may suit one target and not another (tls_ on an http:// target): each is checked.
    for (size_t t = 1; t < plan.targets.size(); ++t)
        for (size_t cell = 0; cell < plan.levels.size(); ++cell)
            if (auto st = plan.runConfig(cell, t).validate(); !st) fail(element("targets", t), st.error());
    return plan;
}

} // namespace

std::string planDurationText(uint64_t us)
{
    if (us >= 60'000'000 && us % 60'000'000 == 0) return std::to_string(us / 60'000'000) + "m";
    if (us % 1'000'000 == 0) return std::to_string(us / 1'000'000) + "s";
    if (us % 1'000 == 0) return std::to_string(us / 1'000) + "ms";
    return std::to_string(us) + "us";
}

std::string sweepLevelLabel(const std::string& axis, const RunConfig& load)
{
    if (axis == "connections") return "c" + std::to_string(load.connections);
    if (axis == "threads") return "t" + std::to_string(load.threads);
    if (axis == "rate") return "R" + planNumberText(load.ratePerS);
    const RunSetting* setting = findRunSetting(axis);
    if (!setting) return axis;
    const std::string text = setting->text(load);
    // Churn's off is the keep-alive it is compared with.
    if (text.empty()) return axis == "conn_requests" || axis == "conn_lifetime" ? "keep-alive" : axis + " off";
    return axis + " " + text;
}

std::string wallTimeText(double seconds)
{
    const long total = std::lround(std::max(0.0, seconds));
    char buf[32];
    if (total >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", total / 3600, (total % 3600) / 60);
    else if (total >= 60)
        std::snprintf(buf, sizeof buf, "%ldm%02lds", total / 60, total % 60);
    else
        std::snprintf(buf, sizeof buf, "%lds", total);
    return buf;
}

std::string planSummaryText(const ExperimentPlan& plan)
{
    std::string baselines;
    for (const auto& t : plan.targets)
        if (t.baseline) baselines += (baselines.empty() ? "" : ", ") + t.name;
    const size_t groups = plan.groups().size();
    std::string out = std::to_string(plan.targets.size()) + " targets";
    if (groups) out += " in " + std::to_string(groups) + " groups";
    out += (groups ? " (baselines " : " (baseline ") + baselines + "), " + std::to_string(plan.levels.size())
        + (plan.levels.size() == 1 ? " level, " : " levels, ") + std::to_string(plan.repetitions)
        + (plan.repetitions == 1 ? " repetition: " : " repetitions: ") + std::to_string(plan.runCount()) + " runs of "
        + planDurationText(plan.durationUs)
        + (plan.warmupUs ? " (+" + planDurationText(plan.warmupUs) + " warm-up)" : "") + ", "
        + experimentOrderName(plan.order) + ", about "
        + wallTimeText(static_cast<double>(plan.plannedDurationUs()) / 1e6);
    return out;
}

uint64_t ExperimentPlan::plannedDurationUs() const
{
    const uint64_t runs = runCount();
    return runs * (warmupUs + durationUs) + (runs > 0 ? runs - 1 : 0) * cooldownUs;
}

const char* experimentOrderName(ExperimentOrder order)
{
    return order == ExperimentOrder::Sequential ? "sequential" : "interleaved";
}

size_t ExperimentPlan::baselineIndex() const
{
    return targets.empty() ? 0 : baselineOf(0);
}

size_t ExperimentPlan::baselineOf(size_t target) const
{
    const std::string& group = targets.at(target).group;
    for (size_t i = 0; i < targets.size(); ++i)
        if (targets[i].group == group && targets[i].baseline) return i;
    // None marked: the group's first target.
    for (size_t i = 0; i < targets.size(); ++i)
        if (targets[i].group == group) return i;
    return 0;
}

std::vector<std::string> ExperimentPlan::groups() const
{
    std::vector<std::string> out;
    for (const auto& t : targets)
        if (!t.group.empty() && std::find(out.begin(), out.end(), t.group) == out.end()) out.push_back(t.group);
    return out;
}

RunConfig ExperimentPlan::runConfig(size_t cell, size_t target) const
{
    RunConfig c = levels.at(cell).load.withHttpVersion(targets.at(target).httpVersion);
    c.request = targets.at(target).request;
    if (!targets.at(target).mix.empty()) {
        c.mix = targets.at(target).mix;
        c.request = c.mix.entries.front().request;
    }
    c.tls = targets.at(target).tls;
    c.script = targets.at(target).script;
    c.durationUs = durationUs;
    c.warmupUs = warmupUs;
    c.stages.clear();
    c.slos = slos;
    return c;
}

std::vector<ScheduledRun> ExperimentPlan::schedule() const
{
    std::vector<ScheduledRun> out;
    out.reserve(runCount());
    for (size_t cell = 0; cell < levels.size(); ++cell) {
        if (order == ExperimentOrder::Interleaved) {
            for (unsigned rep = 0; rep < repetitions; ++rep)
                for (size_t t = 0; t < targets.size(); ++t)
                    out.push_back({ cell, t, rep });
        } else {
            for (size_t t = 0; t < targets.size(); ++t)
                for (unsigned rep = 0; rep < repetitions; ++rep)
                    out.push_back({ cell, t, rep });
        }
    }
    return out;
}

Result<ExperimentPlan> parseExperimentPlan(const std::string& json)
{
    // parse_error, out_of_range for a number past double's range, and a nesting no plan has
    auto parsed = parseJsonText<Json>(json);
    if (!parsed) return Error { "the plan is not valid JSON: " + parsed.error() };
    const Json root = std::move(*parsed);
    try {
        return readPlan(root);
    } catch (const PlanError& e) {
        return Error { e.message };
    } catch (const Json::exception& e) { // a type the checks above did not expect
        return Error { std::string("the plan could not be read: ") + e.what() };
    }
}

std::string experimentPlanToJson(const ExperimentPlan& plan, int indent)
{
    Json root;
    root["format"] = FORMAT;
    root["name"] = plan.name;
    if (!plan.description.empty()) root["description"] = plan.description;
    Json targets = Json::array();
    for (const auto& t : plan.targets) {
        Json j;
        j["name"] = t.name;
        j["url"] = t.request.url.displayText();
        j["baseline"] = t.baseline;
        if (!t.group.empty()) j["group"] = t.group;
        j["method"] = t.request.method;
        Json headers = Json::array();
        for (const auto& h : t.request.headers)
            headers.push_back(h.name + ": " + h.value);
        j["headers"] = headers;
        j["body"] = t.request.body;
        j["insecure"] = !t.tls.verifyPeer;
        j["cacert"] = t.tls.caFile;
        if (t.httpVersion != HttpVersion::Http1) j["http_version"] = httpVersionId(t.httpVersion);
        if (t.protocolVariant) j["protocol_variant"] = true;
        if (t.sessionTargetId) j["session_target_id"] = t.sessionTargetId;
        if (t.scrape.enabled()) j["scrape"] = Json(scrapeSpecToJson(t.scrape));
        if (!t.requestsPath.empty()) {
            j["requests"] = t.requestsPath;
            j["mix_order"] = mixOrderId(t.mix.order);
            j["seed"] = t.mix.seed;
        }
        if (!t.script.empty()) {
            j["script"] = t.script.name;
            j["script_args"] = t.script.args;
        }
        targets.push_back(j);
    }
    root["targets"] = targets;
    if (!plan.axis.empty()) root["axis"] = plan.axis;
    Json levels = Json::array();
    for (const auto& level : plan.levels) {
        // Every load setting (settings/runsettings.h); the usual ones always, the others only when
        // set, so the canonical form of a plan without them stays as it was. Counts as numbers.
        const RunConfig& c = level.load;
        Json l { { "label", level.label } };
        for (const RunSetting& setting : runSettings()) {
            if (setting.plan != PlanPlace::Load) continue;
            const std::string key(setting.key);
            const bool usual = key == "threads" || key == "connections" || key == "pipeline" || key == "streams"
                || key == "rate" || key == "timeout" || key == "connect_timeout" || key == "interval";
            if (!usual && setting.isDefault(c)) continue;
            const std::string text = setting.text(c);
            const bool number = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos;
            auto parsed = number ? parseJsonText<Json>(text) : Result<Json> { Error { "" } };
            if (key == "rate" && text.empty())
                l[key] = 0;
            else if (parsed)
                l[key] = std::move(*parsed);
            else
                l[key] = text;
        }
        levels.push_back(std::move(l));
    }
    root["levels"] = levels;
    root["repetitions"] = plan.repetitions;
    root["duration"] = planDurationText(plan.durationUs);
    root["warmup"] = planDurationText(plan.warmupUs);
    root["cooldown"] = planDurationText(plan.cooldownUs);
    root["order"] = experimentOrderName(plan.order);
    // Only when set: the canonical form of a plan without SLOs stays as it was.
    if (!plan.slos.empty()) {
        Json slos = Json::array();
        for (const Slo& slo : plan.slos)
            slos.push_back(slo.expr);
        root["slo"] = slos;
    }
    if (plan.search) {
        Json search = Json::object();
        Json slos = Json::array();
        for (const Slo& slo : plan.search->slos)
            slos.push_back(slo.expr);
        search["slo"] = slos;
        for (const auto& [key, text] : plan.search->options)
            search[key] = text;
        root["search"] = search;
    }
    if (!plan.metrics.empty()) {
        Json metrics = Json::array();
        for (RunMetric m : plan.metrics)
            metrics.push_back(runMetricInfo(m).name);
        root["metrics"] = metrics;
    }
    return jsonText(root, indent);
}

std::string planNumberText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

} // namespace wb
