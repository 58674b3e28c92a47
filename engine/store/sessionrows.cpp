#include "store/sessionrows.h"

#include "common/jsontext.h"
#include "store/sqldatabase.h"
#include "wire/configcodec.h"
#include "wire/intervalcodec.h"
#include "wire/runendcodec.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace wb {

namespace {

const char* const LATENCY_FIELDS[] = { "min_us", "mean_us", "stdev_us", "max_us", "within_stdev_pct", "p50_us",
    "p75_us", "p90_us", "p99_us", "p99_9_us", "p99_99_us" };
const char* const ERROR_FIELDS[] = { "connect", "read", "write", "timeout", "tls", "parse", "stream" };
// Responses outside 2xx/3xx: an answer, not an error kind; the column's name is the schema's since
// version 1. Intervals and mix entries write it from their status codes (which are what is read
// back); a run's totals keep it as their own field, the only one an imported run has.
const char* const NON2XX_COLUMN = "errors_status";

void addLatencyColumns(std::vector<std::string>& out, const std::string& prefix)
{
    for (const char* f : LATENCY_FIELDS)
        out.push_back(prefix + f);
}

void addErrorColumns(std::vector<std::string>& out)
{
    for (const char* f : ERROR_FIELDS)
        out.push_back(std::string("errors_") + f);
    out.push_back(NON2XX_COLUMN);
}

// Same order as LATENCY_FIELDS.
double* latencyField(LatencySummary& s, int i)
{
    double* fields[] = { &s.minUs, &s.meanUs, &s.stdevUs, &s.maxUs, &s.withinStdevPct, &s.p50Us, &s.p75Us, &s.p90Us,
        &s.p99Us, &s.p999Us, &s.p9999Us };
    return fields[i];
}

// Same order as ERROR_FIELDS.
uint64_t* errorField(ErrorCounts& e, int i)
{
    uint64_t* fields[] = { &e.connect, &e.read, &e.write, &e.timeout, &e.tls, &e.parse, &e.stream };
    return fields[i];
}

const char* const PHASE_FIELDS[] = { "count", "mean_us", "p50_us", "p90_us", "p99_us", "max_us" };
const char* const PHASE_PREFIXES[] = { "connect_", "tls_handshake_", "first_byte_" };

// Same order as PHASE_PREFIXES.
PhaseSummary* phaseOf(RunTotals& t, int i)
{
    PhaseSummary* phases[] = { &t.connect, &t.tlsHandshake, &t.firstByte };
    return phases[i];
}

void bindPhase(SqlStatement& q, const PhaseSummary& s)
{
    q.bind(s.count).bind(s.meanUs).bind(s.p50Us).bind(s.p90Us).bind(s.p99Us).bind(s.maxUs);
}

PhaseSummary readPhase(const SqlStatement& q, int& column)
{
    PhaseSummary s;
    s.count = q.uint64(column++);
    for (double* f : { &s.meanUs, &s.p50Us, &s.p90Us, &s.p99Us, &s.maxUs })
        *f = q.real(column++);
    return s;
}

constexpr int LATENCY_FIELD_COUNT = static_cast<int>(std::size(LATENCY_FIELDS));
constexpr int ERROR_FIELD_COUNT = static_cast<int>(std::size(ERROR_FIELDS));

void bindLatency(SqlStatement& q, LatencySummary s)
{
    for (int i = 0; i < LATENCY_FIELD_COUNT; ++i)
        q.bind(*latencyField(s, i));
}

LatencySummary readLatency(const SqlStatement& q, int& column)
{
    LatencySummary s;
    for (int i = 0; i < LATENCY_FIELD_COUNT; ++i)
        *latencyField(s, i) = q.real(column++);
    return s;
}

// The columns of addErrorColumns: the error kinds, then the non-2xx count.
void bindErrors(SqlStatement& q, ErrorCounts e, uint64_t non2xx)
{
    for (int i = 0; i < ERROR_FIELD_COUNT; ++i)
        q.bind(*errorField(e, i));
    q.bind(non2xx);
}

// The error kinds; `non2xx` gets the count that follows them.
ErrorCounts readErrors(const SqlStatement& q, int& column, uint64_t& non2xx)
{
    ErrorCounts e;
    for (int i = 0; i < ERROR_FIELD_COUNT; ++i)
        *errorField(e, i) = q.uint64(column++);
    non2xx = q.uint64(column++);
    return e;
}

} // namespace

