#include "stats/intervalrecord.h"

#include "stats/snapshot.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace wb {

namespace {

std::string serialized(const LatencyHistogram& h)
{
    return h.empty() ? std::string() : h.serialize();
}

LatencyHistogram decoded(const std::string& bytes)
{
    LatencyHistogram h;
    if (!bytes.empty() && !h.deserialize(bytes)) h.reset();
    return h;
}

/// Adds b's histogram into a's (both serialised) and returns the merged summary.
LatencySummary mergeInto(std::string& a, const std::string& b)
{
    LatencyHistogram h = decoded(a);
    h.merge(decoded(b));
    a = serialized(h);
    return LatencySummary::of(h);
}

} // namespace

std::vector<std::pair<int, uint64_t>> nonZeroStatusCodes(const StatusCounts& counts)
{
    std::vector<std::pair<int, uint64_t>> out;
    for (size_t code = 0; code < counts.byCode.size(); ++code)
        if (counts.byCode[code]) out.emplace_back(static_cast<int>(code), counts.byCode[code]);
    return out;
}

IntervalRecord IntervalRecord::of(const IntervalSnapshot& s, int64_t startUnixMs)
{
    IntervalRecord r;
    r.index = s.index;
    r.startS = s.startS;
    r.endS = s.endS;
    r.startUnixMs = startUnixMs;
    r.requests = s.requests;
    r.bytes = s.bytes;
    r.errors = s.errors;
    r.connections = s.connections;
    r.inFlight = s.inFlight;
    r.latency = LatencySummary::of(s.latency);
    r.serviceLatency = LatencySummary::of(s.serviceLatency);
    r.sendLag = LatencySummary::of(s.sendLag);
    // The open-model fields mean nothing in the closed model: unknown/0 there.
    r.targetRatePerS = s.targetRatePerS > 0 ? s.targetRatePerS : UNKNOWN;
    r.lateRequests = s.lateRequests;
    r.maxLagUs = s.maxLagUs;
    r.statusCodes = nonZeroStatusCodes(s.status);
    r.latencyHistogram = serialized(s.latency);
    r.serviceHistogram = serialized(s.serviceLatency);
    r.sendLagHistogram = serialized(s.sendLag);
    r.connectHistogram = serialized(s.connectTime);
    r.tlsHandshakeHistogram = serialized(s.tlsHandshake);
    r.firstByteHistogram = serialized(s.firstByte);
    r.backends = backendRecordsOf(s.backends);
    r.unnamedResponses = s.backends.unnamed;
    r.upstreamHistogram = serialized(s.upstreamTime);
    r.frontDoorHistogram = serialized(s.frontDoor);
    r.upstreamMissing = s.upstreamMissing;
    r.loaderCost = s.loaderCost;
    r.threadRateSamples = s.threadRateSamples;
    return r;
}

LatencyHistogram IntervalRecord::latencyHistogramDecoded() const
{
    return decoded(latencyHistogram);
}

LatencyHistogram IntervalRecord::serviceHistogramDecoded() const
{
    return decoded(serviceHistogram);
}

LatencyHistogram IntervalRecord::sendLagHistogramDecoded() const
{
    return decoded(sendLagHistogram);
}

LatencyHistogram IntervalRecord::connectHistogramDecoded() const
{
    return decoded(connectHistogram);
}

LatencyHistogram IntervalRecord::tlsHandshakeHistogramDecoded() const
{
    return decoded(tlsHandshakeHistogram);
}

LatencyHistogram IntervalRecord::firstByteHistogramDecoded() const
{
    return decoded(firstByteHistogram);
}

LatencyHistogram IntervalRecord::upstreamHistogramDecoded() const
{
    return decoded(upstreamHistogram);
}

LatencyHistogram IntervalRecord::frontDoorHistogramDecoded() const
{
    return decoded(frontDoorHistogram);
}

IntervalSnapshot IntervalRecord::snapshot() const
{
    IntervalSnapshot s;
    s.index = index;
    s.startS = startS;
    s.endS = endS;
    s.targetRatePerS = std::isnan(targetRatePerS) ? 0 : targetRatePerS;
    s.connections = connections;
    s.inFlight = inFlight;
    s.requests = requests;
    s.bytes = bytes;
    s.errors = errors;
    for (const auto& [code, count] : statusCodes)
        s.status.byCode[code >= 0 && code <= StatusCounts::MAX_CODE ? static_cast<size_t>(code) : 0] += count;
    s.latency = decoded(latencyHistogram);
    s.serviceLatency = decoded(serviceHistogram);
    s.sendLag = decoded(sendLagHistogram);
    s.connectTime = decoded(connectHistogram);
    s.tlsHandshake = decoded(tlsHandshakeHistogram);
    s.firstByte = decoded(firstByteHistogram);
    s.backends = backendBreakdownOf(backends, unnamedResponses);
    s.upstreamTime = decoded(upstreamHistogram);
    s.frontDoor = decoded(frontDoorHistogram);
    s.upstreamMissing = upstreamMissing;
    s.loaderCost = loaderCost;
    s.threadRateSamples = threadRateSamples;
    s.lateRequests = lateRequests;
    s.maxLagUs = maxLagUs;
    return s;
}

void IntervalRecord::add(const IntervalRecord& o)
{
    if (o.startUnixMs > 0 && (startUnixMs == 0 || o.startUnixMs < startUnixMs)) startUnixMs = o.startUnixMs;
    requests += o.requests;
    bytes += o.bytes;
    errors += o.errors;
    connections += o.connections;
    inFlight += o.inFlight;
    loaderCost.add(o.loaderCost);
    threadRateSamples.insert(threadRateSamples.end(), o.threadRateSamples.begin(), o.threadRateSamples.end());
    latency = mergeInto(latencyHistogram, o.latencyHistogram);
    serviceLatency = mergeInto(serviceHistogram, o.serviceHistogram);
    sendLag = mergeInto(sendLagHistogram, o.sendLagHistogram);
    mergeInto(connectHistogram, o.connectHistogram);
    mergeInto(tlsHandshakeHistogram, o.tlsHandshakeHistogram);
    mergeInto(firstByteHistogram, o.firstByteHistogram);
    mergeInto(upstreamHistogram, o.upstreamHistogram);
    mergeInto(frontDoorHistogram, o.frontDoorHistogram);
    upstreamMissing += o.upstreamMissing;
    if (!o.backends.empty() || o.unnamedResponses > 0) {
        BackendBreakdown merged = backendBreakdownOf(backends, unnamedResponses);
        merged.add(backendBreakdownOf(o.backends, o.unnamedResponses));
        backends = backendRecordsOf(merged);
        unnamedResponses = merged.unnamed;
    }
    if (!std::isnan(o.targetRatePerS))
        targetRatePerS = (std::isnan(targetRatePerS) ? 0 : targetRatePerS) + o.targetRatePerS;
    lateRequests += o.lateRequests;
    maxLagUs = std::max(maxLagUs, o.maxLagUs);
    std::map<int, uint64_t> codes(statusCodes.begin(), statusCodes.end());
    for (const auto& [code, count] : o.statusCodes)
        codes[code] += count;
    statusCodes.assign(codes.begin(), codes.end());
}

} // namespace wb
