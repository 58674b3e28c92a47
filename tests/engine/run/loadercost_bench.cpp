// What the loader's cost meters cost (bench/loadercost.sh runs it; not a test): the time of one
// worker's reading (ThreadCostMeter::takeInto: clock_gettime, getrusage, pread of schedstat) and of
// the controller's (ProcessCostMeter::takeInto: getrusage, /proc/stat), median of rounds; and what
// that is as a share of a worker's time at one reading per 1 s interval.
//
//   run_loadercost_bench [READINGS=20000] [ROUNDS=5]

#include "common/clock.h"
#include "run/loadercostmeter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace wb;

namespace {

template<typename Meter> double nanosecondsPerReading(unsigned readings, unsigned rounds)
{
    std::vector<double> perRound;
    for (unsigned r = 0; r < rounds; ++r) {
        Meter meter;
        meter.start(monotonicNowUs());
        LoaderCost cost;
        timespec a {}, b {};
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (unsigned i = 0; i < readings; ++i)
            meter.takeInto(cost, monotonicNowUs());
        clock_gettime(CLOCK_MONOTONIC, &b);
        perRound.push_back(((b.tv_sec - a.tv_sec) * 1e9 + static_cast<double>(b.tv_nsec - a.tv_nsec)) / readings);
    }
    std::sort(perRound.begin(), perRound.end());
    return perRound[perRound.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    const unsigned readings = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 20000;
    const unsigned rounds = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 5;
    const double worker = nanosecondsPerReading<ThreadCostMeter>(readings, rounds);
    const double controller = nanosecondsPerReading<ProcessCostMeter>(readings / 10, rounds);
    std::printf("# The loader's cost meters, median of %u rounds\n\n", rounds);
    std::printf("| reading | ns each | share of one CPU at one per 1 s interval |\n|---|---|---|\n");
    std::printf("| a worker's (its thread: clock_gettime, getrusage, pread schedstat) | %.0f | %.5f%% |\n", worker,
        worker / 1e9 * 100);
    std::printf("| the controller's (the process: getrusage; the machine: /proc/stat) | %.0f | %.5f%% |\n", controller,
        controller / 1e9 * 100);
    return 0;
}
