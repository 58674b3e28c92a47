// wrkbench-cli --http3 as users run it, against caddy on loopback (HTTP/3 by default,
// its access log the witness): the text report's QUIC lines, --json's "quic", the
// session store, two local loaders whose merged run equals what caddy served, a remote agent
// loading over HTTP/3, and
// the refusals (http://, nothing on UDP) with their one line and exit code.

#include "delayproxy.h"
#include "quicpeers.h"
#include "testagent.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>

using namespace wb;
using Json = nlohmann::json;

namespace {

struct Peer
{
    test::TempDir certDir;
    test::TestCertificates certs;
    test::Caddy caddy;
    bool ok = false;
};

Peer* g_peer = nullptr;

class Http3Cli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        g_peer = new Peer;
        g_peer->ok = test::Caddy::available() && test::generateCertificates(g_peer->certDir.path(), g_peer->certs)
            && g_peer->caddy.start(g_peer->certs);
    }
    static void TearDownTestSuite()
    {
        delete g_peer;
        g_peer = nullptr;
    }
    void SetUp() override
    {
        if (!test::Caddy::available()) {
            if (test::underCi()) FAIL() << "caddy is not installed, and CI must test against it";
            GTEST_SKIP() << "caddy is not installed (packaging/install-deps.sh installs it)";
        }
        ASSERT_TRUE(g_peer->ok) << g_peer->caddy.log();
    }
    static std::string url(const std::string& path = "/")
    {
        return "https://localhost:" + std::to_string(g_peer->caddy.port()) + path;
    }
    static uint64_t loggedSettled(uint64_t before)
    {
        // caddy logs a request once it has answered it: let the last answers land.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        return g_peer->caddy.http3Logged(200) - before;
    }
};

} // namespace

