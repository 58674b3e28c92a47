#pragma once
// Numbers and durations as wrk prints them (parse/quantity.h reads them).

#include "common/result.h"

#include <cstdint>
#include <string>

namespace wb {

/// wrk's formatting: "715.35M" (x1024), "8.78k" (x1000), "5.47ms", "2.00m" from
/// microseconds, and "2m"/"30s" for the test length. Same rounding and unit
/// switch points as wrk (a unit is used from 0.85 of its scale).
std::string formatBinary(double n);
std::string formatMetric(double n);
std::string formatTimeUs(double us);
std::string formatTimeS(double s);

} // namespace wb
