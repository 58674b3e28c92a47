#pragma once
// What an agent lets a token holder ask for (docs/AGENT.md, threat model): the
// numbers of a configuration from the network are checked before anything adds,
// multiplies or casts them (a warm-up near 2^63 once wrapped a 2 s cap into
// "run until stopped"), and the load is held under caps the operator sets.

#include "common/result.h"
#include "run/runconfig.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>

namespace wb {

struct AgentLimits
{
    uint64_t maxDurationUs = 3'600'000'000; ///< warm-up and measurement together
    unsigned maxConnections = 10'000; ///< connections of one run (the loader's sockets)
    unsigned maxThreads = 64; ///< loader threads of one run
    double maxRatePerS = 1'000'000; ///< open model: the rate, and every rate stage's target
    uint64_t maxStartAheadUs = 300'000'000; ///< how far ahead a common start may be set
};

/// Every number in a received configuration (`config` of POST /v1/runs) is a whole number
/// that fits the field it is read into, except the few that are real numbers (rate, stage
/// targets, mix weights), which must be finite and not negative. The decoder casts what it
/// reads: a 1e30 connection count or a negative duration must never reach it.
Status checkConfigNumbers(const nlohmann::json& config);

/// The run as received (before normalized(), which adds and rounds what it is given): stage
/// durations summed with overflow checks, stage targets in range, and warm-up + duration
/// under maxDurationUs without wrapping. The error says which cap and its value.
Status checkRunLimits(const RunConfig& received, const AgentLimits& limits);
/// This agent's share of the run (shareOf) under the caps on connections, threads and rate.
Status checkShareLimits(const RunConfig& share, const AgentLimits& limits);

/// A start time from POST /v1/runs/ID/start: positive and at most maxStartAheadUs after
/// nowUnixUs (a start in 2286 kept the agent busy until its watchdog).
Status checkStartAt(int64_t startAtUnixUs, int64_t nowUnixUs, const AgentLimits& limits);

} // namespace wb
