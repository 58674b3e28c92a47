#pragma once
// A plan with "search" made ready to search (docs/CAPACITY.md, "In a plan"): each target's trial
// settings are the plan's load with the search's SLOs, each target is the session's target of its
// name (created as an experiment's runs create theirs), and the options are those the plan gives.
// The CLI's `experiment` and the window's "New from plan" search from the same setup.

#include "capacity/capacityoptions.h"
#include "common/result.h"
#include "experiment/experimentplan.h"
#include "run/runconfig.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wb {

class SessionStore;

struct PlanSearchSetup
{
    std::vector<std::pair<std::string, RunConfig>>
        targets; ///< URL and trial settings: the plan's baseline first, then the plan's order
    std::vector<int64_t> sessionTargetIds; ///< by index: the session target each one's trials are runs of
    CapacityOptions options;
    bool warmupGiven = false; ///< the plan gives "warmup": each trial warms up as the CLI's --warmup does
    std::string name; ///< the search's name in the session: the plan's
};

/// Nothing is stored but the targets the plan names and the session lacks; warnings say when a
/// target of that name has another URL. A plan without "search" is refused.
Result<PlanSearchSetup> planSearchSetup(
    SessionStore& store, const ExperimentPlan& plan, std::vector<std::string>* warnings = nullptr);

} // namespace wb
