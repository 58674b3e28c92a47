// The loader's cost meters read real clocks: a thread that burns CPU is found on a CPU, one that
// sleeps is not, the process and the machine add up, and /proc/stat's line is read by its fields.
// Nothing here bounds a time: a burning thread is stopped by its own CPU clock, so the test holds
// on a machine whose other core is busy. A machine that stops the thread (a hypervisor's steal, a
// stop signal) takes wall time that is neither on a CPU nor waiting for one: such a burn is made
// again, and skipped with its figures if every attempt was paused (pausemeter.h).

#include "pausemeter.h"
#include "run/loadercostmeter.h"

#include <ctime>
#include <gtest/gtest.h>
#include <thread>

using namespace wb;

namespace {

uint64_t threadCpuUs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000u + static_cast<uint64_t>(ts.tv_nsec) / 1000u;
}

uint64_t monotonicUs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000u + static_cast<uint64_t>(ts.tv_nsec) / 1000u;
}

} // namespace

TEST(ThreadCostMeter, ABurningThreadIsOnACpuASleepingOneIsNot)
{
    const auto burn = [] {
        LoaderCost cost;
        std::thread([&] {
            ThreadCostMeter meter;
            meter.start(monotonicUs());
            const uint64_t until = threadCpuUs() + 200'000; // 200 ms of this thread's own CPU
            volatile uint64_t x = 0;
            while (threadCpuUs() < until)
                x = x + 1;
            meter.takeInto(cost, monotonicUs());
        }).join();
        return cost;
    };
    // On a CPU or waiting for one all the time (the busy share is 1 up to the clocks' rounding).
    const auto [burning, pauses]
        = test::untilUnpaused(burn, [](const LoaderCost& c) { return c.workerBusyShare() >= 0.9; });
    LoaderCost sleeping;
    std::thread([&] {
        ThreadCostMeter meter;
        meter.start(monotonicUs());
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        meter.takeInto(sleeping, monotonicUs());
    }).join();
    EXPECT_GE(burning.workerCpuUs, 200'000u);
    EXPECT_GE(burning.workerWallUs, burning.workerCpuUs);
    EXPECT_LE(burning.workerCpuUs + burning.workerWaitUs, burning.workerWallUs + 20'000);
    EXPECT_GE(sleeping.workerWallUs, 200'000u);
    EXPECT_LT(sleeping.workerBusyShare(), 0.5) << "a sleeping thread is not busy";
    EXPECT_TRUE(burning.measured());
    if (burning.workerBusyShare() < 0.9 && pauses.material())
        GTEST_SKIP() << "busy share " << burning.workerBusyShare() << "; " << pauses.text();
    EXPECT_GE(burning.workerBusyShare(), 0.9);
}

TEST(ThreadCostMeter, NothingBeforeStart)
{
    ThreadCostMeter meter;
    LoaderCost cost;
    meter.takeInto(cost, monotonicUs());
    EXPECT_EQ(cost, LoaderCost {});
}

TEST(ProcessCostMeter, TheProcessAndTheMachineAddUp)
{
    ProcessCostMeter meter;
    meter.start(monotonicUs());
    const uint64_t until = threadCpuUs() + 100'000;
    volatile uint64_t x = 0;
    while (threadCpuUs() < until)
        x = x + 1;
    LoaderCost cost;
    meter.takeInto(cost, monotonicUs());
    EXPECT_GE(cost.processCpuUs, 100'000u) << "this thread's CPU is the process's";
    EXPECT_GT(cost.processWallUs, 0u);
    EXPECT_GE(cost.machineCpus, 1u);
    EXPECT_LE(cost.machineBusyUs + cost.machineStealUs, cost.machineCpuUs);
    // 100 ms of this process's CPU are in the machine's busy time (/proc/stat counts in 10 ms ticks).
    EXPECT_GE(cost.machineBusyUs + 30'000, 100'000u);
}

TEST(ProcStat, TheCpuLineByItsFields)
{
    MachineTicks t;
    // A line as Linux 6.1 prints it: user nice system idle iowait irq softirq steal guest guest_nice.
    ASSERT_TRUE(parseProcStatCpuLine("cpu  36298 10 11360 14906 368 5 156 40 7 0\n", t));
    EXPECT_EQ(t.total, 36298u + 10 + 11360 + 14906 + 368 + 5 + 156 + 40);
    EXPECT_EQ(t.busy, 36298u + 10 + 11360 + 5 + 156);
    EXPECT_EQ(t.steal, 40u);
    // An old kernel's four fields: no steal.
    ASSERT_TRUE(parseProcStatCpuLine("cpu 10 0 5 85\n", t));
    EXPECT_EQ(t.total, 100u);
    EXPECT_EQ(t.busy, 15u);
    EXPECT_EQ(t.steal, 0u);
    EXPECT_FALSE(parseProcStatCpuLine("cpu0 1 2 3 4\n", t)) << "a CPU's own line is not the machine's";
    EXPECT_FALSE(parseProcStatCpuLine("cpu  1 2\n", t));
    EXPECT_FALSE(parseProcStatCpuLine("intr 1 2 3 4\n", t));
}
