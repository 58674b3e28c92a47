#include "wire/configcodec.h"

#include "common/base64.h"
#include "common/utf8.h"
#include "http/requestcheck.h"
#include "wire/wirejson.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <type_traits>

namespace wb {

namespace {

using Json = WireJson;

constexpr int FORMAT = 1;
// Bytes that are not UTF-8 (a protobuf or gzip body, a header value in Latin-1) travel as
// base64 under "<key>_base64": JSON strings are Unicode text, and writing bytes into one would
// change them.
void putBytes(Json& j, const char* key, const std::string& bytes)
{
    if (isValidUtf8(bytes))
        j[key] = bytes;
    else
        j[std::string(key) + "_base64"] = toBase64(bytes);
}

Status readBytes(const Json& j, const char* key, std::string& out)
{
    if (auto it = j.find(key); it != j.end() && !it->is_null()) out = it->get<std::string>();
    if (auto it = j.find(std::string(key) + "_base64"); it != j.end()) {
        auto bytes = fromBase64(it->get<std::string>());
        if (!bytes) return Error { std::string(key) + "_base64: " + bytes.error() };
        out = std::move(*bytes);
    }
    return {};
}

void putLoad(Json& j, const RunConfig& c)
{
    j["threads"] = c.threads;
    j["connections"] = c.connections;
    j["pipeline"] = c.pipeline;
    j["streams"] = c.streams;
    if (c.windowBits != RunConfig::DEFAULT_WINDOW_BITS) j["window_bits"] = c.windowBits;
    if (c.connectionWindowBits != RunConfig::DEFAULT_WINDOW_BITS) j["connection_window_bits"] = c.connectionWindowBits;
    if (c.headerTableBytes != 0) j["header_table_size"] = c.headerTableBytes;
    j["duration_us"] = c.durationUs;
    j["warmup_us"] = c.warmupUs;
    j["timeout_us"] = c.timeoutUs;
    j["connect_timeout_us"] = c.connectTimeoutUs;
    j["interval_us"] = c.intervalUs;
    j["rate_per_s"] = c.ratePerS;
    Json stages = Json::array();
    for (const Stage& s : c.stages)
        stages.push_back(Json { { "duration_us", s.durationUs }, { "target", s.target } });
    j["stages"] = std::move(stages);
    j["stages_are_connections"] = c.stagesAreConnections;
    if (c.sendSpinUs != RunConfig::DEFAULT_SEND_SPIN_US) j["send_spin_us"] = c.sendSpinUs;
    if (c.churn.enabled())
        j["churn"] = Json { { "requests_min", c.churn.requestsMin }, { "requests_max", c.churn.requestsMax },
            { "lifetime_min_us", c.churn.lifetimeMinUs }, { "lifetime_max_us", c.churn.lifetimeMaxUs } };
    if (!c.sourceAddresses.empty()) j["source_addresses"] = c.sourceAddresses;
    if (!c.slos.empty()) {
        Json slos = Json::array();
        for (const Slo& slo : c.slos)
            slos.push_back(slo.expr);
        j["slo"] = std::move(slos);
    }
    if (c.sloAbort) j["slo_abort"] = true;
    // Behind the front door: as the options read ("body", "header:NAME", "body-regex:RE";
    // "header:NAME:ms", "server-timing:NAME"); the text is bytes (a regex may hold any).
    if (c.backendFrom.enabled()) {
        putBytes(j, "backend_from", backendFromText(c.backendFrom));
        if (c.backendFrom.maxBackends != DEFAULT_MAX_BACKENDS) j["max_backends"] = c.backendFrom.maxBackends;
    }
    if (c.upstreamTime.enabled()) putBytes(j, "upstream_time", upstreamTimeText(c.upstreamTime));
    if (c.loaders.distributed()) {
        const LoaderPlacement& l = c.loaders;
        j["loaders"] = Json { { "count", l.count }, { "on", loaderPlaceId(l.on) }, { "context", l.kubeContext },
            { "namespace", l.kubeNamespace }, { "image", l.image }, { "pod_cpu", l.podCpu },
            { "pod_memory", l.podMemory } };
        if (!l.agents.empty()) j["loaders"]["agents"] = l.agents;
    }
}

// A value of the field's own type, or a WireError naming the key: nlohmann's get<unsigned>() of
// 1e40 or -1 is undefined behaviour, and a count that wrapped would run another load.
template<typename T> T valueOf(const Json& v, const char* key)
{
    if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_boolean()) throw WireError { fmt::format("'{}' must be true or false", key) };
        return v.get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
        static_assert(std::is_unsigned_v<T>);
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
            throw WireError { fmt::format("'{}' must be a whole number", key) };
        if (v.get<uint64_t>() > std::numeric_limits<T>::max())
            throw WireError { fmt::format("'{}' is out of range (at most {})", key, std::numeric_limits<T>::max()) };
        return static_cast<T>(v.get<uint64_t>());
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!v.is_number()) throw WireError { fmt::format("'{}' must be a number", key) };
        return v.get<T>();
    } else {
        return v.template get<T>(); // strings and lists of them: a wrong type throws json's type_error
    }
}

