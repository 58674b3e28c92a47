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

} // namespace wb
