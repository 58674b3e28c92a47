#include "capacity/trialjudge.h"

#include <algorithm>
#include <fmt/format.h>

namespace wb {

namespace {

/// One stall of the loader whose catch-up burst is all a rate limiter refused: the longest send lag
/// over LOADER_STALL_US, and no more requests refused (errors and non-2xx) than went out late. A
/// target refusing the rate itself refuses across the trial, far more than one burst's requests.
bool burstAfterStall(const RunResult& r)
{
    const uint64_t refused = r.errors.transportErrors() + r.status.non2xx();
    return r.maxLagUs > LOADER_STALL_US && refused > 0 && refused <= r.lateRequests;
}

/// Whether the loader's lag alone explains every SLO the trial failed: a latency SLO that the
/// service time (from the actual send, the lag left out) meets, or any other SLO when the loader
/// stalled so long that its catch-up was a burst (send lag p99 over LOADER_STALL_US, or
/// burstAfterStall: the caller's `burst`).
bool lagExplainsFailures(const RunResult& r, bool burst)
{
    if (r.serviceLatency.empty()) return false;
    SloInputs fromSend = sloInputsOf(r, r.durationS);
    fromSend.latency = &r.serviceLatency;
    const bool stalled = burst || r.sendLag.valueAtPercentileUs(99) > LOADER_STALL_US;
    for (size_t i = 0; i < r.config.slos.size() && i < r.slo.size(); ++i) {
        if (r.slo[i].ok) continue;
        const Slo& slo = r.config.slos[i];
        const bool explained = slo.metric == Slo::Metric::Latency ? evaluateSlo(slo, fromSend).ok : stalled;
        if (!explained) return false;
    }
    return true;
}

} // namespace

std::string loaderLimitOf(const RunResult& r, double restLatencyUs)
{
    // A saturated loader queues its own reads and sends: it can inflate a latency the trial failed
    // on, never make the target refuse or answer 503. So it decides a failed trial with a failed
    // latency SLO; a pass, or a failure on errors or non-2xx alone, stands (a pass on a starved
    // loader passed a harder test), unless the sends below say the rate was not made.
    const LoaderCost& cost = r.loaderCost;
    bool latencyFailed = false;
    for (size_t i = 0; i < r.config.slos.size() && i < r.slo.size(); ++i)
        latencyFailed = latencyFailed || (!r.slo[i].ok && r.config.slos[i].metric == Slo::Metric::Latency);
    if (cost.saturated() && latencyFailed)
        return fmt::format(
            "the loader was saturated (its workers busy {:.0f}% of their time, the machine {:.0f}%, {:.0f}% stolen by "
            "the hypervisor)",
            cost.workerBusyShare() * 100, cost.machineBusyShare() * 100, cost.machineStealShare() * 100);
    const double planned = r.targetRatePerS * r.durationS;
    const double sent = static_cast<double>(r.requests + r.errors.transportErrors());
    const bool sentTooFew = planned >= 10 && sent < planned * TRIAL_MIN_SENT_SHARE;
    const double serviceP50Us
        = r.serviceLatency.empty() ? 0.0 : static_cast<double>(r.serviceLatency.valueAtPercentileUs(50));
    const bool targetSlowed = serviceP50Us > std::max(4 * restLatencyUs, 1000.0);
    if (allSlosMet(r.slo)) {
        // A pass with late sends still passed a load at least as hard (late sends bunch up); a
        // pass with too few sent says nothing about the rate. When the target slowed, say what
        // would have judged it.
        if (!sentTooFew) return {};
        std::string reason
            = fmt::format("the loader sent {:.0f} of the {:.0f} requests the rate asked for", sent, planned);
        if (targetSlowed)
            reason += fmt::format("; the target slowed (service p50 {:.2f} ms): more connections (-c) would make the "
                                  "rate, or a latency SLO would judge it",
                serviceP50Us / 1000);
        return reason;
    }
    const double lateShare
        = r.requests > 0 ? static_cast<double>(r.lateRequests) / static_cast<double>(r.requests) : 0.0;
    const bool burst = burstAfterStall(r);
    if ((!sentTooFew && lateShare <= TRIAL_MAX_LATE_SHARE && !burst) || targetSlowed || !lagExplainsFailures(r, burst))
        return {};
    const std::string reason = sentTooFew
        ? fmt::format("the loader sent {:.0f} of the {:.0f} requests the rate asked for", sent, planned)
        : lateShare > TRIAL_MAX_LATE_SHARE
        ? fmt::format("{:.0f}% of the requests went out more than 1 ms late (send lag p99 {:.1f} ms)", lateShare * 100,
            static_cast<double>(r.sendLag.valueAtPercentileUs(99)) / 1000)
        : fmt::format("the loader stalled (longest send lag {:.1f} ms) and sent {} requests late, no fewer than "
                      "were refused",
            static_cast<double>(r.maxLagUs) / 1000, r.lateRequests);
    return fmt::format("{}, and the failure is the lag's: the target answered as at rest (service p50 {:.2f} ms)",
        reason, serviceP50Us / 1000);
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
