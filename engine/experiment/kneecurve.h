#pragma once
// Latency against throughput, the "knee" view: where a target stops taking more
// load and its latency climbs instead. One curve per variant of an experiment or a
// study (each level: its achieved requests/s against its p50 and p99), and the
// points of one stage run (each stage: the requests/s it achieved against the p50
// and p99 of its requests). Most telling for a rate sweep or a stage ramp, and
// meaningful for any sweep: a connection sweep walks the same curve.

#include "run/runconfig.h"
#include "stats/intervalrecord.h"

#include <string>
#include <vector>

namespace wb {

struct ExperimentResults;

struct KneePoint
{
    std::string label; ///< the level ("r2000") or the stage ("stage 3: 500/s")
    double requestsPerS = 0; ///< achieved (whole-run requests/s, whatever the table's metric)
    double p50Us = 0;
    double p99Us = 0; ///< NaN when not known (an imported wrk log without --latency)
};

struct KneeCurve
{
    std::string name; ///< the variant, "group variant" with groups
    std::vector<KneePoint> points; ///< in level order
};

/// One curve per group and variant, a point per level with completed runs (the means
/// across repetitions). Empty with fewer than two levels: one level is no curve.
std::vector<KneeCurve> experimentKneeCurves(const ExperimentResults& results);

/// A run with stages: one point per stage that saw responses, its intervals (those whose
/// middle falls in the stage) merged exactly: requests over their time, percentiles of
/// their histograms added. Empty without stages or without interval histograms.
std::vector<KneePoint> stageKneePoints(const RunConfig& config, const std::vector<IntervalRecord>& intervals);

} // namespace wb