template<typename T> void readIf(const Json& j, const char* key, T& out)
{
    if (auto it = j.find(key); it != j.end() && !it->is_null()) out = valueOf<T>(*it, key);
}

Status getLoad(const Json& j, RunConfig& c)
{
    readIf(j, "threads", c.threads);
    readIf(j, "connections", c.connections);
    readIf(j, "pipeline", c.pipeline);
    readIf(j, "streams", c.streams);
    readIf(j, "window_bits", c.windowBits);
    readIf(j, "connection_window_bits", c.connectionWindowBits);
    readIf(j, "header_table_size", c.headerTableBytes);
    readIf(j, "duration_us", c.durationUs);
    readIf(j, "warmup_us", c.warmupUs);
    readIf(j, "timeout_us", c.timeoutUs);
    readIf(j, "connect_timeout_us", c.connectTimeoutUs);
    readIf(j, "interval_us", c.intervalUs);
    readIf(j, "rate_per_s", c.ratePerS);
    if (auto it = j.find("stages"); it != j.end() && it->is_array()) {
        c.stages.clear();
        for (const Json& s : *it)
            c.stages.push_back(Stage {
                valueOf<uint64_t>(s.at("duration_us"), "duration_us"), valueOf<double>(s.at("target"), "target") });
    }
    readIf(j, "stages_are_connections", c.stagesAreConnections);
    readIf(j, "send_spin_us", c.sendSpinUs);
    if (auto it = j.find("churn"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) throw WireError { "'churn' must be an object" };
        readIf(*it, "requests_min", c.churn.requestsMin);
        readIf(*it, "requests_max", c.churn.requestsMax);
        readIf(*it, "lifetime_min_us", c.churn.lifetimeMinUs);
        readIf(*it, "lifetime_max_us", c.churn.lifetimeMaxUs);
    }
    if (auto it = j.find("source_addresses"); it != j.end() && !it->is_null()) {
        if (!it->is_array()) throw WireError { "'source_addresses' must be a list" };
        c.sourceAddresses.clear();
        for (const Json& a : *it) {
            if (!a.is_string()) throw WireError { "'source_addresses' must be a list of addresses" };
            c.sourceAddresses.push_back(a.get<std::string>());
        }
    }
    if (auto it = j.find("slo"); it != j.end() && it->is_array()) {
        c.slos.clear();
        for (const Json& text : *it) {
            auto slo = parseSlo(text.get<std::string>());
            if (!slo) return Error { slo.error() };
            c.slos.push_back(*slo);
        }
    }
    readIf(j, "slo_abort", c.sloAbort);
    if (j.contains("backend_from") || j.contains("backend_from_base64")) {
        std::string text;
        if (auto st = readBytes(j, "backend_from", text); !st) return Error { st.error() };
        auto spec = parseBackendFrom(text);
        if (!spec) return Error { spec.error() };
        c.backendFrom = *spec;
        readIf(j, "max_backends", c.backendFrom.maxBackends);
    }
    if (j.contains("upstream_time") || j.contains("upstream_time_base64")) {
        std::string text;
        if (auto st = readBytes(j, "upstream_time", text); !st) return Error { st.error() };
        auto spec = parseUpstreamTime(text);
        if (!spec) return Error { spec.error() };
        c.upstreamTime = *spec;
    }
    if (auto it = j.find("loaders"); it != j.end() && it->is_object()) {
        LoaderPlacement& l = c.loaders;
        readIf(*it, "count", l.count);
        std::string on;
        readIf(*it, "on", on);
        l.on = on == "kubernetes" ? LoaderPlacement::On::Kubernetes
            : on == "agents"      ? LoaderPlacement::On::Agents
                                  : LoaderPlacement::On::Local;
        readIf(*it, "agents", l.agents);
        readIf(*it, "context", l.kubeContext);
        readIf(*it, "namespace", l.kubeNamespace);
        readIf(*it, "image", l.image);
        readIf(*it, "pod_cpu", l.podCpu);
        readIf(*it, "pod_memory", l.podMemory);
    }
    return {};
}

Json headersJson(const std::vector<Header>& headers)
{
    Json out = Json::array();
    for (const Header& h : headers) {
        Json j { { "name", h.name } };
        putBytes(j, "value", h.value);
        out.push_back(std::move(j));
    }
    return out;
}

