// The QUIC adapter on its own, driven the way a worker drives it (a connected UDP socket, the time
// passed in, the datagrams handed over) against the real HTTP/3 servers Debian ships on loopback:
// ngtcp2's gtlsserver (its log names each response it submitted and each client that closed) and
// caddy (its access log). A handshake that verifies a generated certificate, a request answered
// with its status, fields and body, the server's stream limit, our CONNECTION_CLOSE reaching the
// server, and two ways a connection fails before it starts (a certificate from another CA, nothing
// listening), each said as what it is.

#include "quic/quicconnection.h"
#include "quicpeers.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace wb;

namespace {

uint64_t nowUs()
{
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

struct Stream
{
    int status = 0;
    std::vector<std::pair<std::string, std::string>> fields;
    std::string body;
    bool ended = false; ///< the whole response arrived
    bool closed = false;
    uint64_t appError = 0;
};

class Events final : public QuicStreamEvents
{
public:
    void onStatus(void* s, int status) override { static_cast<Stream*>(s)->status = status; }
    void onField(void* s, std::string_view name, std::string_view value) override
    {
        static_cast<Stream*>(s)->fields.emplace_back(name, value);
    }
    void onBody(void* s, const uint8_t* data, size_t length) override
    {
        static_cast<Stream*>(s)->body.append(reinterpret_cast<const char*>(data), length);
    }
    void onResponseEnd(void* s) override { static_cast<Stream*>(s)->ended = true; }
    void onStreamClose(void* s, uint64_t appError) override
    {
        static_cast<Stream*>(s)->closed = true;
        static_cast<Stream*>(s)->appError = appError;
    }
    void onGoaway(int64_t) override { goaway = true; }
    std::string_view bodyOf(void*) override { return {}; }
    bool goaway = false;
};

/// One client connection on a connected UDP socket, pumped until a condition holds.
class Client
{
public:
    Events events;
    QuicConnection conn { events };

    ~Client()
    {
        conn.close();
        if (m_fd >= 0) ::close(m_fd);
    }

    ::testing::AssertionResult open(uint16_t port, const QuicTlsContext& tls, const QuicOptions& options = {})
    {
        m_fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_in remote {};
        remote.sin_family = AF_INET;
        remote.sin_port = htons(port);
        remote.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr*>(&remote), sizeof remote) != 0)
            return ::testing::AssertionFailure() << "connect: " << strerror(errno);
        sockaddr_in local {};
        socklen_t localLength = sizeof local;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&local), &localLength);
        m_authority = "localhost:" + std::to_string(port);
        const Status st = conn.open(tls, "localhost", reinterpret_cast<sockaddr*>(&local), localLength,
            reinterpret_cast<sockaddr*>(&remote), sizeof remote, nowUs(), options);
        if (!st) return ::testing::AssertionFailure() << st.error();
        return ::testing::AssertionSuccess();
    }

    /// Sends, receives and runs the timers until done() or the connection ended; false when the
    /// safety bound passed first (a broken exchange, not a slow one: the bound is generous).
    template<typename Done> bool pumpUntil(Done done)
    {
        const uint64_t giveUpAt = nowUs() + static_cast<uint64_t>(test::scaledMs(10'000)) * 1000;
        while (!done() && !conn.ended()) {
            if (nowUs() > giveUpAt) return false;
            flush();
            const uint64_t expiry = conn.expiryUs();
            const uint64_t now = nowUs();
            const int waitMs = expiry <= now ? 0 : static_cast<int>(std::min<uint64_t>((expiry - now) / 1000 + 1, 50));
            pollfd p { m_fd, POLLIN, 0 };
            ::poll(&p, 1, waitMs);
            uint8_t datagram[65536];
            for (;;) {
                const ssize_t n = ::recv(m_fd, datagram, sizeof datagram, 0);
                if (n < 0) {
                    if (errno == ECONNREFUSED) conn.onUnreachable("connection refused (ICMP port unreachable)");
                    break;
                }
                if (!conn.receive(datagram, static_cast<size_t>(n), nowUs())) break;
            }
            if (!conn.ended() && conn.expiryUs() <= nowUs()) conn.onExpiry(nowUs());
        }
        flush();
        return done();
    }

    void flush()
    {
        uint8_t buffer[QuicConnection::MAX_DATAGRAM_BYTES * 8];
        for (;;) {
            size_t segment = 0;
            const size_t n = conn.write(buffer, sizeof buffer, segment, nowUs());
            if (n == 0) return;
            for (size_t at = 0; at < n; at += segment)
                (void)::send(m_fd, buffer + at, std::min(segment, n - at), 0);
        }
    }

    int64_t get(Stream& stream, const std::string& path)
    {
        m_path = path;
        QuicRequest request;
        request.fields = { { ":method", "GET" }, { ":scheme", "https" }, { ":authority", m_authority },
            { ":path", m_path }, { "user-agent", "wrkbench-test" } };
        return conn.submit(request, &stream);
    }

    void sendClose()
    {
        uint8_t buffer[QuicConnection::MAX_DATAGRAM_BYTES];
        const size_t n = conn.writeClose(buffer, sizeof buffer, nowUs());
        if (n > 0) (void)::send(m_fd, buffer, n, 0);
    }

private:
    int m_fd = -1;
    std::string m_authority;
    std::string m_path; ///< the bytes a submitted request's fields point at
};

struct Peers
{
    test::TempDir certDir;
    test::TempDir otherDir;
    test::TestCertificates certs;
    test::TestCertificates other; ///< another CA: its certificate proves nothing about the servers'
    test::GtlsServer gtls;
    test::GtlsServer limited; ///< two streams at a time
    test::Caddy caddy;
    bool ok = false;
};

Peers* g_peers = nullptr;

class QuicConnectionTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        g_peers = new Peers;
        Peers& p = *g_peers;
        p.ok = test::generateCertificates(p.certDir.path(), p.certs)
            && test::generateCertificates(p.otherDir.path(), p.other);
    }
    static void TearDownTestSuite()
    {
        delete g_peers;
        g_peers = nullptr;
    }

    void SetUp() override
    {
        ASSERT_TRUE(g_peers->ok) << "certificates";
        if (!test::GtlsServer::available()) {
            if (test::underCi()) FAIL() << "ngtcp2's gtlsserver is not installed, and CI must test against it";
            GTEST_SKIP() << "ngtcp2-server is not installed (packaging/install-deps.sh installs it)";
        }
    }

    static test::GtlsServer& gtls()
    {
        if (!g_peers->gtls.port()) {
            EXPECT_TRUE(g_peers->gtls.start(g_peers->certs)) << g_peers->gtls.log();
        }
        return g_peers->gtls;
    }

    static std::shared_ptr<QuicTlsContext> trusting(const std::string& caFile)
    {
        auto tls = QuicTlsContext::create(true, caFile);
        EXPECT_TRUE(tls.ok()) << (tls.ok() ? "" : tls.error());
        return tls.ok() ? *tls : nullptr;
    }
};

