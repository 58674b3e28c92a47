#pragma once
// The open model's schedule: when each request is due. Request k (counted
// over all connections, from 0) is due when the cumulative planned count
// N(t) = integral of rate(t) reaches k. Connection slot s of C sends requests
// k = s, s + C, s + 2C, ..., so the connections' schedules interleave evenly
// and each one keeps its own: a connection that falls behind sends as soon as
// it can, and its later due times do not move.

#include "run/runconfig.h"

#include <cstdint>
#include <vector>

namespace wb {

class RateSchedule
{
public:
    /// Constant rate (requests/s) or, when stages are given, their linear ramps.
    RateSchedule(double ratePerS, std::vector<Stage> stages);

    /// Seconds after the schedule's start at which request k is due;
    /// a negative value means never (the plan ends before).
    double dueTimeS(uint64_t k) const;
    /// Planned requests in [0, tS] (the integral of the rate).
    double cumulative(double tS) const;

private:
    struct Segment
    {
        double startS, durationS, fromRate, toRate, countBefore;
    };
    double m_rate;
    std::vector<Segment> m_segments; ///< one per stage; empty for a constant rate
};

} // namespace wb
