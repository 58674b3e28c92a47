// The per-backend breakdown: merged by name exactly, bounded, and its evenness figures
// against values computed by hand (the chi-square tail against its closed forms: erfc for
// k = 1 and 3, exp(-x/2) * sum (x/2)^i / i! for even k, evaluated at 60 digits).

#include "stats/backendbalance.h"
#include "stats/backends.h"
#include "stats/intervalrecord.h"
#include "stats/snapshot.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

namespace {

// A worker's breakdown: names by first appearance, as its name table gives them.
BackendBreakdown recorded(const std::vector<std::pair<std::string, uint64_t>>& responses, uint64_t latencyUs = 1000)
{
    std::vector<std::string> table;
    BackendBreakdown b;
    for (const auto& [name, n] : responses) {
        size_t index = std::find(table.begin(), table.end(), name) - table.begin();
        if (index == table.size()) table.push_back(name);
        for (uint64_t i = 0; i < n; ++i)
            b.at(index, table).record(latencyUs + i, i % 10 == 0, static_cast<double>(i));
    }
    return b;
}

const BackendStats* find(const BackendBreakdown& b, const std::string& name)
{
    for (size_t i = 0; i < b.names.size(); ++i)
        if (b.names[i] == name) return &b.stats[i];
    return nullptr;
}

} // namespace

TEST(Backends, MergeByNameEqualsRecordingAll)
{
    // Two workers that met the backends in different orders.
    BackendBreakdown a = recorded({ { "pod-a", 30 }, { "pod-b", 20 } });
    const BackendBreakdown b = recorded({ { "pod-c", 5 }, { "pod-a", 7 } });
    a.add(b);
    ASSERT_EQ(a.names.size(), 3u);
    EXPECT_EQ(find(a, "pod-a")->requests, 37u);
    EXPECT_EQ(find(a, "pod-a")->non2xx, 3u + 1u);
    EXPECT_EQ(find(a, "pod-a")->latency.count(), 37u);
    EXPECT_EQ(find(a, "pod-c")->requests, 5u);
    EXPECT_DOUBLE_EQ(find(a, "pod-a")->firstSeenS, 0);
    EXPECT_DOUBLE_EQ(find(a, "pod-a")->lastSeenS, 29);
    EXPECT_EQ(a.namedRequests(), 62u);

    // Through the record and back: the same counts and histograms.
    const BackendBreakdown back = backendBreakdownOf(backendRecordsOf(a), a.unnamed);
    for (const std::string name : { "pod-a", "pod-b", "pod-c" }) {
        EXPECT_EQ(find(back, name)->requests, find(a, name)->requests) << name;
        EXPECT_EQ(find(back, name)->latency, find(a, name)->latency) << name;
    }
}

TEST(Backends, PastTheLimitIsOther)
{
    BackendBreakdown total;
    total.limit = 3;
    total.add(recorded({ { "a", 1 }, { "b", 1 }, { "c", 1 } }));
    total.add(recorded({ { "d", 4 }, { "e", 2 }, { "a", 1 } }));
    ASSERT_EQ(total.names.size(), 4u) << "three names and the other bucket";
    EXPECT_EQ(find(total, "a")->requests, 2u);
    EXPECT_EQ(find(total, OTHER_BACKEND)->requests, 6u);
    EXPECT_EQ(find(total, "d"), nullptr);
    EXPECT_EQ(total.namedRequests(), 10u) << "no response lost";
}

TEST(Backends, MeasurementsCarryThemThroughTheIntervalRecord)
{
    IntervalSnapshot s;
    s.requests = 50;
    s.backends = recorded({ { "x", 20 }, { "y", 25 } });
    s.backends.unnamed = 5;
    s.upstreamTime.record(900);
    s.frontDoor.record(100);
    s.upstreamMissing = 49;
    const IntervalRecord r = IntervalRecord::of(s);
    ASSERT_EQ(r.backends.size(), 2u);
    EXPECT_EQ(r.unnamedResponses, 5u);
    const IntervalSnapshot back = r.snapshot();
    EXPECT_EQ(back.backends.namedRequests(), 45u);
    EXPECT_EQ(back.backends.unnamed, 5u);
    EXPECT_EQ(back.upstreamTime, s.upstreamTime);
    EXPECT_EQ(back.frontDoor, s.frontDoor);
    EXPECT_EQ(back.upstreamMissing, 49u);

    // Two loaders' records of the same interval add by name.
    IntervalRecord twice = r;
    twice.add(r);
    ASSERT_EQ(twice.backends.size(), 2u);
    EXPECT_EQ(twice.backends[0].requests, 40u);
    EXPECT_EQ(twice.unnamedResponses, 10u);
    EXPECT_EQ(twice.upstreamMissing, 98u);
    EXPECT_EQ(twice.upstreamHistogramDecoded().count(), 2u);
}

TEST(BackendBalance, ChiSquareTailMatchesReferenceValues)
{
    EXPECT_NEAR(chiSquareSurvival(3.841458820694124, 1), 0.05, 1e-9);
    EXPECT_NEAR(chiSquareSurvival(18.307038053275146, 10), 0.05, 1e-9);
    EXPECT_NEAR(chiSquareSurvival(1.0, 3), 0.8012519569012009, 1e-9);
    EXPECT_NEAR(chiSquareSurvival(50.0, 16), 2.2924802870445917e-05, 1e-13);
    EXPECT_NEAR(chiSquareSurvival(400.0, 256), 2.0946016054038447e-08, 1e-15);
    EXPECT_DOUBLE_EQ(chiSquareSurvival(0, 4), 1.0);
    // Q(1, x) = exp(-x).
    EXPECT_NEAR(upperRegularizedGamma(1, 2.5), std::exp(-2.5), 1e-12);
}

