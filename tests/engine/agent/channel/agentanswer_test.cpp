// The rules both of the agent's clients read it by (agentchannel/agentanswer.h).

#include "agent/channel/agentanswer.h"

#include <gtest/gtest.h>

using namespace wb;

TEST(AgentAnswer, HealthRoundTripsEveryField)
{
    AgentHealth h;
    h.version = "1.2.3";
    h.host = "loader-vm-1";
    h.busy = true;
    h.allow = { "10.0.0.0/8", "svc.example" };
    h.maxDurationS = 3600;
    h.maxConnections = 20'000;
    h.maxThreads = 32;
    h.maxRatePerS = 12'500.5;
    h.clock = "synchronised (NTP)";
    const auto back = parseAgentHealth(agentHealthJson(h));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->version, h.version);
    EXPECT_EQ(back->host, h.host);
    EXPECT_EQ(back->busy, h.busy);
    EXPECT_EQ(back->allow, h.allow);
    EXPECT_EQ(back->maxDurationS, h.maxDurationS);
    EXPECT_EQ(back->maxConnections, h.maxConnections);
    EXPECT_EQ(back->maxThreads, h.maxThreads);
    EXPECT_DOUBLE_EQ(back->maxRatePerS, h.maxRatePerS);
    EXPECT_EQ(back->clock, h.clock);
}

TEST(AgentAnswer, HealthOfSomethingElseIsNone)
{
    EXPECT_FALSE(parseAgentHealth("").has_value());
    EXPECT_FALSE(parseAgentHealth("<html>nginx</html>").has_value());
    EXPECT_FALSE(parseAgentHealth(R"({"agent":"other","version":"1"})").has_value());
    EXPECT_FALSE(parseAgentHealth("[1,2]").has_value());
    // Deep nesting is refused while parsing, not recursed into.
    EXPECT_FALSE(parseAgentHealth(R"({"agent":"wrkbench","x":)" + std::string(100'000, '[')).has_value());
    // Fields of the wrong type are read as absent, not thrown on.
    const auto odd = parseAgentHealth(R"({"agent":"wrkbench","busy":"yes","allow":[1,"a"],"max_threads":-4})");
    ASSERT_TRUE(odd.has_value());
    EXPECT_FALSE(odd->busy);
    EXPECT_EQ(odd->allow, std::vector<std::string> { "a" });
    EXPECT_EQ(odd->maxThreads, 0u);
}

TEST(AgentAnswer, ErrorTextIsTheAgentsOwnSentenceOrTheStatus)
{
    EXPECT_EQ(agentAnswerError(200, "{}"), "");
    EXPECT_EQ(agentAnswerError(403, R"({"error":"10.1.2.3 is not allowed"})"), "10.1.2.3 is not allowed");
    EXPECT_EQ(agentAnswerError(401, ""), "the agent refused the token (401)");
    EXPECT_EQ(agentAnswerError(409, "not json"), "409 Conflict");
    EXPECT_EQ(agentAnswerError(500, R"({"error":""})"), "500 Internal Server Error");
}

TEST(AgentAnswer, APinIsCheckedAndNamedInItsProblem)
{
    const std::string a(64, 'a'), b(64, 'b');
    EXPECT_EQ(checkPin(a, a), PinCheck::Pinned);
    EXPECT_EQ(checkPin(a, b), PinCheck::Changed);
    EXPECT_EQ(checkPin("", b), PinCheck::Changed);
    EXPECT_EQ(checkPin(a, ""), PinCheck::NotPinned);
    EXPECT_EQ(pinProblem(PinCheck::Pinned, "vm1", a, a), "");
    const std::string changed = pinProblem(PinCheck::Changed, "vm1", a, b);
    EXPECT_NE(changed.find("vm1"), std::string::npos);
    EXPECT_NE(changed.find("AA:AA"), std::string::npos);
    EXPECT_NE(changed.find("BB:BB"), std::string::npos);
    EXPECT_NE(pinProblem(PinCheck::NotPinned, "vm1", a, "").find("not pinned"), std::string::npos);
}
