#include "stats/ratesamples.h"

#include <algorithm>
#include <cmath>

namespace wb {

double RateSamples::mean() const
{
    if (perThreadRequestsPerS.empty()) return 0.0;
    double sum = 0.0;
    for (double v : perThreadRequestsPerS)
        sum += v;
    return sum / static_cast<double>(perThreadRequestsPerS.size());
}

double RateSamples::stdev() const
{
    const size_t n = perThreadRequestsPerS.size();
    if (n < 2) return 0.0;
    const double m = mean();
    double sumSq = 0.0;
    for (double v : perThreadRequestsPerS)
        sumSq += (v - m) * (v - m);
    return std::sqrt(sumSq / static_cast<double>(n - 1));
}

double RateSamples::max() const
{
    if (perThreadRequestsPerS.empty()) return 0.0;
    return *std::max_element(perThreadRequestsPerS.begin(), perThreadRequestsPerS.end());
}

double RateSamples::percentWithinStdev(double k) const
{
    if (perThreadRequestsPerS.empty()) return 0.0;
    const double m = mean();
    const double s = stdev();
    const auto within = std::count_if(perThreadRequestsPerS.begin(), perThreadRequestsPerS.end(),
        [&](double v) { return v >= m - k * s && v <= m + k * s; });
    return 100.0 * static_cast<double>(within) / static_cast<double>(perThreadRequestsPerS.size());
}

} // namespace wb
