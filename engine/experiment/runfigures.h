#pragma once
// The figures a stored run is compared by, defined once: Compare's rows (and so its CSV, TSV and
// Markdown), the comparison report and run comparison's Δ and noise take each figure's key, title,
// unit and which way is better from this table, so the window and the reports never read or name
// a figure two ways. (A plan's "metrics", the front door's backend split and share, are another
// thing: experiment/runmetric.h.)

#include "experiment/experimentstats.h" // Better
#include "store/sessiontypes.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace wb {

/// Where a figure belongs: Compare's sections, in this order.
enum class FigureGroup : uint8_t {
    Throughput,
    Latency, ///< the response's latency (corrected for coordinated omission in the open model)
    Service, ///< the open model's service time, its rate and its late sends
    Phases, ///< the connection phases, for runs that measured them
    Errors,
};

struct RunFigure
{
    const char* key; ///< "p99", "connect_p50": the CSV's metric names, run comparison's keys
    const char* title; ///< "p99", "Connect p50" (the group says the rest)
    FigureGroup group;
    const char* unit; ///< "us", "req_per_s", "bytes_per_s", "s", or "" for a count
    Better better;
    double (*value)(const RunRecord& run); ///< NaN when the run does not know it (no totals, no such phase)
};

/// Every figure, in Compare's order.
const std::vector<RunFigure>& runFigures();
/// The figure with this key; nullptr when there is none.
const RunFigure* runFigure(std::string_view key);

} // namespace wb
