#pragma once
// What the loader itself cost while it measured: its worker threads, its process and the
// machine it ran on. A loader that had no CPU to spare measures itself as much as the target
// (wrk -t12 on 8 cores beside the server): these figures say when that happened.
//
// Every field is a sum over a stretch of time, so the same interval of several workers, the
// intervals of a run and the same interval of several loaders add up exactly (add()); the
// shares are ratios of sums. Measured by run/loadercostmeter.h: the workers read their own
// thread's clocks once per interval, the run controller reads the process's and the machine's
// when it merges the interval. Zero wall time means "not measured" (an imported run, a session
// written before the loader's cost was kept).

#include <algorithm>
#include <cstdint>

namespace wb {

/// Above this share of their wall time the workers are saturated: on a CPU or waiting for one
/// (CPU time plus run-queue wait over wall time, averaged over the workers). A worker of an
/// epoll loop that is never idle sends late and reads late: its latencies include its own queue.
/// 90%, not 100%: an interval's tick, the controller and housekeeping take a little, and a loop
/// busy 90% of the time already delays most events.
inline constexpr double LOADER_SATURATED_BUSY_SHARE = 0.90;
/// Above this share of the machine's CPU time stolen by the hypervisor the loader is flagged too:
/// a VM whose CPUs run something else a tenth of the time delays every event that much.
inline constexpr double LOADER_SATURATED_STEAL_SHARE = 0.10;
/// And when the machine was full (busy above this share of its CPU time) while the loader's
/// process itself took at least half of it: wrk -t12 on 8 cores beside the server, whose workers
/// may each look half idle because they wait for the server they starve.
inline constexpr double LOADER_SATURATED_MACHINE_SHARE = 0.90;
inline constexpr double LOADER_SATURATED_PROCESS_SHARE = 0.50;

struct LoaderCost
{
    // The workers (each reads its own thread's clocks at its interval tick; summed over workers).
    uint64_t workerWallUs = 0; ///< wall time the workers measured over (per worker, added up)
    uint64_t workerCpuUs = 0; ///< their CPU time (CLOCK_THREAD_CPUTIME_ID), user + system
    /// Their time runnable but waiting for a CPU (the kernel's run-queue delay, /proc/thread-self/
    /// schedstat); 0 where the kernel does not keep it.
    uint64_t workerWaitUs = 0;
    uint64_t workerInvoluntarySwitches = 0; ///< times the kernel took a CPU from a worker (ru_nivcsw)
    // The process (read by the run controller as it merges each interval).
    uint64_t processWallUs = 0; ///< wall time the process figures cover
    uint64_t processCpuUs = 0; ///< the whole process's CPU time (getrusage RUSAGE_SELF), all threads
    uint64_t processInvoluntarySwitches = 0; ///< of all its threads
    // The machine (/proc/stat, all CPUs; several loaders: their machines added up).
    uint64_t machineCpuUs = 0; ///< CPU time the machine had: wall time times its CPUs
    uint64_t machineBusyUs = 0; ///< of it, spent running anything (user, nice, system, irq, softirq)
    uint64_t machineStealUs = 0; ///< of it, taken by the hypervisor for other guests (steal)
    uint32_t machineCpus = 0; ///< CPUs of the machine (several loaders: the largest)

    bool measured() const { return workerWallUs > 0; }
    /// Share of the workers' wall time they were on a CPU (0..1 per worker, averaged).
    double workerCpuShare() const { return share(workerCpuUs, workerWallUs); }
    /// Share of the workers' wall time they waited for a CPU.
    double workerWaitShare() const { return share(workerWaitUs, workerWallUs); }
    /// On a CPU or waiting for one: the share of their time the workers had nothing to wait for.
    double workerBusyShare() const { return share(workerCpuUs + workerWaitUs, workerWallUs); }
    /// CPUs the process used on average (1.0 = one CPU all the time).
    double processCpus() const { return share(processCpuUs, processWallUs); }
    double machineBusyShare() const { return share(machineBusyUs, machineCpuUs); }
    double machineStealShare() const { return share(machineStealUs, machineCpuUs); }

    /// Share of the machine's CPU time the loader's process took.
    double processMachineShare() const
    {
        return machineCpuUs > 0 && processWallUs > 0 && machineCpus > 0
            ? processCpus() / static_cast<double>(machineCpus)
            : 0.0;
    }
    /// Whether the figures measured over this stretch may be the loader's rather than the target's.
    bool saturated() const
    {
        return (measured() && workerBusyShare() >= LOADER_SATURATED_BUSY_SHARE)
            || (machineCpuUs > 0 && machineStealShare() >= LOADER_SATURATED_STEAL_SHARE)
            || (machineCpuUs > 0 && machineBusyShare() >= LOADER_SATURATED_MACHINE_SHARE
                && processMachineShare() >= LOADER_SATURATED_PROCESS_SHARE);
    }

    void add(const LoaderCost& o)
    {
        workerWallUs += o.workerWallUs;
        workerCpuUs += o.workerCpuUs;
        workerWaitUs += o.workerWaitUs;
        workerInvoluntarySwitches += o.workerInvoluntarySwitches;
        processWallUs += o.processWallUs;
        processCpuUs += o.processCpuUs;
        processInvoluntarySwitches += o.processInvoluntarySwitches;
        machineCpuUs += o.machineCpuUs;
        machineBusyUs += o.machineBusyUs;
        machineStealUs += o.machineStealUs;
        machineCpus = std::max(machineCpus, o.machineCpus);
    }
    bool operator==(const LoaderCost&) const = default;

private:
    static double share(uint64_t part, uint64_t whole)
    {
        return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
    }
};

} // namespace wb
