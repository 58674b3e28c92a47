#include "report/loadersaturation.h"

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

} // namespace

std::string describeLoaderCost(const LoaderCost& c)
{
    if (!c.measured()) return {};
    std::string out = fmt::format("workers {}% busy ({}% on a CPU, {}% waiting for one)", percent(c.workerBusyShare()),
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
    return fmt::format("{} was saturated ({}): the figures may measure the loader rather than the target", who,
        describeLoaderCost(cost));
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
        out += fmt::format("loader #{}{} was saturated ({})", l.index, l.host.empty() ? "" : " (" + l.host + ")",
            describeLoaderCost(l.cost));
    }
    if (out.empty()) return {};
    return out + ": the figures may measure the loaders rather than the target";
}

std::string loaderSaturationWarning(const RunResult& result)
{
    return loaderSaturationWarning(result.loaderCost, result.loaders);
}

} // namespace wb
