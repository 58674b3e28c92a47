// The interop matrix: every HTTP server and proxy Debian ships that a user may point
// wrkbench at (tests/support/frontdoors.h), over every protocol it speaks, with
// default flags. A cell holds when the run has no errors and the server's own log
// counts what the run counted, within the requests in flight at the end. h2load and
// wrk run against the same cell first, so a server's quirk is told from ours.
// Beside the plain GET: a POST with a body, a response that needs HTTP/2 flow
// control, Connection: close and pipelining.

#include "frontdoors.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>

using namespace wb::test;
using Json = nlohmann::json;

namespace {

std::string wireFlag(Wire wire)
{
    switch (wire) {
    case Wire::H2:
    case Wire::H2c:
        return "--http2";
    case Wire::H3:
        return "--http3";
    case Wire::Http1:
    case Wire::Http1Tls:
        break;
    }
    return {};
}

struct Counted
{
    uint64_t requests = 0;
    uint64_t errors = 0;
    uint64_t non2xx = 0;
    unsigned inFlightBound = 0; ///< requests that may have been sent and not counted at the end
    std::string report; ///< what the CLI printed, for a failure's message
};

/// One run of wrkbench-cli: the given flags plus the wire's, JSON on stdout, the report on stderr.
/// It ends after `responses` (-n), or at 500 ms if that comes first (a slow cell counts fewer).
Counted runWrkbench(const FrontDoor& door, Wire wire, const std::string& path, std::vector<std::string> flags,
    unsigned inFlightBound, unsigned responses = 200)
{
    std::vector<std::string> args { "-n", std::to_string(responses), "-d", "500ms", "--json", "-", "--cacert",
        processCertificates().caCert };
    if (const std::string flag = wireFlag(wire); !flag.empty()) args.push_back(flag);
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(door.url(wire, path));
    const ProcessResult r = runCli(args);
    Counted c;
    c.inFlightBound = inFlightBound;
    c.report = r.err;
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const Json doc = Json::parse(r.out, nullptr, false);
    if (doc.is_discarded()) {
        ADD_FAILURE() << "no JSON from wrkbench-cli: " << r.out << r.err;
        return c;
    }
    const Json& summary = doc["summary"];
    c.requests = summary["requests"].get<uint64_t>();
    for (const auto& [kind, n] : summary["errors"].items())
        c.errors += n.get<uint64_t>();
    c.non2xx = summary["non2xx"].get<uint64_t>();
    return c;
}

/// A run must count what the server logged: every response it counted was logged, and the
/// server logged at most the requests in flight at the end more.
void expectCounted(const FrontDoor& door, Wire wire, const Counted& c, uint64_t loggedBefore)
{
    door.settle();
    const uint64_t logged = door.logged(loggedProtocol(wire), 200) - loggedBefore;
    EXPECT_GT(c.requests, 0u) << c.report << door.log();
    EXPECT_EQ(c.errors, 0u) << c.report;
    EXPECT_EQ(c.non2xx, 0u) << c.report;
    EXPECT_GE(logged, c.requests) << "the server logged fewer than the run counted\n" << c.report;
    EXPECT_LE(logged, c.requests + c.inFlightBound) << "the server logged more than the requests in flight\n"
                                                    << c.report;
}

/// h2load (and wrk for HTTP/1.1) first: the server serves this cell to the peers users compare
/// us with, exactly as its log says.
void expectPeersServe(const FrontDoor& door, Wire wire)
{
    if (wire == Wire::H3) return; // Debian's h2load and wrk have no HTTP/3
    const uint64_t before = door.logged(loggedProtocol(wire), 200);
    std::vector<std::string> h2load { "h2load", "-n", "200", "-c", "2", "-m", "2" };
    if (wire == Wire::Http1 || wire == Wire::Http1Tls) h2load.push_back("--h1");
    h2load.push_back(door.url(wire));
    const ProcessResult r = runProcess(h2load, scaledMs(30'000));
    EXPECT_NE(r.out.find("200 total, 200 started, 200 done, 200 succeeded"), std::string::npos)
        << "h2load against " << door.url(wire) << ":\n"
        << r.out << r.err;
    door.settle();
    EXPECT_EQ(door.logged(loggedProtocol(wire), 200) - before, 200u) << "h2load's 200 requests in the log";
    if (wire != Wire::Http1) return; // wrk over TLS reads as HTTP/1.1 does
    const uint64_t beforeWrk = door.logged("http/1.1", 200);
    const ProcessResult w = runProcess({ "wrk", "-t1", "-c2", "-d1s", door.url(wire) }, scaledMs(30'000));
    std::smatch m;
    ASSERT_TRUE(std::regex_search(w.out, m, std::regex(R"(([0-9]+) requests in)"))) << w.out << w.err;
    const uint64_t wrkRequests = std::stoull(m[1]);
    door.settle();
    const uint64_t wrkLogged = door.logged("http/1.1", 200) - beforeWrk;
    EXPECT_GE(wrkLogged, wrkRequests) << w.out;
    EXPECT_LE(wrkLogged, wrkRequests + 2) << w.out;
}

class Interop : public ::testing::TestWithParam<FrontDoorKind>
{
protected:
    void SetUp() override
    {
        std::string why;
        if (!FrontDoor::available(GetParam(), why)) {
            if (underCi()) FAIL() << why;
            GTEST_SKIP() << why;
        }
        // One server of each kind for all the tests of it (tests count deltas of its log).
        static std::map<FrontDoorKind, std::unique_ptr<FrontDoor>> started;
        auto& door = started[GetParam()];
        if (!door) {
            door = std::make_unique<FrontDoor>(GetParam());
            ASSERT_TRUE(door->start(processCertificates())) << door->log();
        }
        m_door = door.get();
    }

    FrontDoor* m_door = nullptr;
};

} // namespace

// Every protocol the server speaks, default flags (only the run's length set): no errors,
// the server's count.
TEST_P(Interop, DefaultFlagsCountWhatTheServerServed)
{
    for (const Wire wire : m_door->wires()) {
        SCOPED_TRACE(std::string(frontDoorName(GetParam())) + " over " + wireName(wire));
        expectPeersServe(*m_door, wire);
        const uint64_t before = m_door->logged(loggedProtocol(wire), 200);
        // The defaults: 2 threads, 10 connections, one request in flight on each.
        expectCounted(*m_door, wire, runWrkbench(*m_door, wire, "/", {}, 10), before);
    }
}

// A body as large as the default HTTP/2 stream window (our request waits for WINDOW_UPDATEs;
// some servers answer before reading it, then reset the stream with NO_ERROR).
TEST_P(Interop, PostWithABody)
{
    TempDir dir;
    const std::string body = dir.file("body");
    writeFile(body, std::string(64 * 1024, 'b'));
    for (const Wire wire : { Wire::Http1, Wire::H2, Wire::H2c }) {
        SCOPED_TRACE(std::string(frontDoorName(GetParam())) + " over " + wireName(wire));
        const uint64_t before = m_door->logged(loggedProtocol(wire), 200);
        expectCounted(*m_door, wire,
            runWrkbench(*m_door, wire, "/post", { "-t1", "-c4", "-X", "POST", "--body-file", body }, 4, 100), before);
    }
}

// A megabyte a response: more than HTTP/2's default windows, so our WINDOW_UPDATEs pace it.
TEST_P(Interop, LargeResponses)
{
    for (const Wire wire : m_door->wires()) {
        if (wire == Wire::Http1Tls) continue; // the same transfer as h2 without the flow control
        SCOPED_TRACE(std::string(frontDoorName(GetParam())) + " over " + wireName(wire));
        const uint64_t before = m_door->logged(loggedProtocol(wire), 200);
        const Counted c = runWrkbench(*m_door, wire, "/big", { "-t1", "-c2" }, 2, 20);
        expectCounted(*m_door, wire, c, before);
    }
}

// Connection: close: a new connection for every request, which the server closes after answering.
TEST_P(Interop, ConnectionClose)
{
    for (const Wire wire : { Wire::Http1, Wire::Http1Tls }) {
        SCOPED_TRACE(std::string(frontDoorName(GetParam())) + " over " + wireName(wire));
        const uint64_t before = m_door->logged("http/1.1", 200);
        expectCounted(*m_door, wire,
            runWrkbench(*m_door, wire, "/", { "-t1", "-c4", "-H", "Connection: close" }, 4, 100), before);
    }
}

// HTTP/1.1 pipelining: four requests in flight on each connection, answered in order.
TEST_P(Interop, Pipelining)
{
    const uint64_t before = m_door->logged("http/1.1", 200);
    expectCounted(
        *m_door, Wire::Http1, runWrkbench(*m_door, Wire::Http1, "/", { "-t1", "-c2", "--pipeline", "4" }, 8), before);
}

INSTANTIATE_TEST_SUITE_P(FrontDoors, Interop, ::testing::ValuesIn(allFrontDoors()),
    [](const ::testing::TestParamInfo<FrontDoorKind>& param) {
        std::string name = frontDoorName(param.param);
        return name == "apache2" ? std::string("apache") : name;
    });
