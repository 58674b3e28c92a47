// The one interval record: made from a snapshot once, whole (every counter, status
// code, histogram and the wall-clock start), and mergeable exactly: two loaders'
// records of one interval add up to the record of the two snapshots merged.

#include "stats/entrystats.h"
#include "stats/intervalrecord.h"
#include "stats/snapshot.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

namespace {

IntervalSnapshot snapshot(uint64_t seed, bool open)
{
    IntervalSnapshot s;
    s.index = 3;
    s.startS = 3.0;
    s.endS = 4.0;
    for (uint64_t i = 0; i < 1000 + seed * 10; ++i) {
        const uint64_t v = 100 + (i * 7919 + seed * 104729) % 50'000;
        s.latency.record(v);
        if (open) {
            s.serviceLatency.record(v / 2);
            s.sendLag.record(i % 40);
        }
        s.status.add(i % 50 == 0 ? 503 : 200);
    }
    s.requests = s.latency.count();
    s.errors.read = seed;
    s.errors.timeout = 2 * seed;
    s.bytes = s.requests * 120;
    s.connections = 10 + static_cast<uint32_t>(seed);
    s.lateRequests = seed;
    s.maxLagUs = 1000 + seed;
    if (open) s.targetRatePerS = 500.0 + static_cast<double>(seed);
    return s;
}

// Equal, or both unknown (NaN: an empty histogram).
void expectSame(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        EXPECT_TRUE(std::isnan(a) && std::isnan(b)) << a << " vs " << b;
    else
        EXPECT_DOUBLE_EQ(a, b);
}

void expectSameSummary(const LatencySummary& a, const LatencySummary& b)
{
    for (auto field : { &LatencySummary::p50Us, &LatencySummary::p90Us, &LatencySummary::p99Us,
             &LatencySummary::p9999Us, &LatencySummary::maxUs, &LatencySummary::minUs, &LatencySummary::meanUs })
        expectSame(a.*field, b.*field);
}

} // namespace

TEST(IntervalRecord, IsMadeWholeFromTheSnapshot)
{
    const IntervalSnapshot s = snapshot(1, true);
    const IntervalRecord r = IntervalRecord::of(s, 1'700'000'003'000);
    EXPECT_EQ(r.startUnixMs, 1'700'000'003'000);
    EXPECT_EQ(r.requests, s.requests);
    EXPECT_EQ(r.errors, s.errors);
    EXPECT_EQ(r.transportErrors(), 3u); // read + timeout, not the 503s
    EXPECT_EQ(r.non2xx(), s.status.byCode[503]);
    ASSERT_EQ(r.statusCodes.size(), 2u);
    EXPECT_EQ(r.statusCodes[0], (std::pair<int, uint64_t> { 200, s.status.byCode[200] }));
    EXPECT_EQ(r.latencyHistogramDecoded().count(), s.latency.count());
    EXPECT_EQ(r.serviceHistogramDecoded().count(), s.serviceLatency.count());
    EXPECT_EQ(r.sendLagHistogramDecoded().count(), s.sendLag.count());
    expectSameSummary(r.sendLag, LatencySummary::of(s.sendLag));
    EXPECT_DOUBLE_EQ(r.targetRatePerS, s.targetRatePerS);
}

TEST(IntervalRecord, AClosedModelIntervalHasNoOpenModelFields)
{
    const IntervalRecord r = IntervalRecord::of(snapshot(1, false));
    EXPECT_TRUE(std::isnan(r.targetRatePerS));
    EXPECT_TRUE(r.serviceHistogram.empty());
    EXPECT_TRUE(r.sendLagHistogram.empty());
    EXPECT_FALSE(r.serviceLatency.known());
}

TEST(IntervalRecord, AnEmptyIntervalHasUnknownLatencies)
{
    IntervalSnapshot s;
    s.endS = 1.0;
    const IntervalRecord r = IntervalRecord::of(s);
    EXPECT_TRUE(std::isnan(r.latency.p50Us));
    EXPECT_TRUE(r.latencyHistogram.empty());
    EXPECT_EQ(r.requestsPerS(), 0.0);
}

TEST(IntervalRecord, RecordsOfTwoLoadersMergeExactly)
{
    for (bool open : { false, true }) {
        const IntervalSnapshot a = snapshot(1, open);
        const IntervalSnapshot b = snapshot(7, open);
        IntervalSnapshot both = a;
        both.add(b);
        both.targetRatePerS = a.targetRatePerS + b.targetRatePerS;
        const IntervalRecord want = IntervalRecord::of(both, 1'700'000'000'000);

        IntervalRecord merged = IntervalRecord::of(a, 1'700'000'000'040);
        merged.add(IntervalRecord::of(b, 1'700'000'000'000));
        EXPECT_EQ(merged.startUnixMs, 1'700'000'000'000); // the earliest start
        EXPECT_EQ(merged.requests, want.requests);
        EXPECT_EQ(merged.bytes, want.bytes);
        EXPECT_EQ(merged.errors, want.errors);
        EXPECT_EQ(merged.connections, want.connections);
        EXPECT_EQ(merged.statusCodes, want.statusCodes);
        EXPECT_EQ(merged.lateRequests, want.lateRequests);
        EXPECT_EQ(merged.maxLagUs, want.maxLagUs);
        EXPECT_EQ(merged.latencyHistogram, want.latencyHistogram); // bucket for bucket
        EXPECT_EQ(merged.serviceHistogram, want.serviceHistogram);
        EXPECT_EQ(merged.sendLagHistogram, want.sendLagHistogram);
        expectSameSummary(merged.latency, want.latency);
        expectSameSummary(merged.serviceLatency, want.serviceLatency);
        if (open)
            EXPECT_DOUBLE_EQ(merged.targetRatePerS, want.targetRatePerS);
        else
            EXPECT_TRUE(std::isnan(merged.targetRatePerS));
    }
}

// A response outside 2xx/3xx is an answer: counted as a request and by its code, never as an
// error kind. Every count of them (the measurements', the record's, a mix entry's) comes from
// the status codes, so two places cannot disagree.
TEST(IntervalRecord, Non2xxAnswersComeFromTheStatusCodesAndAreNoError)
{
    IntervalSnapshot s;
    s.startS = 0;
    s.endS = 1;
    for (int code : { 200, 204, 301, 399, 400, 404, 503, 599, 100, 1234, -1 })
        s.status.add(code);
    s.requests = 11;
    s.errors.read = 2;
    // 400, 404, 503, 599; 100 (not a final answer here); 1234 and -1, out of range, under 0.
    EXPECT_EQ(s.status.non2xx(), 7u);
    const IntervalRecord r = IntervalRecord::of(s);
    EXPECT_EQ(r.non2xx(), 7u);
    EXPECT_EQ(r.transportErrors(), 2u);
    EXPECT_EQ(r.snapshot().status.non2xx(), 7u);

    EntryStats e;
    for (int code : { 200, 500, 500, 302 })
        e.addResponse(code, 100, true);
    EXPECT_EQ(e.non2xx(), 2u);
    EXPECT_EQ(e.errors.transportErrors(), 0u);
}
