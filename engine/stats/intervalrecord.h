#pragma once
// The one record of an interval, from the engine to every consumer: the run
// controller makes it from the merged snapshot once (IntervalRecord::of), hands
// it to observers, keeps it in the RunResult; the store writes and reads it as
// is; the GUI draws it, live and stored, through one function. It is whole:
// every counter, error kind and status code, both latency histograms and the
// send lag, the connection phases (serialised), and the wall-clock start, so records of several
// loaders can be merged exactly (add(): counts summed, histograms added).

#include "stats/backends.h"
#include "stats/counters.h"
#include "stats/latencysummary.h"
#include "stats/loadercost.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wb {

struct IntervalSnapshot;

struct IntervalRecord
{
    uint32_t index = 0;
    double startS = 0; ///< seconds since measurement began
    double endS = 0;
    int64_t startUnixMs = 0; ///< wall clock at startS, ms since the Unix epoch (0 = unknown: older sessions)
    uint64_t requests = 0; ///< responses completed in the interval (any status)
    uint64_t bytes = 0;
    ErrorCounts errors; ///< requests without a usable answer (non-2xx/3xx answers are in statusCodes)
    uint32_t connections = 0; ///< open at the end of the interval
    uint32_t inFlight = 0; ///< requests sent and not yet answered at the end of the interval
    LatencySummary latency; ///< corrected in the open model; unknown when no response completed
    LatencySummary serviceLatency; ///< open model only
    LatencySummary sendLag; ///< open model only: send time minus due time
    double targetRatePerS = UNKNOWN; ///< open model: what the schedule asked for
    uint64_t lateRequests = 0;
    uint64_t maxLagUs = 0;
    std::vector<std::pair<int, uint64_t>> statusCodes; ///< non-zero counts, by code
    std::string latencyHistogram; ///< LatencyHistogram::serialize(), empty when nothing was recorded
    std::string serviceHistogram;
    std::string sendLagHistogram;
    /// Connection phases (serialised like the others): TCP connects and TLS handshakes of the
    /// connections opened in the interval, and the first byte of each response.
    std::string connectHistogram;
    std::string tlsHandshakeHistogram;
    std::string firstByteHistogram;
    /// --backend-from: the backends that answered in this interval, by name; responses that
    /// named none. --upstream-time: the two sides of the split (serialised) and the responses
    /// that stated no upstream time.
    std::vector<BackendRecord> backends;
    uint64_t unnamedResponses = 0;
    std::string upstreamHistogram;
    std::string frontDoorHistogram;
    uint64_t upstreamMissing = 0;
    /// What the loader itself cost in this interval (workers, process, machine); sums, so the same
    /// interval of several loaders adds up.
    LoaderCost loaderCost;
    /// The worker threads' 100 ms Req/Sec samples taken in this interval (wrk's Thread Stats), of
    /// every loader: the run's are its intervals' together, so a run recovered from its stored
    /// intervals keeps them.
    std::vector<double> threadRateSamples;
    /// A run made by several loaders: each loader's responses in this interval, by index, so a live
    /// view can show a loader that lags (made by the merge, not stored).
    std::vector<uint64_t> loaderRequests;

    /// The record of a merged snapshot; startUnixMs is the wall clock at its start.
    static IntervalRecord of(const IntervalSnapshot& snapshot, int64_t startUnixMs = 0);

    double durationS() const { return endS > startS ? endS - startS : 0.0; }
    double requestsPerS() const { return endS > startS ? static_cast<double>(requests) / (endS - startS) : 0.0; }
    /// Socket, TLS and parse errors: requests that got no usable answer.
    uint64_t transportErrors() const { return errors.transportErrors(); }
    /// Responses outside 2xx/3xx.
    uint64_t non2xx() const { return non2xxOf(statusCodes); }

    /// The histograms, decoded (empty when not recorded or not decodable).
    LatencyHistogram latencyHistogramDecoded() const;
    LatencyHistogram serviceHistogramDecoded() const;
    LatencyHistogram sendLagHistogramDecoded() const;
    LatencyHistogram connectHistogramDecoded() const;
    LatencyHistogram tlsHandshakeHistogramDecoded() const;
    LatencyHistogram firstByteHistogramDecoded() const;
    LatencyHistogram upstreamHistogramDecoded() const;
    LatencyHistogram frontDoorHistogramDecoded() const;

    /// The measurements back, histograms decoded (index, times, rate and connections as recorded).
    IntervalSnapshot snapshot() const;

    /// Adds the same interval as measured by another loader: counts and status codes
    /// summed, histograms added exactly and their summaries recomputed, the earliest
    /// start kept. Times and index stay this record's.
    void add(const IntervalRecord& other);
};

/// Non-zero status counts, by code.
std::vector<std::pair<int, uint64_t>> nonZeroStatusCodes(const StatusCounts& counts);

} // namespace wb