const std::vector<std::string>& totalsColumns()
{
    static const std::vector<std::string> columns = [] {
        std::vector<std::string> c { "duration_s", "requests", "bytes", "requests_per_s", "bytes_per_s" };
        addErrorColumns(c);
        addLatencyColumns(c, "latency_");
        addLatencyColumns(c, "service_");
        for (const char* name : { "thread_rps_mean", "thread_rps_stdev", "thread_rps_max",
                 "thread_rps_within_stdev_pct", "target_rate_per_s", "late_requests", "max_lag_us", "stopped_early",
                 "first_tls_error", "first_connect_error" })
            c.push_back(name);
        addLatencyColumns(c, "send_lag_"); // schema version 3
        for (const char* name : { "protocol", "reconnects", "stream_limit" }) // schema version 5
            c.push_back(name);
        for (const char* prefix : PHASE_PREFIXES) // schema version 6
            for (const char* f : PHASE_FIELDS)
                c.push_back(std::string(prefix) + f);
        c.push_back("slo");
        c.push_back("slo_aborted_by"); // schema version 7
        c.push_back("loader_cost"); // schema version 11
        c.push_back("quic"); // schema version 13
        c.push_back("connection_facts"); // schema version 15
        return c;
    }();
    return columns;
}

void bindTotals(SqlStatement& q, const RunTotals& t)
{
    q.bind(t.durationS).bind(t.requests).bind(t.bytes).bind(t.requestsPerS).bind(t.bytesPerS);
    bindErrors(q, t.errors, t.non2xx);
    bindLatency(q, t.latency);
    bindLatency(q, t.serviceLatency);
    q.bind(t.threadRate.mean).bind(t.threadRate.stdev).bind(t.threadRate.max).bind(t.threadRate.withinStdevPct);
    q.bind(t.targetRatePerS).bind(t.lateRequests).bind(t.maxLagUs).bind(t.stoppedEarly);
    q.bind(t.firstTlsError).bind(t.firstConnectError);
    bindLatency(q, t.sendLag);
    q.bind(t.protocol).bind(t.reconnects).bind(t.serverStreamLimit);
    for (const PhaseSummary* phase : { &t.connect, &t.tlsHandshake, &t.firstByte }) // as PHASE_PREFIXES
        bindPhase(q, *phase);
    q.bind(sloVerdictsToJson(t.slo));
    q.bind(t.sloAbortedBy);
    q.bind(loaderCostText(t.loaderCost));
    q.bind(t.quic.empty() ? std::string() : dumpWireJson(quicSummaryToJson(t.quic)));
    q.bind(t.connections.empty() ? std::string() : dumpWireJson(connectionFactsToJson(t.connections)));
}

RunTotals readTotals(const SqlStatement& q, int& column)
{
    RunTotals t;
    t.durationS = q.real(column++);
    t.requests = q.uint64(column++);
    t.bytes = q.uint64(column++);
    t.requestsPerS = q.real(column++);
    t.bytesPerS = q.real(column++);
    t.errors = readErrors(q, column, t.non2xx);
    t.latency = readLatency(q, column);
    t.serviceLatency = readLatency(q, column);
    t.threadRate.mean = q.real(column++);
    t.threadRate.stdev = q.real(column++);
    t.threadRate.max = q.real(column++);
    t.threadRate.withinStdevPct = q.real(column++);
    t.targetRatePerS = q.real(column++);
    t.lateRequests = q.uint64(column++);
    t.maxLagUs = q.uint64(column++);
    t.stoppedEarly = q.int64(column++) != 0;
    t.firstTlsError = q.text(column++);
    t.firstConnectError = q.text(column++);
    t.sendLag = readLatency(q, column);
    t.protocol = q.text(column++);
    t.reconnects = q.uint64(column++);
    t.serverStreamLimit = static_cast<uint32_t>(q.uint64(column++));
    for (int i = 0; i < static_cast<int>(std::size(PHASE_PREFIXES)); ++i)
        *phaseOf(t, i) = readPhase(q, column);
    t.slo = sloVerdictsFromJson(q.text(column++));
    t.sloAbortedBy = q.text(column++);
    t.loaderCost = loaderCostOfText(q.text(column++));
    // Written by us; a file edited by hand loses its QUIC facts, never the run.
    if (const std::string quic = q.text(column++); !quic.empty()) {
        auto parsed = wireGuarded([&] { return quicSummaryFromJson(parseWireJson(quic)); }, "runs.quic: ");
        if (parsed) t.quic = *parsed;
    }
    if (const std::string facts = q.text(column++); !facts.empty()) {
        auto parsed
            = wireGuarded([&] { return connectionFactsFromJson(parseWireJson(facts)); }, "runs.connection_facts: ");
        if (parsed) t.connections = *parsed;
    }
    return t;
}

