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
/// And when the machine was nearly full (busy above LOADER_SHARED_MACHINE_SHARE) while the workers
/// waited for a CPU this share of their time or more: the loader shares the machine with other
/// work (the target, another program), and every wait adds to the latencies it measures, whoever
/// took the CPU. Chosen from runs on a 2-core machine (docs/LOADER-METRICS.md): loaders beside
/// their target waited 18-43% of their time on a machine 80-100% busy; loaders that had a CPU when
/// they wanted one waited 0.6-1.8% on a machine 84-100% busy (the rest nice-19 work), and up to 5%
/// on one 25% busy (the kernel waking a thread that slept). 80%, not 90%: a loader that starves
/// its server leaves a CPU idle now and then (80.0% measured).
inline constexpr double LOADER_SHARED_WAIT_SHARE = 0.05;
inline constexpr double LOADER_SHARED_MACHINE_SHARE = 0.80;
/// "Other work": of the machine's CPU time, at least this share was busy outside the loader's
/// process. Eight workers waiting for each other on two CPUs are busy (the first rule), not sharing.
inline constexpr double LOADER_SHARED_OTHER_SHARE = 0.10;

struct LoaderCost
{
    // The workers (each reads its own thread's clocks at its interval tick; summed over workers).
    uint64_t workerWallUs = 0; ///< wall time the workers measured over (per worker, added up)
    uint64_t workerCpuUs = 0; ///< their CPU time (CLOCK_THREAD_CPUTIME_ID), user + system
    /// Their time runnable but waiting for a CPU (the kernel's run-queue delay, /proc/thread-self/
    /// schedstat); 0 where the kernel does not keep it.
    uint64_t workerWaitUs = 0;
    uint64_t workerInvoluntarySwitches = 0; ///< times the kernel took a CPU from a worker (ru_nivcsw)
    /// Of their wall time, the open model's send spin (--send-spin): passes of their loops that only
    /// polled, on a CPU or waiting for one, until a due send's time. Waiting, not work: the busy
    /// shares below leave it out. 0 in the closed model.
    uint64_t workerSpinUs = 0;
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
    /// The same without the send spin: the share of their time the workers worked (or waited for a
    /// CPU to work on). What the saturation rules judge; equal to workerBusyShare() without a spin.
    double workerWorkShare() const
    {
        const uint64_t busy = workerCpuUs + workerWaitUs;
        return share(busy - std::min(busy, workerSpinUs), workerWallUs);
    }
    /// Share of the workers' wall time spent in the send spin.
    double workerSpinShare() const { return share(workerSpinUs, workerWallUs); }
    /// CPUs the process used on average (1.0 = one CPU all the time).
    double processCpus() const { return share(processCpuUs, processWallUs); }
    /// The same without the workers' send spin: the CPUs its work took.
    double processWorkCpus() const { return share(processCpuUs - std::min(processCpuUs, workerSpinUs), processWallUs); }
    double machineBusyShare() const { return share(machineBusyUs, machineCpuUs); }
    double machineStealShare() const { return share(machineStealUs, machineCpuUs); }

    /// Share of the machine's CPU time the loader's process took.
    double processMachineShare() const
    {
        return machineCpuUs > 0 && processWallUs > 0 && machineCpus > 0
            ? processCpus() / static_cast<double>(machineCpus)
            : 0.0;
    }
    /// Share of the machine's CPU time the loader's work took (its send spin left out).
    double processWorkMachineShare() const
    {
        return machineCpuUs > 0 && processWallUs > 0 && machineCpus > 0
            ? processWorkCpus() / static_cast<double>(machineCpus)
            : 0.0;
    }
    /// Share of the machine's CPU time it did not have free: busy, or stolen by the hypervisor (a
    /// vCPU that wanted to run and could not is as full as one that ran).
    double machineTakenShare() const { return share(machineBusyUs + machineStealUs, machineCpuUs); }
    bool machineFull() const { return machineCpuUs > 0 && machineTakenShare() >= LOADER_SATURATED_MACHINE_SHARE; }

    // The rules, each alone enough to flag the loader. Its send spin is waiting, not work: a
    // spinning open-model loader that keeps its schedule is not busy for it.
    /// The workers were working or waiting for a CPU (LOADER_SATURATED_BUSY_SHARE).
    bool workersBusy() const { return measured() && workerWorkShare() >= LOADER_SATURATED_BUSY_SHARE; }
    /// The hypervisor stole the machine's CPUs (LOADER_SATURATED_STEAL_SHARE).
    bool stolen() const { return machineCpuUs > 0 && machineStealShare() >= LOADER_SATURATED_STEAL_SHARE; }
    /// A full machine, half of it the loader's work (LOADER_SATURATED_PROCESS_SHARE).
    bool fillsTheMachine() const
    {
        return machineFull() && processWorkMachineShare() >= LOADER_SATURATED_PROCESS_SHARE;
    }
    /// A full machine, and the workers waited for a CPU (LOADER_SHARED_WAIT_SHARE): other work had it.
    bool sharesTheMachine() const
    {
        return measured() && machineCpuUs > 0 && machineTakenShare() >= LOADER_SHARED_MACHINE_SHARE
            && workerWaitShare() >= LOADER_SHARED_WAIT_SHARE && otherWorkShare() >= LOADER_SHARED_OTHER_SHARE;
    }
    /// Share of the machine's CPU time busy with something else than the loader's process.
    double otherWorkShare() const
    {
        if (machineCpuUs == 0 || processWallUs == 0 || machineCpus == 0) return 0.0;
        return std::max(0.0, machineBusyShare() - processCpus() / static_cast<double>(machineCpus));
    }
    /// Whether the figures measured over this stretch may be the loader's rather than the target's.
    bool saturated() const { return workersBusy() || stolen() || fillsTheMachine() || sharesTheMachine(); }

    void add(const LoaderCost& o)
    {
        workerWallUs += o.workerWallUs;
        workerCpuUs += o.workerCpuUs;
        workerWaitUs += o.workerWaitUs;
        workerInvoluntarySwitches += o.workerInvoluntarySwitches;
        workerSpinUs += o.workerSpinUs;
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
