// The table of a run's figures (engine/experiment/runfigures.h): one key each, a unit the window and
// the CSV know, each figure reading its own field of a stored run, nothing known of a run without
// totals, and run comparison reading every figure it compares through the table.

#include "experiment/runcomparison.h"
#include "experiment/runfigures.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>

using namespace wb;

namespace {

/// A finished run whose every figure has a value of its own, so a figure reading another's field shows.
RunRecord everyFigureDistinct()
{
    RunRecord r;
    r.hasTotals = true;
    RunTotals& t = r.totals;
    t.requestsPerS = 1001;
    t.bytesPerS = 1002;
    t.requests = 1003;
    t.durationS = 1004;
    t.threadRate.mean = 1005;
    t.threadRate.stdev = 1006;
    LatencySummary* summaries[] = { &t.latency, &t.serviceLatency };
    double base = 2000;
    for (LatencySummary* l : summaries) {
        l->meanUs = base + 1;
        l->stdevUs = base + 2;
        l->p50Us = base + 3;
        l->p75Us = base + 4;
        l->p90Us = base + 5;
        l->p99Us = base + 6;
        l->p999Us = base + 7;
        l->p9999Us = base + 8;
        l->maxUs = base + 9;
        base += 1000;
    }
    t.targetRatePerS = 4001;
    t.lateRequests = 4002;
    PhaseSummary* phases[] = { &t.connect, &t.tlsHandshake, &t.firstByte };
    base = 5000;
    for (PhaseSummary* p : phases) {
        p->count = static_cast<uint64_t>(base) + 1;
        p->p50Us = base + 2;
        p->p99Us = base + 3;
        base += 1000;
    }
    t.errors.connect = 1;
    t.errors.read = 2;
    t.errors.write = 4;
    t.errors.timeout = 8;
    t.errors.tls = 16;
    t.errors.parse = 32;
    t.errors.stream = 64;
    t.non2xx = 8001;
    return r;
}

} // namespace

TEST(RunFigures, EachKeyOnceWithAUnitTheWindowFormats)
{
    std::set<std::string> keys;
    const std::set<std::string> units { "us", "req_per_s", "bytes_per_s", "s", "" };
    for (const RunFigure& f : runFigures()) {
        EXPECT_TRUE(keys.insert(f.key).second) << f.key;
        EXPECT_TRUE(units.count(f.unit)) << f.key << ": " << f.unit;
        EXPECT_NE(std::string(f.title), "") << f.key;
        EXPECT_EQ(runFigure(f.key), &f);
    }
    EXPECT_EQ(runFigure("no such figure"), nullptr);
}

TEST(RunFigures, EachReadsItsOwnField)
{
    const RunRecord r = everyFigureDistinct();
    const std::map<std::string, double> expected {
        { "rps", 1001 },
        { "transfer", 1002 },
        { "requests", 1003 },
        { "duration", 1004 },
        { "thread_rps", 1005 },
        { "thread_rps_stdev", 1006 },
        { "avg", 2001 },
        { "stdev", 2002 },
        { "p50", 2003 },
        { "p75", 2004 },
        { "p90", 2005 },
        { "p99", 2006 },
        { "p99_9", 2007 },
        { "p99_99", 2008 },
        { "max", 2009 },
        { "service_avg", 3001 },
        { "service_p50", 3003 },
        { "service_p90", 3005 },
        { "service_p99", 3006 },
        { "service_p99_9", 3007 },
        { "service_p99_99", 3008 },
        { "service_max", 3009 },
        { "target_rate", 4001 },
        { "late", 4002 },
        { "connect_count", 5001 },
        { "connect_p50", 5002 },
        { "connect_p99", 5003 },
        { "tls_handshake_count", 6001 },
        { "tls_handshake_p50", 6002 },
        { "tls_handshake_p99", 6003 },
        { "first_byte_count", 7001 },
        { "first_byte_p50", 7002 },
        { "first_byte_p99", 7003 },
        { "socket_errors", 1 + 2 + 4 + 8 },
        { "tls_parse_errors", 16 + 32 + 64 },
        { "non2xx", 8001 },
    };
    EXPECT_EQ(expected.size(), runFigures().size()) << "a figure without an expectation here";
    for (const RunFigure& f : runFigures()) {
        const auto it = expected.find(f.key);
        ASSERT_NE(it, expected.end()) << f.key;
        EXPECT_EQ(f.value(r), it->second) << f.key;
        EXPECT_EQ(comparedValue(r, f.key), it->second) << f.key << ": run comparison reads the same figure";
    }
    // Larger is better for throughput; smaller for latency and errors; counts of what was asked neither.
    EXPECT_EQ(runFigure("rps")->better, Better::Higher);
    EXPECT_EQ(runFigure("p99")->better, Better::Lower);
    EXPECT_EQ(runFigure("non2xx")->better, Better::Lower);
    EXPECT_EQ(runFigure("target_rate")->better, Better::Neither);
}

TEST(RunFigures, NothingIsKnownOfARunWithoutTotalsNorOfAPhaseNotMeasured)
{
    RunRecord running = everyFigureDistinct();
    running.hasTotals = false;
    for (const RunFigure& f : runFigures()) {
        if (std::string(f.key).ends_with("_count")) continue; // a phase's count is its own evidence
        EXPECT_TRUE(std::isnan(f.value(running))) << f.key;
    }
    RunRecord plain = everyFigureDistinct();
    plain.totals.tlsHandshake = {};
    EXPECT_TRUE(std::isnan(runFigure("tls_handshake_p99")->value(plain)));
    EXPECT_TRUE(std::isnan(runFigure("tls_handshake_count")->value(plain)));
    EXPECT_EQ(runFigure("connect_p99")->value(plain), 5003);
}

TEST(RunFigures, EveryKeyRunComparisonJudgesNoiseByIsAFigure)
{
    for (const std::string& key : noiseKeys()) {
        const RunFigure* f = runFigure(key);
        ASSERT_NE(f, nullptr) << key;
        EXPECT_NE(f->better, Better::Neither) << key << ": a Δ judged against noise has a better side";
    }
}
