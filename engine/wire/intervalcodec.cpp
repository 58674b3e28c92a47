#include "wire/intervalcodec.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace wb {

namespace {

// A latency of an interval without responses is unknown: 0 in these fields, for people; the
// histograms say exactly what there is.
uint64_t usOrZero(double us)
{
    return std::isnan(us) ? 0 : static_cast<uint64_t>(us);
}

WireJson latencySummaryJson(const LatencySummary& l)
{
    return WireJson { { "p50", usOrZero(l.p50Us) }, { "p90", usOrZero(l.p90Us) }, { "p99", usOrZero(l.p99Us) },
        { "max", usOrZero(l.maxUs) }, { "mean", std::isnan(l.meanUs) ? 0.0 : l.meanUs } };
}

// Past this many backends an interval is refused: every one costs a histogram when read.
constexpr size_t WIRE_MAX_BACKENDS = 4097;

} // namespace

WireJson backendsToJson(const std::vector<BackendRecord>& backends)
{
    WireJson list = WireJson::array();
    for (const BackendRecord& b : backends) {
        LatencyHistogram h;
        if (!b.latencyHistogram.empty() && !h.deserialize(b.latencyHistogram)) h.reset();
        WireJson j { { "name", b.name }, { "requests", b.requests }, { "non2xx", b.non2xx },
            { "first_seen_s", b.firstSeenS }, { "last_seen_s", b.lastSeenS },
            { "latency_us", latencySummaryJson(LatencySummary::of(h)) } };
        putWireHistograms(j, { { "latency", &h } });
        list.push_back(std::move(j));
    }
    return list;
}

std::vector<BackendRecord> backendsFromJson(const WireJson& list)
{
    if (!list.is_array()) throw WireError { "'backends' must be a list" };
    if (list.size() > WIRE_MAX_BACKENDS)
        throw WireError { fmt::format("{} backends in one interval, more than {}", list.size(), WIRE_MAX_BACKENDS) };
    std::vector<BackendRecord> out;
    for (const WireJson& j : list) {
        if (!j.is_object()) throw WireError { "a backend must be an object" };
        BackendRecord b;
        b.name = wireText(j, "name");
        if (b.name.empty()) throw WireError { "a backend without a name" };
        b.requests = wireCount(j, "requests");
        b.non2xx = wireCountOr(j, "non2xx", 0);
        b.firstSeenS = wireNumber(j, "first_seen_s", -1);
        b.lastSeenS = wireNumber(j, "last_seen_s", -1);
        const LatencyHistogram h = wireHistogram(j, "latency");
        if (h.count() > b.requests || b.non2xx > b.requests)
            throw WireError { fmt::format("backend '{}' holds more latencies or non-2xx than requests", b.name) };
        b.latencyHistogram = h.empty() ? std::string() : h.serialize();
        out.push_back(std::move(b));
    }
    return out;
}

WireJson loaderCostToJson(const LoaderCost& c)
{
    const auto pct = [](double share) { return std::round(share * 1000.0) / 10.0; };
    return WireJson { { "worker_wall_us", c.workerWallUs }, { "worker_cpu_us", c.workerCpuUs },
        { "worker_wait_us", c.workerWaitUs }, { "worker_involuntary_switches", c.workerInvoluntarySwitches },
        { "worker_spin_us", c.workerSpinUs }, { "process_wall_us", c.processWallUs },
        { "process_cpu_us", c.processCpuUs }, { "process_involuntary_switches", c.processInvoluntarySwitches },
        { "machine_cpu_us", c.machineCpuUs }, { "machine_busy_us", c.machineBusyUs },
        { "machine_steal_us", c.machineStealUs }, { "machine_cpus", c.machineCpus },
        // For people; a reader recomputes them from the sums above.
        { "worker_busy_pct", pct(c.workerBusyShare()) }, { "worker_cpu_pct", pct(c.workerCpuShare()) },
        { "worker_wait_pct", pct(c.workerWaitShare()) }, { "worker_spin_pct", pct(c.workerSpinShare()) },
        { "worker_work_pct", pct(c.workerWorkShare()) }, { "process_cpus", std::round(c.processCpus() * 100) / 100 },
        { "machine_busy_pct", pct(c.machineBusyShare()) }, { "machine_steal_pct", pct(c.machineStealShare()) },
        { "saturated", c.saturated() } };
}