TEST_F(QuicConnectionTest, AGetIsAnsweredAndOurCloseReachesTheServer)
{
    test::GtlsServer& server = gtls();
    auto tls = trusting(g_peers->certs.caCert);
    ASSERT_TRUE(tls);
    Client client;
    QuicOptions options;
    options.observeBody = true;
    ASSERT_TRUE(client.open(server.port(), *tls, options));
    ASSERT_TRUE(client.pumpUntil([&] { return client.conn.handshakeDone(); })) << client.conn.end().reason;
    const QuicFacts facts = client.conn.facts();
    EXPECT_EQ(facts.version, 1u); // RFC 9000
    EXPECT_EQ(facts.alpn, "h3");
    EXPECT_FALSE(facts.earlyData);
    EXPECT_GT(client.conn.streamsLeft(), 0u);

    const uint64_t answeredBefore = server.responses();
    Stream stream;
    ASSERT_GE(client.get(stream, "/"), 0);
    ASSERT_TRUE(client.pumpUntil([&] { return stream.closed; })) << client.conn.end().reason;
    EXPECT_EQ(stream.status, 200);
    EXPECT_TRUE(stream.ended);
    EXPECT_EQ(stream.appError, 0x100u); // H3_NO_ERROR: a stream that ended as it should
    EXPECT_EQ(stream.body, "hello\n");
    EXPECT_TRUE(stream.fields.empty()); // not observed unless asked

    // The server's log saw it, and our CONNECTION_CLOSE frees the connection there now.
    const uint64_t closedBefore = server.closedByClients();
    EXPECT_EQ(server.responses(), answeredBefore + 1) << server.log();
    client.sendClose();
    EXPECT_FALSE(client.conn.ended()); // a close of ours is not a failure of the connection
    bool closed = false;
    for (int i = 0; i < test::scaledMs(5'000) / 20 && !closed; ++i) {
        closed = server.closedByClients() > closedBefore;
        if (!closed) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(closed) << server.log();
    uint8_t buffer[QuicConnection::MAX_DATAGRAM_BYTES];
    EXPECT_EQ(client.conn.writeClose(buffer, sizeof buffer, nowUs()), 0u); // said once
}

TEST_F(QuicConnectionTest, TheServersStreamLimitIsKept)
{
    test::GtlsServerOptions options;
    options.maxStreamsBidi = 2;
    if (!g_peers->limited.port()) {
        ASSERT_TRUE(g_peers->limited.start(g_peers->certs, options));
    }
    auto tls = trusting(g_peers->certs.caCert);
    ASSERT_TRUE(tls);
    Client client;
    ASSERT_TRUE(client.open(g_peers->limited.port(), *tls));
    ASSERT_TRUE(client.pumpUntil([&] { return client.conn.handshakeDone(); })) << client.conn.end().reason;
    EXPECT_EQ(client.conn.facts().streamsBidiLimit, 2u);
    EXPECT_EQ(client.conn.streamsLeft(), 2u);
    Stream a, b, c;
    EXPECT_GE(client.get(a, "/"), 0);
    EXPECT_GE(client.get(b, "/"), 0);
    EXPECT_EQ(client.conn.streamsLeft(), 0u);
    EXPECT_EQ(client.get(c, "/"), -1); // refused here, not sent to be reset by the server
    ASSERT_TRUE(client.pumpUntil([&] { return a.closed && b.closed; })) << client.conn.end().reason;
    EXPECT_EQ(a.status, 200);
    EXPECT_EQ(b.status, 200);
    // The server gives the streams back as they close (MAX_STREAMS): the third goes out then.
    ASSERT_TRUE(client.pumpUntil([&] { return client.conn.streamsLeft() > 0; }));
    EXPECT_GE(client.get(c, "/"), 0);
    ASSERT_TRUE(client.pumpUntil([&] { return c.closed; })) << client.conn.end().reason;
    EXPECT_EQ(c.status, 200);
}

TEST_F(QuicConnectionTest, ACertificateFromAnotherCaFailsTheHandshake)
{
    test::GtlsServer& server = gtls();
    auto tls = trusting(g_peers->other.caCert);
    ASSERT_TRUE(tls);
    Client client;
    ASSERT_TRUE(client.open(server.port(), *tls));
    EXPECT_FALSE(client.pumpUntil([&] { return client.conn.handshakeDone(); }));
    ASSERT_TRUE(client.conn.ended());
    EXPECT_EQ(client.conn.end().kind, QuicEnd::HandshakeFailed) << quicEndName(client.conn.end().kind);
    EXPECT_FALSE(client.conn.end().reason.empty());
    EXPECT_FALSE(client.conn.end().graceful());
    Stream stream;
    EXPECT_EQ(client.get(stream, "/"), -1);

    // Without verification (-k) the same server is fine.
    auto unverified = QuicTlsContext::create(false, {});
    ASSERT_TRUE(unverified.ok());
    Client k;
    ASSERT_TRUE(k.open(server.port(), **unverified));
    EXPECT_TRUE(k.pumpUntil([&] { return k.conn.handshakeDone(); })) << k.conn.end().reason;
}

TEST_F(QuicConnectionTest, NothingListeningIsUnreachable)
{
    auto tls = trusting(g_peers->certs.caCert);
    ASSERT_TRUE(tls);
    Client client;
    ASSERT_TRUE(client.open(test::freeUdpPort(), *tls));
    EXPECT_FALSE(client.pumpUntil([&] { return client.conn.handshakeDone(); }));
    ASSERT_TRUE(client.conn.ended());
    EXPECT_EQ(client.conn.end().kind, QuicEnd::Unreachable) << client.conn.end().reason;
    EXPECT_STREQ(quicEndName(client.conn.end().kind), "unreachable");
}

TEST_F(QuicConnectionTest, CaddysFieldsAndStatusesArriveAsSent)
{
    if (!test::Caddy::available()) {
        if (test::underCi()) FAIL() << "caddy is not installed, and CI must test against it";
        GTEST_SKIP() << "caddy is not installed";
    }
    if (!g_peers->caddy.port()) {
        ASSERT_TRUE(g_peers->caddy.start(g_peers->certs)) << g_peers->caddy.log();
    }
    auto tls = trusting(g_peers->certs.caCert);
    ASSERT_TRUE(tls);
    Client client;
    QuicOptions options;
    options.observeFields = true;
    options.observeBody = true;
    ASSERT_TRUE(client.open(g_peers->caddy.port(), *tls, options));
    ASSERT_TRUE(client.pumpUntil([&] { return client.conn.handshakeDone(); })) << client.conn.end().reason;
    Stream ok, missing;
    ASSERT_GE(client.get(ok, "/"), 0);
    ASSERT_GE(client.get(missing, "/status/404"), 0);
    ASSERT_TRUE(client.pumpUntil([&] { return ok.closed && missing.closed; })) << client.conn.end().reason;
    EXPECT_EQ(ok.status, 200);
    EXPECT_EQ(ok.body.substr(0, 13), "hello over h3");
    EXPECT_EQ(missing.status, 404);
    bool server = false;
    for (const auto& [name, value] : ok.fields) {
        EXPECT_NE(name.substr(0, 1), ":") << "pseudo fields are given by onStatus";
        if (name == "server") server = value == "Caddy";
    }
    EXPECT_TRUE(server) << "caddy names itself in a server field";
    // Caddy's access log is the witness: both over HTTP/3.
    bool logged = false;
    for (int i = 0; i < test::scaledMs(5'000) / 20 && !logged; ++i) {
        logged = g_peers->caddy.http3Logged(200) >= 1 && g_peers->caddy.http3Logged(404) >= 1;
        if (!logged) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(logged) << g_peers->caddy.log();
}

} // namespace
