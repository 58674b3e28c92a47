// The per-connection chooser of a request mix: exact round-robin counts,
// repeatable seeded sequences, and weighted frequencies that match the weights.
// Every random test uses a fixed seed: the outcome is the same on every run and
// platform, so a bound below cannot flake; it documents that the sample looks
// like a fair draw (and catches a broken table, which is far outside it).

#include "run/mixpicker.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

namespace {

std::vector<uint64_t> countPicks(MixPicker& picker, size_t entries, size_t picks)
{
    std::vector<uint64_t> counts(entries);
    for (size_t i = 0; i < picks; ++i) {
        const uint16_t pick = picker.next();
        EXPECT_LT(pick, entries);
        if (pick < entries) ++counts[pick];
    }
    return counts;
}

// Pearson's statistic against the table's own probabilities. With N picks over k
// entries it follows a chi-square distribution with k-1 degrees of freedom.
double chiSquare(const std::vector<uint64_t>& counts, const MixTable& table, size_t picks)
{
    double x2 = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        const double expected = table.probability(i) * static_cast<double>(picks);
        const double d = static_cast<double>(counts[i]) - expected;
        x2 += d * d / expected;
    }
    return x2;
}

std::vector<uint16_t> sequence(MixPicker picker, size_t length)
{
    std::vector<uint16_t> out;
    for (size_t i = 0; i < length; ++i)
        out.push_back(picker.next());
    return out;
}

} // namespace

TEST(MixPicker, RoundRobinGivesExactCountsAndSpreadsConnections)
{
    const size_t n = 7;
    const MixTable table(std::vector<double>(n, 1), MixOrder::RoundRobin);
    for (uint32_t connection = 0; connection < 20; ++connection) {
        MixPicker picker(table, 12345, connection);
        const std::vector<uint16_t> first = sequence(picker, n);
        for (size_t i = 0; i < n; ++i)
            EXPECT_EQ(first[i], (connection + i) % n) << "connection " << connection;
        // After k*n picks every entry was sent exactly k times.
        MixPicker again(table, 12345, connection);
        for (uint64_t count : countPicks(again, n, 1000 * n))
            EXPECT_EQ(count, 1000u);
    }
}

TEST(MixPicker, RoundRobinIgnoresWeights)
{
    const MixTable table({ 1, 3, 6 }, MixOrder::RoundRobin);
    MixPicker picker(table, 1, 0);
    EXPECT_EQ(countPicks(picker, 3, 3000), (std::vector<uint64_t> { 1000, 1000, 1000 }));
    EXPECT_DOUBLE_EQ(table.probability(2), 1.0 / 3);
}

