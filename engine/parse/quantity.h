#pragma once
// Numbers and durations as wrk reads them: "10k", "1.5M", "30s", "500ms".

#include "common/result.h"

#include <cstdint>
#include <string>

namespace wb {

/// "100", "10k", "1.5M", "2G" (SI, x1000). Rejects negatives, junk and overflow.
Result<uint64_t> parseCount(const std::string& text);
/// "30" (seconds), "500ms", "30s", "2m", "1h", "1.5s", "250us". Returns microseconds.
Result<uint64_t> parseDurationUs(const std::string& text);

/// "250ms", "10s", "2m", "1h", "0s": the shortest exact text for a duration, as parseDurationUs()
/// reads it back.
std::string durationText(uint64_t us);

/// A count or a range of them: "100" (both ends 100) or "50:200".
struct CountRange
{
    uint64_t low = 0;
    uint64_t high = 0;
};
Result<CountRange> parseCountRange(const std::string& text);
/// A duration or a range of them, in microseconds: "30s" or "10s:1m".
Result<CountRange> parseDurationRangeUs(const std::string& text);

} // namespace wb
