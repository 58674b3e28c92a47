#include "probe/proberesult.h"

#include "common/jsontext.h"
#include "http/fieldtext.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json certificateJson(const ProbeCertificate& c)
{
    return Json { { "subject", c.subject }, { "issuer", c.issuer }, { "sans", c.sans }, { "not_before", c.notBefore },
        { "not_after", c.notAfter }, { "days_to_expiry", c.daysToExpiry } };
}

Json statsJson(const PhaseStats& s)
{
    return Json { { "min", s.minUs }, { "median", s.medianUs }, { "max", s.maxUs } };
}

PhaseStats statsOf(std::vector<uint64_t> values)
{
    PhaseStats s;
    if (values.empty()) return s;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    s.minUs = values.front();
    s.maxUs = values.back();
    s.medianUs = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    return s;
}

// Reads key into out when present; a wrong type throws and fromJson reports it.
template<typename T> void read(const Json& j, const char* key, T& out)
{
    if (const auto it = j.find(key); it != j.end() && !it->is_null()) out = it->template get<T>();
}

} // namespace

std::string_view phaseLabel(ProbePhase phase)
{
    switch (phase) {
    case ProbePhase::Dns:
        return "DNS lookup";
    case ProbePhase::Connect:
        return "TCP connect";
    case ProbePhase::Tls:
        return "TLS handshake";
    case ProbePhase::Send:
        return "request sent";
    case ProbePhase::Wait:
        return "first byte";
    case ProbePhase::Receive:
        return "body";
    }
    return "?";
}

std::string_view phaseKey(ProbePhase phase)
{
    switch (phase) {
    case ProbePhase::Dns:
        return "dns";
    case ProbePhase::Connect:
        return "connect";
    case ProbePhase::Tls:
        return "tls";
    case ProbePhase::Send:
        return "send";
    case ProbePhase::Wait:
        return "wait";
    case ProbePhase::Receive:
        return "receive";
    }
    return "?";
}

std::vector<ProbeSpan> ProbeResult::spans() const
{
    // curl's timers are cumulative, but a timer stays 0 for a phase that did not
    // happen (TLS over http, DNS and connect on a reused connection): each phase
    // ends at the later of its own timer and the previous phase's end.
    const bool tls = usedTls() || tlsUs > 0;
    const std::array<uint64_t, PROBE_PHASE_COUNT> ends
        = { dnsUs, connectUs, tls ? tlsUs : 0, requestSentUs, firstByteUs, totalUs };
    std::vector<ProbeSpan> out;
    uint64_t at = 0;
    for (ProbePhase phase : PROBE_PHASES) {
        const uint64_t end = std::max(at, ends[static_cast<size_t>(phase)]);
        if (phase != ProbePhase::Tls || tls) out.push_back({ phase, at, end - at });
        at = end;
    }
    return out;
}

uint64_t ProbeResult::phaseUs(ProbePhase phase) const
{
    for (const ProbeSpan& s : spans())
        if (s.phase == phase) return s.durationUs;
    return 0;
}

const Header* ProbeResult::header(std::string_view name) const
{
    for (const Header& h : headers)
        if (equalsIgnoreCase(h.name, name)) return &h;
    return nullptr;
}

nlohmann::ordered_json ProbeResult::toJson() const
{
    Json timings { { "dns", dnsUs }, { "connect", connectUs }, { "tls", tlsUs }, { "request_sent", requestSentUs },
        { "first_byte", firstByteUs }, { "total", totalUs }, { "redirect", redirectUs } };
    Json phases = Json::object();
    for (const ProbeSpan& s : spans())
        phases[std::string(phaseKey(s.phase))] = s.durationUs;
    Json certs = Json::array();
    for (const auto& c : certificates)
        certs.push_back(certificateJson(c));
    Json hdrs = Json::array();
    for (const auto& h : headers)
        hdrs.push_back(Json { { "name", h.name }, { "value", h.value } });
    Json redirs = Json::array();
    for (const auto& r : redirects)
        redirs.push_back(Json { { "from", r.fromUrl }, { "to", r.toUrl }, { "status", r.statusCode },
            { "total_us", r.totalUs }, { "followed", r.followed } });
    return Json { { "url", url }, { "method", method }, { "started_at_ms", startedAtMs }, { "timings_us", timings },
        { "phases_us", phases }, { "remote_ip", remoteIp }, { "remote_port", remotePort }, { "local_ip", localIp },
        { "local_port", localPort }, { "addresses", addresses }, { "connection_reused", connectionReused },
        { "http_version", httpVersion }, { "alpn", alpn }, { "tls_version", tlsVersion }, { "cipher", cipher },
        { "certificates", certs }, { "status_line", statusLine }, { "status_code", statusCode }, { "headers", hdrs },
        { "body_bytes", bodyBytes }, { "redirects", redirs } };
}

