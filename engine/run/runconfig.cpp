#include "run/runconfig.h"

#include "run/stages.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace wb {

const char* loaderPlaceId(LoaderPlacement::On on)
{
    switch (on) {
    case LoaderPlacement::On::Kubernetes:
        return "kubernetes";
    case LoaderPlacement::On::Agents:
        return "agents";
    case LoaderPlacement::On::Local:
        break;
    }
    return "local";
}

Status RunConfig::validate() const
{
    if (loaders.count == 0 || loaders.count > 10'000) return Error { "loaders must be 1 to 10000" };
    if (loaders.distributed() && loaders.count > normalized().connections)
        return Error { "each of " + std::to_string(loaders.count) + " loaders needs a connection: use at least -c"
            + std::to_string(loaders.count) };
    if (loaders.distributed() && sloAbort)
        return Error { "--slo-abort does not combine with loaders yet: each loader sees only its share of the budget" };
    if (loaders.on == LoaderPlacement::On::Agents && loaders.agents.size() != loaders.count)
        return Error { "name one agent per loader" };
    if (loaders.on == LoaderPlacement::On::Kubernetes && loaders.kubeNamespace.empty())
        return Error { "a Kubernetes namespace is required" };
    if (backendFrom.enabled() && (backendFrom.maxBackends == 0 || backendFrom.maxBackends > 4096))
        return Error { "--max-backends must be between 1 and 4096" };
    if (threads == 0) return Error { "threads must be at least 1" };
    if (connections == 0) return Error { "connections must be at least 1" };
    if (loaders.count == 0) return Error { "loaders must be at least 1" };
    if (connections < threads)
        return Error { "connections (" + std::to_string(connections) + ") must be at least the number of threads ("
            + std::to_string(threads) + "): each thread needs a connection" };
    if (threads > 1024) return Error { "threads must be at most 1024" };
    if (responses > 0 && responses < normalized().threads)
        return Error { "--responses " + std::to_string(responses) + " gives some of the "
            + std::to_string(normalized().threads) + " threads no response to wait for: use --responses "
            + std::to_string(normalized().threads) + " or more, or fewer threads" };
    if (pipeline == 0 || pipeline > MAX_PIPELINE)
        return Error { "pipeline depth must be between 1 and " + std::to_string(MAX_PIPELINE) };
    if (streams == 0 || streams > 65536) return Error { "streams per connection must be between 1 and 65536" };
    if (!multiplexed() && streams > 1)
        return Error { "--streams needs HTTP/2 (--http2) or HTTP/3 (--http3); for HTTP/1.1, --pipeline keeps several "
                       "requests in flight" };
    if (multiplexed() && pipeline > 1)
        return Error {
            "--pipeline is HTTP/1.1 pipelining; over HTTP/2 and HTTP/3 use --streams for requests in flight"
        };
    // QUIC has no cleartext form: TLS 1.3 is part of its handshake.
    if (http3() && !request.url.isTls())
        return Error { "HTTP/3 runs over QUIC, which is always encrypted: use an https:// URL with --http3" };
    if (headerTableBytes > 1u << 30) return Error { "the HTTP/2 header table size must be at most 1 GiB" };
    for (unsigned bits : { windowBits, connectionWindowBits })
        if (bits < 16 || bits > 30)
            return Error { "HTTP/2 window bits must be between 16 and 30 (a window of 2^bits - 1 bytes)" };
    if (churn.requestsMin > churn.requestsMax || churn.lifetimeMinUs > churn.lifetimeMaxUs)
        return Error { "connection churn: the lower bound of a range must not exceed the upper one" };
    if ((churn.requestsMax > 0 && churn.requestsMin == 0) || (churn.lifetimeMaxUs > 0 && churn.lifetimeMinUs == 0))
        return Error { "connection churn: a connection carries at least one request and lives longer than 0" };
    if (churn.lifetimeMaxUs > 0 && churn.lifetimeMinUs < 10'000)
        return Error { "--conn-lifetime must be at least 10ms" };
    if (sourceAddresses.size() > 4096) return Error { "--source: at most 4096 source addresses" };
    if (!sourceAddresses.empty() && loaders.on != LoaderPlacement::On::Local)
        return Error { "--source names addresses of this machine; loaders on other machines have their own" };
    if (durationUs < 100'000) return Error { "duration must be at least 100ms" };
    if (timeoutUs == 0) return Error { "timeout must be greater than zero" };
    if (intervalUs < 100'000) return Error { "interval must be at least 100ms" };
    if (ratePerS < 0) return Error { "rate must not be negative" };
    if (sendSpinUs > 10'000) return Error { "send spin must be at most 10ms" };
    for (const auto& st : stages)
        if (st.durationUs == 0 || st.target < 0) return Error { "every stage needs a duration and a target >= 0" };
    if (stagesAreConnections && ratePerS > 0)
        return Error { "connection stages ramp the closed model; they cannot be combined with -R/--rate" };
    if (!stages.empty() && warmupUs > 0)
        return Error { "--warmup cannot be combined with --stages; start the plan with a stage instead" };
    for (const Slo& slo : slos) {
        if (slo.metric == Slo::Metric::Service && !openModel())
            return Error { "SLO '" + slo.expr
                + "': the service time is measured in the open model only (-R/--rate or rate stages)" };
        if (slo.metric == Slo::Metric::TlsHandshake && !request.url.isTls())
            return Error { "SLO '" + slo.expr + "': an http:// target has no TLS handshake" };
        if (slo.metric == Slo::Metric::TlsHandshake && http3())
            return Error { "SLO '" + slo.expr
                + "': over HTTP/3 the TLS handshake is part of QUIC's, measured as the connect phase (connect_p99)" };
    }
    if (sloAbort && std::none_of(slos.begin(), slos.end(), [](const Slo& s) { return s.isBudget(); }))
        return Error { "--slo-abort watches errors and non-2xx budgets: add one, e.g. --slo 'errors<1%'" };
    if (mix.entries.size() > 65535) return Error { "a request mix has at most 65,535 entries" };
    for (const MixRequest& e : mix.entries)
        if (!e.request.url.sameOrigin(request.url))
            return Error { "every request of a mix must go to " + request.url.scheme + "://" + request.url.hostHeader()
                + " (one connection pool serves one origin), not " + e.request.url.displayText() };
    if (request.method.empty()) return Error { "method must not be empty" };
    for (char c : request.method)
        if (c < 'A' || c > 'Z') return Error { "invalid method '" + request.method + "' (use e.g. GET, POST)" };
    return {};
}

const char* protocolId(HttpVersion version, bool tls)
{
    if (version == HttpVersion::Http1) return "http/1.1";
    if (version == HttpVersion::Http3) return "h3";
    return tls ? "h2" : "h2c";
}

Result<HttpVersion> parseHttpVersion(const std::string& text)
{
    std::string t;
    for (char c : text)
        t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (t == "http/1.1" || t == "h1" || t == "1.1" || t == "http1") return HttpVersion::Http1;
    if (t == "h2" || t == "h2c" || t == "http/2" || t == "2" || t == "http2") return HttpVersion::Http2;
    if (t == "h3" || t == "http/3" || t == "3" || t == "http3") return HttpVersion::Http3;
    return Error { "unknown HTTP version '" + text + "' (use http/1.1, h2 or h3)" };
}

std::vector<RequestSpec> RunConfig::requests() const
{
    if (mix.empty()) return { request };
    std::vector<RequestSpec> out;
    out.reserve(mix.entries.size());
    for (const MixRequest& e : mix.entries)
        out.push_back(e.request);
    return out;
}

RunConfig RunConfig::withHttpVersion(HttpVersion version) const
{
    RunConfig c = *this;
    c.httpVersion = version;
    if (version != HttpVersion::Http1)
        c.pipeline = 1;
    else
        c.streams = 1;
    return c;
}

RunConfig RunConfig::normalized() const
{
    RunConfig c = *this;
    if (c.stages.empty()) return c;
    c.durationUs = totalStageDurationUs(c.stages);
    if (c.stagesAreConnections) {
        double most = 0;
        for (const Stage& st : c.stages)
            most = std::max(most, st.target);
        c.connections = std::max(static_cast<unsigned>(std::lround(most)), c.threads);
    }
    return c;
}

} // namespace wb
