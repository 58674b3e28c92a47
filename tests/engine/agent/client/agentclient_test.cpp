// The workstation's side of the agent API on its own (agentclient/), against a real agent served
// in this process on loopback (its log the witness of what reached it): the certificate pin
// checked before a byte is sent, the token as a bearer header, the agent's refusals read as its
// words, a stream given up on request, the probe asked from the agent, and addresses as people
// type them.

#include "agent/client/agentclient.h"
#include "agent/client/agentprobe.h"
#include "agent/server/agentserver.h"
#include "serve/targetserver.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

using namespace wb;

namespace {

TEST(AgentAddress, SplitAsPeopleTypeThem)
{
    auto v4 = splitAgentAddress("10.0.0.5:7450");
    ASSERT_TRUE(v4) << v4.error();
    EXPECT_EQ(v4->first, "10.0.0.5");
    EXPECT_EQ(v4->second, 7450);
    auto v6 = splitAgentAddress("[::1]:7451");
    ASSERT_TRUE(v6) << v6.error();
    EXPECT_EQ(v6->first, "::1");
    EXPECT_EQ(v6->second, 7451);
    auto name = splitAgentAddress("vm1.lab:80");
    ASSERT_TRUE(name) << name.error();
    EXPECT_EQ(name->first, "vm1.lab");
    for (const char* bad : { "vm1", "vm1:", "vm1:0", "vm1:65536", "vm1:http", "[::1", "[::1]7450", ":7450", "" }) {
        auto r = splitAgentAddress(bad);
        EXPECT_FALSE(r) << bad;
        if (!r) {
            EXPECT_FALSE(r.error().empty()) << bad;
        }
    }
}

/// An agent on 127.0.0.1 that may load loopback, serving on its own thread; every log line kept.
class Agent
{
public:
    Agent()
    {
        auto credentials = loadOrCreateCredentials(m_dir.file("state"), "localhost");
        EXPECT_TRUE(credentials) << credentials.error();
        if (!credentials) return;
        m_credentials = *credentials;
        AgentServerOptions options;
        options.listen = "127.0.0.1:0";
        options.allow = *AllowList::parse("127.0.0.0/8");
        options.stateDir = m_dir.file("state");
        options.hostName = "agent-under-test";
        options.refusalLogIntervalUs = 0;
        options.log = [this](const std::string& line) {
            std::lock_guard lock(m_mutex);
            m_log += line + "\n";
        };
        m_server = std::make_unique<AgentServer>(options, m_credentials);
        const Status st = m_server->listen();
        EXPECT_TRUE(st.ok()) << st.error();
        if (!st) return;
        m_thread = std::thread([this] { m_server->serve(); });
    }
    ~Agent()
    {
        if (m_server) m_server->stop();
        if (m_thread.joinable()) m_thread.join();
    }
    bool ok() const { return m_thread.joinable(); }

    AgentEndpoint endpoint() const
    {
        AgentEndpoint e;
        e.name = "vm1";
        e.address = "127.0.0.1:" + std::to_string(m_server->port());
        e.token = m_credentials.token;
        e.fingerprint = m_credentials.fingerprint;
        return e;
    }
    std::string log() const
    {
        std::lock_guard lock(m_mutex);
        return m_log;
    }

private:
    test::TempDir m_dir;
    AgentCredentials m_credentials;
    std::unique_ptr<AgentServer> m_server;
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::string m_log;
};

constexpr uint64_t CALL_TIMEOUT_US = 10'000'000;

TEST(AgentClient, APinnedAgentAnswersWithItsToken)
{
    Agent agent;
    ASSERT_TRUE(agent.ok());
    AgentClient client(agent.endpoint());
    auto reply = client.call("GET", "/v1/health", "", CALL_TIMEOUT_US);
    ASSERT_TRUE(reply) << reply.error();
    EXPECT_EQ(reply->status, 200) << reply->body;
    const auto health = nlohmann::json::parse(reply->body, nullptr, false);
    ASSERT_TRUE(health.is_object()) << reply->body;
    EXPECT_NE(reply->body.find("agent-under-test"), std::string::npos) << reply->body;
    EXPECT_NE(agent.log().find("/v1/health"), std::string::npos) << agent.log();

    // The agent's refusal in its own words: a route it lacks, a method a route does not take.
    auto missing = client.call("GET", "/v1/nothing", "", CALL_TIMEOUT_US);
    ASSERT_TRUE(missing) << missing.error();
    EXPECT_EQ(missing->status, 404);
    EXPECT_NE(missing->errorText().find("no such path"), std::string::npos) << missing->errorText();
    auto method = client.call("DELETE", "/v1/health", "", CALL_TIMEOUT_US);
    ASSERT_TRUE(method) << method.error();
    EXPECT_EQ(method->status, 405);
    EXPECT_NE(method->errorText().find("GET only"), std::string::npos) << method->errorText();
}

TEST(AgentClient, AWrongPinSendsNothing)
{
    Agent agent;
    ASSERT_TRUE(agent.ok());
    AgentEndpoint endpoint = agent.endpoint();
    endpoint.fingerprint = std::string(64, 'a');
    AgentClient client(endpoint);
    auto reply = client.call("GET", "/v1/health?secret-path", "", CALL_TIMEOUT_US);
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().find("fingerprint"), std::string::npos) << reply.error();
    // The request (and its token) never left: the agent logged no request of ours.
    EXPECT_EQ(agent.log().find("secret-path"), std::string::npos) << agent.log();
    EXPECT_EQ(agent.log().find(endpoint.token), std::string::npos);
}

