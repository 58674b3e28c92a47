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
/// Above this share of requests sent more than 1 ms late, likewise.
inline constexpr double TRIAL_MAX_LATE_SHARE = 0.10;

/// Why the loader decided the trial ("" when it did not). Its CPU was saturated (whatever the
/// verdict: its latencies include its own queue); or it sent too few requests or sent them late,
/// and either the SLOs held anyway (the rate was not tested) or the target still answered about as
/// fast as at rest (service p50 within 4x restLatencyUs, or 1 ms): then the lag is the loader's
/// (threads or connections too few for the rate), not a target that slowed and held the
/// connections, whose wait the corrected latency rightly counts against it.
std::string loaderLimitOf(const RunResult& result, double restLatencyUs);

/// The run judged: SLO verdicts, the first failure, the loader's part. restLatencyUs: what one
/// request took with the target at rest (the probe before the search). elapsedS and runId are
/// the caller's.
TrialOutcome judgeTrial(const RunResult& result, double restLatencyUs);

} // namespace wb
