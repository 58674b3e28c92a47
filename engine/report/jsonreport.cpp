#include "report/jsonreport.h"

#include "report/backendreport.h"
#include "report/generatorlag.h"
#include "report/loadersaturation.h"
#include "wire/configcodec.h"
#include "wire/intervalcodec.h"
#include "wire/runendcodec.h"

#include <cmath>

namespace wb {

namespace {

// ordered_json keeps the keys in the order written here, so the file reads
// top-down (config, summary, details) instead of alphabetically.
using Json = WireJson;

double secondsOf(uint64_t us)
{
    return static_cast<double>(us) / 1e6;
}

Json configJson(const RunConfig& config)
{
    Json stages = Json::array();
    for (const Stage& st : config.stages)
        stages.push_back({ { "duration_s", secondsOf(st.durationUs) }, { "target", st.target } });
    return Json {
        { "threads", config.threads },
        { "connections", config.connections },
        { "duration_s", secondsOf(config.durationUs) },
        { "warmup_s", secondsOf(config.warmupUs) },
        { "timeout_s", secondsOf(config.timeoutUs) },
        { "pipeline", config.pipeline },
        { "streams", config.streams },
        // null: closed loop, requests as fast as responses come back
        { "rate", config.ratePerS > 0 ? Json(config.ratePerS) : Json(nullptr) },
        { "stages", std::move(stages) },
        { "stages_kind",
            config.stages.empty() ? Json(nullptr) : Json(config.stagesAreConnections ? "connections" : "rate") },
        { "model", config.openModel() ? "open" : "closed" },
    };
}

Json latencyJson(const LatencyHistogram& latency)
{
    return Json {
        { "min", latency.minUs() },
        { "mean", latency.meanUs() },
        { "stdev", latency.stdevUs() },
        { "max", latency.maxUs() },
        { "p50", latency.valueAtPercentileUs(50) },
        { "p75", latency.valueAtPercentileUs(75) },
        { "p90", latency.valueAtPercentileUs(90) },
        { "p99", latency.valueAtPercentileUs(99) },
        { "p99_9", latency.valueAtPercentileUs(99.9) },
        { "p99_99", latency.valueAtPercentileUs(99.99) },
    };
}

// Only the codes that occurred; "0" counts statuses outside 100..599.
Json statusJson(const StatusCounts& status)
{
    Json codes = Json::object();
    for (size_t code = 0; code < status.byCode.size(); ++code) {
        if (status.byCode[code]) codes[std::to_string(code)] = status.byCode[code];
    }
    return codes;
}

// A connection phase (connect, TLS handshake, first byte): how often and how long.
Json phaseJson(const LatencyHistogram& h)
{
    return Json {
        { "count", h.count() },
        { "mean", h.meanUs() },
        { "p50", h.valueAtPercentileUs(50) },
        { "p90", h.valueAtPercentileUs(90) },
        { "p99", h.valueAtPercentileUs(99) },
        { "max", h.maxUs() },
    };
}

// The same histograms, in the same order, as each interval's (wire/intervalcodec), for mergers:
// HdrHistogram's V2 compressed base64 and the exact totals that encoding does not carry.
std::vector<NamedHistogram> runHistograms(const RunResult& result)
{
    std::vector<NamedHistogram> out { { "latency", &result.latency } };
    if (result.config.openModel()) out.push_back({ "service", &result.serviceLatency });
    if (result.config.openModel()) out.push_back({ "send_lag", &result.sendLag });
    out.push_back({ "connect", &result.connectTime });
    if (result.config.request.url.isTls()) out.push_back({ "tls_handshake", &result.tlsHandshake });
    out.push_back({ "ttfb", &result.firstByte });
    if (result.config.upstreamTime.enabled()) {
        out.push_back({ "upstream", &result.upstreamTime });
        out.push_back({ "front_door", &result.frontDoor });
    }
    return out;
}

Json reportJson(const RunResult& result)
{
    Json doc;
    doc["tool"] = "wrkbench";
    doc["version"] = result.engineVersion;
    doc["url"] = result.config.request.url.displayText();
    doc["method"] = result.config.request.method;
    // What was spoken: "http/1.1", "h2" (by ALPN), "h2c" (prior knowledge) or "h3" (QUIC).
    doc["protocol"] = result.protocol.empty() ? protocolId(result.config.httpVersion, result.config.request.url.isTls())
                                              : result.protocol;
    doc["config"] = configJson(result.config);
    doc["summary"] = Json {
        { "requests", result.requests },
        { "bytes", result.bytes },
        { "duration_s", result.durationS },
        { "rps", result.requestsPerS() },
        { "bytes_per_s", result.bytesPerS() },
        { "latency_us", latencyJson(result.latency) },
        { "status_codes", statusJson(result.status) },
        { "errors", errorCountsToJson(result.errors) },
        { "non2xx", result.status.non2xx() },
        { "stopped_early", result.stoppedEarly },
        { "start_unix_ms", result.measureStartUnixMs },
        { "reconnects", result.reconnects },
        // Responses to requests sent during --warmup: they reached the target, in no figure above.
        { "warmup_requests", result.warmupRequests },
    };
    // Connection phases under load: every connection opened (reconnects included), and the
    // first byte of every response, from its send.
    doc["summary"]["connect_us"] = phaseJson(result.connectTime);
    if (result.config.request.url.isTls() && !result.config.http3())
        doc["summary"]["tls_handshake_us"] = phaseJson(result.tlsHandshake);
    doc["summary"]["ttfb_us"] = phaseJson(result.firstByte);
    if (result.serverStreamLimit > 0) doc["summary"]["server_stream_limit"] = result.serverStreamLimit;
    // HTTP/3: connect_us above is the QUIC handshake (TLS 1.3 inside it); what QUIC did besides.
    if (!result.quic.empty()) doc["quic"] = quicSummaryToJson(result.quic);
    // The first response that could not be parsed, server behaviour we tolerated, churn; and the
    // connections opened (what a balancer placing connections saw).
    doc["connections"] = connectionFactsToJson(result.connections);
    doc["connections"]["opened"] = result.connectTime.count();
    doc["connections"]["opened_per_s"]
        = result.durationS > 0 ? static_cast<double>(result.connectTime.count()) / result.durationS : 0.0;
    const bool open = result.config.openModel();
    if (open) {
        // latency_us above is corrected for coordinated omission (from each request's due time).
        doc["summary"]["service_latency_us"] = latencyJson(result.serviceLatency);
        doc["summary"]["requested_rps"] = result.targetRatePerS;
        doc["summary"]["late_requests"] = result.lateRequests;
        doc["summary"]["max_lag_us"] = result.maxLagUs;
        // Send time minus due time: the engine's own scheduling error (plus catch-up when blocked).
        doc["summary"]["send_lag_us"] = Json { { "p50", result.sendLag.valueAtPercentileUs(50) },
            { "p90", result.sendLag.valueAtPercentileUs(90) }, { "p99", result.sendLag.valueAtPercentileUs(99) },
            { "p99_9", result.sendLag.valueAtPercentileUs(99.9) }, { "max", result.sendLag.maxUs() } };
        doc["summary"]["generator_lag_noticeable"] = generatorLagNoticeable(result);
    }
    if (result.loaderCost.measured()) {
        // What the loader itself cost (its workers, its process, its machine) and whether it was
        // saturated: then the figures may measure the loader rather than the target.
        doc["summary"]["loader_cost"] = loaderCostToJson(result.loaderCost);
        doc["summary"]["loader_saturated"] = loaderSaturated(result);
        if (const std::string warning = loaderSaturationWarning(result); !warning.empty())
            doc["summary"]["loader_warning"] = warning;
    }
    putWireHistograms(doc["summary"], runHistograms(result));
    const RateSamples& rates = result.threadRates;
    doc["thread_rps"] = Json {
        { "mean", rates.mean() },
        { "stdev", rates.stdev() },
        { "max", rates.max() },
        { "within_stdev_pct", rates.percentWithinStdev() },
    };
    Json intervals = Json::array();
    for (const IntervalRecord& interval : result.intervals)
        intervals.push_back(intervalToJson(interval, result.config));
    doc["intervals"] = std::move(intervals);
    if (!result.config.mix.empty()) {
        // The mix, entry by entry, in the file's order (config.mix in the JSON config says how it was walked).
        const RequestMixSpec& mix = result.config.mix;
        doc["mix"] = Json { { "source", mix.source }, { "order", mixOrderId(mix.order) }, { "seed", mix.seed },
            { "entries", mix.entries.size() } };
        Json entries = Json::array();
        for (size_t i = 0; i < mix.entries.size(); ++i) {
            const EntryStats none;
            const EntryStats& e = i < result.entries.size() ? result.entries[i] : none;
            const MixRequest& m = mix.entries[i];
            Json status = Json::object();
            for (const auto& [code, n] : e.statusCodes)
                status[std::to_string(code)] = n;
            Json entry { { "index", i }, { "line", m.line }, { "label", m.label }, { "method", m.request.method },
                { "url", m.request.url.displayText() }, { "weight", m.weight }, { "requests", e.requests },
                { "rps", result.durationS > 0 ? static_cast<double>(e.requests) / result.durationS : 0.0 },
                { "errors", e.errors.transportErrors() }, { "non2xx", e.non2xx() },
                { "errors_by_kind", errorCountsToJson(e.errors) }, { "status_codes", std::move(status) } };
            if (e.latency && !e.latency->empty())
                entry["latency_us"] = Json { { "p50", e.latency->valueAtPercentileUs(50) },
                    { "p90", e.latency->valueAtPercentileUs(90) }, { "p99", e.latency->valueAtPercentileUs(99) },
                    { "max", e.latency->maxUs() }, { "mean", e.latency->meanUs() } };
            entries.push_back(std::move(entry));
        }
        doc["entries"] = std::move(entries);
    }
    if (!result.config.slos.empty()) {
        doc["slo"] = sloVerdictsJson(result.slo);
        doc["slo_ok"] = allSlosMet(result.slo);
        if (!result.sloAbortedBy.empty()) doc["slo_aborted_by"] = result.sloAbortedBy;
    }
    // Behind the front door: which backend answered, and the upstream / front-door split
    // (three distributions side by side; the histograms are under "histograms").
    if (result.config.backendFrom.enabled()) doc["backends"] = backendsReportJson(result);
    if (result.config.upstreamTime.enabled()) {
        doc["summary"]["upstream_time_us"] = splitSideJson(result.upstreamTime);
        doc["summary"]["front_door_us"] = splitSideJson(result.frontDoor);
        doc["summary"]["upstream_missing"] = result.upstreamMissing;
    }
    if (!result.loaders.empty()) {
        // A run made by several loaders: what each did (engine/fleet merged them).
        Json loaders = Json::array();
        for (const LoaderSummary& l : result.loaders)
            loaders.push_back(loaderSummaryToJson(l));
        doc["loaders"] = std::move(loaders);
    }
    if (!result.firstTlsError.empty()) doc["first_tls_error"] = result.firstTlsError;
    if (!result.firstConnectError.empty()) doc["first_connect_error"] = result.firstConnectError;
    if (!result.failure.empty()) doc["failure"] = result.failure;
    return doc;
}

} // namespace

std::string formatJsonReport(const RunResult& result)
{
    return dumpWireJson(reportJson(result), 2) + "\n";
}

std::string formatLoaderDocument(const RunResult& share, const LoaderIdentity& identity)
{
    Json doc = reportJson(share);
    doc["loader"] = loaderSectionJson(share, identity);
    return dumpWireJson(doc, 2) + "\n";
}

} // namespace wb