const std::vector<std::string>& intervalColumns()
{
    static const std::vector<std::string> columns = [] {
        std::vector<std::string> c { "idx", "start_s", "end_s", "requests", "bytes" };
        addErrorColumns(c);
        c.push_back("connections");
        addLatencyColumns(c, "latency_");
        addLatencyColumns(c, "service_");
        for (const char* name : { "target_rate_per_s", "late_requests", "max_lag_us", "status_codes",
                 "latency_histogram", "service_histogram", "start_unix_ms" })
            c.push_back(name);
        addLatencyColumns(c, "send_lag_");
        c.push_back("send_lag_histogram");
        for (const char* prefix : PHASE_PREFIXES) // schema version 6
            c.push_back(std::string(prefix) + "histogram");
        for (const char* name : { "backends", "unnamed_responses", "upstream_histogram", "front_door_histogram",
                 "upstream_missing" }) // schema version 10
            c.push_back(name);
        for (const char* name : { "in_flight", "loader_cost" }) // schema version 11
            c.push_back(name);
        c.push_back("thread_rps"); // schema version 16
        return c;
    }();
    return columns;
}

void bindInterval(SqlStatement& q, const IntervalRecord& r)
{
    q.bind(r.index).bind(r.startS).bind(r.endS).bind(r.requests).bind(r.bytes);
    bindErrors(q, r.errors, r.non2xx());
    q.bind(r.connections);
    bindLatency(q, r.latency);
    bindLatency(q, r.serviceLatency);
    q.bind(r.targetRatePerS).bind(r.lateRequests).bind(r.maxLagUs).bind(statusCodesToJson(r.statusCodes));
    q.bindBlob(r.latencyHistogram).bindBlob(r.serviceHistogram);
    q.bind(r.startUnixMs);
    bindLatency(q, r.sendLag);
    q.bindBlob(r.sendLagHistogram);
    q.bindBlob(r.connectHistogram).bindBlob(r.tlsHandshakeHistogram).bindBlob(r.firstByteHistogram);
    q.bind(r.backends.empty() ? std::string() : dumpWireJson(backendsToJson(r.backends)));
    q.bind(r.unnamedResponses).bindBlob(r.upstreamHistogram).bindBlob(r.frontDoorHistogram).bind(r.upstreamMissing);
    q.bind(r.inFlight).bind(loaderCostText(r.loaderCost));
    q.bind(r.threadRateSamples.empty() ? std::string() : dumpWireJson(WireJson(r.threadRateSamples)));
}

IntervalRecord readInterval(const SqlStatement& q, int& column)
{
    IntervalRecord r;
    r.index = static_cast<uint32_t>(q.int64(column++));
    r.startS = q.real(column++);
    r.endS = q.real(column++);
    r.requests = q.uint64(column++);
    r.bytes = q.uint64(column++);
    uint64_t non2xx = 0; // from the status codes
    r.errors = readErrors(q, column, non2xx);
    r.connections = static_cast<uint32_t>(q.int64(column++));
    r.latency = readLatency(q, column);
    r.serviceLatency = readLatency(q, column);
    r.targetRatePerS = q.real(column++);
    r.lateRequests = q.uint64(column++);
    r.maxLagUs = q.uint64(column++);
    r.statusCodes = statusCodesFromJson(q.text(column++));
    r.latencyHistogram = q.blob(column++);
    r.serviceHistogram = q.blob(column++);
    r.startUnixMs = q.int64(column++);
    r.sendLag = readLatency(q, column);
    r.sendLagHistogram = q.blob(column++);
    r.connectHistogram = q.blob(column++);
    r.tlsHandshakeHistogram = q.blob(column++);
    r.firstByteHistogram = q.blob(column++);
    // What this process wrote: a list the codec refuses is left out, not guessed.
    if (const std::string backends = q.text(column++); !backends.empty()) {
        auto list = wireGuarded([&] { return backendsFromJson(parseWireJson(backends)); }, "");
        if (list) r.backends = std::move(*list);
    }
    r.unnamedResponses = q.uint64(column++);
    r.upstreamHistogram = q.blob(column++);
    r.frontDoorHistogram = q.blob(column++);
    r.upstreamMissing = q.uint64(column++);
    r.inFlight = static_cast<uint32_t>(q.uint64(column++));
    r.loaderCost = loaderCostOfText(q.text(column++));
    // What this process wrote: samples the codec refuses are left out, not guessed.
    if (const std::string samples = q.text(column++); !samples.empty()) {
        auto parsed = wireGuarded([&] { return threadRateSamplesFromJson(parseWireJson(samples), "thread_rps"); }, "");
        if (parsed) r.threadRateSamples = std::move(*parsed);
    }
    return r;
}

