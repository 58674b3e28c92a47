#include "store/csvexport.h"

#include "store/frontdoorview.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace wb {

namespace {

using Row = std::vector<std::string>;

std::string ms(double us)
{
    return csvNumber(us / 1000.0);
}
std::string num(uint64_t v)
{
    return std::to_string(v);
}

void addLatencyHeader(Row& row, const std::string& prefix)
{
    for (const char* name : { "min_ms", "mean_ms", "stdev_ms", "max_ms", "within_stdev_pct", "p50_ms", "p75_ms",
             "p90_ms", "p99_ms", "p99_9_ms", "p99_99_ms" })
        row.push_back(prefix + name);
}

void addLatency(Row& row, const LatencySummary& s)
{
    for (double us : { s.minUs, s.meanUs, s.stdevUs, s.maxUs })
        row.push_back(ms(us));
    row.push_back(csvNumber(s.withinStdevPct));
    for (double us : { s.p50Us, s.p75Us, s.p90Us, s.p99Us, s.p999Us, s.p9999Us })
        row.push_back(ms(us));
}

void addErrorsHeader(Row& row)
{
    for (const char* name : { "connect", "read", "write", "timeout", "tls", "parse", "status", "stream" })
        row.push_back(std::string("errors_") + name);
}

// As addErrorsHeader: "errors_status" is the responses outside 2xx/3xx (an answer, not an error
// kind; the column keeps the name exports have always had).
void addErrors(Row& row, const ErrorCounts& e, uint64_t non2xx)
{
    for (uint64_t n : { e.connect, e.read, e.write, e.timeout, e.tls, e.parse, non2xx, e.stream })
        row.push_back(num(n));
}

std::string joinTagList(const std::vector<std::string>& tags)
{
    std::string out;
    for (const auto& t : tags)
        out += (out.empty() ? "" : ",") + t;
    return out;
}

std::string codesText(const std::vector<std::pair<int, uint64_t>>& codes)
{
    std::string out;
    for (const auto& [code, count] : codes)
        out += (out.empty() ? "" : ";") + std::to_string(code) + ":" + std::to_string(count);
    return out;
}

// The summary shows totals only for runs that have them; a running run has none yet.
std::string ifTotals(const RunRecord& r, const std::string& value)
{
    return r.hasTotals ? value : std::string();
}

void addHistogramSpectrum(std::string& out, int64_t runId, const char* kind, const LatencyHistogram& h)
{
    const double total = static_cast<double>(h.count());
    uint64_t cumulative = 0;
    h.forEachBucket([&](const LatencyHistogram::Bucket& b) {
        cumulative += b.count;
        // The bucket's highest value, within what was actually recorded.
        const uint64_t valueUs = std::clamp(b.highUs, h.minUs(), h.maxUs());
        out += csvRow({ std::to_string(runId), kind, csvNumber(100.0 * static_cast<double>(cumulative) / total),
            ms(static_cast<double>(valueUs)), num(cumulative) });
    });
}

} // namespace

std::string csvRow(const std::vector<std::string>& fields)
{
    std::string out;
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i) out += ',';
        out += csvField(fields[i]);
    }
    return out + "\n";
}

std::string csvNumber(double value)
{
    if (std::isnan(value)) return {};
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
    if (ec != std::errc()) return {};
    return std::string(buf, end);
}

std::string isoTimestamp(int64_t msSinceEpoch)
{
    if (msSinceEpoch <= 0) return {};
    const std::time_t seconds = static_cast<std::time_t>(msSinceEpoch / 1000);
    std::tm tm {};
    gmtime_r(&seconds, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    char out[48];
    std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(msSinceEpoch % 1000));
    return out;
}

std::string runsCsv(const std::vector<RunRecord>& runs)
{
    std::string out = csvRow({ "id", "target", "tags", "started", "status", "threads", "connections", "duration_s",
        "requests_per_s", "p50_ms", "p99_ms", "errors", "non2xx" });
    for (const RunRecord& r : runs) {
        out += csvRow({ std::to_string(r.id), r.targetName, joinTagList(r.tags), isoTimestamp(r.startedAtMs),
            runStatusName(r.status), num(r.config.threads), num(r.config.connections),
            ifTotals(r, csvNumber(r.totals.durationS)), ifTotals(r, csvNumber(r.totals.requestsPerS)),
            ifTotals(r, ms(r.totals.latency.p50Us)), ifTotals(r, ms(r.totals.latency.p99Us)),
            ifTotals(r, num(r.totals.errors.transportErrors())), ifTotals(r, num(r.totals.non2xx)) });
    }
    return out;
}

