#pragma once
// A trial's verdict from its run: passed when every SLO held; and whether the loader, not the
// target, decided it. The search must never name a capacity the loader could not test.

#include "capacity/capacitysearch.h"
#include "run/runresult.h"

#include <string>

namespace wb {

/// Below this share of the requests the rate asked for, a trial whose SLOs held did not make its
/// load: the loader (its threads, or connections too few for the rate at the target's latency)
/// sent too little for the verdict to be about the rate.
inline constexpr double TRIAL_MIN_SENT_SHARE = 0.90;
/// Above this share of requests sent more than 1 ms late, a failed trial may be the loader's.
inline constexpr double TRIAL_MAX_LATE_SHARE = 0.10;

/// A loader whose send lag p99 is above this stalled long enough that its catch-up is a burst, which
/// a rate limiter may refuse: then it may be what failed an errors or non-2xx SLO.
inline constexpr uint64_t LOADER_STALL_US = 10'000;

/// Why the loader decided the trial ("" when it did not). Its CPU was saturated and the trial
/// failed a latency SLO (its latencies include its own queue; a saturated loader cannot make a
/// target refuse, and a pass on it passed a harder test). A trial that passed but sent too few requests
/// (the rate was not tested; a pass with late sends passed a harder load and stands). A trial that
/// failed with too few or late sends, while the target answered about as fast as at rest (service
/// p50 within 4x restLatencyUs, or 1 ms), when the lag explains every failed SLO: a latency SLO the
/// service time meets, any other when the loader stalled (LOADER_STALL_US). A slow target holding
/// the connections is the target's failure: the corrected latency rightly counts that wait.
std::string loaderLimitOf(const RunResult& result, double restLatencyUs);

/// The run judged: SLO verdicts, the first failure, the loader's part. restLatencyUs: what one
/// request took with the target at rest (the probe before the search). elapsedS and runId are
/// the caller's.
TrialOutcome judgeTrial(const RunResult& result, double restLatencyUs);

} // namespace wb
