#include "stats/spectrum.h"

#include <cmath>
#include <limits>

namespace wb {

double SpectrumPoint::inverseTail() const
{
    return percentile >= 100 ? std::numeric_limits<double>::infinity() : 1.0 / (1.0 - percentile / 100.0);
}

std::vector<SpectrumPoint> percentileSpectrum(const LatencyHistogram& h, int ticksPerHalfDistance)
{
    std::vector<SpectrumPoint> out;
    if (h.empty()) return out;
    double level = 0;
    // Each level's row; stop once a row covers every value (the last is then 100%).
    for (int guard = 0; guard < 10'000; ++guard) {
        const uint64_t value = h.valueAtPercentileUs(level);
        const uint64_t count = h.countAtOrBelow(value);
        if (count >= h.count()) break;
        out.push_back({ level, value, count });
        const double halfDistance = std::pow(2.0, std::floor(std::log2(100.0 / (100.0 - level))) + 1);
        level += 100.0 / (ticksPerHalfDistance * halfDistance);
    }
    out.push_back({ 100.0, h.maxUs(), h.count() });
    return out;
}

} // namespace wb
