#pragma once
// Two capacities compared: the ratio of the second to the first (the baseline) with the interval
// the brackets allow. Each search ends with its true capacity inside [lower, upper) under the
// method's assumptions (a stationary target, pass/fail monotone in the rate; the repeats and
// --may-fail decide the verdict at each end), so the ratio of the true capacities lies in
// [lowerB / upperA, upperB / lowerA]: interval arithmetic on the two brackets, not a probability.
// An end that is not known (nothing failed, or the loader stopped the search) leaves that side
// of the interval open.

#include "capacity/capacitysearch.h"

#include <optional>
#include <string>

namespace wb {

struct CapacityRatio
{
    double ratio = 0; ///< capacity B / capacity A (the reported capacities: the lower ends)
    double low = 0; ///< lowerB / upperA; 0 when A's upper end is unknown
    std::optional<double> high; ///< upperB / lowerA; none when B's upper end is unknown
};

/// The ratio of other to base; none when either has no rate that passed.
std::optional<CapacityRatio> capacityRatio(const CapacityResult& base, const CapacityResult& other);

/// "B carries 0.80× A (0.78–0.82)", "B carries at least 1.9× A", in words that claim no more than
/// the interval. nameA and nameB as the user gave them.
std::string describeRatio(const CapacityRatio& ratio, const std::string& nameA, const std::string& nameB);

} // namespace wb
