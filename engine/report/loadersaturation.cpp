#include "report/loadersaturation.h"

#include "report/units.h"
#include "run/runresult.h"

#include <cmath>
#include <fmt/format.h>
#include <iterator>

namespace wb {

namespace {

long percent(double share)
{
    return std::lround(share * 100.0);
}

constexpr const char* MAY_MEASURE = ": the figures may measure the {} rather than the target";

// "X was saturated (figures)", "X shared the machine with other work: ..." or both, by the rules
// that fired (LoaderCost's), without the closing clause.
std::string verdictOf(const LoaderCost& c, const std::string& who)
{
    std::string out;
    if (c.workersBusy() || c.stolen() || c.fillsTheMachine())
        out = fmt::format("{} was saturated ({})", who, describeLoaderCost(c));
    if (c.sharesTheMachine()) {
        const std::string shared = fmt::format("its workers waited for a CPU {}% of their time on a machine {}% busy",
            percent(c.workerWaitShare()), percent(c.machineBusyShare()));
        if (out.empty())
            out = fmt::format("{} shared the machine with other work: {} ({})", who, shared, describeLoaderCost(c));
        else
            out += "; it shared the machine with other work: " + shared;
    }
    return out;
}

double lateShare(const RunResult& r)
{
    return r.requests > 0 ? static_cast<double>(r.lateRequests) / static_cast<double>(r.requests) : 0.0;
}

// The open model: the loader fell behind its schedule on a machine with no CPU to spare.
bool fellBehind(const RunResult& r)
{
    const LoaderCost& c = r.loaderCost;
    const bool behind = lateShare(r) >= LOADER_BEHIND_LATE_SHARE
        || (r.targetRatePerS > 0 && r.requestsPerS() < LOADER_BEHIND_ACHIEVED_SHARE * r.targetRatePerS);
    return r.config.openModel() && r.requests > 0 && behind && c.machineCpuUs > 0
        && c.machineTakenShare() >= LOADER_SHARED_MACHINE_SHARE;
}

// The open model: what the loader delivered of its schedule, which is how it is judged there.
std::string deliveryOf(const RunResult& r)
{
    if (!r.config.openModel() || r.requests == 0) return {};
    std::string out
        = fmt::format("{:.1f}% of the requests sent more than 1 ms after their due time", lateShare(r) * 100);
    if (!r.sendLag.empty())
        fmt::format_to(std::back_inserter(out), " (send lag p99 {})",
            formatTimeUs(static_cast<double>(r.sendLag.valueAtPercentileUs(99))));
    if (r.targetRatePerS > 0)
        fmt::format_to(std::back_inserter(out), ", {:.1f}% of the rate asked achieved",
            100.0 * r.requestsPerS() / r.targetRatePerS);
    return out;
}

} // namespace

std::string describeLoaderCost(const LoaderCost& c)
{
    if (!c.measured()) return {};
    std::string out;
    if (c.workerSpinUs > 0)
        out = fmt::format("workers {}% busy, the send spin aside ({}% with it: {}% on a CPU, {}% waiting for one)",
            percent(c.workerWorkShare()), percent(c.workerBusyShare()), percent(c.workerCpuShare()),
            percent(c.workerWaitShare()));
    else
        out = fmt::format("workers {}% busy ({}% on a CPU, {}% waiting for one)", percent(c.workerBusyShare()),
            percent(c.workerCpuShare()), percent(c.workerWaitShare()));
    if (c.processWallUs > 0) fmt::format_to(std::back_inserter(out), ", process {:.2f} CPUs", c.processCpus());
    if (c.machineCpuUs > 0) {
        fmt::format_to(std::back_inserter(out), ", machine {}% busy", percent(c.machineBusyShare()));
        if (c.machineCpus > 0) fmt::format_to(std::back_inserter(out), " of {} CPUs", c.machineCpus);
        fmt::format_to(std::back_inserter(out), ", steal {}%", percent(c.machineStealShare()));
    }
    return out;
}

std::string loaderSaturationWarning(const LoaderCost& cost, const std::string& who)
{
    if (!cost.saturated()) return {};
    return verdictOf(cost, who) + fmt::format(MAY_MEASURE, "loader");
}

bool loaderSaturated(const LoaderCost& total, const std::vector<LoaderSummary>& loaders)
{
    if (loaders.empty()) return total.saturated();
    for (const LoaderSummary& l : loaders)
        if (l.cost.saturated()) return true;
    return false;
}

std::string loaderSaturationWarning(const LoaderCost& total, const std::vector<LoaderSummary>& loaders)
{
    if (loaders.empty()) return loaderSaturationWarning(total);
    // Each loader by itself: one saturated pod among idle ones is hidden by the fleet's average.
    std::string out;
    for (const LoaderSummary& l : loaders) {
        if (!l.cost.saturated()) continue;
        if (!out.empty()) out += "; ";
        out += verdictOf(l.cost, fmt::format("loader #{}{}", l.index, l.host.empty() ? "" : " (" + l.host + ")"));
    }
    if (out.empty()) return {};
    return out + fmt::format(MAY_MEASURE, "loaders");
}

bool loaderSaturated(const RunResult& result)
{
    return loaderSaturated(result.loaderCost, result.loaders) || fellBehind(result);
}

std::string loaderSaturationWarning(const RunResult& result)
{
    const std::string who = result.loaders.empty() ? "loader" : "loaders";
    const std::string closing = fmt::format(MAY_MEASURE, who);
    std::string out = loaderSaturationWarning(result.loaderCost, result.loaders);
    if (!out.empty()) out.resize(out.size() - closing.size());
    // The open model is judged by what the loader delivered of its schedule too, and says it.
    if (fellBehind(result)) {
        out += fmt::format("{}the {} fell behind {} schedule on a machine {}% busy: {}", out.empty() ? "" : "; ", who,
            result.loaders.empty() ? "its" : "their", percent(result.loaderCost.machineBusyShare()),
            deliveryOf(result));
        if (result.loaders.empty() && !result.loaderCost.saturated())
            out += " (" + describeLoaderCost(result.loaderCost) + ")";
    } else if (!out.empty() && result.config.openModel()) {
        out += (result.loaders.empty() ? "; of its schedule: " : "; of their schedule: ") + deliveryOf(result);
    }
    return out.empty() ? out : out + closing;
}

} // namespace wb
