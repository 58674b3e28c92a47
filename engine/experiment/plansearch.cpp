#include "experiment/plansearch.h"

#include "record/recordedrun.h"
#include "store/sessionstore.h"

#include <algorithm>

namespace wb {

Result<PlanSearchSetup> planSearchSetup(
    SessionStore& store, const ExperimentPlan& plan, std::vector<std::string>* warnings)
{
    if (!plan.search) return Error { "the plan has no \"search\": it is run as an experiment" };
    PlanSearchSetup setup;
    setup.name = plan.name;
    setup.warmupGiven = plan.warmupUs > 0;
    for (const auto& given : plan.search->options) {
        const std::string& key = given.first;
        const auto o = std::find_if(capacityOptions().begin(), capacityOptions().end(),
            [&key](const CapacityOption& option) { return option.key == key; });
        if (o == capacityOptions().end()) return Error { "search: no option '" + key + "'" };
        if (Status st = o->read(setup.options, given.second); !st) return Error { "search." + key + ": " + st.error() };
    }
    // The plan's baseline first (a search's first target is its baseline), the others in plan order.
    std::vector<size_t> order { plan.baselineIndex() };
    for (size_t t = 0; t < plan.targets.size(); ++t)
        if (t != order.front()) order.push_back(t);
    for (const size_t t : order) {
        RunConfig config = plan.runConfig(0, t);
        config.slos = plan.search->slos;
        setup.targets.emplace_back(config.request.url.displayText(), std::move(config));
        const ExperimentTarget& target = plan.targets[t];
        auto id = findOrCreateTarget(
            store, target.name, target.request, target.tls, target.httpVersion, warnings, "this search");
        if (!id) return Error { id.error() };
        setup.sessionTargetIds.push_back(*id);
    }
    return setup;
}

} // namespace wb
