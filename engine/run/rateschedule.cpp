#include "run/rateschedule.h"

#include <algorithm>
#include <cmath>

namespace wb {

RateSchedule::RateSchedule(double ratePerS, std::vector<Stage> stages)
    : m_rate(ratePerS)
{
    double start = 0, from = 0, count = 0;
    for (const auto& st : stages) {
        const double d = static_cast<double>(st.durationUs) / 1e6;
        m_segments.push_back({ start, d, from, st.target, count });
        count += (from + st.target) / 2 * d;
        start += d;
        from = st.target;
    }
}

double RateSchedule::cumulative(double tS) const
{
    if (tS <= 0) return 0;
    if (m_segments.empty()) return m_rate * tS;
    for (const auto& s : m_segments) {
        if (tS < s.startS + s.durationS) {
            const double u = tS - s.startS;
            return s.countBefore + s.fromRate * u + (s.toRate - s.fromRate) * u * u / (2 * s.durationS);
        }
    }
    const auto& last = m_segments.back();
    return last.countBefore + (last.fromRate + last.toRate) / 2 * last.durationS;
}

double RateSchedule::dueTimeS(uint64_t k) const
{
    const double target = static_cast<double>(k);
    if (m_segments.empty()) return m_rate > 0 ? target / m_rate : -1;
    for (const auto& s : m_segments) {
        const double inSegment = target - s.countBefore;
        const double segmentCount = (s.fromRate + s.toRate) / 2 * s.durationS;
        if (inSegment >= segmentCount) continue;
        // Solve fromRate*u + (toRate-fromRate)/(2D)*u^2 = inSegment for u in [0, D],
        // in the form that stays exact when the rate does not change.
        const double slope = (s.toRate - s.fromRate) / s.durationS;
        const double root = std::sqrt(std::max(0.0, s.fromRate * s.fromRate + 2 * slope * inSegment));
        const double denominator = s.fromRate + root;
        const double u = denominator > 0 ? 2 * inSegment / denominator : 0;
        return s.startS + std::min(u, s.durationS);
    }
    return -1;
}

} // namespace wb
