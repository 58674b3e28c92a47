#pragma once
// Behind the front door of a stored run (--backend-from, --upstream-time): its interval
// records folded (the one fold of stats/snapshot.h: exact, whatever made the run) and what
// every view derives from them: the evenness, the appeared/vanished events and the mean
// split. The run details, Compare, the HTML report, the CSV export and the experiment
// metrics all read a stored run's breakdown through here, so they cannot disagree.

#include "stats/backendbalance.h"
#include "stats/snapshot.h"
#include "store/sessiontypes.h"

#include <cstdint>
#include <vector>

namespace wb {

/// A stored run's measurements, folded from its interval records.
Measurements foldedMeasurementsOf(const RunData& run);

struct FrontDoorView
{
    bool backendsAsked = false; ///< the run was made with --backend-from
    bool upstreamAsked = false; ///< ... with --upstream-time
    uint64_t requests = 0; ///< the run's responses: a backend's share is of these
    BackendBreakdown backends;
    BackendBalance balance;
    std::vector<BackendEvent> events;
    LatencyHistogram total; ///< what the split divides: the latency (the service time in the open model)
    LatencyHistogram upstream;
    LatencyHistogram frontDoor;
    uint64_t upstreamMissing = 0; ///< responses that stated no upstream time
    MeanSplit meanSplit;

    bool any() const { return backendsAsked || upstreamAsked; }
    /// A backend's share of the run's responses (0..1).
    double shareOf(const BackendStats& s) const
    {
        return requests > 0 ? static_cast<double>(s.requests) / static_cast<double>(requests) : 0.0;
    }
};

/// The view of a stored run (empty, any() false, when it asked for neither).
FrontDoorView frontDoorViewOf(const RunData& run);

} // namespace wb
