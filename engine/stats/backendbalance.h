#pragma once
// How evenly a run's load was spread over its backends, and when backends came
// and went: derived from the folded BackendBreakdown and the interval records,
// never stored (the counts are; these follow from them).

#include "stats/backends.h"
#include "stats/intervalrecord.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct BackendBalance
{
    unsigned backends = 0; ///< distinct named backends (OTHER_BACKEND not among them)
    uint64_t requests = 0; ///< responses of those backends
    double maxShare = 0; ///< the busiest backend's share of `requests` (0..1)
    double minShare = 0; ///< the idlest's
    double maxMinRatio = 0; ///< maxShare / minShare (1 = even)
    double cv = 0; ///< coefficient of variation of the per-backend counts (population stdev / mean)
    double chiSquare = 0; ///< Pearson's statistic against an even split
    unsigned degreesOfFreedom = 0; ///< backends - 1
    double pValue = 1; ///< P(chi-square >= chiSquare) for an even split (1 with fewer than 2 backends)
};

/// The evenness of a breakdown's named backends (OTHER_BACKEND left out: it is many).
BackendBalance backendBalanceOf(const BackendBreakdown& backends);

/// The indices of a breakdown's backends that answered, busiest first (ties by name): the order
/// every table of backends lists them in.
std::vector<size_t> backendsByRequests(const BackendBreakdown& backends);

/// The mean split of --upstream-time, over the responses that stated an upstream time: means add
/// where percentiles do not, so their mean time is the upstream's mean plus the front door's.
struct MeanSplit
{
    uint64_t responses = 0; ///< that stated an upstream time (0: no split)
    double upstreamUs = 0;
    double frontDoorUs = 0;

    double totalUs() const { return upstreamUs + frontDoorUs; }
    /// The front door's share: mean front-door time / mean total (0..1); NaN without responses or time.
    double frontDoorShare() const;
};
MeanSplit meanSplitOf(const LatencyHistogram& upstream, const LatencyHistogram& frontDoor);

/// A backend that appeared after the run began answering, or stopped answering before it ended.
struct BackendEvent
{
    enum class Kind : uint8_t { Appeared, Vanished };
    Kind kind = Kind::Appeared;
    std::string name;
    double atS = 0; ///< its first (appeared) or last (vanished) response, seconds since measurement began
};
const char* backendEventId(BackendEvent::Kind kind); ///< "appeared", "vanished"

/// Backends absent from the first interval with any named response (appeared) or from the
/// last one (vanished), with the time of their first or last response, in time order.
std::vector<BackendEvent> backendEventsOf(const std::vector<IntervalRecord>& intervals);

/// The regularised upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a), for a > 0,
/// x >= 0 (series below a + 1, continued fraction above: Numerical Recipes 6.2).
double upperRegularizedGamma(double a, double x);
/// P(X >= x) for X chi-square with k degrees of freedom.
double chiSquareSurvival(double x, unsigned k);

} // namespace wb