const std::vector<std::string>& entryColumns()
{
    static const std::vector<std::string> columns = [] {
        std::vector<std::string> c { "idx", "label", "requests" };
        addErrorColumns(c);
        c.push_back("status_codes");
        c.push_back("latency_histogram");
        return c;
    }();
    return columns;
}

void bindEntry(SqlStatement& q, size_t index, const std::string& label, const EntryStats& e)
{
    q.bind(static_cast<uint64_t>(index)).bind(label).bind(e.requests);
    bindErrors(q, e.errors, e.non2xx());
    q.bind(statusCodesToJson(e.statusCodes));
    q.bindBlob(e.latency && !e.latency->empty() ? e.latency->serialize() : std::string());
}

EntryStats readEntry(const SqlStatement& q, int& column, size_t& index)
{
    EntryStats e;
    index = static_cast<size_t>(q.int64(column++));
    ++column; // label: the configuration has it
    e.requests = q.uint64(column++);
    uint64_t non2xx = 0; // from the status codes
    e.errors = readErrors(q, column, non2xx);
    e.statusCodes = statusCodesFromJson(q.text(column++));
    const std::string blob = q.blob(column++);
    if (!blob.empty()) {
        auto h = std::make_unique<LatencyHistogram>();
        if (h->deserialize(blob)) e.latency = std::move(h);
    }
    return e;
}

std::string joinColumns(const std::vector<std::string>& columns, const std::string& prefix)
{
    std::string out;
    for (const auto& c : columns)
        out += (out.empty() ? "" : ", ") + prefix + c;
    return out;
}

std::string placeholders(size_t n)
{
    std::string out;
    for (size_t i = 0; i < n; ++i)
        out += i ? ", ?" : "?";
    return out;
}

std::string loaderCostText(const LoaderCost& cost)
{
    return cost != LoaderCost {} ? dumpWireJson(loaderCostToJson(cost)) : std::string();
}

LoaderCost loaderCostOfText(const std::string& text)
{
    if (text.empty()) return {};
    // What this process wrote: a text the codec refuses is left out, not guessed.
    auto cost = wireGuarded([&] { return loaderCostFromJson(parseWireJson(text)); }, "");
    return cost ? *cost : LoaderCost {};
}

std::string statusCodesToJson(const std::vector<std::pair<int, uint64_t>>& codes)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [code, count] : codes)
        j[std::to_string(code)] = count;
    return jsonText(j);
}

std::vector<std::pair<int, uint64_t>> statusCodesFromJson(const std::string& json)
{
    std::map<int, uint64_t> codes;
    const auto j = parseJsonTextOrDiscarded<nlohmann::json>(json);
    if (!j.is_object()) return {};
    for (const auto& [key, value] : j.items()) {
        if (!value.is_number_unsigned()) continue;
        try {
            codes[std::stoi(key)] += value.get<uint64_t>();
        } catch (const std::exception&) {
            // A key that is not a number: written by something else; skip it.
        }
    }
    return { codes.begin(), codes.end() };
}

std::string joinTags(const std::vector<std::string>& tags)
{
    std::vector<std::string> sorted = tags;
    std::sort(sorted.begin(), sorted.end());
    std::string out;
    for (const auto& t : sorted)
        out += (out.empty() ? "" : ",") + t;
    return out;
}

std::vector<std::string> splitTags(const std::string& text)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find(',', start);
        out.push_back(text.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace wb
