// What merging costs the coordinator per interval (bench/loaders.sh runs it; not a test):
// LOADERS loaders' intervals, each with a realistic latency histogram (thousands of responses
// spread over a few hundred buckets) and phase histograms, fed to a FleetMerge the way the
// coordinator feeds it (decoding each loader's compact record, adding, publishing one merged
// record). Prints the median over rounds of the time per merged interval.
//
//   fleet_mergecost_bench [LOADERS=16] [INTERVALS=600] [ROUNDS=5]

#include "common/clock.h"
#include "fleet/fleetmerge.h"
#include "wire/configcodec.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace wb;

int main(int argc, char** argv)
{
    const unsigned loaders = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 16;
    const unsigned intervals = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 600;
    const unsigned rounds = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 5;
    RunConfig whole;
    whole.request.url = *parseUrl("http://127.0.0.1:8080/");
    whole.connections = loaders * 10;
    whole.threads = loaders;
    whole.loaders.count = loaders;

    // One compact record per loader and interval, made once (as read from the streams).
    std::mt19937_64 random(42);
    std::lognormal_distribution<double> latency(7.0, 0.6); // ~1 ms median, a long tail
    std::vector<std::vector<IntervalRecord>> records(loaders);
    const int64_t start = 1'764'653'400'000;
    for (unsigned l = 0; l < loaders; ++l)
        for (unsigned i = 0; i < intervals; ++i) {
            IntervalSnapshot s;
            s.index = i;
            s.startS = i;
            s.endS = i + 1;
            s.connections = 10;
            for (int k = 0; k < 5000; ++k) {
                const auto us = static_cast<uint64_t>(latency(random));
                s.latency.record(us);
                s.firstByte.record(us * 9 / 10);
                s.status.add(200);
            }
            s.requests = 5000;
            s.bytes = 5000 * 180;
            s.connectTime.record(80);
            records[l].push_back(IntervalRecord::of(s, start + i * 1000));
        }

    std::vector<double> perIntervalUs;
    for (unsigned r = 0; r < rounds; ++r) {
        FleetMerge merge(whole, loaders, start);
        merge.keepIntervals(false); // as the CLI without --json: the store gets each interval
        for (unsigned l = 0; l < loaders; ++l) {
            LoaderIdentity id { l, loaders, "bench", "", start * 1000, runConfigToJson(whole.normalized()) };
            if (auto st = merge.started(id); !st) {
                std::fprintf(stderr, "%s\n", st.error().c_str());
                return 1;
            }
        }
        const uint64_t t0 = monotonicNowUs();
        for (unsigned i = 0; i < intervals; ++i)
            for (unsigned l = 0; l < loaders; ++l)
                merge.interval(l, records[l][i]);
        const uint64_t t1 = monotonicNowUs();
        perIntervalUs.push_back(static_cast<double>(t1 - t0) / intervals);
    }
    std::sort(perIntervalUs.begin(), perIntervalUs.end());
    std::printf("merge of %u loaders: %.3f ms per merged interval (median of %u rounds of %u intervals; min %.3f, "
                "max %.3f)\n",
        loaders, perIntervalUs[perIntervalUs.size() / 2] / 1000.0, rounds, intervals, perIntervalUs.front() / 1000.0,
        perIntervalUs.back() / 1000.0);
    return 0;
}
