#pragma once
// Was the loader saturated? When its workers had no time to spare (on a CPU or waiting for one
// above LOADER_SATURATED_BUSY_SHARE of their time), the hypervisor stole the machine's CPUs
// (above LOADER_SATURATED_STEAL_SHARE), or the machine was full and the loader took half of it
// (LoaderCost::saturated), the figures may measure the loader rather than the
// target: the text report, the JSON, the GUI's run header, the experiment tables and the
// comparability check say so in one line, with the numbers (stats/loadercost.h).

#include "stats/loadercost.h"

#include <string>
#include <vector>

namespace wb {

struct LoaderSummary;
struct RunResult;

/// "workers 97% busy (31% on a CPU, 66% waiting for one), process 1.9 CPUs, machine 100% busy of
/// 2 CPUs, steal 0%": the figures, in one phrase ("" when nothing was measured).
std::string describeLoaderCost(const LoaderCost& cost);

/// The one-line warning (no trailing newline) when `cost` is saturated, else "". `who` names the
/// loader ("the loader", "loader #1 (pod-b)").
std::string loaderSaturationWarning(const LoaderCost& cost, const std::string& who = "the loader");

/// A run's: its loaders' rows when it had several (each saturated one named), else its own cost.
std::string loaderSaturationWarning(const LoaderCost& total, const std::vector<LoaderSummary>& loaders);
std::string loaderSaturationWarning(const RunResult& result);
bool loaderSaturated(const LoaderCost& total, const std::vector<LoaderSummary>& loaders);

} // namespace wb