LoaderCost loaderCostFromJson(const WireJson& j)
{
    if (!j.is_object()) throw WireError { "'loader_cost' must be an object" };
    LoaderCost c;
    c.workerWallUs = wireCountOr(j, "worker_wall_us", 0);
    c.workerCpuUs = wireCountOr(j, "worker_cpu_us", 0);
    c.workerWaitUs = wireCountOr(j, "worker_wait_us", 0);
    c.workerInvoluntarySwitches = wireCountOr(j, "worker_involuntary_switches", 0);
    c.workerSpinUs = wireCountOr(j, "worker_spin_us", 0);
    c.processWallUs = wireCountOr(j, "process_wall_us", 0);
    c.processCpuUs = wireCountOr(j, "process_cpu_us", 0);
    c.processInvoluntarySwitches = wireCountOr(j, "process_involuntary_switches", 0);
    c.machineCpuUs = wireCountOr(j, "machine_cpu_us", 0);
    c.machineBusyUs = wireCountOr(j, "machine_busy_us", 0);
    c.machineStealUs = wireCountOr(j, "machine_steal_us", 0);
    const uint64_t cpus = wireCountOr(j, "machine_cpus", 0);
    // A billion seconds of CPU time in one record is no measurement (and keeps the sums below exact).
    constexpr uint64_t MAX_US = 1'000'000'000'000'000;
    for (uint64_t v : { c.workerWallUs, c.workerCpuUs, c.workerWaitUs, c.workerSpinUs, c.processWallUs, c.processCpuUs,
             c.machineCpuUs, c.machineBusyUs, c.machineStealUs })
        if (v > MAX_US) throw WireError { "'loader_cost' holds a time of more than a billion seconds" };
    // A thread is on a CPU or waiting for one at most all of its wall time, plus a clock tick of
    // rounding between its two clocks: more is not a measurement.
    if (c.workerCpuUs + c.workerWaitUs > c.workerWallUs + c.workerWallUs / 10 + 20'000
        || c.workerSpinUs > c.workerWallUs + c.workerWallUs / 10 + 20'000
        || c.machineBusyUs + c.machineStealUs > c.machineCpuUs || cpus > 1'000'000)
        throw WireError { "'loader_cost' holds more busy time than there was" };
    c.machineCpus = static_cast<uint32_t>(cpus);
    return c;
}

WireJson errorCountsToJson(const ErrorCounts& e)
{
    return WireJson { { "connect", e.connect }, { "read", e.read }, { "write", e.write }, { "timeout", e.timeout },
        { "tls", e.tls }, { "parse", e.parse }, { "stream", e.stream } };
}

ErrorCounts errorCountsFromJson(const WireJson& j)
{
    ErrorCounts e;
    e.connect = wireCount(j, "connect");
    e.read = wireCount(j, "read");
    e.write = wireCount(j, "write");
    e.timeout = wireCount(j, "timeout");
    e.tls = wireCount(j, "tls");
    e.parse = wireCount(j, "parse");
    e.stream = wireCountOr(j, "stream", 0);
    // Earlier writers also sent "status" (responses outside 2xx/3xx) here: the status codes
    // count those, so it is not read.
    return e;
}

WireJson statusCountsToJson(const std::vector<std::pair<int, uint64_t>>& codes)
{
    WireJson j = WireJson::object();
    for (const auto& [code, count] : codes)
        j[std::to_string(code)] = count;
    return j;
}

