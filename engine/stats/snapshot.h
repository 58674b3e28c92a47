#pragma once
// What the run controller hands to observers once per interval, and the small
// per-interval summary kept for the whole run.

#include "stats/counters.h"
#include "stats/histogram.h"

#include <cstdint>

namespace wb {

/// Everything measured during one interval, merged over all workers.
struct IntervalSnapshot
{
    uint32_t index = 0; ///< 0-based interval number
    double startS = 0; ///< interval start, seconds since measurement began (after warm-up)
    double endS = 0; ///< interval end, seconds since measurement began
    uint64_t requests = 0; ///< responses completed in the interval (any status)
    uint64_t bytes = 0; ///< bytes read from the network in the interval (headers and bodies)
    ErrorCounts errors;
    StatusCounts status;
    LatencyHistogram latency; ///< latency of the responses completed in the interval; in the open
                              ///< model corrected for coordinated omission (from the due time)
    LatencyHistogram serviceLatency; ///< open model only: from the actual send (service time)
    double targetRatePerS = 0; ///< open model: requests/s the schedule asked for in this interval
    uint64_t lateRequests = 0; ///< open model: requests sent more than 1 ms after their due time
    uint64_t maxLagUs = 0; ///< open model: largest send time minus due time
    LatencyHistogram sendLag; ///< open model: send time minus due time (scheduling error + catch-up)
    uint32_t connections = 0; ///< connections open at the end of the interval

    double durationS() const { return endS - startS; }

    /// Adds another worker's measurements of the same interval (times and index stay).
    void add(const IntervalSnapshot& o)
    {
        requests += o.requests;
        bytes += o.bytes;
        errors += o.errors;
        status += o.status;
        latency.merge(o.latency);
        serviceLatency.merge(o.serviceLatency);
        sendLag.merge(o.sendLag);
        lateRequests += o.lateRequests;
        maxLagUs = maxLagUs > o.maxLagUs ? maxLagUs : o.maxLagUs;
        connections += o.connections;
    }
    /// Empties the measurements for the next interval (times and index stay).
    void clearMeasurements()
    {
        requests = 0;
        bytes = 0;
        errors = {};
        status = {};
        latency.reset();
        serviceLatency.reset();
        sendLag.reset();
        lateRequests = 0;
        maxLagUs = 0;
        connections = 0;
    }
    double requestsPerS() const { return durationS() > 0 ? static_cast<double>(requests) / durationS() : 0.0; }
};

/// Compact form of an interval kept in the run result and written to the store.
struct IntervalSummary
{
    uint32_t index = 0;
    double startS = 0;
    double endS = 0;
    uint64_t requests = 0;
    uint64_t bytes = 0;
    ErrorCounts errors;
    uint64_t p50Us = 0, p90Us = 0, p99Us = 0, maxUs = 0; ///< (corrected) latency
    double meanUs = 0;
    uint64_t serviceP50Us = 0, serviceP90Us = 0, serviceP99Us = 0, serviceMaxUs = 0; ///< open model only
    double targetRatePerS = 0;
    uint64_t lateRequests = 0;
    uint64_t maxLagUs = 0;
    uint32_t connections = 0;

    static IntervalSummary of(const IntervalSnapshot& s)
    {
        IntervalSummary r;
        r.index = s.index;
        r.startS = s.startS;
        r.endS = s.endS;
        r.requests = s.requests;
        r.bytes = s.bytes;
        r.errors = s.errors;
        r.p50Us = s.latency.valueAtPercentileUs(50);
        r.p90Us = s.latency.valueAtPercentileUs(90);
        r.p99Us = s.latency.valueAtPercentileUs(99);
        r.maxUs = s.latency.maxUs();
        r.meanUs = s.latency.meanUs();
        r.serviceP50Us = s.serviceLatency.valueAtPercentileUs(50);
        r.serviceP90Us = s.serviceLatency.valueAtPercentileUs(90);
        r.serviceP99Us = s.serviceLatency.valueAtPercentileUs(99);
        r.serviceMaxUs = s.serviceLatency.maxUs();
        r.targetRatePerS = s.targetRatePerS;
        r.lateRequests = s.lateRequests;
        r.maxLagUs = s.maxLagUs;
        r.connections = s.connections;
        return r;
    }
    double requestsPerS() const { return endS > startS ? static_cast<double>(requests) / (endS - startS) : 0.0; }
};

} // namespace wb
