#pragma once
// Reads what the loader costs (stats/loadercost.h), cheaply enough to do it every interval:
// a worker reads its own thread's CPU clock, run-queue delay and context switches at its
// interval tick (three reads, no allocation, nothing per request), and the run controller reads
// the process's and the machine's when it merges the interval (off the workers' threads).

#include "stats/loadercost.h"

#include <cstdint>

namespace wb {

/// One worker thread's cost. start() and takeInto() must run on that thread.
class ThreadCostMeter
{
public:
    ThreadCostMeter() = default;
    ~ThreadCostMeter();
    ThreadCostMeter(const ThreadCostMeter&) = delete;
    ThreadCostMeter& operator=(const ThreadCostMeter&) = delete;

    /// Takes the first reading (measurement began at nowUs, CLOCK_MONOTONIC).
    void start(uint64_t nowUs);
    bool started() const { return m_started; }
    /// Adds the cost since the previous reading to `into` and starts the next stretch there.
    /// Nothing before start().
    void takeInto(LoaderCost& into, uint64_t nowUs);

private:
    struct Reading
    {
        uint64_t wallUs = 0;
        uint64_t cpuUs = 0;
        uint64_t waitUs = 0;
        uint64_t involuntarySwitches = 0;
    };
    Reading read(uint64_t nowUs) const;

    int m_schedstatFd = -1; ///< this thread's /proc/thread-self/schedstat, kept open (one pread a reading)
    bool m_started = false;
    Reading m_last;
};

/// The process's and the machine's cost, read by the thread that merges intervals.
class ProcessCostMeter
{
public:
    /// Takes the first reading (measurement began at nowUs, CLOCK_MONOTONIC).
    void start(uint64_t nowUs);
    bool started() const { return m_started; }
    /// Adds the cost since the previous reading to `into` and starts the next stretch there.
    void takeInto(LoaderCost& into, uint64_t nowUs);

private:
    struct Reading
    {
        uint64_t wallUs = 0;
        uint64_t cpuUs = 0;
        uint64_t involuntarySwitches = 0;
        uint64_t machineTicks = 0; ///< /proc/stat's first line: all CPUs, in USER_HZ ticks
        uint64_t busyTicks = 0;
        uint64_t stealTicks = 0;
    };
    static Reading read(uint64_t nowUs);

    bool m_started = false;
    Reading m_last;
};

/// The machine's CPU line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal
/// ..."): all CPUs' ticks, of them busy (user, nice, system, irq, softirq; guest time is inside
/// user) and stolen. False when the line is not there or not numbers.
struct MachineTicks
{
    uint64_t total = 0;
    uint64_t busy = 0;
    uint64_t steal = 0;
};
bool parseProcStatCpuLine(const char* text, MachineTicks& out);

} // namespace wb