TEST(BackendBalance, EvenAndSkewedSplits)
{
    const BackendBalance even = backendBalanceOf(recorded({ { "a", 100 }, { "b", 100 }, { "c", 100 }, { "d", 100 } }));
    EXPECT_EQ(even.backends, 4u);
    EXPECT_DOUBLE_EQ(even.maxShare, 0.25);
    EXPECT_DOUBLE_EQ(even.maxMinRatio, 1.0);
    EXPECT_DOUBLE_EQ(even.cv, 0.0);
    EXPECT_DOUBLE_EQ(even.chiSquare, 0.0);
    EXPECT_DOUBLE_EQ(even.pValue, 1.0);

    // 200 vs 100: mean 150, chi-square 2 * 50^2 / 150, cv 50 / 150.
    const BackendBalance skewed = backendBalanceOf(recorded({ { "a", 200 }, { "b", 100 } }));
    EXPECT_DOUBLE_EQ(skewed.maxMinRatio, 2.0);
    EXPECT_NEAR(skewed.maxShare, 2.0 / 3, 1e-12);
    EXPECT_NEAR(skewed.cv, 1.0 / 3, 1e-12);
    EXPECT_NEAR(skewed.chiSquare, 100.0 / 3, 1e-12);
    EXPECT_EQ(skewed.degreesOfFreedom, 1u);
    EXPECT_LT(skewed.pValue, 1e-7);

    // The other bucket is many backends, not one: left out of the evenness.
    BackendBreakdown withOther = recorded({ { "a", 10 }, { "b", 10 } });
    withOther.add(recorded({ { OTHER_BACKEND, 500 } }));
    EXPECT_EQ(backendBalanceOf(withOther).backends, 2u);
    EXPECT_DOUBLE_EQ(backendBalanceOf(withOther).maxMinRatio, 1.0);
}

TEST(BackendBalance, AppearedAndVanished)
{
    auto interval = [](double startS, std::vector<std::pair<std::string, uint64_t>> responses) {
        IntervalSnapshot s;
        s.startS = startS;
        s.endS = startS + 1;
        std::vector<std::string> table;
        for (const auto& [name, n] : responses) {
            table.push_back(name);
            for (uint64_t i = 0; i < n; ++i)
                s.backends.at(table.size() - 1, table).record(100, false, startS + 0.1 * static_cast<double>(i));
        }
        return IntervalRecord::of(s);
    };
    const std::vector<IntervalRecord> intervals { interval(0, { { "old", 3 }, { "steady", 3 } }),
        interval(1, { { "old", 2 }, { "steady", 3 }, { "new", 1 } }), interval(2, { { "steady", 3 }, { "new", 3 } }) };
    const std::vector<BackendEvent> events = backendEventsOf(intervals);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].kind, BackendEvent::Kind::Appeared);
    EXPECT_EQ(events[0].name, "new");
    EXPECT_DOUBLE_EQ(events[0].atS, 1.0);
    EXPECT_EQ(events[1].kind, BackendEvent::Kind::Vanished);
    EXPECT_EQ(events[1].name, "old");
    EXPECT_DOUBLE_EQ(events[1].atS, 1.1);
}

// Means add where percentiles do not: the split's parts are the two histograms' means, and the
// front door's share is its part of their sum.
TEST(BackendBalance, MeanSplitAddsUpAndTablesListTheBusiestFirst)
{
    LatencyHistogram upstream, frontDoor;
    for (uint64_t us : { 1000, 2000, 3000 })
        upstream.record(us);
    for (uint64_t us : { 100, 200, 600 })
        frontDoor.record(us);
    const MeanSplit s = meanSplitOf(upstream, frontDoor);
    EXPECT_EQ(s.responses, 3u);
    EXPECT_DOUBLE_EQ(s.upstreamUs, upstream.meanUs());
    EXPECT_DOUBLE_EQ(s.frontDoorUs, frontDoor.meanUs());
    EXPECT_DOUBLE_EQ(s.totalUs(), upstream.meanUs() + frontDoor.meanUs());
    EXPECT_NEAR(s.frontDoorShare(), 300.0 / 2300.0, 1e-3); // the histograms' 3 significant digits
    EXPECT_TRUE(std::isnan(meanSplitOf({}, {}).frontDoorShare()));

    BackendBreakdown b;
    b.names = { "c", "a", "b", "idle" };
    b.stats.resize(4);
    for (int i = 0; i < 5; ++i)
        b.stats[0].record(1000, false, 0.1);
    for (int i = 0; i < 7; ++i)
        b.stats[1].record(1000, false, 0.1);
    for (int i = 0; i < 5; ++i)
        b.stats[2].record(1000, false, 0.1);
    // "idle" answered nothing (a name kept in a worker's table): no row.
    EXPECT_EQ(backendsByRequests(b), (std::vector<size_t> { 1, 2, 0 }));
}
