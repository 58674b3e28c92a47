#pragma once
// How a coordinator tells paused loaders when to start and when to stop: a
// file in each loader's control directory, written whole (a temporary file
// renamed), so a local child, a pod (through `kubectl exec`) and an agent are
// told the same way.

#include "common/result.h"

#include <optional>
#include <string>

namespace wb {

inline constexpr const char* START_FILE = "start-at"; ///< the start time, unix seconds with a fraction
inline constexpr const char* STOP_FILE = "stop"; ///< present: stop now, report what was measured

/// Writes dir/name atomically.
Status writeControlFile(const std::string& dir, const std::string& name, const std::string& content);
/// dir/name's content, or nothing when it is not there (yet).
std::optional<std::string> readControlFile(const std::string& dir, const std::string& name);

/// "1764653400.250000": what the coordinator writes into START_FILE.
std::string startTimeText(int64_t unixUs);

} // namespace wb
