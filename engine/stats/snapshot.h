#pragma once
// What workers measure: the counters and histograms of one stretch of a run
// (Measurements), and one interval of it (IntervalSnapshot), merged over all
// workers by the run controller. Observers and the store receive the interval
// as an IntervalRecord (stats/intervalrecord.h), made from a snapshot once.

#include "stats/backends.h"
#include "stats/counters.h"
#include "stats/histogram.h"
#include "stats/loadercost.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace wb {

/// Counters and histograms that add up exactly: per worker, per interval, per run.
struct Measurements
{
    uint64_t requests = 0; ///< responses completed (any status)
    uint64_t bytes = 0; ///< bytes read from the network (headers and bodies)
    ErrorCounts errors;
    StatusCounts status;
    LatencyHistogram latency; ///< in the open model corrected for coordinated omission (from the due time)
    LatencyHistogram serviceLatency; ///< open model only: from the actual send (service time)
    uint64_t lateRequests = 0; ///< open model: requests sent more than 1 ms after their due time
    uint64_t maxLagUs = 0; ///< open model: largest send time minus due time
    LatencyHistogram sendLag; ///< open model: send time minus due time (scheduling error + catch-up)
    // Where the time goes, phase by phase (k6's http_req_connecting / _tls_handshaking / _waiting):
    LatencyHistogram connectTime; ///< TCP connect of every connection opened (reconnects included), successful ones
    LatencyHistogram tlsHandshake; ///< TLS handshake of every connection opened, successful ones
    LatencyHistogram firstByte; ///< send of a request to the first byte of its response (not corrected)
    // Behind the front door (--backend-from, --upstream-time; empty without them):
    BackendBreakdown backends; ///< which backend answered; responses that named none in backends.unnamed
    LatencyHistogram upstreamTime; ///< the upstream time a response stated (header or Server-Timing)
    LatencyHistogram frontDoor; ///< of the same responses: service time (send to complete) minus upstream time
    uint64_t upstreamMissing = 0; ///< --upstream-time: responses that stated none (a subset of requests)
    /// What the loader itself cost meanwhile: its workers' CPU and run-queue wait, its process, the
    /// machine (stats/loadercost.h); a run's is its intervals' added up.
    LoaderCost loaderCost;

    /// Adds another set of measurements (another worker's, or the next interval's).
    void add(const Measurements& o)
    {
        requests += o.requests;
        bytes += o.bytes;
        errors += o.errors;
        status += o.status;
        latency.merge(o.latency);
        serviceLatency.merge(o.serviceLatency);
        sendLag.merge(o.sendLag);
        connectTime.merge(o.connectTime);
        tlsHandshake.merge(o.tlsHandshake);
        firstByte.merge(o.firstByte);
        backends.add(o.backends);
        upstreamTime.merge(o.upstreamTime);
        frontDoor.merge(o.frontDoor);
        upstreamMissing += o.upstreamMissing;
        loaderCost.add(o.loaderCost);
        lateRequests += o.lateRequests;
        maxLagUs = std::max(maxLagUs, o.maxLagUs);
    }
    void clear()
    {
        requests = 0;
        bytes = 0;
        errors = {};
        status = {};
        latency.reset();
        serviceLatency.reset();
        sendLag.reset();
        connectTime.reset();
        tlsHandshake.reset();
        firstByte.reset();
        backends.clear();
        upstreamTime.reset();
        frontDoor.reset();
        upstreamMissing = 0;
        loaderCost = {};
        lateRequests = 0;
        maxLagUs = 0;
    }
};

/// Everything measured during one interval, merged over all workers.
struct IntervalSnapshot : Measurements
{
    uint32_t index = 0; ///< 0-based interval number
    double startS = 0; ///< interval start, seconds since measurement began (after warm-up)
    double endS = 0; ///< interval end, seconds since measurement began
    double targetRatePerS = 0; ///< open model: requests/s the schedule asked for in this interval
    uint32_t connections = 0; ///< connections open at the end of the interval
    uint32_t inFlight = 0; ///< requests sent and not yet answered at the end of the interval
    /// Each worker's Req/Sec samples (every 100 ms, as wrk) taken in this interval, one after another.
    std::vector<double> threadRateSamples;

    double durationS() const { return endS - startS; }

    /// Adds another worker's measurements of the same interval (times and index stay).
    void add(const IntervalSnapshot& o)
    {
        Measurements::add(o);
        connections += o.connections;
        inFlight += o.inFlight;
        threadRateSamples.insert(threadRateSamples.end(), o.threadRateSamples.begin(), o.threadRateSamples.end());
    }
    /// Empties the measurements for the next interval (times and index stay).
    void clearMeasurements()
    {
        Measurements::clear();
        connections = 0;
        inFlight = 0;
        threadRateSamples.clear();
    }
    double requestsPerS() const { return durationS() > 0 ? static_cast<double>(requests) / durationS() : 0.0; }
};

} // namespace wb
