#include "settings/runsettings.h"

#include "common/jsonfield.h"
#include "net/address.h"
#include "parse/placement.h"
#include "parse/quantity.h"
#include "parse/stageparse.h"
#include "run/responsenotes.h"
#include "run/slo.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

std::string trimmed(const std::string& s)
{
    const auto begin = s.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) return {};
    return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

// ---- settings of a kind, over a member of RunConfig ----

// A whole number from LOW to HIGH ("10", "10k"), stored under the same key.
template<auto Member, uint64_t LOW, uint64_t HIGH> struct CountSetting
{
    static Status read(RunConfig& c, const std::string& text)
    {
        using T = std::remove_reference_t<decltype(c.*Member)>;
        if (trimmed(text).empty()) {
            c.*Member = RunConfig {}.*Member;
            return {};
        }
        auto n = parseCount(trimmed(text));
        if (!n) return Error { n.error() };
        if (*n < LOW || *n > HIGH) return Error { fmt::format("must be between {} and {}", LOW, HIGH) };
        c.*Member = static_cast<T>(*n);
        return {};
    }
    static std::string text(const RunConfig& c) { return std::to_string(c.*Member); }
};

// A duration ("2s", "500ms"), stored in microseconds under "<key>_us".
template<auto Member, uint64_t LOW_US, uint64_t HIGH_US> struct DurationSetting
{
    static Status read(RunConfig& c, const std::string& text)
    {
        if (trimmed(text).empty()) {
            c.*Member = RunConfig {}.*Member;
            return {};
        }
        auto us = parseDurationUs(trimmed(text));
        if (!us) return Error { us.error() };
        if (*us < LOW_US)
            return Error { LOW_US == 1 ? std::string("must be greater than zero")
                                       : "must be at least " + durationText(LOW_US) };
        if (*us > HIGH_US) return Error { "must be at most " + durationText(HIGH_US) };
        c.*Member = *us;
        return {};
    }
    static std::string text(const RunConfig& c) { return durationText(c.*Member); }
};

constexpr uint64_t DAY_US = 86'400'000'000;
constexpr uint64_t YEAR_US = 365 * DAY_US;

// ---- each setting ----

Status readRate(RunConfig& c, const std::string& text)
{
    c.ratePerS = 0;
    if (trimmed(text).empty() || trimmed(text) == "0") return {};
    auto n = parseCount(trimmed(text));
    if (!n) return Error { n.error() };
    if (*n > 100'000'000) return Error { text + " is more than 100M requests/s" };
    c.ratePerS = static_cast<double>(*n);
    return {};
}
std::string rateText(const RunConfig& c)
{
    if (c.ratePerS <= 0) return {};
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.15g", c.ratePerS);
    return buffer;
}

Status readStages(RunConfig& c, const std::string& text)
{
    c.stages.clear();
    c.stagesAreConnections = false;
    if (trimmed(text).empty()) return {};
    auto plan = parseStages(trimmed(text));
    if (!plan) return Error { plan.error() };
    c.stages = plan->stages;
    c.stagesAreConnections = plan->connections;
    return {};
}
std::string stagesText(const RunConfig& c)
{
    std::string out;
    for (const Stage& s : c.stages) {
        if (!out.empty()) out += ',';
        char target[32];
        std::snprintf(target, sizeof target, "%.15g", s.target);
        out += durationText(s.durationUs) + ":" + target + (c.stagesAreConnections ? "c" : "");
    }
    return out;
}

// SLOs: a comma-separated list (the CLI's repeated --slo arrive joined with commas).
Status readSlos(RunConfig& c, const std::string& text)
{
    c.slos.clear();
    size_t begin = 0;
    while (begin <= text.size()) {
        size_t end = text.find(',', begin);
        if (end == std::string::npos) end = text.size();
        const std::string part = trimmed(text.substr(begin, end - begin));
        begin = end + 1;
        if (part.empty()) continue;
        auto slo = parseSlo(part);
        if (!slo) return Error { slo.error() };
        if (std::any_of(c.slos.begin(), c.slos.end(), [&](const Slo& s) { return s.expr == slo->expr; }))
            return Error { "'" + slo->expr + "' is given twice" };
        c.slos.push_back(*slo);
    }
    return {};
}
std::string slosText(const RunConfig& c)
{
    std::string out;
    for (const Slo& s : c.slos)
        out += (out.empty() ? "" : ", ") + s.expr;
    return out;
}

