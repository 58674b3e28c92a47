#pragma once
// The value a figure takes when it does not exist (no runs, a ratio of nothing): NaN, which JSON
// writes as null, the window as "-" and comparisons never mistake for a number.

#include <limits>

namespace wb {

inline constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

} // namespace wb
