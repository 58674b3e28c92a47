#pragma once
// Numbers and durations as wrk reads and prints them.

#include "common/result.h"

#include <cstdint>
#include <string>

namespace wb {

/// "100", "10k", "1.5M", "2G" (SI, x1000). Rejects negatives, junk and overflow.
Result<uint64_t> parseCount(const std::string& text);
/// "30" (seconds), "500ms", "30s", "2m", "1h", "1.5s", "250us". Returns microseconds.
Result<uint64_t> parseDurationUs(const std::string& text);

/// wrk's formatting: "715.35M" (x1024), "8.78k" (x1000), "5.47ms", "2.00m" from
/// microseconds, and "2m"/"30s" for the test length. Same rounding and unit
/// switch points as wrk (a unit is used from 0.85 of its scale).
std::string formatBinary(double n);
std::string formatMetric(double n);
std::string formatTimeUs(double us);
std::string formatTimeS(double s);

} // namespace wb
