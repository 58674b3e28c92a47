#include "wire/runendcodec.h"

#include "wire/intervalcodec.h"

#include <fmt/format.h>

namespace wb {

WireJson loaderSummaryToJson(const LoaderSummary& l)
{
    WireJson j { { "index", l.index }, { "host", l.host }, { "connections", l.connections }, { "requests", l.requests },
        { "errors", l.errors }, { "rps", l.requestsPerS }, { "start_offset_ms", l.startOffsetMs }, { "clock", l.clock },
        { "state", l.state } };
    if (l.cost != LoaderCost {}) j["loader_cost"] = loaderCostToJson(l.cost);
    return j;
}

LoaderSummary loaderSummaryFromJson(const WireJson& j)
{
    LoaderSummary l;
    l.index = static_cast<unsigned>(wireCount(j, "index"));
    l.host = wireText(j, "host");
    l.connections = static_cast<unsigned>(wireCountOr(j, "connections", 0));
    l.requests = wireCountOr(j, "requests", 0);
    l.errors = wireCountOr(j, "errors", 0);
    l.requestsPerS = wireNumber(j, "rps");
    l.startOffsetMs = wireNumber(j, "start_offset_ms");
    l.clock = wireText(j, "clock");
    l.state = wireText(j, "state");
    if (j.contains("loader_cost")) l.cost = loaderCostFromJson(j["loader_cost"]);
    return l;
}

WireJson quicSummaryToJson(const QuicSummary& q)
{
    WireJson ends = WireJson::object();
    for (size_t i = 0; i < QuicSummary::END_KINDS; ++i)
        ends[QUIC_END_NAMES[i]] = q.ends[i];
    return WireJson { { "version", q.version }, { "alpn", q.alpn }, { "handshakes", q.handshakes },
        { "zero_rtt_handshakes", q.zeroRttHandshakes }, { "lost_packets", q.lostPackets },
        { "probe_timeouts", q.probeTimeouts }, { "ends", std::move(ends) }, { "first_end", q.firstEnd } };
}

QuicSummary quicSummaryFromJson(const WireJson& j)
{
    if (!j.is_object()) throw WireError { "'quic' must be an object" };
    QuicSummary q;
    const uint64_t version = wireCountOr(j, "version", 0);
    if (version > UINT32_MAX) throw WireError { "'quic.version' is out of range" };
    q.version = static_cast<uint32_t>(version);
    q.alpn = wireText(j, "alpn");
    q.handshakes = wireCountOr(j, "handshakes", 0);
    q.zeroRttHandshakes = wireCountOr(j, "zero_rtt_handshakes", 0);
    q.lostPackets = wireCountOr(j, "lost_packets", 0);
    q.probeTimeouts = wireCountOr(j, "probe_timeouts", 0);
    if (j.contains("ends")) {
        const WireJson& ends = j.at("ends");
        if (!ends.is_object()) throw WireError { "'quic.ends' must be an object" };
        for (size_t i = 0; i < QuicSummary::END_KINDS; ++i)
            q.ends[i] = wireCountOr(ends, QUIC_END_NAMES[i], 0);
    }
    q.firstEnd = wireText(j, "first_end");
    return q;
}

WireJson connectionFactsToJson(const ConnectionFacts& f)
{
    WireJson j = WireJson::object();
    if (!f.firstParseError.empty()) j["first_parse_error"] = f.firstParseError;
    if (f.hpackTableKept > 0) j["hpack_table_kept"] = f.hpackTableKept;
    if (f.churnCloses > 0) j["churn_closes"] = f.churnCloses;
    return j;
}

ConnectionFacts connectionFactsFromJson(const WireJson& j)
{
    if (!j.is_object()) throw WireError { "'connections' must be an object" };
    ConnectionFacts f;
    f.firstParseError = wireText(j, "first_parse_error");
    f.hpackTableKept = wireCountOr(j, "hpack_table_kept", 0);
    f.churnCloses = wireCountOr(j, "churn_closes", 0);
    return f;
}

WireJson runEndToJson(const RunEnd& e, uint64_t intervalRequests)
{
    WireJson j { { "engine_version", e.engineVersion }, { "protocol", e.protocol }, { "measured_s", e.measuredS },
        { "measure_start_unix_ms", e.measureStartUnixMs }, { "stopped_early", e.stoppedEarly },
        { "reconnects", e.reconnects }, { "server_stream_limit", e.serverStreamLimit },
        { "warmup_requests", e.warmupRequests }, { "first_tls_error", e.firstTlsError },
        { "first_connect_error", e.firstConnectError }, { "slo_aborted_by", e.sloAbortedBy }, { "failure", e.failure },
        { "interval_requests", intervalRequests } };
    // wrk's Thread Stats pool every thread's 100 ms samples, which travel in the intervals; an end
    // holds them only for a run whose intervals had none (a loader of an older build), whole.
    if (!e.threadRates.perThreadRequestsPerS.empty()) j["thread_rps_samples"] = e.threadRates.perThreadRequestsPerS;
    WireJson entries = WireJson::array();
    for (const EntryStats& s : e.entries) {
        WireJson entry { { "requests", s.requests }, { "errors_by_kind", errorCountsToJson(s.errors) },
            { "status_codes", statusCountsToJson(s.statusCodes) } };
        if (s.latency) putWireHistograms(entry, { { "latency", s.latency.get() } });
        entries.push_back(std::move(entry));
    }
    j["entries"] = std::move(entries);
    WireJson loaders = WireJson::array();
    for (const LoaderSummary& l : e.loaders)
        loaders.push_back(loaderSummaryToJson(l));
    j["loaders"] = std::move(loaders);
    if (!e.quic.empty()) j["quic"] = quicSummaryToJson(e.quic);
    if (!e.connections.empty()) j["connections"] = connectionFactsToJson(e.connections);
    return j;
}

RunEnd runEndFromJson(const WireJson& j, uint64_t* intervalRequests)
{
    if (!j.is_object()) throw WireError { "the end of the run must be an object" };
    RunEnd e;
    e.engineVersion = wireText(j, "engine_version");
    e.protocol = wireText(j, "protocol");
    e.measuredS = wireNumber(j, "measured_s");
    e.measureStartUnixMs = wireInt(j, "measure_start_unix_ms");
    e.stoppedEarly = wireBool(j, "stopped_early");
    e.reconnects = wireCountOr(j, "reconnects", 0);
    const uint64_t limit = wireCountOr(j, "server_stream_limit", 0);
    if (limit > UINT32_MAX) throw WireError { "'server_stream_limit' is out of range" };
    e.serverStreamLimit = static_cast<uint32_t>(limit);
    e.warmupRequests = wireCountOr(j, "warmup_requests", 0);
    e.firstTlsError = wireText(j, "first_tls_error");
    e.firstConnectError = wireText(j, "first_connect_error");
    e.sloAbortedBy = wireText(j, "slo_aborted_by");
    e.failure = wireText(j, "failure");
    if (j.contains("thread_rps_samples"))
        e.threadRates.perThreadRequestsPerS
            = threadRateSamplesFromJson(j.at("thread_rps_samples"), "thread_rps_samples");
    if (intervalRequests) *intervalRequests = wireCountOr(j, "interval_requests", UINT64_MAX);
    if (j.contains("entries")) {
        const WireJson& entries = j.at("entries");
        if (!entries.is_array()) throw WireError { "'entries' must be an array" };
        for (const WireJson& entry : entries) {
            EntryStats s;
            s.requests = wireCount(entry, "requests");
            s.errors = errorCountsFromJson(wireMember(entry, "errors_by_kind"));
            s.statusCodes = statusCountsFromJson(wireMember(entry, "status_codes"));
            if (entry.contains("histograms")) {
                LatencyHistogram h = wireHistogram(entry, "latency");
                if (h.count() > s.requests)
                    throw WireError { fmt::format(
                        "an entry holds {} latencies for {} requests", h.count(), s.requests) };
                s.latency = std::make_unique<LatencyHistogram>(std::move(h));
            }
            e.entries.push_back(std::move(s));
        }
    }
    if (j.contains("loaders")) {
        const WireJson& loaders = j.at("loaders");
        if (!loaders.is_array()) throw WireError { "'loaders' must be an array" };
        for (const WireJson& l : loaders)
            e.loaders.push_back(loaderSummaryFromJson(l));
    }
    if (j.contains("quic")) e.quic = quicSummaryFromJson(j.at("quic"));
    if (j.contains("connections")) e.connections = connectionFactsFromJson(j.at("connections"));
    return e;
}

Result<RunEnd> parseRunEndJson(std::string_view text)
{
    return wireGuarded([&] { return runEndFromJson(parseWireJson(text)); }, "end of the run: ");
}

} // namespace wb
