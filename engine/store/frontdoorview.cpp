#include "store/frontdoorview.h"

namespace wb {

Measurements foldedMeasurementsOf(const RunData& run)
{
    Measurements m;
    m.backends.limit = run.run.config.backendFrom.maxBackends;
    for (const IntervalRecord& r : run.intervals)
        m.add(r.snapshot());
    return m;
}

FrontDoorView frontDoorViewOf(const RunData& run)
{
    FrontDoorView v;
    const RunConfig& c = run.run.config;
    v.backendsAsked = c.backendFrom.enabled();
    v.upstreamAsked = c.upstreamTime.enabled();
    if (!v.any()) return v;
    Measurements m = foldedMeasurementsOf(run);
    v.requests = m.requests;
    v.backends = std::move(m.backends);
    v.balance = backendBalanceOf(v.backends);
    v.events = backendEventsOf(run.intervals);
    v.total = std::move(c.openModel() ? m.serviceLatency : m.latency);
    v.upstream = std::move(m.upstreamTime);
    v.frontDoor = std::move(m.frontDoor);
    v.upstreamMissing = m.upstreamMissing;
    v.meanSplit = meanSplitOf(v.upstream, v.frontDoor);
    return v;
}

} // namespace wb
