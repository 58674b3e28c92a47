#pragma once
// The statistics of one latency histogram, as the reports, the store and the
// charts read them. A NaN means "not known": an empty histogram, an imported
// wrk report that did not print a percentile, a closed-model run's service time.

#include "stats/histogram.h"

#include <cmath>
#include <limits>

namespace wb {

inline constexpr double UNKNOWN = std::numeric_limits<double>::quiet_NaN();

struct LatencySummary
{
    double minUs = UNKNOWN, meanUs = UNKNOWN, stdevUs = UNKNOWN, maxUs = UNKNOWN;
    double withinStdevPct = UNKNOWN; ///< wrk's "+/- Stdev"
    double p50Us = UNKNOWN, p75Us = UNKNOWN, p90Us = UNKNOWN, p99Us = UNKNOWN;
    double p999Us = UNKNOWN, p9999Us = UNKNOWN;

    /// The statistics of h; all unknown when h is empty.
    static LatencySummary of(const LatencyHistogram& h);
    bool known() const { return !std::isnan(meanUs) || !std::isnan(p50Us) || !std::isnan(maxUs); }
};

/// A connection phase under load (TCP connect, TLS handshake, time to first byte): how
/// often it happened and how long it took. Values are unknown when count is 0.
struct PhaseSummary
{
    uint64_t count = 0;
    double meanUs = UNKNOWN, p50Us = UNKNOWN, p90Us = UNKNOWN, p99Us = UNKNOWN, maxUs = UNKNOWN;

    static PhaseSummary of(const LatencyHistogram& h);
};

} // namespace wb