Result<std::vector<Header>> readHeaders(const Json& j)
{
    if (!j.is_array()) return Error { "headers must be an array" };
    std::vector<Header> out;
    for (const Json& h : j) {
        Header header { h.at("name").get<std::string>(), {} };
        // The CLI's rules (http/requestcheck.h), whoever wrote the configuration: a name or value
        // that could end a header line would smuggle a request to the target.
        if (auto st = checkHeaderName(header.name); !st) return Error { st.error() };
        if (auto st = readBytes(h, "value", header.value); !st)
            return Error { "header " + header.name + ": " + st.error() };
        if (auto st = checkHeaderValue(header.value); !st) return Error { "header " + header.name + ": " + st.error() };
        out.push_back(std::move(header));
    }
    return out;
}

// A request mix, whole (bodies included), so a stored run can be run again as it was.
Json mixJson(const RequestMixSpec& mix)
{
    Json entries = Json::array();
    for (const MixRequest& e : mix.entries) {
        Json j { { "method", e.request.method }, { "url", e.request.url.displayText() },
            { "headers", headersJson(e.request.headers) }, { "weight", e.weight }, { "line", e.line },
            { "label", e.label } };
        putBytes(j, "body", e.request.body);
        entries.push_back(std::move(j));
    }
    return Json { { "source", mix.source }, { "order", mixOrderId(mix.order) }, { "seed", mix.seed },
        { "entries", std::move(entries) } };
}

Status readMix(const Json& j, RequestMixSpec& mix)
{
    readIf(j, "source", mix.source);
    if (auto it = j.find("order"); it != j.end() && it->is_string()) {
        auto order = parseMixOrder(it->get<std::string>());
        if (!order) return Error { order.error() };
        mix.order = *order;
    }
    readIf(j, "seed", mix.seed);
    for (const Json& e : j.at("entries")) {
        MixRequest r;
        readIf(e, "method", r.request.method);
        if (auto st = checkMethod(r.request.method); !st) return Error { "request mix: " + st.error() };
        auto url = parseUrl(e.at("url").get<std::string>());
        if (!url) return Error { "request mix: " + url.error() };
        r.request.url = *url;
        if (auto it = e.find("headers"); it != e.end()) {
            auto headers = readHeaders(*it);
            if (!headers) return Error { "request mix: " + headers.error() };
            r.request.headers = std::move(*headers);
        }
        if (auto st = readBytes(e, "body", r.request.body); !st) return Error { "request mix: " + st.error() };
        readIf(e, "weight", r.weight);
        readIf(e, "line", r.line);
        readIf(e, "label", r.label);
        mix.entries.push_back(std::move(r));
    }
    return {};
}

std::string dump(const Json& j)
{
    return dumpWireJson(j);
}

} // namespace

std::string runConfigToJson(const RunConfig& c)
{
    Json j;
    j["format"] = FORMAT;
    j["url"] = c.request.url.displayText();
    j["method"] = c.request.method;
    j["http_version"] = protocolId(c.httpVersion, c.request.url.isTls());
    j["headers"] = headersJson(c.request.headers);
    putBytes(j, "body", c.request.body);
    j["tls"] = Json { { "verify", c.tls.verifyPeer }, { "ca_file", c.tls.caFile } };
    putLoad(j, c);
    if (!c.mix.empty()) j["mix"] = mixJson(c.mix);
    if (!c.script.empty()) {
        // The script's text itself (bytes), so a stored run keeps what produced it.
        Json s = Json { { "name", c.script.name }, { "args", Json::array() } };
        putBytes(s, "text", c.script.text);
        for (const std::string& a : c.script.args) {
            Json arg = Json::object();
            putBytes(arg, "arg", a);
            s["args"].push_back(std::move(arg));
        }
        if (!c.script.threadSetup.empty()) {
            s["thread_setup"] = Json::array();
            for (const std::string& chunk : c.script.threadSetup) {
                Json one = Json::object();
                putBytes(one, "lua", chunk);
                s["thread_setup"].push_back(std::move(one));
            }
        }
        j["script"] = std::move(s);
    }
    return dump(j);
}

