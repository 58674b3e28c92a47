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

TEST(Http2BadServer, AServerOmittingTheTableSizeUpdateIsDecodedWithTheDefaultTable)
{
    // wrkbench announces an HPACK table of 0 bytes. A server that goes on as if it had not seen
    // that (no table size update, RFC 7541 4.2: widely deployed servers do this) indexes its
    // fields into HPACK's 4,096-byte table and names them by index: decoded with that table,
    // every answer counts, and the run says how many connections kept it.
    test::RawH2Server* server = nullptr;
    const RunResult r = runAgainst(Behaviour::OmitsTableSizeUpdate, &server);
    EXPECT_GT(r.requests, 10u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
    EXPECT_GE(server->answered(), r.requests);
    // The reference session (libnghttp2's, the _nghttp2 variant) announces the default table itself.
    const char* impl = std::getenv("WB_HTTP2_SESSION");
    if (!impl || std::string_view(impl) != "nghttp2") {
        EXPECT_EQ(r.connections.hpackTableKept, server->connections() - 1); // the pre-run check sends no request
    }
    EXPECT_TRUE(r.connections.firstParseError.empty()) << r.connections.firstParseError;
}

TEST(Http2BadServer, AServerHonouringTheSmallTableKeepsIt)
{
    // The server that sends the update: nothing kept, nothing said.
    const RunResult r = runAgainst(Behaviour::Good);
    EXPECT_GT(r.requests, 10u);
    EXPECT_EQ(r.connections.hpackTableKept, 0u);
}

TEST(Http2BadServer, ParseErrorsSayWhyTheFirstOneFailed)
{
    const RunResult r = runAgainst(Behaviour::WindowUpdateZero);
    ASSERT_GT(r.errors.parse, 0u);
    EXPECT_NE(r.connections.firstParseError.find("PROTOCOL_ERROR"), std::string::npos) << r.connections.firstParseError;
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
