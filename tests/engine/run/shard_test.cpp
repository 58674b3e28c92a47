// --shard I/N: what each loader runs, and that the shares add up to the whole run.

#include "run/shard.h"

#include <cstdlib>
#include <gtest/gtest.h>

using namespace wb;

namespace {

RunConfig base(unsigned threads, unsigned connections)
{
    RunConfig c;
    c.request.url = *parseUrl("http://127.0.0.1:8080/");
    c.threads = threads;
    c.connections = connections;
    return c;
}

TEST(Shard, ParsesIndexAndCount)
{
    EXPECT_EQ(*parseShard("0/4"), (Shard { 0, 4 }));
    EXPECT_EQ(*parseShard("3/4"), (Shard { 3, 4 }));
    for (const char* bad : { "4/4", "1", "a/2", "1/0", "-1/2", "1/", "/2", "1/2x", "1/100001" })
        EXPECT_FALSE(parseShard(bad)) << bad;
    EXPECT_NE(parseShard("4/4").error().find("below the count"), std::string::npos);
}

TEST(Shard, TakesTheIndexFromTheEnvironment)
{
    ::setenv("JOB_COMPLETION_INDEX", "2", 1);
    EXPECT_EQ(*parseShard("$JOB_COMPLETION_INDEX/3"), (Shard { 2, 3 }));
    EXPECT_EQ(*parseShard("${JOB_COMPLETION_INDEX}/3"), (Shard { 2, 3 }));
    EXPECT_EQ(*parseShard("JOB_COMPLETION_INDEX/3"), (Shard { 2, 3 }));
    ::unsetenv("JOB_COMPLETION_INDEX");
    const auto missing = parseShard("$JOB_COMPLETION_INDEX/3");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find("JOB_COMPLETION_INDEX, which is not set"), std::string::npos) << missing.error();
}

TEST(Shard, ConnectionsSplitEvenlyTheRemainderToTheLowestIndices)
{
    const RunConfig whole = base(2, 6);
    EXPECT_EQ(shareOf(whole, { 0, 2 })->connections, 3u);
    EXPECT_EQ(shareOf(whole, { 1, 2 })->connections, 3u);
    const unsigned expected[] = { 2, 2, 1, 1 };
    for (unsigned i = 0; i < 4; ++i) {
        auto part = shareOf(whole, { i, 4 });
        ASSERT_TRUE(part) << part.error();
        EXPECT_EQ(part->connections, expected[i]);
        EXPECT_EQ(part->threads, std::min(2u, expected[i])); // threads capped at the loader's connections
        EXPECT_TRUE(part->validate()) << part->validate().error();
    }
}

TEST(Shard, AShareWithoutConnectionsIsAnError)
{
    const auto part = shareOf(base(1, 2), { 2, 3 });
    ASSERT_FALSE(part);
    EXPECT_NE(part.error().find("loader 2 of 3 gets no connections"), std::string::npos) << part.error();
}

TEST(Shard, RatesFollowTheConnectionsAndAddUp)
{
    RunConfig whole = base(2, 7);
    whole.ratePerS = 1000;
    double sum = 0;
    for (unsigned i = 0; i < 3; ++i) {
        auto part = shareOf(whole, { i, 3 });
        ASSERT_TRUE(part);
        // Every connection keeps the rate it would have in one process.
        EXPECT_DOUBLE_EQ(part->ratePerS / part->connections, 1000.0 / 7);
        sum += part->ratePerS;
    }
    EXPECT_NEAR(sum, 1000, 1e-9);
}

TEST(Shard, StagesSplitLikeTheirKind)
{
    RunConfig rate = base(1, 4);
    rate.stages = { { 1'000'000, 400 }, { 2'000'000, 100 } };
    auto part = shareOf(rate, { 1, 4 });
    ASSERT_TRUE(part);
    EXPECT_DOUBLE_EQ(part->stages[0].target, 100);
    EXPECT_DOUBLE_EQ(part->stages[1].target, 25);
    EXPECT_EQ(part->durationUs, 3'000'000u);

    RunConfig conns = base(1, 1);
    conns.stages = { { 1'000'000, 5 }, { 1'000'000, 2 } };
    conns.stagesAreConnections = true;
    unsigned first = 0, second = 0;
    for (unsigned i = 0; i < 2; ++i) {
        auto c = shareOf(conns, { i, 2 });
        ASSERT_TRUE(c) << c.error();
        first += static_cast<unsigned>(c->stages[0].target);
        second += static_cast<unsigned>(c->stages[1].target);
        EXPECT_EQ(c->connections, static_cast<unsigned>(c->stages[0].target)); // the highest stage
    }
    EXPECT_EQ(first, 5u);
    EXPECT_EQ(second, 2u);
}

TEST(Shard, OneLoaderIsTheWholeRun)
{
    RunConfig whole = base(2, 10);
    whole.ratePerS = 500;
    auto part = shareOf(whole, { 0, 1 });
    ASSERT_TRUE(part);
    EXPECT_EQ(part->connections, 10u);
    EXPECT_EQ(part->threads, 2u);
    EXPECT_DOUBLE_EQ(part->ratePerS, 500);
}

} // namespace
