// Request mixes against a real nginx that logs every request ("METHOD URI STATUS"):
// what the server saw must be what the engine says it sent, entry by entry, and
// in the order the mix asks for.

#include "nginx.h"
#include "parse/requestmix.h"
#include "requirenginx.h"
#include "run/runcontroller.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace wb;

namespace {

test::NginxOptions mixOptions()
{
    test::NginxOptions options;
    options.requestLog = true; // "METHOD URI STATUS" per request
    options.http2 = true;
    return options;
}

class RequestMixRun : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(mixOptions()); }
    static void TearDownTestSuite() { stopNginx(); }
    void SetUp() override
    {
        NginxTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        m_logBefore = test::splitLines(nginx().requestLog()).size();
    }

    static std::string origin(uint16_t port) { return "http://127.0.0.1:" + std::to_string(port); }

    RunConfig configFor(const std::string& mixText, MixOrder order, unsigned connections, uint64_t seed = 1)
    {
        auto mix = parseRequestMix(mixText, "mix.txt", m_dir.path());
        EXPECT_TRUE(mix.ok()) << (mix ? "" : mix.error());
        RunConfig cfg;
        if (mix) applyRequestMix(cfg, *mix, order, seed);
        cfg.threads = 1;
        cfg.connections = connections;
        cfg.durationUs = 700'000;
        return cfg;
    }

    static RunResult run(const RunConfig& cfg)
    {
        RunController controller(cfg);
        const Status st = controller.prepare();
        EXPECT_TRUE(st.ok()) << st.error();
        return st.ok() ? controller.run() : RunResult {};
    }

    /// The requests nginx logged during this test, "METHOD URI STATUS", in order, once there are at
    /// least `counted` of them.
    std::vector<std::string> logged(uint64_t counted) const { return nginx().requestLines(counted, m_logBefore); }

    test::TempDir m_dir;
    size_t m_logBefore = 0;
};

std::map<std::string, uint64_t> countByLine(const std::vector<std::string>& lines)
{
    std::map<std::string, uint64_t> out;
    for (const auto& l : lines)
        ++out[l];
    return out;
}

} // namespace

TEST_F(RequestMixRun, RoundRobinSendsTheEntriesInTurn)
{
    const std::string o = origin(nginx().port());
    test::writeFile(m_dir.file("order.json"), "{\"n\":1}");
    const RunConfig cfg = configFor("GET " + o + "/mix/a?x=1\n\nPOST " + o
            + "/mix/b\nContent-Type: application/json\n@order.json\n\nDELETE " + o + "/mix/c\n",
        MixOrder::RoundRobin, 1);
    const RunResult r = run(cfg);
    ASSERT_EQ(r.errors.transportErrors(), 0u);
    ASSERT_EQ(r.entries.size(), 3u);
    ASSERT_GT(r.requests, 30u);

    // One connection walks the mix from its first entry: nginx saw a, b, c, a, b, c, ... exactly.
    const auto lines = logged(r.requests);
    ASSERT_GE(lines.size(), r.requests);
    const std::string expected[] = { "GET /mix/a?x=1 200", "POST /mix/b 200", "DELETE /mix/c 200" };
    for (size_t i = 0; i < lines.size(); ++i)
        ASSERT_EQ(lines[i], expected[i % 3]) << "request " << i;
    // The engine counted what it sent (nginx may have answered one more after the end).
    uint64_t counted = 0;
    for (size_t i = 0; i < 3; ++i) {
        const uint64_t seen = countByLine(lines)[expected[i]];
        EXPECT_GE(seen, r.entries[i].requests) << expected[i];
        EXPECT_LE(seen, r.entries[i].requests + cfg.connections) << expected[i];
        EXPECT_EQ(r.entries[i].statusCodes, (std::vector<std::pair<int, uint64_t>> { { 200, r.entries[i].requests } }));
        ASSERT_TRUE(r.entries[i].latency);
        EXPECT_EQ(r.entries[i].latency->count(), r.entries[i].requests);
        counted += r.entries[i].requests;
    }
    EXPECT_EQ(counted, r.requests);
}

