// HTTP/3 over QUIC against the two real HTTP/3 servers Debian ships, on
// loopback with a generated certificate: caddy (its access log is the witness)
// and ngtcp2's gtlsserver (its log names each response it submitted; its stream
// limit, packet loss and timeouts are ours to set). Counts and status codes
// equal what the servers saw, the server's stream limit holds, the refusals
// before any load say what happened, and a server that stops answering or goes
// away shows as what it is.

#include "quicpeers.h"
#include "run/runcontroller.h"

#include <csignal>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace wb;

namespace {

struct Peers
{
    test::TempDir certDir;
    test::TestCertificates certs;
    test::Caddy caddy;
    test::GtlsServer gtls;
    bool certsOk = false;
    bool caddyOk = false;
    bool gtlsOk = false;
};

Peers* g_peers = nullptr;

class Http3Test : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        g_peers = new Peers;
        Peers& p = *g_peers;
        p.certsOk = test::generateCertificates(p.certDir.path(), p.certs);
        if (!p.certsOk) return;
        p.caddyOk = test::Caddy::available() && p.caddy.start(p.certs);
        p.gtlsOk = test::GtlsServer::available() && p.gtls.start(p.certs);
    }
    static void TearDownTestSuite()
    {
        delete g_peers;
        g_peers = nullptr;
    }

    static void requirePeer(bool available, bool ok, const char* name, const std::string& log)
    {
        if (!available) {
            if (test::underCi()) FAIL() << name << " is not installed, and CI must test against it";
            GTEST_SKIP() << name << " is not installed (packaging/install-deps.sh installs it)";
        }
        ASSERT_TRUE(ok) << name << " did not start: " << log;
    }

    static RunConfig config(const std::string& host, uint16_t port, const std::string& path = "/")
    {
        RunConfig cfg;
        cfg.request.url = *parseUrl("https://" + host + ":" + std::to_string(port) + path);
        cfg.tls.caFile = g_peers->certs.caCert;
        cfg.httpVersion = HttpVersion::Http3;
        cfg.threads = 2;
        cfg.connections = 4;
        cfg.durationUs = 800'000;
        cfg.connectTimeoutUs = static_cast<uint64_t>(test::scaledMs(2'000)) * 1000;
        return cfg;
    }

    static RunResult run(const RunConfig& cfg, std::vector<std::string>* warnings = nullptr)
    {
        RunController controller(cfg);
        const Status st = controller.prepare();
        EXPECT_TRUE(st.ok()) << st.error();
        if (warnings) *warnings = controller.warnings();
        return st.ok() ? controller.run() : RunResult {};
    }

    static std::string refusal(const RunConfig& cfg)
    {
        RunController controller(cfg);
        const Status st = controller.prepare();
        return st.ok() ? std::string("(prepared)") : st.error();
    }
};

class Http3AgainstCaddy : public Http3Test
{
protected:
    void SetUp() override { requirePeer(test::Caddy::available(), g_peers->caddyOk, "caddy", g_peers->caddy.log()); }
};

class Http3AgainstGtlsServer : public Http3Test
{
protected:
    void SetUp() override
    {
        requirePeer(test::GtlsServer::available(), g_peers->gtlsOk, "gtlsserver", g_peers->gtls.log());
    }
};

} // namespace

