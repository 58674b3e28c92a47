#pragma once
// File descriptor budget: wrk leaves a too-low RLIMIT_NOFILE to show up as
// mysterious connect errors; wrkbench raises the soft limit and refuses to
// start when the connections still cannot fit.

#include "common/result.h"

#include <cstdint>

namespace wb {

/// Raises RLIMIT_NOFILE's soft limit to the hard limit, then checks that
/// `connections` sockets plus the engine's own descriptors fit.
Status ensureFileDescriptors(uint64_t connections, unsigned threads);

} // namespace wb