TEST_F(RequestMixRun, ConnectionsStartAtDifferentEntriesAndStayInTurn)
{
    const std::string o = origin(nginx().port());
    const RunConfig cfg
        = configFor("GET " + o + "/mix/1\n\nGET " + o + "/mix/2\n\nGET " + o + "/mix/3\n\nGET " + o + "/mix/4\n",
            MixOrder::RoundRobin, 4);
    const RunResult r = run(cfg);
    ASSERT_EQ(r.errors.transportErrors(), 0u);
    // Each connection's count per entry differs by at most one, so over 4 connections the
    // entries differ by at most 4.
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const EntryStats& e : r.entries) {
        lo = std::min(lo, e.requests);
        hi = std::max(hi, e.requests);
    }
    EXPECT_LE(hi - lo, cfg.connections) << lo << ".." << hi;
    const auto counts = countByLine(logged(r.requests));
    for (size_t i = 0; i < 4; ++i) {
        const uint64_t seen = counts.at("GET /mix/" + std::to_string(i + 1) + " 200");
        EXPECT_GE(seen, r.entries[i].requests);
        EXPECT_LE(seen, r.entries[i].requests + cfg.connections);
    }
}

TEST_F(RequestMixRun, WeightedFollowsTheWeights)
{
    const std::string o = origin(nginx().port());
    const std::string mix = "{\"url\": \"" + o + "/mix/w1\", \"weight\": 1}\n{\"url\": \"" + o
        + "/mix/w3\", \"weight\": 3}\n{\"url\": \"" + o + "/mix/w6\", \"weight\": 6}\n";
    RunConfig cfg = configFor(mix, MixOrder::Weighted, 4, 7);
    cfg.threads = 2;
    const RunResult r = run(cfg);
    ASSERT_EQ(r.errors.transportErrors(), 0u);
    ASSERT_GT(r.requests, 500u);
    // Pearson's chi-square against 1:3:6 (2 degrees of freedom): above 27.6 has probability
    // ~1e-6 for a fair draw, so this bound is not a coin toss whatever the request count.
    const double share[] = { 0.1, 0.3, 0.6 };
    double chi2 = 0;
    for (size_t i = 0; i < 3; ++i) {
        const double expected = share[i] * static_cast<double>(r.requests);
        const double d = static_cast<double>(r.entries[i].requests) - expected;
        chi2 += d * d / expected;
    }
    EXPECT_LT(chi2, 27.6) << r.entries[0].requests << " " << r.entries[1].requests << " " << r.entries[2].requests;
    const auto counts = countByLine(logged(r.requests));
    for (const auto& [path, i] : { std::pair { "w1", 0 }, { "w3", 1 }, { "w6", 2 } }) {
        const uint64_t seen = counts.at(std::string("GET /mix/") + path + " 200");
        EXPECT_GE(seen, r.entries[i].requests);
        EXPECT_LE(seen, r.entries[i].requests + cfg.connections);
    }
}

TEST_F(RequestMixRun, PipelinedAndOverHttp2TheCountsStillAddUp)
{
    const std::string o = origin(nginx().port());
    RunConfig cfg = configFor(
        "GET " + o + "/mix/p\n\nHEAD " + o + "/mix/h\n\nGET " + o + "/status/500\n", MixOrder::RoundRobin, 2);
    cfg.pipeline = 8;
    RunResult r = run(cfg);
    ASSERT_EQ(r.errors.transportErrors(), 0u);
    ASSERT_EQ(r.entries.size(), 3u);
    EXPECT_EQ(r.entries[0].requests + r.entries[1].requests + r.entries[2].requests, r.requests);
    // HEAD answers carry no body, and the parser knew which response was which.
    EXPECT_EQ(r.entries[1].non2xx(), 0u);
    EXPECT_EQ(r.entries[2].non2xx(), r.entries[2].requests);
    EXPECT_EQ(r.status.non2xx(), r.entries[2].requests);

    const std::string h2 = origin(nginx().h2cPort());
    cfg = configFor(
        "GET " + h2 + "/mix/x\n\nPOST " + h2 + "/mix/y\n\nGET " + h2 + "/status/500\n", MixOrder::Random, 2, 42);
    cfg.httpVersion = HttpVersion::Http2;
    cfg.streams = 8;
    r = run(cfg);
    ASSERT_EQ(r.errors.transportErrors(), 0u);
    EXPECT_EQ(r.entries[0].requests + r.entries[1].requests + r.entries[2].requests, r.requests);
    for (const EntryStats& e : r.entries)
        EXPECT_GT(e.requests, 0u);
    EXPECT_EQ(r.status.non2xx(), r.entries[2].requests);
}