std::vector<std::pair<int, uint64_t>> statusCountsFromJson(const WireJson& j)
{
    if (!j.is_object()) throw WireError { "'status_codes' must be an object" };
    std::vector<std::pair<int, uint64_t>> out;
    for (const auto& [code, n] : j.items()) {
        int c = -1;
        if (!code.empty() && code.size() <= 3 && code.find_first_not_of("0123456789") == std::string::npos)
            c = std::stoi(code);
        if (c < 0 || c > StatusCounts::MAX_CODE)
            throw WireError { fmt::format(
                "status code '{}' is not a number from 0 to {}", code, StatusCounts::MAX_CODE) };
        if (!n.is_number_unsigned() && !(n.is_number_integer() && n.get<int64_t>() >= 0))
            throw WireError { fmt::format("the count of status {} must be a whole number", code) };
        out.emplace_back(c, n.get<uint64_t>());
    }
    return out;
}

std::vector<double> threadRateSamplesFromJson(const WireJson& j, const char* name)
{
    if (!j.is_array()) throw WireError { fmt::format("'{}' must be an array", name) };
    if (j.size() > MAX_THREAD_RATE_SAMPLES)
        throw WireError { fmt::format("'{}' holds more than {} samples", name, MAX_THREAD_RATE_SAMPLES) };
    std::vector<double> out;
    out.reserve(j.size());
    for (const WireJson& v : j) {
        if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
            throw WireError { fmt::format("a sample of '{}' must be a number of requests per second", name) };
        out.push_back(v.get<double>());
    }
    return out;
}

WireJson intervalToJson(const IntervalRecord& interval, const RunConfig& config)
{
    const bool open = config.openModel();
    // "errors" counts requests without a usable answer (socket, TLS, parse, stream), as
    // everywhere else, each kind in "errors_by_kind"; responses outside 2xx/3xx are answers,
    // "non2xx" (from "status_codes", which is what a reader adds up).
    WireJson j {
        { "t_s", interval.endS },
        { "start_s", interval.startS },
        { "start_unix_ms", interval.startUnixMs },
        { "requests", interval.requests },
        { "rps", interval.requestsPerS() },
        { "bytes", interval.bytes },
        { "errors", interval.transportErrors() },
        { "non2xx", interval.non2xx() },
        { "errors_by_kind", errorCountsToJson(interval.errors) },
        { "status_codes", statusCountsToJson(interval.statusCodes) },
        { "latency_us", latencySummaryJson(interval.latency) },
        { "connections", interval.connections },
        { "in_flight", interval.inFlight },
    };
    if (interval.loaderCost != LoaderCost {}) j["loader_cost"] = loaderCostToJson(interval.loaderCost);
    if (!interval.threadRateSamples.empty()) j["thread_rps"] = interval.threadRateSamples;
    const LatencyHistogram latency = interval.latencyHistogramDecoded();
    const LatencyHistogram service = interval.serviceHistogramDecoded();
    const LatencyHistogram sendLag = interval.sendLagHistogramDecoded();
    const LatencyHistogram connect = interval.connectHistogramDecoded();
    const LatencyHistogram tls = interval.tlsHandshakeHistogramDecoded();
    const LatencyHistogram firstByte = interval.firstByteHistogramDecoded();
    const LatencyHistogram upstream = interval.upstreamHistogramDecoded();
    const LatencyHistogram frontDoor = interval.frontDoorHistogramDecoded();
    std::vector<NamedHistogram> histograms { { "latency", &latency } };
    if (config.backendFrom.enabled()) {
        j["backends"] = backendsToJson(interval.backends);
        j["unnamed_responses"] = interval.unnamedResponses;
    }
    if (config.upstreamTime.enabled()) {
        j["upstream_time_us"] = latencySummaryJson(LatencySummary::of(upstream));
        j["front_door_us"] = latencySummaryJson(LatencySummary::of(frontDoor));
        j["upstream_missing"] = interval.upstreamMissing;
        histograms.push_back({ "upstream", &upstream });
        histograms.push_back({ "front_door", &frontDoor });
    }
    if (open) {
        j["target_rps"] = std::isnan(interval.targetRatePerS) ? 0.0 : interval.targetRatePerS;
        j["service_latency_us"] = latencySummaryJson(interval.serviceLatency);
        j["send_lag_us"] = latencySummaryJson(interval.sendLag);
        j["late_requests"] = interval.lateRequests;
        j["max_lag_us"] = interval.maxLagUs;
        histograms.push_back({ "service", &service });
        histograms.push_back({ "send_lag", &sendLag });
    }
    histograms.push_back({ "connect", &connect });
    if (config.request.url.isTls()) histograms.push_back({ "tls_handshake", &tls });
    histograms.push_back({ "ttfb", &firstByte });
    putWireHistograms(j, histograms);
    return j;
}

