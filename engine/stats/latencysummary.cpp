#include "stats/latencysummary.h"

namespace wb {

namespace {
double asDouble(uint64_t v)
{
    return static_cast<double>(v);
}
} // namespace

LatencySummary LatencySummary::of(const LatencyHistogram& h)
{
    LatencySummary s;
    if (h.empty()) return s;
    s.minUs = asDouble(h.minUs());
    s.meanUs = h.meanUs();
    s.stdevUs = h.stdevUs();
    s.maxUs = asDouble(h.maxUs());
    s.withinStdevPct = h.percentWithinStdev();
    s.p50Us = asDouble(h.valueAtPercentileUs(50));
    s.p75Us = asDouble(h.valueAtPercentileUs(75));
    s.p90Us = asDouble(h.valueAtPercentileUs(90));
    s.p99Us = asDouble(h.valueAtPercentileUs(99));
    s.p999Us = asDouble(h.valueAtPercentileUs(99.9));
    s.p9999Us = asDouble(h.valueAtPercentileUs(99.99));
    return s;
}

PhaseSummary PhaseSummary::of(const LatencyHistogram& h)
{
    PhaseSummary s;
    if (h.empty()) return s;
    s.count = h.count();
    s.meanUs = h.meanUs();
    s.p50Us = asDouble(h.valueAtPercentileUs(50));
    s.p90Us = asDouble(h.valueAtPercentileUs(90));
    s.p99Us = asDouble(h.valueAtPercentileUs(99));
    s.maxUs = asDouble(h.maxUs());
    return s;
}

} // namespace wb
