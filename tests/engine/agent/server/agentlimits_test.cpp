// What an agent lets a token holder ask for (agent/agentlimits.h), and the
// addresses it pins a target to (AllowList::pin, net/address.h pinHost): numbers
// are checked before they are added or cast, caps hold for a share, and a
// pinned host resolves to its pins alone.

#include "agent/server/agentlimits.h"
#include "agent/server/allowlist.h"
#include "net/address.h"
#include "run/runconfig.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace wb;
using Json = nlohmann::json;

TEST(AgentLimits, NumbersMustFitWhatTheyAreReadInto)
{
    EXPECT_TRUE(checkConfigNumbers(Json::parse(R"({"threads":2,"connections":10,"duration_us":9223372036854775807,
        "rate_per_s":1.5,"stages":[{"duration_us":1,"target":2.5}],"mix":{"seed":18446744073709551615,
        "entries":[{"weight":0.5}]}})")));
    for (const char* bad : { R"({"connections":1e9})", R"({"connections":-1})", R"({"connections":4294967296})",
             R"({"duration_us":9223372036854775808})", R"({"rate_per_s":-1})", R"({"stages":[{"target":1e13}]})",
             R"({"threads":2.5})", R"({"mix":{"entries":[{"line":-3}]}})" })
        EXPECT_FALSE(checkConfigNumbers(Json::parse(bad))) << bad;
}

TEST(AgentLimits, DurationsAreComparedNeverAdded)
{
    AgentLimits limits;
    limits.maxDurationUs = 2'000'000;
    RunConfig c;
    c.durationUs = 1'000'000;
    EXPECT_TRUE(checkRunLimits(c, limits));
    c.warmupUs = 1'000'001;
    EXPECT_FALSE(checkRunLimits(c, limits));
    c.warmupUs = UINT64_MAX - 999'999; // + duration wraps to 0
    EXPECT_FALSE(checkRunLimits(c, limits));
    c.warmupUs = 0;
    c.stages = { { UINT64_MAX / 2 + 1, 1 }, { UINT64_MAX / 2 + 1, 1 } }; // their sum wraps too
    EXPECT_FALSE(checkRunLimits(c, limits));
    c.stages = { { 1'000'000, 1e30 } };
    EXPECT_FALSE(checkRunLimits(c, limits));
}

TEST(AgentLimits, CapsHoldForTheShareAndTheStart)
{
    AgentLimits limits;
    limits.maxConnections = 100;
    limits.maxThreads = 4;
    limits.maxRatePerS = 1000;
    RunConfig c;
    c.connections = 100;
    c.threads = 4;
    c.ratePerS = 1000;
    EXPECT_TRUE(checkShareLimits(c, limits));
    c.connections = 101;
    EXPECT_FALSE(checkShareLimits(c, limits));
    c.connections = 100;
    c.threads = 5;
    EXPECT_FALSE(checkShareLimits(c, limits));
    c.threads = 4;
    c.stages = { { 1'000'000, 1001 } };
    EXPECT_FALSE(checkShareLimits(c, limits));
    const int64_t now = 1'764'660'000'000'000;
    EXPECT_TRUE(checkStartAt(now + 1'000'000, now, limits));
    EXPECT_TRUE(checkStartAt(now - 1'000'000, now, limits)); // late: the loader starts at once
    EXPECT_FALSE(checkStartAt(now + static_cast<int64_t>(limits.maxStartAheadUs) + 1, now, limits));
    EXPECT_FALSE(checkStartAt(9'999'999'999'000'000, now, limits)); // the year 2286
    EXPECT_FALSE(checkStartAt(0, now, limits));
}

TEST(AgentLimits, AllowedTargetsArePinnedToTheirAddresses)
{
    auto list = AllowList::parse("127.0.0.0/8,localhost");
    ASSERT_TRUE(list);
    auto literal = list->pin("127.0.0.2");
    ASSERT_TRUE(literal);
    EXPECT_EQ(*literal, std::vector<std::string> { "127.0.0.2" });
    EXPECT_FALSE(list->pin("10.0.0.1"));
    auto name = list->pin("localhost");
    ASSERT_TRUE(name) << name.error();
    EXPECT_FALSE(name->empty());
}

TEST(AgentLimits, APinnedHostResolvesToItsPinsAndNothingElseResolves)
{
    ASSERT_TRUE(pinHost("Rebind.Test", { "127.0.0.1", "::1" }));
    auto pinned = resolveHost("rebind.test", 8080);
    ASSERT_TRUE(pinned) << pinned.error();
    ASSERT_EQ(pinned->size(), 2u);
    EXPECT_EQ((*pinned)[0].toString(), "127.0.0.1:8080");
    EXPECT_EQ((*pinned)[1].toString(), "[::1]:8080");
    EXPECT_FALSE(resolveHost("localhost", 80)); // once pinned, no name goes to DNS
    auto literal = resolveHost("127.0.0.3", 80); // a literal needs no lookup
    ASSERT_TRUE(literal);
    EXPECT_EQ((*literal)[0].toString(), "127.0.0.3:80");
    EXPECT_FALSE(pinHost("x", { "not-an-address" }));
}