Status readFlag(bool& out, const std::string& text)
{
    const std::string t = trimmed(text);
    if (t.empty() || t == "false" || t == "0" || t == "no" || t == "off") {
        out = false;
        return {};
    }
    if (t == "true" || t == "1" || t == "yes" || t == "on") {
        out = true;
        return {};
    }
    return Error { "'" + text + "' is not yes or no (true or false)" };
}

// As --backend-from reads it; the limit of names (--max-backends) is a setting of its own.
Status readBackendFrom(RunConfig& c, const std::string& text)
{
    const unsigned limit = c.backendFrom.maxBackends;
    c.backendFrom = {};
    c.backendFrom.maxBackends = limit;
    if (trimmed(text).empty()) return {};
    auto spec = parseBackendFrom(trimmed(text));
    if (!spec) return Error { spec.error() };
    c.backendFrom = *spec;
    c.backendFrom.maxBackends = limit;
    return {};
}

Status readMaxBackends(RunConfig& c, const std::string& text)
{
    if (trimmed(text).empty()) {
        c.backendFrom.maxBackends = DEFAULT_MAX_BACKENDS;
        return {};
    }
    auto n = parseCount(trimmed(text));
    if (!n) return Error { n.error() };
    if (*n < 1 || *n > 4096) return Error { "use 1 to 4096 backends" };
    c.backendFrom.maxBackends = static_cast<unsigned>(*n);
    return {};
}

Status readUpstreamTime(RunConfig& c, const std::string& text)
{
    c.upstreamTime = {};
    if (trimmed(text).empty()) return {};
    auto spec = parseUpstreamTime(trimmed(text));
    if (!spec) return Error { spec.error() };
    c.upstreamTime = *spec;
    return {};
}

Status readConnRequests(RunConfig& c, const std::string& text)
{
    c.churn.requestsMin = c.churn.requestsMax = 0;
    if (trimmed(text).empty() || trimmed(text) == "0") return {};
    auto range = parseCountRange(trimmed(text));
    if (!range) return Error { range.error() };
    if (range->low == 0) return Error { "a connection carries at least one request" };
    if (range->high > UINT32_MAX) return Error { text + " is too large" };
    c.churn.requestsMin = static_cast<uint32_t>(range->low);
    c.churn.requestsMax = static_cast<uint32_t>(range->high);
    return {};
}
std::string connRequestsText(const RunConfig& c)
{
    if (c.churn.requestsMax == 0) return {};
    if (c.churn.requestsMin == c.churn.requestsMax) return std::to_string(c.churn.requestsMax);
    return std::to_string(c.churn.requestsMin) + ":" + std::to_string(c.churn.requestsMax);
}

