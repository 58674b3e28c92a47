#include "capacity/trialjudge.h"

#include <algorithm>
#include <fmt/format.h>

namespace wb {

std::string loaderLimitOf(const RunResult& r, double restLatencyUs)
{
    const LoaderCost& cost = r.loaderCost;
    if (cost.saturated())
        return fmt::format("the loader was saturated (its workers busy {:.0f}% of their time, the machine {:.0f}%)",
            cost.workerBusyShare() * 100, cost.machineBusyShare() * 100);
    const double planned = r.targetRatePerS * r.durationS;
    const double sent = static_cast<double>(r.requests + r.errors.transportErrors());
    const double lateShare
        = r.requests > 0 ? static_cast<double>(r.lateRequests) / static_cast<double>(r.requests) : 0.0;
    std::string reason;
    if (planned >= 10 && sent < planned * TRIAL_MIN_SENT_SHARE)
        reason = fmt::format("the loader sent {:.0f} of the {:.0f} requests the rate asked for", sent, planned);
    else if (lateShare > TRIAL_MAX_LATE_SHARE)
        reason = fmt::format("{:.0f}% of the requests went out more than 1 ms late (max lag {:.1f} ms)",
            lateShare * 100, static_cast<double>(r.maxLagUs) / 1000);
    if (reason.empty()) return {};
    const double serviceP50Us
        = r.serviceLatency.empty() ? 0.0 : static_cast<double>(r.serviceLatency.valueAtPercentileUs(50));
    const bool targetSlowed = serviceP50Us > std::max(4 * restLatencyUs, 1000.0);
    if (allSlosMet(r.slo)) {
        // The rate was not made, so the pass says nothing about it; when the target slowed, say what
        // would have judged it.
        if (targetSlowed)
            reason += fmt::format("; the target slowed (service p50 {:.2f} ms): more connections (-c) would make the "
                                  "rate, or a latency SLO would judge it",
                serviceP50Us / 1000);
        return reason;
    }
    if (r.serviceLatency.empty() || targetSlowed) return {}; // the target slowed: its failure
    return fmt::format("{}, while the target answered as at rest (service p50 {:.2f} ms)", reason, serviceP50Us / 1000);
}

TrialOutcome judgeTrial(const RunResult& r, double restLatencyUs)
{
    TrialOutcome out;
    out.slo = r.slo;
    out.passed = allSlosMet(r.slo);
    for (const SloVerdict& v : r.slo)
        if (!v.ok) {
            out.failedSlo = v.expr;
            break;
        }
    out.loaderReason = loaderLimitOf(r, restLatencyUs);
    out.loaderLimited = !out.loaderReason.empty();
    return out;
}

} // namespace wb