TEST(MixPicker, SameSeedSameSequence)
{
    for (MixOrder order : { MixOrder::Random, MixOrder::Weighted }) {
        const MixTable table({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, order);
        EXPECT_EQ(sequence(MixPicker(table, 42, 3), 10000), sequence(MixPicker(table, 42, 3), 10000))
            << mixOrderId(order);
    }
}

TEST(MixPicker, DifferentSeedsAndConnectionsDiffer)
{
    // Two independent uniform sequences over 10 entries agree at about 1 position in 10.
    const auto agreement = [](const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
        size_t same = 0;
        for (size_t i = 0; i < a.size(); ++i)
            same += a[i] == b[i];
        return static_cast<double>(same) / static_cast<double>(a.size());
    };
    const MixTable table(std::vector<double>(10, 1), MixOrder::Random);
    const auto base = sequence(MixPicker(table, 42, 0), 10000);
    EXPECT_LT(agreement(base, sequence(MixPicker(table, 43, 0), 10000)), 0.15);
    EXPECT_LT(agreement(base, sequence(MixPicker(table, 42, 1), 10000)), 0.15);
    // Nearby (seed, connection) pairs are not shifted copies of one another.
    EXPECT_LT(agreement(sequence(MixPicker(table, 1, 0), 10000), sequence(MixPicker(table, 0, 1), 10000)), 0.15);
}

TEST(MixPicker, PinnedSequences)
{
    // The generator and the alias table use integers only: these are the same on every
    // platform and standard library (and agree with an independent Python version of
    // the generator, Lemire's bound and Vose's table). A change here changes every
    // seeded run's order.
    const MixTable random(std::vector<double>(10, 1), MixOrder::Random);
    EXPECT_EQ(sequence(MixPicker(random, 42, 0), 12), (std::vector<uint16_t> { 1, 2, 5, 6, 4, 0, 7, 5, 4, 3, 0, 2 }));
    const MixTable weighted({ 1, 3, 6 }, MixOrder::Weighted);
    EXPECT_EQ(sequence(MixPicker(weighted, 42, 0), 12), (std::vector<uint16_t> { 0, 1, 1, 2, 1, 0, 2, 2, 2, 0, 2, 1 }));
    // xoshiro256** seeded through splitmix64, from the same Python version.
    MixRandom r(0, 0);
    EXPECT_EQ(r.next(), 0xfb5405f7bd79c540ull);
    EXPECT_EQ(r.next(), 0x780c98e26cea5883ull);
    EXPECT_EQ(r.next(), 0x2a146e0980febc66ull);
    MixRandom s(42, 7);
    EXPECT_EQ(s.next(), 0x24bfb39aeb008c15ull);
}

TEST(MixPicker, WeightedFrequenciesFollowTheWeights)
{
    // 1:3:6 over 200,000 picks: expected 20,000, 60,000 and 120,000. Pearson's X^2 has
    // 2 degrees of freedom, P(X^2 > 27.6) = e^(-27.6/2) ~ 1e-6: a fair sampler stays
    // below it. One whose smallest share is off by a tenth (2,000 of its 20,000 picks)
    // gives X^2 >= 2000^2 / 20000 = 200, far above: the bound has teeth.
    const MixTable table({ 1, 3, 6 }, MixOrder::Weighted);
    EXPECT_NEAR(table.probability(0), 0.1, 1e-9);
    EXPECT_NEAR(table.probability(1), 0.3, 1e-9);
    EXPECT_NEAR(table.probability(2), 0.6, 1e-9);
    const size_t picks = 200'000;
    uint64_t total[3] = {};
    for (uint32_t connection = 0; connection < 4; ++connection) {
        MixPicker picker(table, 2024, connection);
        const auto counts = countPicks(picker, 3, picks);
        EXPECT_LT(chiSquare(counts, table, picks), 27.6) << "connection " << connection;
        for (size_t i = 0; i < 3; ++i)
            total[i] += counts[i];
    }
    // The shares themselves, to the eye: within 1% (about 8 standard deviations of the smallest).
    EXPECT_NEAR(static_cast<double>(total[0]) / (4 * picks), 0.1, 0.01);
    EXPECT_NEAR(static_cast<double>(total[1]) / (4 * picks), 0.3, 0.01);
    EXPECT_NEAR(static_cast<double>(total[2]) / (4 * picks), 0.6, 0.01);
}

TEST(MixPicker, WeightedManyEntries)
{
    // 50 entries, weights 1..50 and a few fractions: 49 degrees of freedom, P(X^2 > 110) ~ 1.4e-6.
    std::vector<double> weights;
    for (int i = 1; i <= 50; ++i)
        weights.push_back(i % 7 == 0 ? 0.25 : i);
    const MixTable table(weights, MixOrder::Weighted);
    double sum = 0;
    for (double w : weights)
        sum += w;
    for (size_t i = 0; i < weights.size(); ++i)
        EXPECT_NEAR(table.probability(i), weights[i] / sum, 1e-9);
    MixPicker picker(table, 7, 0);
    const size_t picks = 500'000;
    EXPECT_LT(chiSquare(countPicks(picker, weights.size(), picks), table, picks), 110);
}

TEST(MixPicker, RandomIsUniform)
{
    // 10 entries, 9 degrees of freedom, P(X^2 > 45) ~ 9e-7; weights play no part.
    const MixTable table({ 1, 1, 1, 1, 1, 1, 1, 1, 1, 100 }, MixOrder::Random);
    MixPicker picker(table, 99, 5);
    const size_t picks = 200'000;
    EXPECT_LT(chiSquare(countPicks(picker, 10, picks), table, picks), 45);
}

TEST(MixPicker, EdgeCases)
{
    MixPicker none;
    EXPECT_EQ(none.next(), 0);
    for (MixOrder order : { MixOrder::RoundRobin, MixOrder::Random, MixOrder::Weighted }) {
        const MixTable one({ 5 }, order);
        MixPicker picker(one, 1, 17);
        EXPECT_EQ(countPicks(picker, 1, 100), std::vector<uint64_t> { 100 });
        const MixTable empty({}, order);
        EXPECT_EQ(empty.size(), 1u);
        EXPECT_EQ(MixPicker(empty, 1, 3).next(), 0);
    }
    // A weight a trillion times smaller still has a chance; an invalid one has none.
    const MixTable tiny({ 1e-12, 1 }, MixOrder::Weighted);
    EXPECT_GT(tiny.probability(0), 0);
    const MixTable zero({ 0, 1, -1 }, MixOrder::Weighted);
    MixPicker picker(zero, 3, 0);
    EXPECT_EQ(countPicks(picker, 3, 10000), (std::vector<uint64_t> { 0, 10000, 0 }));
    // No valid weight at all: every entry alike.
    const MixTable invalid({ 0, -1, std::nan("") }, MixOrder::Weighted);
    EXPECT_NEAR(invalid.probability(1), 1.0 / 3, 1e-12);
}

TEST(MixRandom, BelowStaysInRange)
{
    MixRandom r(5, 5);
    for (uint64_t bound : { 1ull, 2ull, 3ull, 1000ull, (1ull << 48) + 7, ~0ull }) {
        for (int i = 0; i < 1000; ++i)
            EXPECT_LT(r.below(bound), bound);
    }
}