Status readConnLifetime(RunConfig& c, const std::string& text)
{
    c.churn.lifetimeMinUs = c.churn.lifetimeMaxUs = 0;
    if (trimmed(text).empty() || trimmed(text) == "0") return {};
    auto range = parseDurationRangeUs(trimmed(text));
    if (!range) return Error { range.error() };
    if (range->low < 10'000) return Error { "a connection lives at least 10ms" };
    c.churn.lifetimeMinUs = range->low;
    c.churn.lifetimeMaxUs = range->high;
    return {};
}
std::string connLifetimeText(const RunConfig& c)
{
    if (c.churn.lifetimeMaxUs == 0) return {};
    if (c.churn.lifetimeMinUs == c.churn.lifetimeMaxUs) return durationText(c.churn.lifetimeMaxUs);
    return durationText(c.churn.lifetimeMinUs) + ":" + durationText(c.churn.lifetimeMaxUs);
}

Status readSource(RunConfig& c, const std::string& text)
{
    c.sourceAddresses.clear();
    if (trimmed(text).empty()) return {};
    auto list = parseSourceList(text);
    if (!list) return Error { list.error() };
    c.sourceAddresses = *list;
    return {};
}
std::string sourceText(const RunConfig& c)
{
    std::string out;
    for (const std::string& a : c.sourceAddresses)
        out += (out.empty() ? "" : ",") + a;
    return out;
}

// The window's "Loaders" field (parse/placement.h); the CLI composes the same from --loaders,
// --on, --agents and the Kubernetes flags.
Status readLoaders(RunConfig& c, const std::string& text)
{
    if (trimmed(text).empty()) {
        c.loaders = {};
        return {};
    }
    auto placement = parseLoaderPlacement(trimmed(text));
    if (!placement) return Error { placement.error() };
    c.loaders = *placement;
    return {};
}
std::string loadersText(const RunConfig& c)
{
    return loaderPlacementText(c.loaders);
}

// ---- the stored configuration's parts, setting by setting ----

// get() as the table holds it: a bad value is a Status, never an exception.
template<void (*GET)(const Json&, RunConfig&)> Status guarded(const Json& j, RunConfig& c)
{
    try {
        GET(j, c);
        return {};
    } catch (const JsonFieldError& e) {
        return Error { e.what };
    }
}

template<auto Member, const char* KEY, bool ALWAYS> void putMember(Json& j, const RunConfig& c)
{
    if (ALWAYS || c.*Member != RunConfig {}.*Member) j[KEY] = c.*Member;
}
template<auto Member, const char* KEY> void getMember(const Json& j, RunConfig& c)
{
    readJsonField(j, KEY, c.*Member);
}

#define WB_KEY(name, text) constexpr char name[] = text
WB_KEY(K_THREADS, "threads");
WB_KEY(K_CONNECTIONS, "connections");
WB_KEY(K_PIPELINE, "pipeline");
WB_KEY(K_STREAMS, "streams");
WB_KEY(K_WINDOW_BITS, "window_bits");
WB_KEY(K_CONNECTION_WINDOW_BITS, "connection_window_bits");
WB_KEY(K_HEADER_TABLE_SIZE, "header_table_size");
WB_KEY(K_DURATION_US, "duration_us");
WB_KEY(K_RESPONSES, "responses");
WB_KEY(K_WARMUP_US, "warmup_us");
WB_KEY(K_TIMEOUT_US, "timeout_us");
WB_KEY(K_CONNECT_TIMEOUT_US, "connect_timeout_us");
WB_KEY(K_INTERVAL_US, "interval_us");
WB_KEY(K_RATE_PER_S, "rate_per_s");
WB_KEY(K_SEND_SPIN_US, "send_spin_us");
WB_KEY(K_SLO_ABORT, "slo_abort");
#undef WB_KEY

void putStages(Json& j, const RunConfig& c)
{
    Json stages = Json::array();
    for (const Stage& s : c.stages)
        stages.push_back(Json { { "duration_us", s.durationUs }, { "target", s.target } });
    j["stages"] = std::move(stages);
    j["stages_are_connections"] = c.stagesAreConnections;
}
void getStages(const Json& j, RunConfig& c)
{
    if (auto it = j.find("stages"); it != j.end() && !it->is_null()) {
        if (!it->is_array()) throw JsonFieldError { "'stages' must be a list" };
        c.stages.clear();
        for (const Json& s : *it) {
            if (!s.is_object()) throw JsonFieldError { "a stage must be an object" };
            if (!s.contains("duration_us") || !s.contains("target"))
                throw JsonFieldError { "a stage needs 'duration_us' and 'target'" };
            c.stages.push_back(Stage {
                jsonField<uint64_t>(s.at("duration_us"), "duration_us"), jsonField<double>(s.at("target"), "target") });
        }
    }
    readJsonField(j, "stages_are_connections", c.stagesAreConnections);
}

void putSlos(Json& j, const RunConfig& c)
{
    if (c.slos.empty()) return;
    Json slos = Json::array();
    for (const Slo& slo : c.slos)
        slos.push_back(slo.expr);
    j["slo"] = std::move(slos);
}
void getSlos(const Json& j, RunConfig& c)
{
    if (auto it = j.find("slo"); it != j.end() && !it->is_null()) {
        if (!it->is_array()) throw JsonFieldError { "'slo' must be a list" };
        c.slos.clear();
        for (const Json& text : *it) {
            auto slo = parseSlo(jsonField<std::string>(text, "slo"));
            if (!slo) throw JsonFieldError { slo.error() };
            c.slos.push_back(*slo);
        }
    }
}

void putBackendFrom(Json& j, const RunConfig& c)
{
    if (c.backendFrom.enabled()) putJsonBytes(j, "backend_from", backendFromText(c.backendFrom));
}
void getBackendFrom(const Json& j, RunConfig& c)
{
    std::string text;
    if (!readJsonBytes(j, "backend_from", text)) return;
    auto spec = parseBackendFrom(text);
    if (!spec) throw JsonFieldError { spec.error() };
    const unsigned limit = c.backendFrom.maxBackends;
    c.backendFrom = *spec;
    c.backendFrom.maxBackends = limit;
}

void putMaxBackends(Json& j, const RunConfig& c)
{
    if (c.backendFrom.enabled() && c.backendFrom.maxBackends != DEFAULT_MAX_BACKENDS)
        j["max_backends"] = c.backendFrom.maxBackends;
}
void getMaxBackends(const Json& j, RunConfig& c)
{
    readJsonField(j, "max_backends", c.backendFrom.maxBackends);
}

void putUpstreamTime(Json& j, const RunConfig& c)
{
    if (c.upstreamTime.enabled()) putJsonBytes(j, "upstream_time", upstreamTimeText(c.upstreamTime));
}
void getUpstreamTime(const Json& j, RunConfig& c)
{
    std::string text;
    if (!readJsonBytes(j, "upstream_time", text)) return;
    auto spec = parseUpstreamTime(text);
    if (!spec) throw JsonFieldError { spec.error() };
    c.upstreamTime = *spec;
}

void putChurn(Json& j, const RunConfig& c)
{
    if (!c.churn.enabled() || j.contains("churn")) return;
    j["churn"] = Json { { "requests_min", c.churn.requestsMin }, { "requests_max", c.churn.requestsMax },
        { "lifetime_min_us", c.churn.lifetimeMinUs }, { "lifetime_max_us", c.churn.lifetimeMaxUs } };
}
void getChurn(const Json& j, RunConfig& c)
{
    auto it = j.find("churn");
    if (it == j.end() || it->is_null()) return;
    if (!it->is_object()) throw JsonFieldError { "'churn' must be an object" };
    readJsonField(*it, "requests_min", c.churn.requestsMin);
    readJsonField(*it, "requests_max", c.churn.requestsMax);
    readJsonField(*it, "lifetime_min_us", c.churn.lifetimeMinUs);
    readJsonField(*it, "lifetime_max_us", c.churn.lifetimeMaxUs);
}

void putSource(Json& j, const RunConfig& c)
{
    if (!c.sourceAddresses.empty()) j["source_addresses"] = c.sourceAddresses;
}
void getSource(const Json& j, RunConfig& c)
{
    auto it = j.find("source_addresses");
    if (it == j.end() || it->is_null()) return;
    if (!it->is_array()) throw JsonFieldError { "'source_addresses' must be a list" };
    c.sourceAddresses.clear();
    for (const Json& a : *it)
        c.sourceAddresses.push_back(jsonField<std::string>(a, "source_addresses"));
}

void putLoaders(Json& j, const RunConfig& c)
{
    if (!c.loaders.distributed()) return;
    const LoaderPlacement& l = c.loaders;
    j["loaders"] = Json { { "count", l.count }, { "on", loaderPlaceId(l.on) }, { "context", l.kubeContext },
        { "namespace", l.kubeNamespace }, { "image", l.image }, { "pod_cpu", l.podCpu },
        { "pod_memory", l.podMemory } };
    if (!l.agents.empty()) j["loaders"]["agents"] = l.agents;
}
void getLoaders(const Json& j, RunConfig& c)
{
    auto it = j.find("loaders");
    if (it == j.end() || it->is_null()) return;
    if (!it->is_object()) throw JsonFieldError { "'loaders' must be an object" };
    LoaderPlacement& l = c.loaders;
    readJsonField(*it, "count", l.count);
    std::string on;
    readJsonField(*it, "on", on);
    l.on = on == "kubernetes" ? LoaderPlacement::On::Kubernetes
        : on == "agents"      ? LoaderPlacement::On::Agents
                              : LoaderPlacement::On::Local;
    if (auto a = it->find("agents"); a != it->end() && !a->is_null()) {
        if (!a->is_array()) throw JsonFieldError { "'loaders.agents' must be a list" };
        l.agents.clear();
        for (const Json& name : *a)
            l.agents.push_back(jsonField<std::string>(name, "agents"));
    }
    readJsonField(*it, "context", l.kubeContext);
    readJsonField(*it, "namespace", l.kubeNamespace);
    readJsonField(*it, "image", l.image);
    readJsonField(*it, "pod_cpu", l.podCpu);
    readJsonField(*it, "pod_memory", l.podMemory);
}

Status readSloAbort(RunConfig& c, const std::string& text)
{
    return readFlag(c.sloAbort, text);
}
std::string sloAbortText(const RunConfig& c)
{
    return c.sloAbort ? "true" : "false";
}

Status readSendSpin(RunConfig& c, const std::string& text)
{
    return DurationSetting<&RunConfig::sendSpinUs, 0, 10'000>::read(c, text);
}

using Threads = CountSetting<&RunConfig::threads, 1, 1024>;
using Connections = CountSetting<&RunConfig::connections, 1, 1'000'000>;
using Pipeline = CountSetting<&RunConfig::pipeline, 1, RunConfig::MAX_PIPELINE>;
using Streams = CountSetting<&RunConfig::streams, 1, 65'536>;
using WindowBits = CountSetting<&RunConfig::windowBits, 16, 30>;
using ConnectionWindowBits = CountSetting<&RunConfig::connectionWindowBits, 16, 30>;
using HeaderTableSize = CountSetting<&RunConfig::headerTableBytes, 0, 1u << 30>;
using Duration = DurationSetting<&RunConfig::durationUs, 100'000, YEAR_US>;
// -n: off (0, shown as "") or a count of responses.
struct Responses
{
    static Status read(RunConfig& c, const std::string& text)
    {
        if (trimmed(text).empty()) {
            c.responses = 0;
            return {};
        }
        auto n = parseCount(trimmed(text));
        if (!n) return Error { n.error() };
        constexpr uint64_t MOST = 1'000'000'000'000;
        if (*n < 1 || *n > MOST) return Error { fmt::format("must be between 1 and {}", MOST) };
        c.responses = *n;
        return {};
    }
    static std::string text(const RunConfig& c)
    {
        return c.responses == 0 ? std::string() : std::to_string(c.responses);
    }
};
using Warmup = DurationSetting<&RunConfig::warmupUs, 0, DAY_US>;
using Timeout = DurationSetting<&RunConfig::timeoutUs, 1, DAY_US>;
using ConnectTimeout = DurationSetting<&RunConfig::connectTimeoutUs, 1, DAY_US>;
using Interval = DurationSetting<&RunConfig::intervalUs, 100'000, DAY_US>;
using SendSpin = DurationSetting<&RunConfig::sendSpinUs, 0, 10'000>;

// The table. Its order is the CLI's --help, the window's form and a plan's keys.
const RunSetting SETTINGS[] = {
    { .key = "threads",
        .flags = "-t,--threads",
        .label = "Threads",
        .help = "Worker threads, one event loop each (wrk -t)",
        .sweepable = true,
        .read = Threads::read,
        .text = Threads::text,
        .put = putMember<&RunConfig::threads, K_THREADS, true>,
        .get = guarded<getMember<&RunConfig::threads, K_THREADS>> },
    { .key = "connections",
        .flags = "-c,--connections",
        .label = "Connections",
        .help = "Connections to keep open, spread over the threads (wrk -c)",
        .sweepable = true,
        .read = Connections::read,
        .text = Connections::text,
        .put = putMember<&RunConfig::connections, K_CONNECTIONS, true>,
        .get = guarded<getMember<&RunConfig::connections, K_CONNECTIONS>> },
    { .key = "duration",
        .flags = "-d,--duration",
        .label = "Duration",
        .help = "Measured duration: 30s, 2m, 500ms; a bare number is seconds (wrk -d)",
        .plan = PlanPlace::Plan,
        .read = Duration::read,
        .text = Duration::text,
        .put = putMember<&RunConfig::durationUs, K_DURATION_US, true>,
        .get = guarded<getMember<&RunConfig::durationUs, K_DURATION_US>> },
    { .key = "responses",
        .flags = "-n,--responses",
        .label = "End after",
        .help = "End the run once this many responses are counted (after any warm-up), an even share per thread, as "
                "h2load's -n; the duration stays the longest it runs",
        .example = "10000 responses",
        .read = Responses::read,
        .text = Responses::text,
        .put = putMember<&RunConfig::responses, K_RESPONSES, false>,
        .get = guarded<getMember<&RunConfig::responses, K_RESPONSES>> },
    { .key = "warmup",
        .flags = "--warmup",
        .label = "Warm-up",
        .help = "Send load for this long before measuring; its answers are counted apart",
        .plan = PlanPlace::Plan,
        .read = Warmup::read,
        .text = Warmup::text,
        .put = putMember<&RunConfig::warmupUs, K_WARMUP_US, true>,
        .get = guarded<getMember<&RunConfig::warmupUs, K_WARMUP_US>> },
    { .key = "timeout",
        .flags = "--timeout",
        .label = "Timeout",
        .help = "Per-request timeout; a request without an answer by then counts as one",
        .read = Timeout::read,
        .text = Timeout::text,
        .put = putMember<&RunConfig::timeoutUs, K_TIMEOUT_US, true>,
        .get = guarded<getMember<&RunConfig::timeoutUs, K_TIMEOUT_US>> },
    { .key = "connect_timeout",
        .flags = "--connect-timeout",
        .label = "Connect timeout",
        .help = "Connect and TLS (or QUIC) handshake timeout",
        .read = ConnectTimeout::read,
        .text = ConnectTimeout::text,
        .put = putMember<&RunConfig::connectTimeoutUs, K_CONNECT_TIMEOUT_US, true>,
        .get = guarded<getMember<&RunConfig::connectTimeoutUs, K_CONNECT_TIMEOUT_US>> },
    { .key = "pipeline",
        .flags = "--pipeline",
        .label = "Pipelining",
        .help = "HTTP/1.1: requests in flight per connection (pipelining)",
        .appliesTo = AppliesTo::Http1,
        .sweepable = true,
        .read = Pipeline::read,
        .text = Pipeline::text,
        .put = putMember<&RunConfig::pipeline, K_PIPELINE, true>,
        .get = guarded<getMember<&RunConfig::pipeline, K_PIPELINE>> },
    { .key = "streams",
        .flags = "-m,--streams",
        .label = "Streams",
        .help = "HTTP/2 and HTTP/3: concurrent streams per connection (h2load's -m; the server's limit applies if "
                "lower)",
        .appliesTo = AppliesTo::Multiplexed,
        .sweepable = true,
        .read = Streams::read,
        .text = Streams::text,
        .put = putMember<&RunConfig::streams, K_STREAMS, true>,
        .get = guarded<getMember<&RunConfig::streams, K_STREAMS>> },
    { .key = "rate",
        .flags = "-R,--rate",
        .label = "Rate (req/s)",
        .help = "Constant request rate over all connections: an open model, latency corrected for coordinated "
                "omission (wrk2 -R); empty: closed loop",
        .example = "2000",
        .sweepable = true,
        .read = readRate,
        .text = rateText,
        .put = putMember<&RunConfig::ratePerS, K_RATE_PER_S, true>,
        .get = guarded<getMember<&RunConfig::ratePerS, K_RATE_PER_S>> },
    { .key = "stages",
        .flags = "--stages",
        .label = "Stages",
        .help = "Ramps: DURATION:RATE,... (open model) or DURATION:Nc,... (connections, closed model); sets the "
                "duration",
        .example = "10s:1000,30s:5000,10s:0",
        .plan = PlanPlace::None, // an experiment's runs have one load each
        .read = readStages,
        .text = stagesText,
        .put = putStages,
        .get = guarded<getStages> },
    { .key = "conn_requests",
        .flags = "--conn-requests",
        .label = "Reopen after",
        .help = "Close each connection after N requests and open a new one (N:M: a random count in that range per "
                "connection), as real clients come and go; an L4 balancer then places many connections",
        .example = "100:200 requests",
        .sweepable = true,
        .read = readConnRequests,
        .text = connRequestsText,
        .put = putChurn,
        .get = guarded<getChurn> },
    { .key = "conn_lifetime",
        .flags = "--conn-lifetime",
        .label = "Connection age",
        .help = "Close each connection after it has been open this long and open a new one (T1:T2: a random time in "
                "that range per connection)",
        .example = "10s:30s",
        .sweepable = true,
        .read = readConnLifetime,
        .text = connLifetimeText,
        .put = putChurn,
        .get = guarded<getChurn> },
    { .key = "loaders",
        .label = "Loaders",
        .help = "Where the load is made: 1 (this process), 4 (four child processes, merged into one run), 8 "
                "kubernetes namespace=load image=REG/wrkbench-cli:0.1.0 (an Indexed Job; also context=, cpu=, "
                "memory=), or remote vm1, vm2 (remote loaders, docs/AGENT.md)",
        .plan = PlanPlace::None,
        .read = readLoaders,
        .text = loadersText,
        .put = putLoaders,
        .get = guarded<getLoaders> },
    { .key = "interval",
        .flags = "--interval",
        .label = "Chart interval",
        .help = "Interval of the time series: the live charts' points, the stored and JSON series (at least 100ms)",
        .read = Interval::read,
        .text = Interval::text,
        .put = putMember<&RunConfig::intervalUs, K_INTERVAL_US, true>,
        .get = guarded<getMember<&RunConfig::intervalUs, K_INTERVAL_US>> },
    { .key = "slo",
        .flags = "--slo",
        .label = "SLOs",
        .help = "Judge the run by this threshold (repeatable): p99<250ms, p99.9<1s, mean<20ms, errors<0.1%, "
                "non2xx<1%, errors<10, rps>5000, service_p99<50ms (open model), connect_p99<5ms, tls_p99<20ms, "
                "ttfb_p99<100ms; exit code 4 when one fails",
        .example = "p99<250ms, errors<0.1%",
        .plan = PlanPlace::Plan,
        .repeatable = true,
        .read = readSlos,
        .text = slosText,
        .put = putSlos,
        .get = guarded<getSlos> },
    { .key = "slo_abort",
        .flags = "--slo-abort",
        .label = "Abort when an error budget is spent",
        .help = "Stop early once an errors or non-2xx budget is spent (checked after 5s of measurement)",
        .plan = PlanPlace::Plan,
        .flag = true,
        .read = readSloAbort,
        .text = sloAbortText,
        .put = putMember<&RunConfig::sloAbort, K_SLO_ABORT, false>,
        .get = guarded<getMember<&RunConfig::sloAbort, K_SLO_ABORT>> },
    { .key = "backend_from",
        .flags = "--backend-from",
        .label = "Backends",
        .help = "Name the backend of each response and break the run down by backend: body (its first line, as "
                "serve_hostname answers), header:NAME, or body-regex:RE (the first capture group)",
        .example = "body",
        .read = readBackendFrom,
        .text
        = [](const RunConfig& c) { return c.backendFrom.enabled() ? backendFromText(c.backendFrom) : std::string(); },
        .put = putBackendFrom,
        .get = guarded<getBackendFrom> },
    { .key = "upstream_time",
        .flags = "--upstream-time",
        .label = "Upstream",
        .help = "Split each latency into the upstream's and the front door's: header:NAME[:ms|s|us] (ms by default, "
                "as x-envoy-upstream-service-time; nginx's $upstream_response_time is :s) or server-timing:NAME (its "
                "dur)",
        .example = "header:x-envoy-upstream-service-time",
        .read = readUpstreamTime,
        .text =
            [](const RunConfig& c) {
                return c.upstreamTime.enabled() ? upstreamTimeText(c.upstreamTime) : std::string();
            },
        .put = putUpstreamTime,
        .get = guarded<getUpstreamTime> },
    { .key = "source",
        .flags = "--source",
        .label = "Source addresses",
        .help = "Spread connections over these local addresses: ADDR[,ADDR...] or a range 127.0.0.2-127.0.0.9 (more "
                "source ports for churn; a balancer hashing on the client address sees several clients)",
        .example = "127.0.0.2-127.0.0.9",
        .advanced = true,
        .read = readSource,
        .text = sourceText,
        .put = putSource,
        .get = guarded<getSource> },
    { .key = "max_backends",
        .flags = "--max-backends",
        .label = "Most backends",
        .help = "--backend-from: distinct backends kept; responses of any further one count as (other)",
        .advanced = true,
        .read = readMaxBackends,
        .text = [](const RunConfig& c) { return std::to_string(c.backendFrom.maxBackends); },
        .put = putMaxBackends,
        .get = guarded<getMaxBackends> },
    { .key = "window_bits",
        .flags = "--window-bits",
        .label = "Stream window bits",
        .help = "HTTP/2: stream flow-control window of 2^N-1 bytes (16-30; 30 is effectively none)",
        .appliesTo = AppliesTo::Http2,
        .advanced = true,
        .read = WindowBits::read,
        .text = WindowBits::text,
        .put = putMember<&RunConfig::windowBits, K_WINDOW_BITS, false>,
        .get = guarded<getMember<&RunConfig::windowBits, K_WINDOW_BITS>> },
    { .key = "connection_window_bits",
        .flags = "--connection-window-bits",
        .label = "Connection window bits",
        .help = "HTTP/2: connection flow-control window of 2^N-1 bytes (16-30)",
        .appliesTo = AppliesTo::Http2,
        .advanced = true,
        .read = ConnectionWindowBits::read,
        .text = ConnectionWindowBits::text,
        .put = putMember<&RunConfig::connectionWindowBits, K_CONNECTION_WINDOW_BITS, false>,
        .get = guarded<getMember<&RunConfig::connectionWindowBits, K_CONNECTION_WINDOW_BITS>> },
    { .key = "header_table_size",
        .flags = "--header-table-size",
        .label = "Header table (bytes)",
        .help = "HTTP/2: the HPACK table the server may use for its responses (a server that ignores it keeps 4096, "
                "and the report says so)",
        .appliesTo = AppliesTo::Http2,
        .advanced = true,
        .read = HeaderTableSize::read,
        .text = HeaderTableSize::text,
        .put = putMember<&RunConfig::headerTableBytes, K_HEADER_TABLE_SIZE, false>,
        .get = guarded<getMember<&RunConfig::headerTableBytes, K_HEADER_TABLE_SIZE>> },
    { .key = "send_spin",
        .flags = "--send-spin",
        .label = "Send spin",
        .help = "Open model: poll instead of sleeping this long before each due send, so waking late does not count "
                "as the target's latency (0: always sleep)",
        .advanced = true,
        .read = readSendSpin,
        .text = SendSpin::text,
        .put = putMember<&RunConfig::sendSpinUs, K_SEND_SPIN_US, false>,
        .get = guarded<getMember<&RunConfig::sendSpinUs, K_SEND_SPIN_US>> },
};

} // namespace

