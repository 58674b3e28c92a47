// An agent's credentials (agent/agentcredentials.h, agentendpoints.h): made once
// with private modes, the same on every later start; fingerprints as people type
// them; the workstation's token file and pins paired with the agents, or refused.

#include "agent/channel/agentcredentials.h"
#include "agent/client/agentendpoints.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace wb;

namespace {

unsigned modeOf(const std::string& path)
{
    struct stat info
    { };
    ::stat(path.c_str(), &info);
    return info.st_mode & 0777;
}

TEST(AgentCredentials, MadeOnceWithPrivateModesAndKept)
{
    test::TempDir dir;
    const std::string state = dir.file("state");
    auto first = loadOrCreateCredentials(state, "vm1");
    ASSERT_TRUE(first) << first.error();
    EXPECT_TRUE(first->certCreated);
    EXPECT_TRUE(first->tokenCreated);
    EXPECT_EQ(first->token.size(), 64u);
    EXPECT_EQ(first->fingerprint.size(), 64u);
    EXPECT_EQ(modeOf(state), 0700u);
    EXPECT_EQ(modeOf(state + "/key.pem"), 0600u);
    EXPECT_EQ(modeOf(state + "/token"), 0600u);
    auto again = loadOrCreateCredentials(state, "vm1");
    ASSERT_TRUE(again) << again.error();
    EXPECT_FALSE(again->certCreated);
    EXPECT_FALSE(again->tokenCreated);
    EXPECT_EQ(again->token, first->token);
    EXPECT_EQ(again->fingerprint, first->fingerprint);
    // The openssl command agrees on the fingerprint.
    const auto openssl
        = test::runProcess({ "openssl", "x509", "-in", state + "/cert.pem", "-noout", "-fingerprint", "-sha256" });
    ASSERT_EQ(openssl.exitCode, 0) << openssl.err;
    EXPECT_NE(openssl.out.find(displayFingerprint(first->fingerprint)), std::string::npos) << openssl.out;
    EXPECT_TRUE(makeAgentServerContext(*first));

    ::chmod((state + "/token").c_str(), 0644);
    EXPECT_NE(loadOrCreateCredentials(state, "vm1").error().find("chmod 600"), std::string::npos);
}

TEST(AgentCredentials, FingerprintsAsPeopleTypeThem)
{
    const std::string hex(64, 'a');
    std::string colons;
    for (size_t i = 0; i < 64; i += 2)
        colons += (i ? ":" : "") + std::string("AA");
    EXPECT_EQ(*normalizeFingerprint(colons), hex);
    EXPECT_EQ(displayFingerprint(hex), colons);
    EXPECT_NE(normalizeFingerprint("ab:cd").error().find("4 hex digits, not 64"), std::string::npos);
    EXPECT_NE(normalizeFingerprint(std::string(63, 'a') + "g").error().find("'g'"), std::string::npos);
    EXPECT_TRUE(constantTimeEquals("abc", "abc"));
    EXPECT_FALSE(constantTimeEquals("abc", "abd"));
    EXPECT_FALSE(constantTimeEquals("abc", "abcd"));
}

TEST(AgentEndpoints, PairTokensAndPinsWithAgents)
{
    test::TempDir dir;
    const std::string pinA(64, 'a'), pinB(64, 'b');
    const std::string tokens = dir.file("tokens");
    test::writeFile(tokens, "127.0.0.2:7450 tokenA\n127.0.0.3:7450 tokenB\n");
    ::chmod(tokens.c_str(), 0600);
    auto both = agentEndpoints({ "127.0.0.2:7450", "127.0.0.3:7450" }, tokens, pinA + "," + pinB, "");
    ASSERT_TRUE(both) << both.error();
    EXPECT_EQ((*both)[0].token, "tokenA");
    EXPECT_EQ((*both)[1].token, "tokenB");
    EXPECT_EQ((*both)[1].fingerprint, pinB);

    const std::string one = dir.file("one");
    test::writeFile(one, "sharedtoken\n");
    ::chmod(one.c_str(), 0600);
    EXPECT_EQ((*agentEndpoints({ "a:1", "b:2" }, one, "", "ca.pem"))[1].token, "sharedtoken");

    auto refused = [&](const std::vector<std::string>& agents, const std::string& file, const std::string& pins,
                       const std::string& ca) {
        auto r = agentEndpoints(agents, file, pins, ca);
        EXPECT_FALSE(r);
        return r ? std::string() : r.error();
    };
    EXPECT_NE(refused({ "a:1" }, one, "", "").find("never trusted silently"), std::string::npos);
    EXPECT_NE(refused({ "a:1", "b:2", "c:3" }, one, pinA + "," + pinB, "").find("2 fingerprints for 3 agents"),
        std::string::npos);
    EXPECT_NE(refused({ "a:1" }, tokens, pinA, "").find("no token for agent a:1"), std::string::npos);
    EXPECT_NE(refused({ "a" }, one, pinA, "").find("HOST:PORT"), std::string::npos);
    ::chmod(one.c_str(), 0644);
    EXPECT_NE(refused({ "a:1" }, one, pinA, "").find("chmod 600"), std::string::npos);
}

} // namespace
