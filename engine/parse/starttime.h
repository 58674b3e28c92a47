#pragma once
// A common start time for several loaders (--start-at): unix seconds with an
// optional fraction ("1764653400.25"), RFC 3339 ("2026-12-02T05:30:00.25Z",
// an offset such as "+01:00" is applied), or "+DURATION" from now ("+10s").

#include "common/result.h"

#include <cstdint>
#include <string>

namespace wb {

/// The instant in µs since the Unix epoch; nowUnixUs resolves "+DURATION".
Result<int64_t> parseStartTimeUs(const std::string& text, int64_t nowUnixUs);

/// The instant as RFC 3339 UTC with milliseconds ("2026-12-02T05:30:00.250Z").
std::string formatRfc3339Utc(int64_t unixUs);

/// Refuses a start more than toleranceUs in the past (a loader that arrives late would
/// measure a different stretch of time from the others).
Status checkStartNotPast(int64_t startUnixUs, int64_t nowUnixUs, int64_t toleranceUs = 1'000'000);

} // namespace wb
