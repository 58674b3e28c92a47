// HTTP/2 against servers that break the protocol (tests/support/rawh2server.h):
// each case ends in counted errors or a clear refusal, never a crash or a hang.
// The runs are short and bounded; a hang would show as the test's timeout.

#include "rawh2server.h"
#include "run/runcontroller.h"

#include <gtest/gtest.h>

using namespace wb;
using Behaviour = test::RawH2Server::Behaviour;

namespace {

RunConfig configFor(const test::RawH2Server& server)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(server.port()) + "/");
    cfg.httpVersion = HttpVersion::Http2;
    cfg.threads = 1;
    cfg.connections = 2;
    cfg.streams = 4;
    cfg.durationUs = 500'000;
    cfg.timeoutUs = 300'000;
    cfg.connectTimeoutUs = 1'000'000;
    return cfg;
}

RunResult runAgainst(Behaviour behaviour, test::RawH2Server** keep = nullptr)
{
    static std::vector<std::unique_ptr<test::RawH2Server>> servers; // alive until the program ends
    servers.push_back(std::make_unique<test::RawH2Server>(behaviour));
    if (keep) *keep = servers.back().get();
    RunController controller(configFor(*servers.back()));
    const Status st = controller.prepare();
    EXPECT_TRUE(st.ok()) << st.error();
    return st.ok() ? controller.run() : RunResult {};
}

} // namespace

TEST(Http2BadServer, AGoodServerIsCountedInFull)
{
    test::RawH2Server* server = nullptr;
    const RunResult r = runAgainst(Behaviour::Good, &server);
    EXPECT_GT(r.requests, 10u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
    EXPECT_GE(server->answered(), r.requests);
}

TEST(Http2BadServer, GarbageAfterThePrefaceIsAParseError)
{
    const RunResult r = runAgainst(Behaviour::GarbageAfterPreface);
    EXPECT_GT(r.errors.parse, 0u);
    EXPECT_EQ(r.requests, 0u);
}

TEST(Http2BadServer, ASettingsFloodEndsTheConnection)
{
    const RunResult r = runAgainst(Behaviour::SettingsFlood);
    // nghttp2 either keeps up (acknowledging every SETTINGS) or calls it a flood; either
    // way nothing is answered and every connection that gave up is counted.
    EXPECT_EQ(r.requests, 0u);
    EXPECT_GT(r.errors.parse + r.errors.timeout, 0u);
}

TEST(Http2BadServer, HeadersWithoutEndHeadersIsAParseError)
{
    const RunResult r = runAgainst(Behaviour::HeadersWithoutEndHeaders);
    EXPECT_EQ(r.requests, 0u);
    EXPECT_GT(r.errors.parse, 0u);
}

TEST(Http2BadServer, AWindowUpdateOfZeroIsAParseError)
{
    const RunResult r = runAgainst(Behaviour::WindowUpdateZero);
    EXPECT_EQ(r.requests, 0u);
    EXPECT_GT(r.errors.parse, 0u);
}

TEST(Http2BadServer, ResetStreamsAreStreamErrorsOnAKeptConnection)
{
    test::RawH2Server* server = nullptr;
    const RunResult r = runAgainst(Behaviour::ResetEveryStream, &server);
    EXPECT_EQ(r.requests, 0u);
    EXPECT_GT(r.errors.stream, 10u);
    EXPECT_EQ(r.errors.parse + r.errors.read + r.errors.connect, 0u);
    EXPECT_EQ(server->connections(), 3u); // the pre-run check's and the run's two: none replaced
}

TEST(Http2BadServer, GoawayMidRunRetriesWhatItRefusedOnANewConnection)
{
    test::RawH2Server* server = nullptr;
    const RunResult r = runAgainst(Behaviour::GoawayAfter20, &server);
    EXPECT_GT(r.reconnects, 0u);
    EXPECT_GT(server->connections(), 3u);
    EXPECT_GT(r.requests, 20u); // more than one connection's 20
    // Refused streams were sent again, not lost; a connection torn down right after its
    // GOAWAY may at most lose the streams sent before the GOAWAY arrived.
    EXPECT_EQ(r.errors.parse + r.errors.stream + r.errors.timeout, 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
}

TEST(Http2BadServer, AServerOmittingTheTableSizeUpdateNeedsTheDefaultHeaderTable)
{
    // wrkbench announces an HPACK table of 0 bytes; a server that answers as if it had not
    // seen that breaks RFC 7541 4.2, and its answers cannot be decoded: parse errors, counted.
    {
        test::RawH2Server server(Behaviour::OmitsTableSizeUpdate);
        RunController controller(configFor(server));
        ASSERT_TRUE(controller.prepare().ok());
        const RunResult r = controller.run();
        EXPECT_EQ(r.requests, 0u);
        EXPECT_GT(r.errors.parse, 0u);
    }
    // With RFC 7541's default table (--header-table-size 4096) such a server works. (A server
    // of its own: the one above may still be accepting the connections that failed.)
    test::RawH2Server server(Behaviour::OmitsTableSizeUpdate);
    RunConfig cfg = configFor(server);
    cfg.headerTableBytes = 4096;
    RunController controller(cfg);
    const Status st = controller.prepare();
    ASSERT_TRUE(st.ok()) << st.error();
    const RunResult r = controller.run();
    EXPECT_GT(r.requests, 10u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
}

TEST(Http2BadServer, AServerThatNeverSendsSettingsIsRefusedBeforeLoad)
{
    test::RawH2Server server(Behaviour::NeverSendsSettings);
    RunController controller(configFor(server));
    const Status st = controller.prepare();
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("sent no HTTP/2 SETTINGS"), std::string::npos) << st.error();
}

TEST(Http2BadServer, AnHttp1OnlyServerIsRefusedBeforeLoad)
{
    test::RawH2Server server(Behaviour::Http1Only);
    RunController controller(configFor(server));
    const Status st = controller.prepare();
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("with HTTP/1.x"), std::string::npos) << st.error();
}