std::string summaryCsv(const std::vector<RunData>& runs)
{
    Row header { "run_id", "target", "url", "method", "status", "tags", "started", "finished", "engine_version", "host",
        "cpu_count", "threads", "connections", "pipeline", "rate_per_s", "planned_duration_s", "duration_s", "requests",
        "bytes", "requests_per_s", "bytes_per_s" };
    addErrorsHeader(header);
    addLatencyHeader(header, "latency_");
    addLatencyHeader(header, "service_");
    for (const char* name : { "thread_rps_mean", "thread_rps_stdev", "thread_rps_max", "thread_rps_within_stdev_pct",
             "target_rate_per_s", "late_requests", "max_lag_ms", "stopped_early", "notes", "source", "command_line",
             "error", "protocol", "streams", "reconnects" })
        header.push_back(name);
    for (const char* phase : { "connect_", "tls_handshake_", "first_byte_" })
        for (const char* c : { "count", "p50_ms", "p99_ms", "max_ms" })
            header.push_back(std::string(phase) + c);
    std::string out = csvRow(header);
    for (const RunData& d : runs) {
        const RunRecord& r = d.run;
        const RunConfig& c = r.config;
        const RunTotals& t = r.totals;
        Row row { std::to_string(r.id), r.targetName, r.url, c.request.method, runStatusName(r.status),
            joinTagList(r.tags), isoTimestamp(r.startedAtMs), isoTimestamp(r.finishedAtMs), r.engineVersion, r.hostName,
            r.cpuCount ? num(r.cpuCount) : "", num(c.threads), num(c.connections), num(c.pipeline),
            c.ratePerS > 0 ? csvNumber(c.ratePerS) : "", csvNumber(static_cast<double>(c.durationUs) / 1e6),
            ifTotals(r, csvNumber(t.durationS)), ifTotals(r, num(t.requests)), ifTotals(r, num(t.bytes)),
            ifTotals(r, csvNumber(t.requestsPerS)), ifTotals(r, csvNumber(t.bytesPerS)) };
        addErrors(row, t.errors, t.non2xx);
        addLatency(row, t.latency);
        addLatency(row, t.serviceLatency);
        for (double v :
            { t.threadRate.mean, t.threadRate.stdev, t.threadRate.max, t.threadRate.withinStdevPct, t.targetRatePerS })
            row.push_back(csvNumber(v));
        row.push_back(num(t.lateRequests));
        row.push_back(ms(static_cast<double>(t.maxLagUs)));
        row.push_back(t.stoppedEarly ? "1" : "0");
        for (const std::string* s : { &r.notes, &r.source, &r.commandLine, &r.error })
            row.push_back(*s);
        row.push_back(t.protocol);
        row.push_back(num(c.streams));
        row.push_back(ifTotals(r, num(t.reconnects)));
        // Connection phases: empty when the run has none (imported, or stored before schema 6).
        for (const PhaseSummary* p : { &t.connect, &t.tlsHandshake, &t.firstByte }) {
            row.push_back(p->count ? num(p->count) : "");
            for (double v : { p->p50Us, p->p99Us, p->maxUs })
                row.push_back(p->count ? ms(v) : "");
        }
        out += csvRow(row);
    }
    return out;
}

std::string seriesCsv(const std::vector<RunData>& runs)
{
    Row header { "run_id", "index", "start_s", "end_s", "requests", "requests_per_s", "bytes" };
    addErrorsHeader(header);
    header.push_back("connections");
    addLatencyHeader(header, "latency_");
    addLatencyHeader(header, "service_");
    for (const char* name : { "target_rate_per_s", "late_requests", "max_lag_ms", "status_codes" })
        header.push_back(name);
    std::string out = csvRow(header);
    for (const RunData& d : runs) {
        for (const IntervalRecord& i : d.intervals) {
            Row row { std::to_string(d.run.id), num(i.index), csvNumber(i.startS), csvNumber(i.endS), num(i.requests),
                csvNumber(i.requestsPerS()), num(i.bytes) };
            addErrors(row, i.errors, i.non2xx());
            row.push_back(num(i.connections));
            addLatency(row, i.latency);
            addLatency(row, i.serviceLatency);
            row.push_back(csvNumber(i.targetRatePerS));
            row.push_back(num(i.lateRequests));
            row.push_back(ms(static_cast<double>(i.maxLagUs)));
            row.push_back(codesText(i.statusCodes));
            out += csvRow(row);
        }
    }
    return out;
}

