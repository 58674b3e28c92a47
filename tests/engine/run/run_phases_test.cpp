// Where the time goes under load: the engine's histograms of TCP connects, TLS
// handshakes and times to first byte, against a real nginx (and, for a slow
// handshake, a proxy in front of it that holds the ClientHello back). What must
// hold are counts (one connect per connection opened, one first byte per
// response) and orderings (a first byte never after its response's end; a held
// ClientHello in the handshake and not in the connect), never a speed.

#include "delayproxy.h"
#include "nginx.h"
#include "requirenginx.h"
#include "run/runcontroller.h"
#include "tlsnginx.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

test::NginxOptions http2Options()
{
    test::NginxOptions options;
    options.http2 = true;
    return options;
}

class ConnectionPhases : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(http2Options()); }
    static void TearDownTestSuite() { stopNginx(); }

    static RunConfig config(const std::string& url, unsigned connections)
    {
        RunConfig cfg;
        cfg.request.url = *parseUrl(url);
        cfg.threads = 2;
        cfg.connections = connections;
        cfg.durationUs = 800'000;
        return cfg;
    }

    static RunResult run(const RunConfig& cfg)
    {
        RunController controller(cfg);
        const Status st = controller.prepare();
        EXPECT_TRUE(st.ok()) << st.error();
        return st.ok() ? controller.run() : RunResult {};
    }

    static std::string plain(const std::string& path)
    {
        return "http://127.0.0.1:" + std::to_string(nginx().port()) + path;
    }
};

// Each sample's first byte comes no later than its response's last: so does every percentile.
void expectFirstByteBeforeEnd(const RunResult& r)
{
    ASSERT_GT(r.firstByte.count(), 0u);
    for (double p : { 50.0, 90.0, 99.0, 100.0 })
        EXPECT_LE(r.firstByte.valueAtPercentileUs(p), r.latency.valueAtPercentileUs(p)) << "p" << p;
}

} // namespace

TEST_F(ConnectionPhases, KeepAliveConnectsOncePerConnection)
{
    const RunResult r = run(config(plain("/"), 8));
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.connectTime.count(), 8u);
    EXPECT_EQ(r.tlsHandshake.count(), 0u);
    EXPECT_EQ(r.firstByte.count(), r.requests);
    expectFirstByteBeforeEnd(r);
}

TEST_F(ConnectionPhases, ConnectionCloseOpensAConnectionPerRequest)
{
    const RunConfig cfg = config(plain("/close"), 4);
    const RunResult r = run(cfg);
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    ASSERT_GT(r.requests, 4u * cfg.connections);
    // Every request had a connection of its own; a slot's last one may still be waiting
    // for its answer when the run ends (not a request then), so up to one more per slot.
    EXPECT_GE(r.connectTime.count(), r.requests);
    EXPECT_LE(r.connectTime.count(), r.requests + cfg.connections);
    EXPECT_EQ(r.firstByte.count(), r.requests);
    expectFirstByteBeforeEnd(r);
}

TEST_F(ConnectionPhases, PipelinedResponsesEachHaveAFirstByte)
{
    RunConfig cfg = config(plain("/"), 4);
    cfg.pipeline = 8;
    const RunResult r = run(cfg);
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.firstByte.count(), r.requests);
    expectFirstByteBeforeEnd(r);
}

TEST_F(ConnectionPhases, Http2StreamsEachHaveAFirstByte)
{
    RunConfig cfg = config("http://127.0.0.1:" + std::to_string(nginx().h2cPort()) + "/", 2);
    cfg.httpVersion = HttpVersion::Http2;
    cfg.streams = 8;
    const RunResult r = run(cfg);
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.connectTime.count(), 2u);
    EXPECT_EQ(r.firstByte.count(), r.requests);
    expectFirstByteBeforeEnd(r);
}

TEST_F(ConnectionPhases, SlowHandshakeShowsInTheTlsHistogramNotTheConnectOne)
{
    test::TlsNginxPair& tls = test::TlsNginxPair::shared();
    ASSERT_TRUE(tls.ok) << tls.nginx.log();
    constexpr unsigned DELAY_MS = 300;
    test::DelayProxy proxy(tls.nginx.tlsPort(), DELAY_MS);
    RunConfig cfg = config("https://localhost:" + std::to_string(proxy.port()) + "/close", 4);
    cfg.tls.caFile = tls.certs.caCert;
    cfg.durationUs = 1'500'000;
    const RunResult r = run(cfg);
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    ASSERT_GT(r.tlsHandshake.count(), 0u);
    // Every handshake waited for the proxy to pass the ClientHello on.
    EXPECT_GE(r.tlsHandshake.minUs(), DELAY_MS * 1000u);
    // A handshake per connect, but for those still waiting on the proxy when the run ended.
    EXPECT_LE(r.tlsHandshake.count(), r.connectTime.count());
    EXPECT_GE(r.tlsHandshake.count() + cfg.connections, r.connectTime.count());
    // The TCP connect is the kernel's (the proxy accepts at once): most take microseconds,
    // so the median is below the shortest handshake even on a loaded machine.
    EXPECT_LT(r.connectTime.valueAtPercentileUs(50), r.tlsHandshake.minUs());
}
