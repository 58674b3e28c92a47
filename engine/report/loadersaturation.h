#pragma once
// Was the loader saturated? When its workers had no time to spare (working, or waiting for a CPU,
// above LOADER_SATURATED_BUSY_SHARE of their time; the open model's send spin is not work), the
// hypervisor stole the machine's CPUs (above LOADER_SATURATED_STEAL_SHARE), the machine was full
// and the loader took half of it, or the machine was full and the workers waited for a CPU
// (LOADER_SHARED_WAIT_SHARE: it shares the machine with other work) (LoaderCost::saturated), the
// figures may measure the loader rather than the
// target: the text report, the JSON, the GUI's run header, the experiment tables and the
// comparability check say so in one line, with the numbers (stats/loadercost.h).

#include "stats/loadercost.h"

#include <string>
#include <vector>

namespace wb {

struct LoaderSummary;
struct RunResult;

/// The open model's own rule: the loader fell behind its schedule (this share of the requests sent
/// more than 1 ms after their due time, or more; or less than LOADER_BEHIND_ACHIEVED_SHARE of the
/// rate asked achieved) on a machine nearly full (LOADER_SHARED_MACHINE_SHARE). What it failed to
/// deliver is then its own doing: a slow target makes requests late too, but leaves the machine
/// idle while they wait for a free connection. 5% late or 95% of the rate: a loader that keeps up
/// delivers its schedule whole, so a twentieth missing is its own (docs/LOADER-METRICS.md).
inline constexpr double LOADER_BEHIND_LATE_SHARE = 0.05;
inline constexpr double LOADER_BEHIND_ACHIEVED_SHARE = 0.95;

/// "workers 97% busy (31% on a CPU, 66% waiting for one), process 1.9 CPUs, machine 100% busy of
/// 2 CPUs, steal 0%": the figures, in one phrase ("" when nothing was measured).
std::string describeLoaderCost(const LoaderCost& cost);

/// The one-line warning (no trailing newline) when `cost` is saturated, else "". `who` names the
/// loader ("the loader", "loader #1 (pod-b)").
std::string loaderSaturationWarning(const LoaderCost& cost, const std::string& who = "the loader");

/// A run's: its loaders' rows when it had several (each saturated one named), else its own cost.
std::string loaderSaturationWarning(const LoaderCost& total, const std::vector<LoaderSummary>& loaders);
bool loaderSaturated(const LoaderCost& total, const std::vector<LoaderSummary>& loaders);
/// A run's verdict and warning; in the open model the warning also says what the loader delivered
/// of its schedule (requests sent late, the send lag's p99, the rate achieved of the rate asked).
bool loaderSaturated(const RunResult& result);
std::string loaderSaturationWarning(const RunResult& result);

} // namespace wb
