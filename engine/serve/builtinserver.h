#pragma once
// The in-process built-in target server behind the demo targets, for the GUI and
// the CLI alike (`wrkbench-cli http://builtin/delay/2`).
//
// Convention: a target whose URL host is "builtin" (http://builtin/delay/2) is
// served by a TargetServer that this process starts on a free loopback port the
// first time such a target runs, and keeps until it exits (one server per
// process, BUILTIN_THREADS threads). The URL's path and query are kept; the
// scheme must be http and any port is ignored.

#include "common/result.h"
#include "http/url.h"

#include <cstdint>
#include <string>

namespace wb {

inline constexpr const char* BUILTIN_HOST = "builtin";
inline constexpr unsigned BUILTIN_THREADS = 2;

/// True when url's host is "builtin".
bool isBuiltinUrl(const Url& url);
/// Starts the server if it is not running yet (thread-safe) and returns its port.
Result<uint16_t> ensureBuiltinServer();
/// url itself, or for a built-in URL the same path on the running built-in server
/// (started now if needed). The error names the problem ("the built-in server speaks
/// plain http ...", or why the server did not start).
Result<Url> resolveBuiltinUrl(const Url& url);

} // namespace wb
