#include "store/sessiontypes.h"

#include "run/runresult.h"

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

const char* experimentKindName(ExperimentKind kind)
{
    switch (kind) {
    case ExperimentKind::Study:
        return "study";
    case ExperimentKind::Capacity:
        return "capacity";
    case ExperimentKind::Plan:
        break;
    }
    return "plan";
}

FinishedRun FinishedRun::of(const RunResult& result, int64_t finishedAtMs)
{
    FinishedRun f;
    f.loaders = result.loaders;
    f.status = !result.failure.empty() ? RunStatus::Failed
        : result.stoppedEarly          ? RunStatus::Stopped
                                       : RunStatus::Completed;
    f.error = result.failure;
    f.finishedAtMs = finishedAtMs;
    RunTotals& t = f.totals;
    t.durationS = result.durationS;
    t.requests = result.requests;
    t.bytes = result.bytes;
    t.requestsPerS = result.requestsPerS();
    t.bytesPerS = result.bytesPerS();
    t.errors = result.errors;
    t.non2xx = result.status.non2xx();
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
    t.protocol = result.protocol;
    t.reconnects = result.reconnects;
    t.serverStreamLimit = result.serverStreamLimit;
    t.quic = result.quic;
    t.connections = result.connections;
    t.slo = result.slo;
    t.sloAbortedBy = result.sloAbortedBy;
    t.loaderCost = result.loaderCost;
    f.entries = result.entries;
    for (const MixRequest& e : result.config.mix.entries)
        f.entryLabels.push_back(e.label);
    t.connect = PhaseSummary::of(result.connectTime);
    t.tlsHandshake = PhaseSummary::of(result.tlsHandshake);
    t.firstByte = PhaseSummary::of(result.firstByte);
    f.statusCodes = nonZeroStatusCodes(result.status);
    if (!result.latency.empty()) f.latencyHistogram = result.latency.serialize();
    if (!result.serviceLatency.empty()) f.serviceHistogram = result.serviceLatency.serialize();
    if (!result.connectTime.empty()) f.connectHistogram = result.connectTime.serialize();
    if (!result.tlsHandshake.empty()) f.tlsHandshakeHistogram = result.tlsHandshake.serialize();
    if (!result.firstByte.empty()) f.firstByteHistogram = result.firstByte.serialize();
    return f;
}

} // namespace wb