std::string ProbeResult::toJsonText() const
{
    return jsonText(toJson());
}

Result<ProbeResult> ProbeResult::fromJson(const nlohmann::ordered_json& j)
{
    if (!j.is_object()) return Error { "probe result: expected a JSON object" };
    ProbeResult r;
    try {
        read(j, "url", r.url);
        read(j, "method", r.method);
        read(j, "started_at_ms", r.startedAtMs);
        if (const auto t = j.find("timings_us"); t != j.end()) {
            read(*t, "dns", r.dnsUs);
            read(*t, "connect", r.connectUs);
            read(*t, "tls", r.tlsUs);
            read(*t, "request_sent", r.requestSentUs);
            read(*t, "first_byte", r.firstByteUs);
            read(*t, "total", r.totalUs);
            read(*t, "redirect", r.redirectUs);
        }
        read(j, "remote_ip", r.remoteIp);
        read(j, "remote_port", r.remotePort);
        read(j, "local_ip", r.localIp);
        read(j, "local_port", r.localPort);
        read(j, "addresses", r.addresses);
        read(j, "connection_reused", r.connectionReused);
        read(j, "http_version", r.httpVersion);
        read(j, "alpn", r.alpn);
        read(j, "tls_version", r.tlsVersion);
        read(j, "cipher", r.cipher);
        for (const auto& c : j.value("certificates", Json::array())) {
            ProbeCertificate cert;
            read(c, "subject", cert.subject);
            read(c, "issuer", cert.issuer);
            read(c, "sans", cert.sans);
            read(c, "not_before", cert.notBefore);
            read(c, "not_after", cert.notAfter);
            read(c, "days_to_expiry", cert.daysToExpiry);
            r.certificates.push_back(std::move(cert));
        }
        read(j, "status_line", r.statusLine);
        read(j, "status_code", r.statusCode);
        for (const auto& h : j.value("headers", Json::array()))
            r.headers.push_back({ h.at("name").get<std::string>(), h.at("value").get<std::string>() });
        read(j, "body_bytes", r.bodyBytes);
        for (const auto& x : j.value("redirects", Json::array())) {
            ProbeRedirect red;
            read(x, "from", red.fromUrl);
            read(x, "to", red.toUrl);
            read(x, "status", red.statusCode);
            read(x, "total_us", red.totalUs);
            read(x, "followed", red.followed);
            r.redirects.push_back(std::move(red));
        }
    } catch (const Json::exception& e) {
        return Error { std::string("probe result: ") + e.what() };
    }
    return r;
}

Result<ProbeResult> ProbeResult::fromJsonText(const std::string& text)
{
    auto j = parseJsonText<Json>(text);
    if (!j) return Error { "probe result: not valid JSON (" + j.error() + ")" };
    return fromJson(*j);
}

ProbeSummary summarize(const std::vector<ProbeResult>& probes)
{
    ProbeSummary s;
    s.count = probes.size();
    std::array<std::vector<uint64_t>, PROBE_PHASE_COUNT> values;
    std::vector<uint64_t> totals;
    for (const ProbeResult& p : probes) {
        s.tls = s.tls || p.usedTls();
        for (ProbePhase phase : PROBE_PHASES)
            values[static_cast<size_t>(phase)].push_back(p.phaseUs(phase));
        totals.push_back(p.totalUs);
    }
    for (size_t i = 0; i < PROBE_PHASE_COUNT; ++i)
        s.phases[i] = statsOf(std::move(values[i]));
    s.total = statsOf(std::move(totals));
    return s;
}

nlohmann::ordered_json ProbeSummary::toJson() const
{
    Json phasesJson = Json::object();
    for (ProbePhase phase : PROBE_PHASES)
        if (phase != ProbePhase::Tls || tls) phasesJson[std::string(phaseKey(phase))] = statsJson((*this)[phase]);
    return Json { { "count", count }, { "phases_us", phasesJson }, { "total_us", statsJson(total) } };
}

} // namespace wb
