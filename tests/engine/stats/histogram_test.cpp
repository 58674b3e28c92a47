#include "stats/histogram.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using wb::LatencyHistogram;

namespace {

// Exact percentile with the same definition the histogram uses: the value at
// rank ceil(p% of n) in the sorted sample.
uint64_t exactPercentile(std::vector<uint64_t> sorted, double p)
{
    auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    rank = std::clamp<size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

void expectWithin(uint64_t actual, uint64_t expected, double relative)
{
    const double err = std::abs(static_cast<double>(actual) - static_cast<double>(expected));
    EXPECT_LE(err, std::max(1.0, relative * static_cast<double>(expected)))
        << "actual " << actual << " expected " << expected;
}

} // namespace

TEST(Histogram, IndexLayoutIsContinuousAndCoversTheRange)
{
    // Every bucket's lowest value maps back to that bucket, and buckets tile the range.
    for (int i = 0; i < LatencyHistogram::BUCKET_COUNT; ++i) {
        EXPECT_EQ(LatencyHistogram::indexOf(LatencyHistogram::lowestOf(i)), i);
        if (i + 1 < LatencyHistogram::BUCKET_COUNT) {
            EXPECT_EQ(LatencyHistogram::lowestOf(i) + LatencyHistogram::widthOf(i), LatencyHistogram::lowestOf(i + 1));
        }
    }
    EXPECT_EQ(LatencyHistogram::indexOf(LatencyHistogram::MAX_VALUE_US), LatencyHistogram::BUCKET_COUNT - 1);
    EXPECT_GE(LatencyHistogram::MAX_VALUE_US, 3600ull * 1'000'000); // at least one hour
}

TEST(Histogram, BucketWidthIsWithinOnePercentOfValue)
{
    for (int i = 256; i < LatencyHistogram::BUCKET_COUNT; ++i)
        EXPECT_LE(
            static_cast<double>(LatencyHistogram::widthOf(i)) / static_cast<double>(LatencyHistogram::lowestOf(i)),
            1.0 / 128 + 1e-12);
}

TEST(Histogram, EmptyHistogramReportsZeros)
{
    LatencyHistogram h;
    EXPECT_EQ(h.count(), 0u);
    EXPECT_EQ(h.minUs(), 0u);
    EXPECT_EQ(h.maxUs(), 0u);
    EXPECT_EQ(h.valueAtPercentileUs(99), 0u);
    EXPECT_EQ(h.meanUs(), 0.0);
    EXPECT_EQ(h.stdevUs(), 0.0);
}

TEST(Histogram, SmallValuesAreExact)
{
    LatencyHistogram h;
    for (uint64_t v = 0; v < 256; ++v)
        h.record(v);
    EXPECT_EQ(h.minUs(), 0u);
    EXPECT_EQ(h.maxUs(), 255u);
    EXPECT_EQ(h.valueAtPercentileUs(50), 127u);
    EXPECT_EQ(h.valueAtPercentileUs(100), 255u);
    EXPECT_DOUBLE_EQ(h.meanUs(), 127.5);
}

class HistogramDistribution : public ::testing::TestWithParam<int>
{ };

TEST_P(HistogramDistribution, PercentilesMatchExactValuesWithinOnePercent)
{
    std::mt19937_64 rng(1234 + GetParam());
    std::vector<uint64_t> values;
    values.reserve(200'000);
    for (int i = 0; i < 200'000; ++i) {
        double v = 0;
        switch (GetParam()) {
        case 0:
            v = std::lognormal_distribution<double>(6.0, 1.2)(rng);
            break; // ~400 us typical, long tail
        case 1:
            v = std::exponential_distribution<double>(1.0 / 2500)(rng);
            break;
        case 2:
            v = std::uniform_real_distribution<double>(1, 5'000'000)(rng);
            break;
        default:
            v = (i % 100 == 0) ? 2'000'000 : std::normal_distribution<double>(900, 60)(rng);
            break; // stalls
        }
        values.push_back(static_cast<uint64_t>(std::max(1.0, v)));
    }
    LatencyHistogram h;
    for (auto v : values)
        h.record(v);
    std::sort(values.begin(), values.end());
    for (double p : { 1.0, 10.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 100.0 })
        expectWithin(h.valueAtPercentileUs(p), exactPercentile(values, p), 0.01);
    EXPECT_EQ(h.minUs(), values.front());
    EXPECT_EQ(h.maxUs(), values.back());
    double sum = 0;
    for (auto v : values)
        sum += static_cast<double>(v);
    const double mean = sum / static_cast<double>(values.size());
    EXPECT_NEAR(h.meanUs(), mean, 1e-6 * mean);
    double sq = 0;
    for (auto v : values)
        sq += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
    const double stdev = std::sqrt(sq / static_cast<double>(values.size() - 1));
    EXPECT_NEAR(h.stdevUs(), stdev, 0.01 * stdev);
}

INSTANTIATE_TEST_SUITE_P(Shapes, HistogramDistribution, ::testing::Values(0, 1, 2, 3));

TEST(Histogram, MergeEqualsRecordingAll)
{
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> dist(7.0, 1.5);
    LatencyHistogram all, a, b, c;
    for (int i = 0; i < 100'000; ++i) {
        const auto v = static_cast<uint64_t>(dist(rng));
        all.record(v);
        (i % 3 == 0 ? a : i % 3 == 1 ? b : c).record(v);
    }
    LatencyHistogram merged;
    merged.merge(a);
    merged.merge(b);
    merged.merge(c);
    EXPECT_EQ(merged.count(), all.count());
    EXPECT_EQ(merged.minUs(), all.minUs());
    EXPECT_EQ(merged.maxUs(), all.maxUs());
    EXPECT_EQ(merged.meanUs(), all.meanUs());
    EXPECT_EQ(merged.serialize(), all.serialize()); // identical counters
    for (double p = 0; p <= 100; p += 0.5)
        EXPECT_EQ(merged.valueAtPercentileUs(p), all.valueAtPercentileUs(p));
}

TEST(Histogram, ValuesAboveTheRangeAreClamped)
{
    LatencyHistogram h;
    h.record(UINT64_MAX);
    EXPECT_EQ(h.maxUs(), LatencyHistogram::MAX_VALUE_US);
    EXPECT_EQ(h.count(), 1u);
}

TEST(Histogram, WithinStdevMatchesNormalDistribution)
{
    std::mt19937_64 rng(99);
    std::normal_distribution<double> dist(10'000, 1'000);
    LatencyHistogram h;
    for (int i = 0; i < 200'000; ++i)
        h.record(static_cast<uint64_t>(dist(rng)));
    EXPECT_NEAR(h.percentWithinStdev(1.0), 68.27, 1.0);
}

TEST(Histogram, SerializeRoundTripsAndRejectsGarbage)
{
    LatencyHistogram h;
    std::mt19937_64 rng(5);
    std::exponential_distribution<double> dist(1.0 / 800);
    for (int i = 0; i < 50'000; ++i)
        h.record(static_cast<uint64_t>(dist(rng)));
    const std::string bytes = h.serialize();
    EXPECT_LT(bytes.size(), 4096u);
    LatencyHistogram back;
    ASSERT_TRUE(back.deserialize(bytes));
    EXPECT_EQ(back.serialize(), bytes);
    EXPECT_EQ(back.valueAtPercentileUs(99.9), h.valueAtPercentileUs(99.9));

    LatencyHistogram untouched;
    untouched.record(42);
    EXPECT_FALSE(untouched.deserialize(""));
    EXPECT_FALSE(untouched.deserialize("not a histogram"));
    EXPECT_FALSE(untouched.deserialize(bytes.substr(0, bytes.size() - 1))); // truncated
    EXPECT_FALSE(untouched.deserialize(bytes + "x")); // trailing junk
    EXPECT_EQ(untouched.count(), 1u); // a failed decode leaves the histogram as it was
}

TEST(Histogram, PercentileRankIsNotPushedUpByRounding)
{
    // 99.9% of 2000 is the 1998th value, though 99.9 / 100 * 2000 is 1998.0000000000002 in doubles.
    LatencyHistogram h;
    h.recordN(10, 1998);
    h.recordN(20, 2);
    EXPECT_EQ(h.valueAtPercentileUs(99.9), 10u);
    EXPECT_EQ(h.valueAtPercentileUs(99.95), 20u);
    EXPECT_EQ(h.valueAtPercentileUs(100), 20u);
    EXPECT_EQ(h.valueAtPercentileUs(0), 10u);
}
