#pragma once
// Per-thread request rate samples, taken every 100 ms as wrk does and pooled
// over all threads: wrk's "Req/Sec" row (a per-thread figure, not the total).

#include <vector>

namespace wb {

struct RateSamples
{
    std::vector<double> perThreadRequestsPerS;

    double mean() const;
    double stdev() const; ///< sample standard deviation
    double max() const;
    /// Share (0..100) of samples within mean +/- k*stdev.
    double percentWithinStdev(double k = 1.0) const;
};

} // namespace wb
