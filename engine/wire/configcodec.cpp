#include "wire/configcodec.h"

#include "common/jsonfield.h"
#include "http/requestcheck.h"
#include "settings/runsettings.h"
#include "wire/wirejson.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <type_traits>

namespace wb {

namespace {

using Json = WireJson;

constexpr int FORMAT = 1;
// The load: every setting of the table (settings/runsettings.h) puts its own part.
void putLoad(Json& j, const RunConfig& c)
{
    for (const RunSetting& setting : runSettings())
        setting.put(j, c);
}

template<typename T> void readIf(const Json& j, const char* key, T& out)
{
    readJsonField(j, key, out);
}

void putBytes(Json& j, const char* key, const std::string& bytes)
{
    putJsonBytes(j, key, bytes);
}

Status readBytes(const Json& j, const char* key, std::string& out)
{
    try {
        readJsonBytes(j, key, out);
        return {};
    } catch (const JsonFieldError& e) {
        return Error { e.what };
    }
}

Status getLoad(const Json& j, RunConfig& c)
{
    for (const RunSetting& setting : runSettings())
        if (Status st = setting.get(j, c); !st) return st;
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

WireJson sloVerdictsJson(const std::vector<SloVerdict>& verdicts)
{
    Json out = Json::array();
    for (const SloVerdict& v : verdicts)
        out.push_back(Json { { "expr", v.expr }, { "value", std::isnan(v.value) ? Json() : Json(v.value) },
            { "unit", v.unit }, { "ok", v.ok } });
    return out;
}

std::string sloVerdictsToJson(const std::vector<SloVerdict>& verdicts)
{
    return dump(sloVerdictsJson(verdicts));
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
