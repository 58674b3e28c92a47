// Our HdrHistogram encodings against an independent implementation, hdr-histogram-js
// under node (tests/support/npm/hdrcheck.js): it decodes what our encoder writes
// (synthetic histograms and a real wrkbench-cli run's --json and --hdr-log), and our
// decoder reads what it writes. Skips without node or the module, except under CI
// (CI=true), where packaging/install-deps.sh has installed both and a missing one fails.

#include "stats/hdrcodec.h"
#include "testsupport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>
#include <unistd.h>

using namespace wb;
using nlohmann::json;

namespace {

std::string script()
{
    return test::sourceDir() + "/tests/support/npm/hdrcheck.js";
}

#define WB_REQUIRE_NODE()                                                                                              \
    do {                                                                                                               \
        std::string why;                                                                                               \
        if (!test::nodeModuleAvailable("hdr-histogram-js", why)) {                                                     \
            if (test::underCi()) FAIL() << why << ", and CI must check our encoding with it";                          \
            GTEST_SKIP() << why;                                                                                       \
        }                                                                                                              \
    } while (false)

test::ProcessResult node(std::vector<std::string> args)
{
    args.insert(args.begin(), { "node", script() });
    return test::runProcess(args, 120'000);
}

json describe(const std::string& name, const LatencyHistogram& h)
{
    json buckets = json::array();
    h.forEachBucket([&buckets](const LatencyHistogram::Bucket& b) { buckets.push_back({ b.highUs, b.count }); });
    json percentiles = json::array();
    for (double p : { 0.0, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0 })
        percentiles.push_back({ p, h.valueAtPercentileUs(p) });
    return json { { "name", name }, { "histf", encodeHdrBase64(h) }, { "total", h.count() }, { "buckets", buckets },
        { "percentiles", percentiles } };
}

} // namespace

TEST(HdrCodecJs, DecodesOurSyntheticHistograms)
{
    WB_REQUIRE_NODE();
    json list = json::array();
    list.push_back(describe("empty", LatencyHistogram {}));
    LatencyHistogram one;
    one.record(42);
    list.push_back(describe("one value", one));
    LatencyHistogram edges;
    for (int bits = 0; bits <= LatencyHistogram::MAX_VALUE_BITS; ++bits) {
        const uint64_t edge = uint64_t { 1 } << bits;
        edges.record(edge - 1);
        edges.record(std::min(edge, LatencyHistogram::MAX_VALUE_US));
    }
    list.push_back(describe("octave edges and the largest value", edges));
    LatencyHistogram huge;
    huge.recordN(3, uint64_t { 1 } << 52); // hdr-histogram-js counts in doubles: exact to 2^53
    huge.recordN(1'000'000, 123'456'789);
    list.push_back(describe("huge counts", huge));
    std::mt19937_64 rng(7);
    for (int round = 0; round < 50; ++round) {
        LatencyHistogram h;
        const int scaleBits = 4 + round % 32;
        for (int i = 0; i < 3000; ++i)
            h.record(rng() % (uint64_t { 1 } << scaleBits));
        list.push_back(describe("random " + std::to_string(round), h));
    }
    test::TempDir dir;
    test::writeFile(dir.file("ours.json"), json { { "histograms", list } }.dump());
    const auto r = node({ "check", dir.file("ours.json") });
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(r.out.rfind("ok 54 histograms", 0), 0u) << r.out;
}

TEST(HdrCodecJs, WeDecodeWhatItEncodes)
{
    WB_REQUIRE_NODE();
    const auto r = node({ "make", "15", "40" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json list = json::parse(r.out);
    ASSERT_EQ(list.size(), 40u);
    for (size_t i = 0; i < list.size(); ++i) {
        const auto& item = list[i];
        auto h = decodeHdrBase64(item["histf"].get<std::string>());
        ASSERT_TRUE(h.ok()) << i << ": " << h.error();
        EXPECT_EQ(h->count(), item["total"].get<uint64_t>()) << i;
        json buckets = json::array();
        h->forEachBucket([&buckets](const LatencyHistogram::Bucket& b) { buckets.push_back({ b.highUs, b.count }); });
        EXPECT_EQ(buckets, item["buckets"]) << i;
    }
}

TEST(HdrCodecJs, DecodesARealRunAndItsLog)
{
    WB_REQUIRE_NODE();
    test::TempDir dir;
    // Closed loop (latency, connect, ttfb) and the open model (service too), 1 s each.
    for (const bool open : { false, true }) {
        SCOPED_TRACE(open ? "open model" : "closed loop");
        const std::string jsonPath = dir.file(open ? "open.json" : "closed.json");
        const std::string logPath = dir.file(open ? "open.hlog" : "closed.hlog");
        std::vector<std::string> args { "-t2", "-c4", "-d1s", "--interval", "250ms", "--json", jsonPath, "--hdr-log",
            logPath, "http://builtin/" };
        if (open) args.insert(args.begin(), { "-R", "2000" });
        const auto run = test::runCli(args, 120'000);
        ASSERT_EQ(run.exitCode, 0) << run.err;
        const auto checked = node({ "json", jsonPath });
        EXPECT_EQ(checked.exitCode, 0) << checked.out << checked.err;
        EXPECT_EQ(checked.out.rfind("ok ", 0), 0u) << checked.out;
        const auto log = node({ "log", logPath, jsonPath });
        EXPECT_EQ(log.exitCode, 0) << log.out << log.err;
        EXPECT_EQ(log.out.rfind("ok ", 0), 0u) << log.out;
    }
}