TEST_F(Http3AgainstCaddy, CountsEveryResponseCaddyLoggedAsHttp3)
{
    auto cfg = config("localhost", g_peers->caddy.port());
    cfg.streams = 8;
    const uint64_t before = g_peers->caddy.http3Logged(200);
    const RunResult r = run(cfg);
    // caddy writes a request's line when it has answered it: give the last ones a moment.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const uint64_t logged = g_peers->caddy.http3Logged(200) - before;

    EXPECT_EQ(r.protocol, "h3");
    EXPECT_EQ(r.errors.transportErrors(), 0u) << r.firstTlsError << r.firstConnectError << r.quic.firstEnd;
    EXPECT_GT(r.requests, 50u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
    // Caddy answered what was counted, plus at most the requests in flight at the end.
    EXPECT_GE(logged, r.requests);
    EXPECT_LE(logged, r.requests + uint64_t { cfg.connections } * cfg.streams);
    // QUIC facts: version 1, h3 by ALPN, one handshake per connection (none replaced).
    EXPECT_EQ(r.quic.version, 1u);
    EXPECT_EQ(r.quic.alpn, "h3");
    EXPECT_EQ(r.quic.handshakes, cfg.connections);
    EXPECT_EQ(r.quic.zeroRttHandshakes, 0u);
    // The handshake is the connect phase.
    EXPECT_EQ(r.connectTime.count(), cfg.connections);
    EXPECT_EQ(r.tlsHandshake.count(), 0u);
}

TEST_F(Http3AgainstCaddy, StatusCodesAreCaddysAndNon2xxIsNotAnError)
{
    auto cfg = config("localhost", g_peers->caddy.port(), "/status/503");
    cfg.streams = 4;
    const uint64_t before = g_peers->caddy.http3Logged(503);
    const RunResult r = run(cfg);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const uint64_t logged = g_peers->caddy.http3Logged(503) - before;
    EXPECT_EQ(r.errors.transportErrors(), 0u);
    EXPECT_GT(r.status.byCode[503], 10u);
    EXPECT_EQ(r.status.non2xx(), r.requests);
    EXPECT_GE(logged, r.requests);
    EXPECT_LE(logged, r.requests + uint64_t { cfg.connections } * cfg.streams);
}

TEST_F(Http3AgainstCaddy, OpenModelSendsTheRateWithCorrectedLatency)
{
    auto cfg = config("localhost", g_peers->caddy.port());
    cfg.ratePerS = 400;
    cfg.streams = 4;
    cfg.durationUs = 1'000'000;
    const RunResult r = run(cfg);
    EXPECT_EQ(r.errors.transportErrors(), 0u);
    // The schedule's 400 requests, give or take the ones due at the very end.
    EXPECT_GE(r.requests, 360u);
    EXPECT_LE(r.requests, 400u);
    EXPECT_EQ(r.serviceLatency.count(), r.requests);
    EXPECT_GE(r.latency.minUs(), 1u);
}

TEST_F(Http3AgainstCaddy, WarmupIsCountedApart)
{
    auto cfg = config("localhost", g_peers->caddy.port());
    cfg.warmupUs = 300'000;
    const uint64_t before = g_peers->caddy.http3Logged(200);
    const RunResult r = run(cfg);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const uint64_t logged = g_peers->caddy.http3Logged(200) - before;
    EXPECT_GT(r.warmupRequests, 0u);
    EXPECT_GE(logged, r.requests + r.warmupRequests);
    EXPECT_LE(logged, r.requests + r.warmupRequests + cfg.connections);
}

TEST_F(Http3AgainstCaddy, WrongCertificateIsRefusedBeforeAnyLoad)
{
    auto cfg = config("localhost", g_peers->caddy.port());
    cfg.tls.caFile.clear(); // the system's store does not know the test CA
    const uint64_t before = g_peers->caddy.http3Logged();
    const std::string error = refusal(cfg);
    EXPECT_NE(error.find("QUIC handshake with 127.0.0.1:"), std::string::npos) << error;
    EXPECT_NE(error.find("certificate"), std::string::npos) << error;
    EXPECT_EQ(g_peers->caddy.http3Logged(), before);
    // -k: the same server is fine.
    cfg.tls.verifyPeer = false;
    EXPECT_EQ(refusal(cfg), "(prepared)");
}

TEST_F(Http3AgainstCaddy, HttpUrlIsRefused)
{
    auto cfg = config("localhost", g_peers->caddy.port());
    cfg.request.url = *parseUrl("http://localhost:" + std::to_string(g_peers->caddy.port()) + "/");
    const std::string error = refusal(cfg);
    EXPECT_NE(error.find("use an https:// URL with --http3"), std::string::npos) << error;
}

TEST_F(Http3AgainstGtlsServer, CountsEqualTheServersResponses)
{
    auto cfg = config("127.0.0.1", g_peers->gtls.port(), "/index.html");
    cfg.streams = 4;
    const uint64_t before = g_peers->gtls.responses();
    const RunResult r = run(cfg);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const uint64_t served = g_peers->gtls.responses() - before;
    EXPECT_EQ(r.errors.transportErrors(), 0u) << r.firstTlsError << r.quic.firstEnd;
    EXPECT_GT(r.requests, 20u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
    EXPECT_GE(served, r.requests);
    EXPECT_LE(served, r.requests + uint64_t { cfg.connections } * cfg.streams);
    EXPECT_EQ(r.quic.version, 1u);
}

TEST_F(Http3AgainstGtlsServer, EveryConnectionIsClosedWhenTheRunEnds)
{
    // Without a CONNECTION_CLOSE the server would keep each connection until its idle timeout
    // (30 s here): the pre-run handshake and every connection of the run say goodbye.
    auto cfg = config("127.0.0.1", g_peers->gtls.port(), "/index.html");
    cfg.streams = 2;
    const uint64_t before = g_peers->gtls.closedByClients();
    const RunResult r = run(cfg);
    EXPECT_EQ(r.errors.transportErrors(), 0u) << r.firstTlsError << r.quic.firstEnd;
    EXPECT_EQ(r.reconnects, 0u);
    const uint64_t expected = before + cfg.connections + 1;
    for (int i = 0; i < 100 && g_peers->gtls.closedByClients() < expected; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(test::scaledMs(30)));
    EXPECT_EQ(g_peers->gtls.closedByClients(), expected);
}

TEST_F(Http3AgainstGtlsServer, MissingDocumentIsA404)
{
    auto cfg = config("127.0.0.1", g_peers->gtls.port(), "/missing.html");
    cfg.connections = 2;
    const RunResult r = run(cfg);
    EXPECT_EQ(r.errors.transportErrors(), 0u);
    EXPECT_GT(r.status.byCode[404], 5u);
    EXPECT_EQ(r.status.byCode[404], r.requests);
}

TEST_F(Http3AgainstGtlsServer, TheServersStreamLimitIsRespected)
{
    test::GtlsServer limited;
    test::GtlsServerOptions options;
    options.maxStreamsBidi = 3;
    ASSERT_TRUE(limited.start(g_peers->certs, options)) << limited.log();
    auto cfg = config("127.0.0.1", limited.port(), "/index.html");
    cfg.streams = 10;
    std::vector<std::string> warnings;
    const RunResult r = run(cfg, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("the server allows 3 concurrent streams"), std::string::npos) << warnings[0];
    EXPECT_EQ(r.serverStreamLimit, 3u);
    // Past the limit ngtcp2 refuses to open a stream, and the server would close the
    // connection with STREAM_LIMIT_ERROR: no error means it was never passed.
    EXPECT_EQ(r.errors.transportErrors(), 0u) << r.quic.firstEnd;
    EXPECT_GT(r.requests, 20u);
    EXPECT_EQ(r.quic.totalEnds(), 0u) << r.quic.firstEnd;
}

TEST_F(Http3AgainstGtlsServer, LostPacketsAreRecoveredAndCounted)
{
    test::GtlsServer lossy;
    test::GtlsServerOptions options;
    options.txLoss = 0.15; // the server drops 15% of what it sends, acknowledgements included
    ASSERT_TRUE(lossy.start(g_peers->certs, options)) << lossy.log();
    auto cfg = config("127.0.0.1", lossy.port(), "/index.html");
    cfg.connections = 2;
    cfg.threads = 1;
    cfg.streams = 4;
    // A handshake whose flights are lost waits out probe timeouts of 1 s, 2 s, ...: what this test
    // checks is recovery, not how soon the handshake made it. The run ends on its count.
    cfg.connectTimeoutUs = static_cast<uint64_t>(test::scaledMs(15'000)) * 1000;
    cfg.responses = 200;
    cfg.durationUs = 30'000'000;
    cfg.timeoutUs = 10'000'000;
    const RunResult r = run(cfg);
    EXPECT_EQ(r.requests, 200u);
    EXPECT_EQ(r.errors.transportErrors(), 0u) << r.quic.firstEnd;
    // Our packets whose acknowledgements never came are declared lost, or probed for.
    EXPECT_GT(r.quic.lostPackets + r.quic.probeTimeouts, 0u);
}

TEST_F(Http3AgainstGtlsServer, AServerThatStopsAnsweringTimesOutThenRecovers)
{
    test::GtlsServer server;
    ASSERT_TRUE(server.start(g_peers->certs)) << server.log();
    auto cfg = config("127.0.0.1", server.port(), "/index.html");
    cfg.connections = 2;
    cfg.threads = 1;
    cfg.timeoutUs = 300'000;
    cfg.durationUs = 2'000'000;
    const pid_t pid = server.serverPid();
    ASSERT_GT(pid, 0);
    std::thread pauser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        ::kill(pid, SIGSTOP);
        std::this_thread::sleep_for(std::chrono::milliseconds(800));
        ::kill(pid, SIGCONT);
    });
    const RunResult r = run(cfg);
    pauser.join();
    EXPECT_GT(r.errors.timeout, 0u);
    // The same connections answer again once the server does (QUIC retransmits what it lost).
    ASSERT_GE(r.intervals.size(), 2u);
    EXPECT_GT(r.intervals.back().requests, 0u);
}

TEST_F(Http3AgainstGtlsServer, AServerThatGoesAwayIsNamed)
{
    test::GtlsServer server;
    ASSERT_TRUE(server.start(g_peers->certs)) << server.log();
    auto cfg = config("127.0.0.1", server.port(), "/index.html");
    cfg.connections = 2;
    cfg.threads = 1;
    cfg.durationUs = 1'500'000;
    std::thread killer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        server.stop();
    });
    const RunResult r = run(cfg);
    killer.join();
    EXPECT_GT(r.requests, 0u);
    // Requests in flight are lost and new connections find nothing on the port.
    EXPECT_GT(r.errors.transportErrors(), 0u);
    EXPECT_NE(r.firstConnectError.find("nothing listens on UDP"), std::string::npos)
        << r.firstConnectError << " / " << r.quic.firstEnd;
}

TEST_F(Http3Test, NothingListeningOnUdpIsRefusedAndNamed)
{
    ASSERT_TRUE(g_peers->certsOk);
    const uint16_t port = test::freeUdpPort();
    const std::string error = refusal(config("127.0.0.1", port));
    EXPECT_NE(error.find("nothing listens on UDP 127.0.0.1:" + std::to_string(port)), std::string::npos) << error;
}

TEST_F(Http3Test, ASilentUdpPortIsRefusedWithinTheConnectTimeout)
{
    ASSERT_TRUE(g_peers->certsOk);
    // A socket that takes datagrams and never answers: what a firewall that drops UDP looks like.
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    socklen_t length = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length);
    auto cfg = config("127.0.0.1", ntohs(addr.sin_port));
    cfg.connectTimeoutUs = 500'000;
    const std::string error = refusal(cfg);
    ::close(fd);
    EXPECT_NE(error.find("no QUIC handshake with 127.0.0.1:"), std::string::npos) << error;
    EXPECT_NE(error.find("within 500 ms"), std::string::npos) << error;
}