std::string percentilesCsv(const std::vector<RunData>& runs)
{
    std::string out = csvRow({ "run_id", "kind", "percentile", "latency_ms", "count" });
    for (const RunData& d : runs) {
        if (d.latency && !d.latency->empty()) addHistogramSpectrum(out, d.run.id, "latency", *d.latency);
        if (d.serviceLatency && !d.serviceLatency->empty())
            addHistogramSpectrum(out, d.run.id, "service", *d.serviceLatency);
        for (const PercentileRow& p : d.latencyDistribution)
            out += csvRow({ std::to_string(d.run.id), "distribution", csvNumber(p.percentile), ms(p.valueUs), "" });
        for (const PercentileRow& p : d.spectrum)
            out += csvRow(
                { std::to_string(d.run.id), "spectrum", csvNumber(p.percentile), ms(p.valueUs), num(p.totalCount) });
    }
    return out;
}

std::string backendsCsv(const std::vector<RunData>& runs)
{
    std::string out = csvRow({ "run_id", "backend", "requests", "share", "non2xx", "p50_ms", "p90_ms", "p99_ms",
        "max_ms", "first_seen_s", "last_seen_s" });
    for (const RunData& d : runs) {
        const Measurements m = foldedMeasurementsOf(d);
        const double total = static_cast<double>(std::max<uint64_t>(1, m.requests));
        for (size_t i = 0; i < m.backends.stats.size(); ++i) {
            const BackendStats& s = m.backends.stats[i];
            if (s.requests == 0) continue;
            const auto at = [&](double p) { return ms(static_cast<double>(s.latency.valueAtPercentileUs(p))); };
            out += csvRow({ std::to_string(d.run.id), m.backends.names[i], num(s.requests),
                csvNumber(static_cast<double>(s.requests) / total), num(s.non2xx), at(50), at(90), at(99),
                ms(static_cast<double>(s.latency.maxUs())), csvNumber(s.firstSeenS), csvNumber(s.lastSeenS) });
        }
    }
    return out;
}

std::string upstreamCsv(const std::vector<RunData>& runs)
{
    std::string out
        = csvRow({ "run_id", "kind", "count", "p50_ms", "p90_ms", "p99_ms", "mean_ms", "responses_without" });
    for (const RunData& d : runs) {
        if (!d.run.config.upstreamTime.enabled()) continue;
        const Measurements m = foldedMeasurementsOf(d);
        const LatencyHistogram& total = d.run.config.openModel() ? m.serviceLatency : m.latency;
        const std::pair<const char*, const LatencyHistogram*> sides[]
            = { { "latency", &total }, { "upstream", &m.upstreamTime }, { "front_door", &m.frontDoor } };
        for (const auto& [kind, hist] : sides) {
            // A copy of the binding's pointer: clang 14 (the fuzz tree's compiler) cannot capture a structured binding.
            const LatencyHistogram* h = hist;
            const auto at = [h](double p) { return ms(static_cast<double>(h->valueAtPercentileUs(p))); };
            out += csvRow({ std::to_string(d.run.id), kind, num(h->count()), at(50), at(90), at(99),
                h->empty() ? std::string() : ms(h->meanUs()),
                kind == std::string("latency") ? "" : num(m.upstreamMissing) });
        }
    }
    return out;
}

std::string statusCsv(const std::vector<RunData>& runs)
{
    std::string out = csvRow({ "run_id", "status_code", "count" });
    for (const RunData& d : runs)
        for (const auto& [code, count] : d.statusCodes)
            out += csvRow({ std::to_string(d.run.id), std::to_string(code), num(count) });
    return out;
}

} // namespace wb
