#pragma once
// What one probe request found out: where its time went (curl's timers), the
// connection (addresses, HTTP version, ALPN, TLS, certificate chain) and the
// response (status, headers, body size, redirects). Plain data: the CLI prints
// it, the GUI draws it as a waterfall, the session store keeps it as JSON.

#include "common/result.h"
#include "http/request.h"

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// One certificate as the server sent it.
struct ProbeCertificate
{
    std::string subject; ///< RFC 2253, e.g. "CN=localhost,O=Example"
    std::string issuer;
    std::vector<std::string> sans; ///< subject alternative names: "DNS:localhost", "IP:127.0.0.1"
    std::string notBefore; ///< ISO 8601 UTC, "2026-01-01T00:00:00Z"
    std::string notAfter;
    int64_t daysToExpiry = 0; ///< whole days until notAfter, rounded down; negative once expired
    bool operator==(const ProbeCertificate&) const = default;
};

/// One 3xx answer with a Location, followed or not.
struct ProbeRedirect
{
    std::string fromUrl; ///< the URL that answered with the redirect
    std::string toUrl; ///< where it points (made absolute)
    int statusCode = 0;
    uint64_t totalUs = 0; ///< that request's own total time
    bool followed = false;
    bool operator==(const ProbeRedirect&) const = default;
};

/// The phases of one request, in order. Each one's own duration is the gap
/// between two of curl's cumulative timers.
enum class ProbePhase { Dns, Connect, Tls, Send, Wait, Receive };
constexpr size_t PROBE_PHASE_COUNT = 6;
constexpr std::array<ProbePhase, PROBE_PHASE_COUNT> PROBE_PHASES = { ProbePhase::Dns, ProbePhase::Connect,
    ProbePhase::Tls, ProbePhase::Send, ProbePhase::Wait, ProbePhase::Receive };

/// "DNS lookup", "TCP connect", "TLS handshake", "request sent", "first byte", "body".
std::string_view phaseLabel(ProbePhase phase);
/// Stable key for JSON: "dns", "connect", "tls", "send", "wait", "receive".
std::string_view phaseKey(ProbePhase phase);

/// One bar of the waterfall.
struct ProbeSpan
{
    ProbePhase phase;
    uint64_t startUs = 0; ///< from the start of the request
    uint64_t durationUs = 0;
    uint64_t endUs() const { return startUs + durationUs; }
};

struct ProbeResult
{
    std::string url; ///< the URL that gave the final response (after followed redirects)
    std::string method;
    int64_t startedAtMs = 0; ///< wall clock, Unix milliseconds

    // Cumulative times from the start of the final request, as curl reports them
    // (CURLINFO_*_TIME_T). 0 = the phase did not happen (no TLS over http; a
    // reused connection has no DNS lookup or connect).
    uint64_t dnsUs = 0; ///< name lookup done
    uint64_t connectUs = 0; ///< TCP connection established
    uint64_t tlsUs = 0; ///< TLS handshake done (curl's appconnect)
    uint64_t requestSentUs = 0; ///< about to send the request (curl's pretransfer)
    uint64_t firstByteUs = 0; ///< first response byte received (curl's starttransfer)
    uint64_t totalUs = 0; ///< response complete
    uint64_t redirectUs = 0; ///< time spent in followed redirects before the final request

    std::string remoteIp; ///< the address curl connected to
    uint16_t remotePort = 0;
    std::string localIp;
    uint16_t localPort = 0;
    std::vector<std::string> addresses; ///< everything the host name resolves to (numeric)
    bool connectionReused = false; ///< the final request reused a redirect's connection

    std::string httpVersion; ///< "HTTP/1.1", "HTTP/2"
    std::string alpn; ///< negotiated ALPN protocol; empty without TLS or ALPN
    std::string tlsVersion; ///< "TLSv1.3"; empty without TLS
    std::string cipher; ///< "TLS_AES_256_GCM_SHA384"
    std::vector<ProbeCertificate> certificates; ///< the chain as the server sent it, leaf first

    std::string statusLine; ///< "HTTP/1.1 200 OK"
    int statusCode = 0;
    std::vector<Header> headers; ///< response headers in order, duplicates kept
    uint64_t bodyBytes = 0; ///< decoded body bytes received
    std::vector<ProbeRedirect> redirects;

    bool operator==(const ProbeResult&) const = default;

    bool usedTls() const { return !tlsVersion.empty(); }
    /// The waterfall: one span per phase that happened (no TLS span without TLS), in order,
    /// each starting where the previous one ended. The spans add up to totalUs.
    std::vector<ProbeSpan> spans() const;
    /// Own duration of one phase (0 when it did not happen).
    uint64_t phaseUs(ProbePhase phase) const;
    /// The first header of this name (case-insensitive), or nullptr.
    const Header* header(std::string_view name) const;

    /// Every field, plus the derived per-phase durations under "phases_us". Keys are snake_case.
    nlohmann::ordered_json toJson() const;
    /// toJson() as compact text (invalid UTF-8 from a server is replaced, never thrown).
    std::string toJsonText() const;
    /// Reads what toJson() wrote. Missing keys keep their defaults (older stored probes).
    static Result<ProbeResult> fromJson(const nlohmann::ordered_json& json);
    static Result<ProbeResult> fromJsonText(const std::string& text);
};

/// Smallest, median and largest value of a phase over several probes.
struct PhaseStats
{
    uint64_t minUs = 0;
    uint64_t medianUs = 0; ///< the mean of the middle two for an even count
    uint64_t maxUs = 0;
};

/// --repeat: per phase, and for the total, min/median/max over the probes.
struct ProbeSummary
{
    size_t count = 0;
    std::array<PhaseStats, PROBE_PHASE_COUNT> phases {}; ///< indexed by ProbePhase
    PhaseStats total;
    bool tls = false; ///< the probes used TLS (the TLS row is meaningful)

    const PhaseStats& operator[](ProbePhase phase) const { return phases[static_cast<size_t>(phase)]; }
    nlohmann::ordered_json toJson() const;
};

ProbeSummary summarize(const std::vector<ProbeResult>& probes);

} // namespace wb
