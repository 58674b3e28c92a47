#include "store/sessiontypes.h"

#include "run/runresult.h"
#include "stats/snapshot.h"

#include <chrono>

namespace wb {

namespace {

constexpr std::pair<RunStatus, const char*> STATUS_NAMES[] = {
    { RunStatus::Running, "running" },
    { RunStatus::Completed, "completed" },
    { RunStatus::Stopped, "stopped" },
    { RunStatus::Interrupted, "interrupted" },
    { RunStatus::Failed, "failed" },
    { RunStatus::Imported, "imported" },
};

constexpr std::pair<ExperimentStatus, const char*> EXPERIMENT_STATUS_NAMES[] = {
    { ExperimentStatus::Planned, "planned" },
    { ExperimentStatus::Running, "running" },
    { ExperimentStatus::Completed, "completed" },
    { ExperimentStatus::Stopped, "stopped" },
    { ExperimentStatus::Interrupted, "interrupted" },
    { ExperimentStatus::Failed, "failed" },
};

double asDouble(uint64_t v)
{
    return static_cast<double>(v);
}

} // namespace

const char* runStatusName(RunStatus status)
{
    for (const auto& [s, name] : STATUS_NAMES)
        if (s == status) return name;
    return "running";
}

std::optional<RunStatus> runStatusFromName(const std::string& name)
{
    for (const auto& [s, n] : STATUS_NAMES)
        if (name == n) return s;
    return std::nullopt;
}

const char* experimentStatusName(ExperimentStatus status)
{
    for (const auto& [s, name] : EXPERIMENT_STATUS_NAMES)
        if (s == status) return name;
    return "planned";
}

std::optional<ExperimentStatus> experimentStatusFromName(const std::string& name)
{
    for (const auto& [s, n] : EXPERIMENT_STATUS_NAMES)
        if (name == n) return s;
    return std::nullopt;
}

LatencySummary LatencySummary::of(const LatencyHistogram& h)
{
    LatencySummary s;
    if (h.empty()) return s;
    s.minUs = asDouble(h.minUs());
    s.meanUs = h.meanUs();
    s.stdevUs = h.stdevUs();
    s.maxUs = asDouble(h.maxUs());
    s.withinStdevPct = h.percentWithinStdev();
    s.p50Us = asDouble(h.valueAtPercentileUs(50));
    s.p75Us = asDouble(h.valueAtPercentileUs(75));
    s.p90Us = asDouble(h.valueAtPercentileUs(90));
    s.p99Us = asDouble(h.valueAtPercentileUs(99));
    s.p999Us = asDouble(h.valueAtPercentileUs(99.9));
    s.p9999Us = asDouble(h.valueAtPercentileUs(99.99));
    return s;
}

std::vector<std::pair<int, uint64_t>> nonZeroStatusCodes(const StatusCounts& counts)
{
    std::vector<std::pair<int, uint64_t>> out;
    for (size_t code = 0; code < counts.byCode.size(); ++code)
        if (counts.byCode[code]) out.emplace_back(static_cast<int>(code), counts.byCode[code]);
    return out;
}

IntervalRecord IntervalRecord::of(const IntervalSnapshot& s)
{
    IntervalRecord r;
    r.index = s.index;
    r.startS = s.startS;
    r.endS = s.endS;
    r.requests = s.requests;
    r.bytes = s.bytes;
    r.errors = s.errors;
    r.connections = s.connections;
    r.latency = LatencySummary::of(s.latency);
    r.serviceLatency = LatencySummary::of(s.serviceLatency);
    // The open-model fields mean nothing in the closed model: store them as unknown/0.
    r.targetRatePerS = s.targetRatePerS > 0 ? s.targetRatePerS : UNKNOWN;
    r.lateRequests = s.lateRequests;
    r.maxLagUs = s.maxLagUs;
    r.statusCodes = nonZeroStatusCodes(s.status);
    if (!s.latency.empty()) r.latencyHistogram = s.latency.serialize();
    if (!s.serviceLatency.empty()) r.serviceHistogram = s.serviceLatency.serialize();
    return r;
}

FinishedRun FinishedRun::of(const RunResult& result, int64_t finishedAtMs)
{
    FinishedRun f;
    f.status = result.stoppedEarly ? RunStatus::Stopped : RunStatus::Completed;
    f.finishedAtMs = finishedAtMs;
    RunTotals& t = f.totals;
    t.durationS = result.durationS;
    t.requests = result.requests;
    t.bytes = result.bytes;
    t.requestsPerS = result.requestsPerS();
    t.bytesPerS = result.bytesPerS();
    t.errors = result.errors;
    t.latency = LatencySummary::of(result.latency);
    t.serviceLatency = LatencySummary::of(result.serviceLatency);
    t.sendLag = LatencySummary::of(result.sendLag);
    const RateSamples& rates = result.threadRates;
    if (!rates.perThreadRequestsPerS.empty())
        t.threadRate = ThreadRateSummary { rates.mean(), rates.stdev(), rates.max(), rates.percentWithinStdev() };
    t.targetRatePerS = result.targetRatePerS > 0 ? result.targetRatePerS : UNKNOWN;
    t.lateRequests = result.lateRequests;
    t.maxLagUs = result.maxLagUs;
    t.stoppedEarly = result.stoppedEarly;
    t.firstTlsError = result.firstTlsError;
    t.firstConnectError = result.firstConnectError;
    f.statusCodes = nonZeroStatusCodes(result.status);
    if (!result.latency.empty()) f.latencyHistogram = result.latency.serialize();
    if (!result.serviceLatency.empty()) f.serviceHistogram = result.serviceLatency.serialize();
    return f;
}

int64_t wallClockNowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace wb
