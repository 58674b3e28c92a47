#pragma once
// One loader's share of a run spread over several loaders (`--shard I/N`):
// connections split evenly with the remainder going to the lowest indices
// (6 over 4 loaders: 2, 2, 1, 1), the rate and rate stages in proportion to a
// loader's connections (so every connection keeps the schedule it would have
// in one process), connection stages by the same remainder rule, threads
// capped at the loader's connections. The shares add up to the whole run.

#include "common/result.h"
#include "run/runconfig.h"

#include <cstdint>
#include <string>

namespace wb {

struct Shard
{
    unsigned index = 0; ///< 0-based, as Kubernetes' JOB_COMPLETION_INDEX
    unsigned count = 1;
    bool operator==(const Shard&) const = default;
};

/// Parses "I/N" (0 <= I < N). I may be "$JOB_COMPLETION_INDEX" (or any "$NAME" or "NAME" that
/// names an environment variable holding a number), read from the environment, so a pod's
/// arguments need no shell.
Result<Shard> parseShard(const std::string& text);

/// Loader `shard.index`'s part of `whole` (which is normalized first). A share with no
/// connections is an error that says how many connections and loaders there are.
Result<RunConfig> shareOf(const RunConfig& whole, Shard shard);

/// `total` split over `parts`, the remainder to the lowest indices: the share of `index`.
/// Connections over loaders and threads, responses (-n) over loaders and threads.
uint64_t evenShare(uint64_t total, uint64_t parts, uint64_t index);

} // namespace wb