std::string formatIntervalJson(const IntervalRecord& interval, const RunConfig& config)
{
    return dumpWireJson(intervalToJson(interval, config));
}

IntervalRecord intervalFromJson(const WireJson& j)
{
    IntervalSnapshot s;
    s.startS = wireNumber(j, "start_s");
    s.endS = wireNumber(j, "t_s");
    if (!(s.endS >= s.startS)) throw WireError { "an interval ends before it starts" };
    s.requests = wireCount(j, "requests");
    s.bytes = wireCount(j, "bytes");
    s.errors = errorCountsFromJson(wireMember(j, "errors_by_kind"));
    for (const auto& [code, n] : statusCountsFromJson(wireMember(j, "status_codes")))
        s.status.byCode[static_cast<size_t>(code)] += n;
    s.connections = static_cast<uint32_t>(wireCountOr(j, "connections", 0));
    s.inFlight = static_cast<uint32_t>(std::min<uint64_t>(wireCountOr(j, "in_flight", 0), UINT32_MAX));
    if (j.contains("loader_cost")) s.loaderCost = loaderCostFromJson(j["loader_cost"]);
    if (j.contains("thread_rps")) s.threadRateSamples = threadRateSamplesFromJson(j["thread_rps"], "thread_rps");
    s.targetRatePerS = wireNumber(j, "target_rps");
    s.lateRequests = wireCountOr(j, "late_requests", 0);
    s.maxLagUs = wireCountOr(j, "max_lag_us", 0);
    s.latency = wireHistogram(j, "latency");
    s.serviceLatency = wireHistogram(j, "service");
    s.sendLag = wireHistogram(j, "send_lag");
    s.connectTime = wireHistogram(j, "connect");
    s.tlsHandshake = wireHistogram(j, "tls_handshake");
    s.firstByte = wireHistogram(j, "ttfb");
    s.upstreamTime = wireHistogram(j, "upstream");
    s.frontDoor = wireHistogram(j, "front_door");
    s.upstreamMissing = wireCountOr(j, "upstream_missing", 0);
    if (j.contains("backends")) s.backends = backendBreakdownOf(backendsFromJson(j["backends"]), 0);
    s.backends.unnamed = wireCountOr(j, "unnamed_responses", 0);
    if (s.backends.namedRequests() + s.backends.unnamed > s.requests
        || s.upstreamTime.count() + s.upstreamMissing > s.requests)
        throw WireError { fmt::format(
            "an interval names more backends or upstream times than its {} requests", s.requests) };
    if (s.latency.count() > s.requests)
        throw WireError { fmt::format(
            "an interval holds {} latencies for {} requests", s.latency.count(), s.requests) };
    return IntervalRecord::of(s, wireInt(j, "start_unix_ms"));
}

Result<IntervalRecord> parseIntervalJson(std::string_view text)
{
    return wireGuarded([&] { return intervalFromJson(parseWireJson(text)); }, "interval: ");
}

} // namespace wb