TEST_F(Http3Cli, ReportJsonAndStoreCarryTheQuicFacts)
{
    test::TempDir dir;
    const uint64_t before = g_peer->caddy.http3Logged(200);
    const auto r = test::runCli({ "run", "--http3", "-t2", "-c4", "-m4", "-n", "400", "--latency", "--cacert",
        g_peer->certs.caCert, "--json", dir.file("r.json"), "--db", dir.file("s.wrkbench"), url() });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const uint64_t logged = loggedSettled(before);
    EXPECT_NE(r.out.find("HTTP/3 (h3 over QUIC), 4 streams per connection"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("QUIC: QUIC v1, ALPN h3, 4 handshakes (1-RTT; 0-RTT not offered)"), std::string::npos)
        << r.out;

    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    EXPECT_EQ(j["protocol"], "h3");
    EXPECT_EQ(j["config"]["streams"], 4);
    EXPECT_EQ(j["quic"]["version"], 1);
    EXPECT_EQ(j["quic"]["alpn"], "h3");
    EXPECT_EQ(j["quic"]["handshakes"], 4);
    EXPECT_EQ(j["summary"]["connect_us"]["count"], 4);
    const uint64_t requests = j["summary"]["requests"];
    EXPECT_GT(requests, 20u);
    EXPECT_GE(logged, requests);
    EXPECT_LE(logged, requests + 16);

    // The store keeps them with the run, as the wire's object, beside the protocol it spoke.
    const auto stored = test::runProcess({ "sqlite3", dir.file("s.wrkbench"), "SELECT protocol, quic FROM runs" });
    ASSERT_EQ(stored.exitCode, 0) << stored.err << " (sqlite3: packaging/install-deps.sh installs it)";
    ASSERT_EQ(stored.out.rfind("h3|", 0), 0u) << stored.out;
    const Json q = Json::parse(stored.out.substr(3));
    EXPECT_EQ(q, j["quic"]);
}

TEST_F(Http3Cli, TwoLocalLoadersCarryHttp3AndMergeWhatCaddyServed)
{
    test::TempDir dir;
    const uint64_t before = g_peer->caddy.http3Logged(200);
    const auto r = test::runCli({ "run", "--http3", "--loaders", "2", "-t2", "-c4", "-m2", "-n", "400", "--cacert",
                                    g_peer->certs.caCert, "--json", dir.file("r.json"), url() },
        60'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const uint64_t logged = loggedSettled(before);
    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    EXPECT_EQ(j["protocol"], "h3");
    ASSERT_EQ(j["loaders"].size(), 2u);
    // Each loader made its 2 connections: the merged run's QUIC facts are both loaders'.
    EXPECT_EQ(j["quic"]["handshakes"], 4);
    const uint64_t requests
        = j["summary"]["requests"].get<uint64_t>() + j["summary"]["warmup_requests"].get<uint64_t>();
    EXPECT_GT(requests, 10u);
    EXPECT_GE(logged, requests);
    EXPECT_LE(logged, requests + 8);
}

// A remote agent (a real `wrkbench-cli agent` on loopback) takes the run's HTTP/3 from the wire
// and loads caddy over QUIC itself: the merged run says h3, carries the agent's handshakes, and
// counts what caddy logged. -k: an agent takes no file paths from the network, so not --cacert
// (docs/AGENT.md); its refusal of one is agent_cli_test's.
TEST_F(Http3Cli, AnAgentLoadsOverHttp3)
{
    test::TempDir dir;
    test::Agent agent(dir, "h3agent");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const uint64_t before = g_peer->caddy.http3Logged(200);
    const auto r = test::runCli({ "run", "--http3", "--on", "agents", agent.address(), "--agent-token-file",
                                    agent.tokenFile(), "--agent-fingerprint", agent.fingerprint(), "-t1", "-c3", "-m2",
                                    "-n", "300", "-k", "--json", dir.file("r.json"), url() },
        60'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << agent.log();
    const uint64_t logged = loggedSettled(before);
    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    EXPECT_EQ(j["protocol"], "h3");
    ASSERT_EQ(j["loaders"].size(), 1u);
    EXPECT_EQ(j["quic"]["handshakes"], 3);
    const uint64_t requests
        = j["summary"]["requests"].get<uint64_t>() + j["summary"]["warmup_requests"].get<uint64_t>();
    EXPECT_GT(requests, 10u);
    EXPECT_GE(logged, requests);
    EXPECT_LE(logged, requests + 6); // at most the requests in flight when the agent stopped
}

TEST_F(Http3Cli, RefusalsAreOneLineBeforeAnyLoad)
{
    const auto cleartext = test::runCli({ "run", "--http3", "-d1s", "http://localhost:8080/" });
    EXPECT_EQ(cleartext.exitCode, 2) << cleartext.out << cleartext.err;
    EXPECT_NE(cleartext.err.find("use an https:// URL with --http3"), std::string::npos) << cleartext.err;

    const uint16_t port = test::freeUdpPort();
    const auto nothing = test::runCli({ "run", "--http3", "-d1s", "--cacert", g_peer->certs.caCert,
        "https://127.0.0.1:" + std::to_string(port) + "/" });
    EXPECT_NE(nothing.exitCode, 0);
    EXPECT_NE(nothing.err.find("nothing listens on UDP 127.0.0.1:" + std::to_string(port)), std::string::npos)
        << nothing.err;

    const auto both = test::runCli({ "run", "--http2", "--http3", "-d1s", url() });
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_NE(both.err.find("choose one of --http2 and --http3"), std::string::npos) << both.err;
}

// The probe speaks TCP (libcurl without HTTP/3) and shows where the server says it answers h3;
// an --http3 run whose URL reaches the server on another port (a TCP proxy in front) is told
// that the server advertises HTTP/3 elsewhere, and the UDP port it asked for is refused.
TEST_F(Http3Cli, TheProbeShowsAltSvcAndARunOnAnotherPortIsToldSo)
{
    const std::string port = std::to_string(g_peer->caddy.port());
    const auto probed = test::runCli({ "probe", "--cacert", g_peer->certs.caCert, url() });
    ASSERT_EQ(probed.exitCode, 0) << probed.out << probed.err;
    EXPECT_NE(probed.out.find("advertised on :" + port + " (Alt-Svc)"), std::string::npos) << probed.out;

    test::DelayProxy proxy(g_peer->caddy.port(), 0);
    const std::string other = std::to_string(proxy.port());
    const auto r = test::runCli({ "run", "--http3", "--probe", "-d1s", "--connect-timeout", "1s", "--cacert",
        g_peer->certs.caCert, "https://localhost:" + other + "/" });
    EXPECT_NE(r.exitCode, 0);
    const std::string all = r.out + r.err;
    EXPECT_NE(
        all.find("the server advertises HTTP/3 on :" + port + " (Alt-Svc), not on port " + other), std::string::npos)
        << all;
    EXPECT_NE(all.find("nothing listens on UDP"), std::string::npos) << all;
}
