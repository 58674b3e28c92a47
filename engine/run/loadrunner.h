#pragma once
// What makes the load of one recorded run: this process's RunController, or a
// fleet of loaders whose streams are merged into one run (engine/fleet). The
// recorded run (record/recordedrun.h), the stop switch and the observers see
// only this.

#include "common/result.h"
#include "run/runobserver.h"
#include "run/runresult.h"

#include <string>
#include <vector>

namespace wb {

class LoadRunner
{
public:
    virtual ~LoadRunner() = default;
    /// Not owned; called on the runner's own thread, one call at a time.
    virtual void addObserver(RunObserver* observer) = 0;
    /// Everything before the load: the error is one plain sentence.
    virtual Status prepare() = 0;
    /// The load (after prepare() succeeded); blocks until it is over.
    virtual RunResult run() = 0;
    /// Ends the run early, from any thread. Async-signal-safe.
    virtual void stop() = 0;
    /// What prepare() noticed that the user should hear once.
    virtual const std::vector<std::string>& warnings() const = 0;
};

} // namespace wb
