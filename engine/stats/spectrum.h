#pragma once
// The percentile spectrum HdrHistogram and wrk2 print ("Detailed Percentile
// spectrum"): levels that halve the distance to 100% in a fixed number of
// ticks each (0, 10, ..., 50, 55, ..., 90, 91.25, ... 99, 99.125, ...), until
// every recorded value is covered, then 100%.

#include "stats/histogram.h"

#include <cstdint>
#include <vector>

namespace wb {

struct SpectrumPoint
{
    double percentile = 0; ///< 0..100
    uint64_t valueUs = 0;
    uint64_t totalCount = 0; ///< values at or below valueUs
    /// 1/(1-p) as the "nines" axis of latency plots; infinity at 100%.
    double inverseTail() const;
};

/// ticksPerHalfDistance 5 matches wrk2's output.
std::vector<SpectrumPoint> percentileSpectrum(const LatencyHistogram& h, int ticksPerHalfDistance = 5);

} // namespace wb