Result<RunConfig> runConfigFromJson(const std::string& text)
{
    try {
        const Json j = parseWireJson(text);
        if (!j.is_object()) return Error { "run configuration is not a JSON object" };
        RunConfig c;
        std::string url;
        readIf(j, "url", url);
        if (auto parsed = parseUrl(url)) c.request.url = *parsed;
        c.request.url.original = url;
        readIf(j, "method", c.request.method);
        if (auto st = checkMethod(c.request.method); !st) return Error { st.error() };
        if (auto it = j.find("http_version"); it != j.end() && it->is_string()) {
            auto version = parseHttpVersion(it->get<std::string>());
            if (!version) return Error { version.error() };
            c.httpVersion = *version;
        }
        if (auto it = j.find("headers"); it != j.end()) {
            auto headers = readHeaders(*it);
            if (!headers) return Error { headers.error() };
            c.request.headers = std::move(*headers);
        }
        if (auto st = readBytes(j, "body", c.request.body); !st) return Error { st.error() };
        if (auto it = j.find("tls"); it != j.end()) {
            readIf(*it, "verify", c.tls.verifyPeer);
            readIf(*it, "ca_file", c.tls.caFile);
        }
        if (auto st = getLoad(j, c); !st) return Error { st.error() };
        if (auto it = j.find("mix"); it != j.end() && it->is_object())
            if (auto st = readMix(*it, c.mix); !st) return Error { st.error() };
        if (auto it = j.find("script"); it != j.end() && it->is_object()) {
            readIf(*it, "name", c.script.name);
            if (auto st = readBytes(*it, "text", c.script.text); !st) return Error { "script: " + st.error() };
            if (auto args = it->find("args"); args != it->end() && args->is_array())
                for (const Json& a : *args) {
                    std::string arg;
                    if (a.is_object())
                        if (auto st = readBytes(a, "arg", arg); !st) return Error { "script: " + st.error() };
                    c.script.args.push_back(std::move(arg));
                }
            if (auto seeds = it->find("thread_setup"); seeds != it->end() && seeds->is_array())
                for (const Json& one : *seeds) {
                    std::string chunk;
                    if (one.is_object())
                        if (auto st = readBytes(one, "lua", chunk); !st) return Error { "script: " + st.error() };
                    c.script.threadSetup.push_back(std::move(chunk));
                }
        }
        return c;
    } catch (const Json::exception& e) {
        return Error { std::string("invalid run configuration: ") + e.what() };
    } catch (const WireError& e) {
        return Error { "invalid run configuration: " + e.what };
    }
}

std::string loadProfileToJson(const RunConfig& load)
{
    Json j;
    j["format"] = FORMAT;
    putLoad(j, load);
    return dump(j);
}

Result<RunConfig> loadProfileFromJson(const std::string& text)
{
    try {
        const Json j = parseWireJson(text);
        if (!j.is_object()) return Error { "load profile is not a JSON object" };
        RunConfig c;
        if (auto st = getLoad(j, c); !st) return Error { st.error() };
        return c;
    } catch (const Json::exception& e) {
        return Error { std::string("invalid load profile: ") + e.what() };
    } catch (const WireError& e) {
        return Error { "invalid load profile: " + e.what };
    }
}

std::string headersToJson(const std::vector<Header>& headers)
{
    return dump(headersJson(headers));
}

Result<std::vector<Header>> headersFromJson(const std::string& text)
{
    try {
        const Json j = parseWireJson(text);
        if (!j.is_array()) return Error { "headers are not a JSON array" };
        return readHeaders(j);
    } catch (const Json::exception& e) {
        return Error { std::string("invalid headers: ") + e.what() };
    } catch (const WireError& e) {
        return Error { "invalid headers: " + e.what };
    }
}

std::string sloVerdictsToJson(const std::vector<SloVerdict>& verdicts)
{
    Json out = Json::array();
    for (const SloVerdict& v : verdicts)
        out.push_back(Json { { "expr", v.expr }, { "value", std::isnan(v.value) ? Json() : Json(v.value) },
            { "unit", v.unit }, { "ok", v.ok } });
    return dump(out);
}

std::vector<SloVerdict> sloVerdictsFromJson(const std::string& text)
{
    std::vector<SloVerdict> out;
    Json j;
    try {
        j = parseWireJson(text);
    } catch (...) {
        return out;
    }
    if (!j.is_array()) return out;
    for (const Json& v : j) {
        if (!v.is_object()) continue;
        // Field by field, type-checked: a damaged row reads as what it still says, never throws.
        const auto field = [&v](const char* key) { return v.find(key); };
        SloVerdict verdict;
        if (auto it = field("expr"); it != v.end() && it->is_string()) verdict.expr = it->get<std::string>();
        if (verdict.expr.empty()) continue;
        auto value = field("value");
        verdict.value = value != v.end() && value->is_number() ? value->get<double>() : std::nan("");
        if (auto it = field("unit"); it != v.end() && it->is_string()) verdict.unit = it->get<std::string>();
        if (auto it = field("ok"); it != v.end() && it->is_boolean()) verdict.ok = it->get<bool>();
        out.push_back(std::move(verdict));
    }
    return out;
}

} // namespace wb
