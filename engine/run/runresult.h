#pragma once
// The final outcome of a run: what the reports, the JSON file and the store
// are made from.

#include "run/runconfig.h"
#include "stats/counters.h"
#include "stats/histogram.h"
#include "stats/ratesamples.h"
#include "stats/snapshot.h"

#include <string>
#include <vector>

namespace wb {

struct RunResult
{
    RunConfig config;
    std::string engineVersion;
    double durationS = 0; ///< measured time (warm-up excluded)
    uint64_t requests = 0; ///< complete responses, any status
    uint64_t bytes = 0; ///< bytes read, headers and bodies
    ErrorCounts errors;
    StatusCounts status;
    LatencyHistogram latency; ///< open model: corrected (from due time); closed model: service time
    LatencyHistogram serviceLatency; ///< open model only: from the actual send
    uint64_t lateRequests = 0; ///< open model: sent more than 1 ms after their due time
    uint64_t maxLagUs = 0; ///< open model: largest send time minus due time
    LatencyHistogram sendLag; ///< open model: send time minus due time, per request
    double targetRatePerS = 0; ///< open model: average requested rate over the measured time
    RateSamples threadRates;
    std::vector<IntervalSummary> intervals;
    bool stoppedEarly = false; ///< stopped by the user or a signal before the duration elapsed
    std::string firstTlsError; ///< reason of the first TLS handshake failure, if any
    std::string firstConnectError; ///< reason of the first connect failure, if any

    /// Adds one merged interval to the totals and the series.
    void addInterval(const IntervalSnapshot& s)
    {
        requests += s.requests;
        bytes += s.bytes;
        errors += s.errors;
        status += s.status;
        latency.merge(s.latency);
        serviceLatency.merge(s.serviceLatency);
        sendLag.merge(s.sendLag);
        lateRequests += s.lateRequests;
        maxLagUs = maxLagUs > s.maxLagUs ? maxLagUs : s.maxLagUs;
        intervals.push_back(IntervalSummary::of(s));
    }

    double requestsPerS() const { return durationS > 0 ? static_cast<double>(requests) / durationS : 0.0; }
    double bytesPerS() const { return durationS > 0 ? static_cast<double>(bytes) / durationS : 0.0; }
};

} // namespace wb