TEST(AgentClient, AWrongTokenIsRefusedByTheAgent)
{
    Agent agent;
    ASSERT_TRUE(agent.ok());
    AgentEndpoint endpoint = agent.endpoint();
    endpoint.token = std::string(64, '0');
    auto reply = AgentClient(endpoint).call("GET", "/v1/health", "", CALL_TIMEOUT_US);
    ASSERT_TRUE(reply) << reply.error(); // an answer: the agent's refusal
    EXPECT_EQ(reply->status, 401);
    EXPECT_FALSE(reply->errorText().empty());
}

TEST(AgentClient, NothingListeningIsAnErrorNamingTheAddress)
{
    Agent agent; // for credentials of the right shape
    ASSERT_TRUE(agent.ok());
    AgentEndpoint endpoint = agent.endpoint();
    endpoint.address = "127.0.0.1:" + std::to_string(test::freeTcpPort());
    auto reply = AgentClient(endpoint).call("GET", "/v1/health", "", CALL_TIMEOUT_US);
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().find(endpoint.address), std::string::npos) << reply.error();
}

TEST(AgentClient, AStreamIsGivenUpWhenAsked)
{
    Agent agent;
    ASSERT_TRUE(agent.ok());
    AgentClient client(agent.endpoint());
    // No run 'r1' on the agent: the stream is refused, and says so.
    std::atomic<bool> stop { false };
    std::string detail;
    std::string bytes;
    const auto end = client.stream(
        "/v1/runs/r1/stream", stop, [&](std::string_view b) { bytes += b; }, detail);
    EXPECT_EQ(end, AgentClient::StreamEnd::Refused) << detail;
    EXPECT_NE(detail.find("no run"), std::string::npos) << detail;
    EXPECT_TRUE(bytes.empty());
    // Asked to stop: it returns without waiting for what the agent would say.
    stop = true;
    detail.clear();
    EXPECT_EQ(client.stream(
                  "/v1/runs/r1/stream", stop, [&](std::string_view b) { bytes += b; }, detail),
        AgentClient::StreamEnd::Stopped)
        << detail;
}

TEST(AgentProbe, TheAgentProbesWhatItMayLoad)
{
    Agent agent;
    ASSERT_TRUE(agent.ok());
    TargetServer target({});
    ASSERT_TRUE(target.start().ok());
    ProbeOptions options;
    options.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(target.port()) + "/status/204");
    auto probed = probeOnAgent(agent.endpoint(), options);
    ASSERT_TRUE(probed) << probed.error();
    EXPECT_EQ(probed->statusCode, 204);
    EXPECT_NE(agent.log().find("/v1/probe"), std::string::npos) << agent.log();

    // A target outside the agent's --allow: refused by the agent, in its words, naming the agent.
    options.request.url = *parseUrl("http://192.0.2.1:80/");
    auto refused = probeOnAgent(agent.endpoint(), options);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("vm1"), std::string::npos) << refused.error();
    EXPECT_NE(refused.error().find("allow"), std::string::npos) << refused.error();
}

} // namespace
