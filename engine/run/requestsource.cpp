#include "run/requestsource.h"

#include "run/loadplan.h"

namespace wb {

MixRequestSource::MixRequestSource(const LoadPlan& plan, const std::vector<uint32_t>& globalSlots)
    : m_table(plan.config.requests())
{
    m_pickers.reserve(globalSlots.size());
    for (const uint32_t slot : globalSlots)
        m_pickers.emplace_back(*plan.mix, plan.config.mix.seed, slot);
}

std::unique_ptr<RequestSource> makeRequestSource(
    const LoadPlan& plan, unsigned workerIndex, const std::vector<uint32_t>& globalSlots)
{
    if (plan.hooks.requestSource) return plan.hooks.requestSource(workerIndex, globalSlots);
    if (plan.mix) return std::make_unique<MixRequestSource>(plan, globalSlots);
    return std::make_unique<FixedRequestSource>(plan.config.request);
}

} // namespace wb
