#pragma once
// Observers receive a run's intervals (one IntervalRecord each, made once from
// the workers' merged snapshot) and its final result.
// They are called on the run controller's thread (never a worker's), one
// call at a time; a GUI observer queues the data to its own thread.

#include "run/runresult.h"
#include "stats/intervalrecord.h"

namespace wb {

class RunObserver
{
public:
    virtual ~RunObserver() = default;
    /// Load starts now (after the pre-run check); warm-up, if any, begins.
    virtual void onStarted(const RunConfig&) { }
    /// One merged interval (every intervalUs, the last one possibly shorter).
    virtual void onInterval(const IntervalRecord&) { }
    /// The run is over; the result covers every completed request.
    virtual void onFinished(const RunResult&) { }
};

} // namespace wb