std::span<const RunSetting> runSettings()
{
    return SETTINGS;
}

const RunSetting* findRunSetting(std::string_view key)
{
    for (const RunSetting& s : SETTINGS)
        if (s.key == key) return &s;
    return nullptr;
}

std::vector<std::string> planLoadKeys()
{
    std::vector<std::string> keys;
    for (const RunSetting& s : SETTINGS)
        if (s.plan == PlanPlace::Load) keys.emplace_back(s.key);
    return keys;
}

Status readRunSettings(RunConfig& config, const std::vector<std::pair<const RunSetting*, std::string>>& given,
    std::string (*name)(const RunSetting&))
{
    for (const RunSetting& s : SETTINGS)
        for (const auto& [setting, text] : given)
            if (setting == &s)
                if (Status st = s.read(config, text); !st) return Error { name(s) + ": " + st.error() };
    return {};
}

std::string flagName(const RunSetting& setting)
{
    const std::string_view flags = setting.flags;
    const auto comma = flags.rfind(',');
    return std::string(comma == std::string_view::npos ? flags : flags.substr(comma + 1));
}

bool sameLoad(const RunConfig& a, const RunConfig& b)
{
    // By the stored form: what a run keeps of its load is what makes two loads the same.
    Json x = Json::object(), y = Json::object();
    for (const RunSetting& s : SETTINGS) {
        s.put(x, a);
        s.put(y, b);
    }
    return x == y;
}

} // namespace wb
