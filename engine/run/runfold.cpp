#include "run/runfold.h"

#include "run/runcontroller.h"
#include "run/slo.h"

#include <algorithm>
#include <cmath>

namespace wb {

void RunEnd::merge(const RunEnd& o)
{
    if (engineVersion.empty()) engineVersion = o.engineVersion;
    if (protocol.empty()) protocol = o.protocol;
    measuredS = std::max(measuredS, o.measuredS);
    if (o.measureStartUnixMs > 0 && (measureStartUnixMs == 0 || o.measureStartUnixMs < measureStartUnixMs))
        measureStartUnixMs = o.measureStartUnixMs;
    stoppedEarly = stoppedEarly || o.stoppedEarly;
    reconnects += o.reconnects;
    if (o.serverStreamLimit > 0 && (serverStreamLimit == 0 || o.serverStreamLimit < serverStreamLimit))
        serverStreamLimit = o.serverStreamLimit;
    quic.merge(o.quic);
    connections.merge(o.connections);
    warmupRequests += o.warmupRequests;
    if (firstTlsError.empty()) firstTlsError = o.firstTlsError;
    if (firstConnectError.empty()) firstConnectError = o.firstConnectError;
    if (sloAbortedBy.empty()) sloAbortedBy = o.sloAbortedBy;
    if (failure.empty()) failure = o.failure;
    threadRates.perThreadRequestsPerS.insert(threadRates.perThreadRequestsPerS.end(),
        o.threadRates.perThreadRequestsPerS.begin(), o.threadRates.perThreadRequestsPerS.end());
    if (entries.size() < o.entries.size()) entries.resize(o.entries.size());
    for (size_t i = 0; i < o.entries.size(); ++i)
        entries[i].add(o.entries[i]);
    loaders.insert(loaders.end(), o.loaders.begin(), o.loaders.end());
}

RunEnd runEndOf(const RunResult& r)
{
    RunEnd e;
    e.engineVersion = r.engineVersion;
    e.protocol = r.protocol;
    e.measuredS = r.durationS;
    e.measureStartUnixMs = r.measureStartUnixMs;
    e.stoppedEarly = r.stoppedEarly;
    e.reconnects = r.reconnects;
    e.serverStreamLimit = r.serverStreamLimit;
    e.quic = r.quic;
    e.connections = r.connections;
    e.warmupRequests = r.warmupRequests;
    e.firstTlsError = r.firstTlsError;
    e.firstConnectError = r.firstConnectError;
    e.sloAbortedBy = r.sloAbortedBy;
    e.failure = r.failure;
    // The samples travel in the intervals; only a result whose intervals have none (an older
    // loader's) keeps them in its end.
    const bool inIntervals = std::any_of(
        r.intervals.begin(), r.intervals.end(), [](const IntervalRecord& i) { return !i.threadRateSamples.empty(); });
    if (!inIntervals) e.threadRates = r.threadRates;
    e.entries = r.entries;
    e.loaders = r.loaders;
    return e;
}

RunFold::RunFold(const RunConfig& config, bool keepIntervals)
    : m_keepIntervals(keepIntervals)
{
    m_result.config = config;
    m_result.backends.limit = config.backendFrom.maxBackends;
}

void RunFold::add(const IntervalSnapshot& decoded, IntervalRecord record)
{
    m_result.Measurements::add(decoded);
    m_lastEndS = std::max(m_lastEndS, record.endS);
    m_result.threadRates.perThreadRequestsPerS.insert(m_result.threadRates.perThreadRequestsPerS.end(),
        record.threadRateSamples.begin(), record.threadRateSamples.end());
    // The requested rate is the schedule's: what it asked for over each interval, added up.
    if (!std::isnan(record.targetRatePerS)) m_plannedRequests += record.targetRatePerS * record.durationS();
    if (m_firstStartUnixMs == 0 && record.startUnixMs > 0)
        m_firstStartUnixMs = record.startUnixMs - std::llround(record.startS * 1000);
    if (m_keepIntervals) m_result.intervals.push_back(std::move(record));
}

void RunFold::add(IntervalRecord record)
{
    const IntervalSnapshot decoded = record.snapshot();
    add(decoded, std::move(record));
}

RunResult RunFold::finish(const RunEnd& end)
{
    RunResult r = std::move(m_result);
    const RunConfig& config = r.config;
    r.engineVersion = end.engineVersion.empty() ? engineVersion() : end.engineVersion;
    r.protocol = end.protocol.empty() ? protocolId(config.httpVersion, config.request.url.isTls()) : end.protocol;
    // Intervals are aligned to the measurement start: the run lasted until the last one ended,
    // or as long as its longest loader measured.
    r.durationS = std::max(m_lastEndS, end.measuredS);
    r.targetRatePerS = config.openModel() && r.durationS > 0 ? m_plannedRequests / r.durationS : 0;
    r.measureStartUnixMs = end.measureStartUnixMs > 0 ? end.measureStartUnixMs : m_firstStartUnixMs;
    r.stoppedEarly = end.stoppedEarly;
    r.reconnects = end.reconnects;
    r.serverStreamLimit = end.serverStreamLimit;
    r.quic = end.quic;
    r.connections = end.connections;
    r.warmupRequests = end.warmupRequests;
    r.firstTlsError = end.firstTlsError;
    r.firstConnectError = end.firstConnectError;
    r.sloAbortedBy = end.sloAbortedBy;
    r.failure = end.failure;
    // The samples travel in the intervals; an end carries them only from a loader of an older
    // build, whose intervals have none.
    if (r.threadRates.perThreadRequestsPerS.empty()) r.threadRates = end.threadRates;
    r.entries = end.entries;
    r.loaders = end.loaders;
    std::sort(r.loaders.begin(), r.loaders.end(),
        [](const LoaderSummary& a, const LoaderSummary& b) { return a.index < b.index; });
    r.slo = evaluateSlos(config.slos, sloInputsOf(r, r.durationS));
    m_result = RunResult {};
    m_result.config = config;
    return r;
}

} // namespace wb
