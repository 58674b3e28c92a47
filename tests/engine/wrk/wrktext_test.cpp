#include "report/generatorlag.h"
#include "report/loadersaturation.h"
#include "testsupport.h"
#include "wrk/wrktext.h"

#include <cmath>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace wb;

namespace {

// Column where each whitespace-separated token ends: two lines with the same
// ends are aligned the same way, whatever the values.
std::vector<size_t> tokenEnds(const std::string& line)
{
    std::vector<size_t> ends;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] != ' ' && (i + 1 == line.size() || line[i + 1] == ' ')) ends.push_back(i + 1);
    }
    return ends;
}

/// A line equal to wanted (or, with prefixOnly, starting with it).
bool contains(const std::vector<std::string>& lines, const std::string& wanted, bool prefixOnly = false)
{
    for (const std::string& line : lines) {
        if (prefixOnly ? line.rfind(wanted, 0) == 0 : line == wanted) return true;
    }
    return false;
}

size_t indexOf(const std::vector<std::string>& lines, const std::string& prefix)
{
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].rfind(prefix, 0) == 0) return i;
    }
    return SIZE_MAX;
}

Url localUrl(uint16_t port)
{
    Url url;
    url.scheme = "http";
    url.host = "127.0.0.1";
    url.port = port;
    url.target = "/";
    return url;
}

// Latency and rate values whose statistics are exact: latencies below 256 us
// sit in one-microsecond buckets, so mean, stdev and percentiles have no
// bucket error.
RunResult resultWithExactStats()
{
    RunResult r;
    r.latency.record(100);
    r.latency.record(200); // mean 150, sample stdev 70.71, both within 1 stdev
    r.threadRates.perThreadRequestsPerS = { 8000, 9000, 10000 }; // mean 9000, stdev 1000
    r.requests = 2;
    r.bytes = 200;
    r.durationS = 1;
    r.status.add(200);
    r.status.add(200);
    return r;
}

} // namespace

// From a real `wrk -t1 -c5 -d2s http://127.0.0.1:18765/` run.
TEST(WrkText, HeaderMatchesRealWrk)
{
    RunConfig config;
    config.request.url = localUrl(18765);
    config.threads = 1;
    config.connections = 5;
    config.durationUs = 2'000'000;
    // wrk's two lines, then wrkbench's note on what the latency means.
    const std::string closedNote
        = "  Closed loop (as wrk): latency is service time only; -R/--rate corrects for coordinated omission\n";
    EXPECT_EQ(formatRunHeader(config),
        "Running 2s test @ http://127.0.0.1:18765/\n  1 threads and 5 connections\n" + closedNote);

    config.threads = 12;
    config.connections = 400;
    config.durationUs = 120'000'000;
    EXPECT_EQ(formatRunHeader(config),
        "Running 2m test @ http://127.0.0.1:18765/\n  12 threads and 400 connections\n" + closedNote);
}

TEST(WrkText, OpenModelHeaderAndReport)
{
    RunConfig config;
    config.request.url = localUrl(18765);
    config.threads = 2;
    config.connections = 20;
    config.durationUs = 30'000'000;
    config.ratePerS = 2000;
    EXPECT_EQ(formatRunHeader(config),
        "Running 30s test @ http://127.0.0.1:18765/\n  2 threads and 20 connections\n"
        "  Constant rate: 2000 requests/s (open model)\n");
    config.ratePerS = 0;
    config.stages = { { 10'000'000, 1000 }, { 20'000'000, 5000 } };
    EXPECT_EQ(
        test::splitLines(formatRunHeader(config))[2], "  Rate stages: 10s:1.00k, 20s:5.00k requests/s (open model)");
    config.stagesAreConnections = true;
    config.stages = { { 10'000'000, 50 }, { 20'000'000, 200 } };
    EXPECT_EQ(test::splitLines(formatRunHeader(config))[2], "  Connection stages: 10s:50.00c, 20s:200.00c");

    RunResult r;
    r.config.ratePerS = 1000;
    r.durationS = 2;
    r.requests = 1990;
    r.targetRatePerS = 1000;
    r.lateRequests = 7;
    r.maxLagUs = 250'000;
    r.latency.recordN(500'000, 10);
    r.latency.recordN(100, 1980);
    r.serviceLatency.recordN(100, 1990);
    TextReportOptions options;
    options.latencyDistribution = true;
    const auto lines = test::splitLines(formatRunReport(r, options));
    EXPECT_EQ(lines[1].rfind("    Latency ", 0), 0u); // corrected first
    EXPECT_EQ(lines[2].rfind("    Service ", 0), 0u);
    EXPECT_EQ(lines[3].rfind("    Req/Sec ", 0), 0u);
    EXPECT_TRUE(contains(lines, "  Latency Distribution (HdrHistogram - Corrected Latency)"));
    EXPECT_TRUE(contains(lines, "100.000%  500.00ms"));
    EXPECT_TRUE(contains(lines, "  Service Time Distribution (HdrHistogram - Uncorrected Latency)"));
    EXPECT_TRUE(contains(lines, "100.000%  100.00us"));
    EXPECT_TRUE(contains(
        lines, "  Requested 1000.00 requests/s, achieved 995.00 (99.50%); late requests: 7 (max lag 250.00ms)"));
    EXPECT_FALSE(contains(lines, "  Send lag (generator):", true)); // none recorded, none printed
}

// The open model's own lateness: printed after the rate line, with a warning when its
// p99 exceeds a tenth of the corrected p50 (the target's latency would be overstated).
TEST(WrkText, SendLagLineAndGeneratorWarning)
{
    RunResult r;
    r.config.ratePerS = 1000;
    r.durationS = 1;
    r.requests = 1000;
    r.targetRatePerS = 1000;
    r.latency.recordN(2000, 1000); // corrected p50 2 ms
    r.serviceLatency.recordN(1900, 1000);
    r.sendLag.recordN(20, 995);
    r.sendLag.recordN(150, 5); // p99 20 us: 1% of the p50, quiet
    auto lines = test::splitLines(formatRunReport(r, {}));
    EXPECT_TRUE(contains(lines, "  Send lag (generator): p50 20.00us, p99 20.00us, p99.9 150.00us"));
    EXPECT_FALSE(contains(lines, "  Warning: generator lag", true));

    r.sendLag.recordN(300, 50); // p99 300 us: 15% of the p50
    lines = test::splitLines(formatRunReport(r, {}));
    EXPECT_TRUE(contains(lines,
        "  Warning: generator lag is a noticeable part of the measured latency (send lag p99 300.00us, over 10% of "
        "the corrected p50 2.00ms); use more threads or a quieter loader"));
    // Closed loop: no send lag, no line.
    RunResult closed;
    closed.durationS = 1;
    closed.requests = 10;
    closed.latency.recordN(2000, 10);
    EXPECT_FALSE(contains(test::splitLines(formatRunReport(closed, {})), "  Send lag (generator):", true));
}

TEST(GeneratorLag, NoticeableAboveATenthOfTheCorrectedMedian)
{
    EXPECT_FALSE(generatorLagNoticeable(100, 1000));
    EXPECT_TRUE(generatorLagNoticeable(101, 1000));
    EXPECT_FALSE(generatorLagNoticeable(50, 0)); // nothing to compare with
    EXPECT_FALSE(generatorLagNoticeable(std::nan(""), 1000)); // unknown (imported, closed loop)
    EXPECT_TRUE(generatorLagWarning(20, 1000).empty());
    EXPECT_NE(generatorLagWarning(500, 1000).find("send lag p99 500.00us"), std::string::npos);
}

TEST(WrkText, ThreadStatsRows)
{
    const auto lines = test::splitLines(formatRunReport(resultWithExactStats(), {}));
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines[0], "  Thread Stats   Avg      Stdev     Max   +/- Stdev");
    EXPECT_EQ(lines[1], "    Latency   150.00us   70.71us 200.00us  100.00%");
    EXPECT_EQ(lines[2], "    Req/Sec     9.00k     1.00k   10.00k   100.00%");
}

TEST(WrkText, ColumnsAlignWithRealWrkLines)
{
    RunResult r = resultWithExactStats();
    auto lines = test::splitLines(formatRunReport(r, {}));
    ASSERT_GE(lines.size(), 3u);
    // Real lines from container-performance-comparison.txt: two-letter unit,
    // one-letter unit, and a value without unit (pushed two columns left).
    EXPECT_EQ(tokenEnds(lines[1]), tokenEnds("    Latency     5.47ms    7.39ms 126.27ms   88.70%"));
    EXPECT_EQ(tokenEnds(lines[2]), tokenEnds("    Req/Sec     8.78k     4.38k   63.92k    82.47%"));

    r.threadRates.perThreadRequestsPerS = { 2900, 3000, 3100 }; // stdev 100: printed without unit
    lines = test::splitLines(formatRunReport(r, {}));
    EXPECT_EQ(lines[2], "    Req/Sec     3.00k   100.00     3.10k   100.00%");
    EXPECT_EQ(tokenEnds(lines[2]), tokenEnds("    Req/Sec     3.00k   397.64     4.15k    71.00%"));

    // A microsecond stdev between millisecond values, as in the local wrk run.
    r.latency.reset();
    for (int i = 0; i < 3; ++i)
        r.latency.record(1000);
    r.latency.record(2000); // mean 1.25ms, stdev ~501us, max 2.00ms
    lines = test::splitLines(formatRunReport(r, {}));
    EXPECT_EQ(tokenEnds(lines[1]), tokenEnds("    Latency     1.90ms  660.82us  13.05ms   82.95%"));
}

TEST(WrkText, OverlongValueIsCutToItsColumn)
{
    RunResult r = resultWithExactStats();
    r.threadRates.perThreadRequestsPerS = { 5e15, 5e15 }; // "5000.00T": wider than the mean column
    const auto lines = test::splitLines(formatRunReport(r, {}));
    // wrk prints at most width-minus-unit characters, so the mean loses its "T"
    // and the row keeps its length.
    EXPECT_EQ(lines[2], "    Req/Sec   5000.00     0.00  5000.00T   100.00%");
    EXPECT_EQ(lines[2].size(), std::string("    Req/Sec     8.78k     4.38k   63.92k    82.47%").size());
}

// Totals from real wrk reports in container-performance-comparison.txt and a
// local run: the duration and bytes are chosen to give wrk's printed rates.
TEST(WrkText, TotalsMatchRealWrkReports)
{
    RunResult r = resultWithExactStats();
    r.requests = 3142392;
    r.durationS = 3142392 / 104418.14;
    r.bytes = 411'652'000;
    r.errors.read = 376;
    auto lines = test::splitLines(formatRunReport(r, {}));
    ASSERT_EQ(lines.size(), 7u);
    EXPECT_EQ(lines[3], "  3142392 requests in 30.09s, 392.58MB read");
    EXPECT_EQ(lines[4], "  Socket errors: connect 0, read 376, write 0, timeout 0");
    EXPECT_EQ(lines[5], "Requests/sec: 104418.14");
    EXPECT_EQ(lines[6], "Transfer/sec:     13.05MB");

    r = resultWithExactStats();
    r.requests = 1076704;
    r.durationS = 1076704 / 35839.72;
    r.bytes = 141'044'105;
    r.errors.read = 261;
    lines = test::splitLines(formatRunReport(r, {}));
    ASSERT_EQ(lines.size(), 7u);
    EXPECT_EQ(lines[3], "  1076704 requests in 30.04s, 134.51MB read");
    EXPECT_EQ(lines[5], "Requests/sec:  35839.72");
    EXPECT_EQ(lines[6], "Transfer/sec:      4.48MB");

    r = resultWithExactStats();
    r.requests = 5422;
    r.durationS = 5422 / 2582.42;
    r.bytes = static_cast<uint64_t>(479.25 * 1024 * r.durationS);
    lines = test::splitLines(formatRunReport(r, {}));
    ASSERT_EQ(lines.size(), 6u); // no socket errors line
    EXPECT_EQ(lines[3], "  5422 requests in 2.10s, 0.98MB read");
    EXPECT_EQ(lines[4], "Requests/sec:   2582.42");
    EXPECT_EQ(lines[5], "Transfer/sec:    479.25KB");
}

TEST(WrkText, Non2xxLineAndStatusCodes)
{
    RunResult r = resultWithExactStats();
    r.requests = 5733;
    r.durationS = 5733 / 2864.05;
    r.bytes = 2'977'955;
    r.status = StatusCounts {};
    for (int i = 0; i < 5733; ++i)
        r.status.add(404);
    const auto lines = test::splitLines(formatRunReport(r, {}));
    ASSERT_EQ(lines.size(), 8u);
    EXPECT_EQ(lines[3], "  5733 requests in 2.00s, 2.84MB read");
    EXPECT_EQ(lines[4], "  Non-2xx or 3xx responses: 5733");
    EXPECT_EQ(lines[5], "  Status codes: 404 5733");
    EXPECT_EQ(lines[6], "Requests/sec:   2864.05");
    EXPECT_EQ(lines[7], "Transfer/sec:      1.42MB");
}

TEST(WrkText, StatusCodesOnlyWhenRelevant)
{
    RunResult r = resultWithExactStats(); // two 200s
    EXPECT_EQ(indexOf(test::splitLines(formatRunReport(r, {})), "  Status codes:"), SIZE_MAX);

    TextReportOptions latency;
    latency.latencyDistribution = true;
    EXPECT_TRUE(contains(test::splitLines(formatRunReport(r, latency)), "  Status codes: 200 2"));

    r.status.add(301);
    r.status.add(503);
    r.status.add(1000); // outside 100..599
    r.status.add(101);
    const auto lines = test::splitLines(formatRunReport(r, {}));
    EXPECT_TRUE(contains(lines, "  Status codes: 101 1, 200 2, 301 1, 503 1, other 1")) << formatRunReport(r, {});

    RunResult none;
    EXPECT_EQ(indexOf(test::splitLines(formatRunReport(none, latency)), "  Status codes:"), SIZE_MAX);
}

TEST(WrkText, ErrorLinesInOrder)
{
    RunResult r = resultWithExactStats();
    r.errors.connect = 1;
    r.errors.write = 3;
    r.errors.timeout = 4;
    r.errors.tls = 6;
    r.errors.parse = 7;
    r.firstTlsError = "certificate verify failed";
    for (int i = 0; i < 5; ++i)
        r.status.add(500);
    const auto lines = test::splitLines(formatRunReport(r, {}));
    const std::vector<std::string> expected = {
        "  Socket errors: connect 1, read 0, write 3, timeout 4",
        "  Non-2xx or 3xx responses: 5",
        "  TLS errors: 6 (first: certificate verify failed)",
        "  Parse errors: 7",
        "  Status codes: 200 2, 500 5",
    };
    const size_t first = indexOf(lines, "  Socket errors:");
    ASSERT_NE(first, SIZE_MAX);
    ASSERT_EQ(lines.size(), first + expected.size() + 2);
    for (size_t i = 0; i < expected.size(); ++i)
        EXPECT_EQ(lines[first + i], expected[i]);
    EXPECT_EQ(lines[first + expected.size()].rfind("Requests/sec: ", 0), 0u);

    r.firstTlsError.clear();
    EXPECT_TRUE(contains(test::splitLines(formatRunReport(r, {})), "  TLS errors: 6"));
}

TEST(WrkText, NoErrorLinesWhenClean)
{
    const auto lines = test::splitLines(formatRunReport(resultWithExactStats(), {}));
    ASSERT_EQ(lines.size(), 6u);
    for (const char* prefix : { "  Socket errors", "  Non-2xx", "  TLS errors", "  Parse errors", "  Status codes" })
        EXPECT_EQ(indexOf(lines, prefix), SIZE_MAX) << prefix;
}

TEST(WrkText, LatencyDistribution)
{
    RunResult r = resultWithExactStats();
    r.latency.reset();
    // Cumulative counts put each percentile well inside one exact bucket.
    r.latency.recordN(10, 6000); // p50
    r.latency.recordN(20, 2000); // p75
    r.latency.recordN(30, 1500); // p90
    r.latency.recordN(40, 450); // p99
    r.latency.recordN(50, 45); // p99.9
    r.latency.recordN(60, 5); // p99.99
    TextReportOptions options;
    options.latencyDistribution = true;
    const auto lines = test::splitLines(formatRunReport(r, options));
    const size_t block = indexOf(lines, "  Latency Distribution");
    ASSERT_EQ(block, 3u); // right after the thread stats, as in wrk
    const std::vector<std::string> expected = {
        "     50%   10.00us",
        "     75%   20.00us",
        "     90%   30.00us",
        "     99%   40.00us",
        "   99.9%   50.00us",
        "  99.99%   60.00us",
    };
    ASSERT_GE(lines.size(), block + 1 + expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(lines[block + 1 + i], expected[i]);
        // Same columns as wrk's own rows (real run: "     50%    1.81ms").
        EXPECT_EQ(tokenEnds(lines[block + 1 + i]), tokenEnds("     50%    1.81ms"));
    }
    // Then wrk2's detailed spectrum, ending at 100% with every count.
    EXPECT_EQ(lines[block + 1 + expected.size()], "");
    EXPECT_EQ(lines[block + 2 + expected.size()], "  Detailed Percentile spectrum:");
    const size_t total = indexOf(lines, "#[Max     =");
    ASSERT_NE(total, SIZE_MAX);
    EXPECT_EQ(lines[total - 2], "       0.060     1.000000        10000");
    // Then the connection phases (plain http: no TLS row), then wrk's totals line.
    EXPECT_EQ(lines[total + 2].rfind("  Connection Phases", 0), 0u) << lines[total + 2];
    EXPECT_NE(lines[total + 5].find(" requests in "), std::string::npos) << lines[total + 5];

    EXPECT_EQ(indexOf(test::splitLines(formatRunReport(r, {})), "  Latency Distribution"), SIZE_MAX);
}

TEST(WrkText, ConnectionPhaseRowsUnderLatency)
{
    RunResult r = resultWithExactStats();
    r.connectTime.recordN(100, 9); // p50, p90
    r.connectTime.record(900); // p99 and max
    r.firstByte.recordN(40, 1000);
    TextReportOptions options;
    options.latencyDistribution = true;
    auto lines = test::splitLines(formatRunReport(r, options));
    const size_t block = indexOf(lines, "  Connection Phases");
    ASSERT_NE(block, SIZE_MAX);
    EXPECT_EQ(lines[block], "  Connection Phases       p50       p90       p99       Max   Count");
    EXPECT_EQ(lines[block + 1], "    Connect          100.00us  100.00us    0.90ms    0.90ms      10");
    EXPECT_EQ(lines[block + 2], "    First byte        40.00us   40.00us   40.00us   40.00us    1000");
    // The values end under their headings.
    EXPECT_EQ(tokenEnds(lines[block + 1]).back(), tokenEnds(lines[block]).back());
    EXPECT_EQ(indexOf(lines, "    TLS handshake"), SIZE_MAX); // plain http

    r.config.request.url = *parseUrl("https://example.test/");
    r.tlsHandshake.recordN(2500, 10);
    lines = test::splitLines(formatRunReport(r, options));
    const size_t tls = indexOf(lines, "    TLS handshake");
    ASSERT_NE(tls, SIZE_MAX);
    EXPECT_EQ(lines[tls], "    TLS handshake      2.50ms    2.50ms    2.50ms    2.50ms      10");
    EXPECT_EQ(tls, indexOf(lines, "    Connect") + 1);

    EXPECT_EQ(
        indexOf(test::splitLines(formatRunReport(r, {})), "  Connection Phases"), SIZE_MAX); // only with --latency
}

TEST(WrkText, EmptyResultDoesNotCrash)
{
    const auto lines = test::splitLines(formatRunReport(RunResult {}, TextReportOptions { true }));
    EXPECT_TRUE(contains(lines, "    Latency     0.00us    0.00us   0.00us    0.00%"));
    EXPECT_TRUE(contains(lines, "  0 requests in 0.00us, 0.00B read"));
    EXPECT_TRUE(contains(lines, "Requests/sec:      0.00"));
    EXPECT_TRUE(contains(lines, "Transfer/sec:       0.00B"));
}

TEST(WrkText, RequestMixTableAndHeader)
{
    RunResult r = resultWithExactStats();
    r.config.request.url = localUrl(8080);
    r.config.mix.source = "mix.txt";
    r.config.mix.order = MixOrder::Weighted;
    for (const char* label : { "GET /a", "POST /orders/with/a/very/long/path/indeed" }) {
        MixRequest e;
        e.request.url = localUrl(8080);
        e.label = label;
        r.config.mix.entries.push_back(e);
    }
    r.entries.resize(2);
    r.entries[0].addResponse(200, 100, true);
    r.entries[0].addResponse(503, 300, true);
    r.entries[1].errors.timeout = 2; // no response at all: no latency
    EXPECT_EQ(formatRunHeader(r.config).substr(0, 50), "Running 10s test @ mix.txt (http://127.0.0.1:8080/");
    const auto lines = test::splitLines(formatRunReport(r, {}));
    const size_t block = indexOf(lines, "  Request mix mix.txt: 2 entries, weighted");
    ASSERT_NE(block, SIZE_MAX);
    EXPECT_EQ(lines[block + 1],
        "      #  Request                           Requests      Req/s       p50       p99  Errors Non-2xx");
    EXPECT_EQ(lines[block + 2],
        "      1  GET /a                                   2       2.00  100.00us  300.00us       0       1");
    EXPECT_EQ(lines[block + 3],
        "      2  POST /orders/with/a/very/lon...          0       0.00         -         -       2       0");
    // Before wrk's last two lines, so parsers that stop at Requests/sec still see every wrk line.
    EXPECT_EQ(lines[block + 4].rfind("Requests/sec:", 0), 0u);
}

// A loader with no CPU to spare measures itself: one warning line with the numbers, before
// wrk's Requests/sec; none when it had time to spare or nothing was measured (an imported run).
TEST(WrkText, SaturatedLoaderIsOneWarningLine)
{
    RunResult r;
    r.durationS = 2;
    r.requests = 100;
    r.latency.recordN(2000, 100);
    LoaderCost& c = r.loaderCost;
    c.workerWallUs = 16'000'000; // 8 workers for 2 s
    c.workerCpuUs = 3'900'000;
    c.workerWaitUs = 11'800'000; // 98% busy: most of it waiting for one of 2 CPUs
    c.processWallUs = 2'000'000;
    c.processCpuUs = 3'900'000;
    c.machineCpus = 2;
    c.machineCpuUs = 4'000'000;
    c.machineBusyUs = 3'960'000;
    c.machineStealUs = 0;
    const std::string warning = "  Warning: the loader was saturated (workers 98% busy (24% on a CPU, 74% waiting for "
                                "one), process 1.95 CPUs, machine 99% busy of 2 CPUs, steal 0%): the figures may "
                                "measure the loader rather than the target";
    auto lines = test::splitLines(formatRunReport(r, {}));
    EXPECT_TRUE(contains(lines, warning)) << formatRunReport(r, {});
    EXPECT_LT(indexOf(lines, "  Warning: the loader was saturated"), indexOf(lines, "Requests/sec:"));
    EXPECT_FALSE(contains(lines, "  Loader: ", true)) << "the figures alone only with --latency";
    EXPECT_TRUE(contains(test::splitLines(formatRunReport(r, { true })), "  Loader: workers 98% busy", true));

    c.workerWaitUs = 600'000; // 28% busy, and the machine 75% busy: quiet
    c.machineBusyUs = 3'000'000;
    lines = test::splitLines(formatRunReport(r, {}));
    EXPECT_FALSE(contains(lines, "  Warning: the loader", true)) << formatRunReport(r, {});
    c.machineStealUs = 800'000; // but 20% of the machine stolen by the hypervisor
    EXPECT_NE(formatRunReport(r, {}).find("steal 20%): the figures may measure the loader"), std::string::npos);
    // A full machine of which the loader took half or more: its workers may look half idle, waiting
    // for a server they starve (wrk -t12 on 8 cores beside it).
    c.machineStealUs = 0;
    c.machineBusyUs = 3'800'000; // 95%
    c.processCpuUs = 2'000'000; // 1 CPU of 2
    EXPECT_TRUE(c.saturated());
    EXPECT_NE(formatRunReport(r, {}).find("process 1.00 CPUs, machine 95% busy of 2 CPUs, steal 0%): the figures"),
        std::string::npos)
        << formatRunReport(r, {});
    c.processCpuUs = 1'800'000; // 0.9 CPUs: under half
    EXPECT_FALSE(c.saturated());

    r.loaderCost = {};
    EXPECT_FALSE(contains(test::splitLines(formatRunReport(r, { true })), "  Loader: ", true))
        << "not measured: no line";
}

// A loader beside its server on a 2-core machine: the workers waited for a CPU 40% of their
// time on a full machine, though 66% busy and 0.52 CPUs. The warning says the loader shares the
// machine with other work; a loader that had its CPU when it wanted one is not flagged.
TEST(WrkText, ALoaderSharingAFullMachineIsNamedForIt)
{
    RunResult r;
    r.durationS = 3;
    r.requests = 100;
    LoaderCost& c = r.loaderCost;
    c.workerWallUs = 6'000'000; // 2 workers for 3 s
    c.workerCpuUs = 1'560'000; // 26%
    c.workerWaitUs = 2'400'000; // 40%
    c.processWallUs = 3'000'000;
    c.processCpuUs = 1'560'000; // 0.52 CPUs
    c.machineCpus = 2;
    c.machineCpuUs = 6'000'000;
    c.machineBusyUs = 5'988'000; // 99.8%
    EXPECT_FALSE(c.workersBusy() || c.fillsTheMachine() || c.stolen()) << "the rules before";
    EXPECT_TRUE(c.sharesTheMachine());
    EXPECT_EQ(loaderSaturationWarning(r),
        "the loader shared the machine with other work: its workers waited for a CPU 40% of their time on a "
        "machine 100% busy (workers 66% busy (26% on a CPU, 40% waiting for one), process 0.52 CPUs, machine "
        "100% busy of 2 CPUs, steal 0%): the figures may measure the loader rather than the target");
    c.workerWaitUs = 120'000; // 2%: it had a CPU when it wanted one
    EXPECT_FALSE(c.saturated());
    c.workerWaitUs = 2'400'000;
    c.machineBusyUs = 4'500'000; // 75%: CPUs to spare, the waits were the kernel waking it
    EXPECT_FALSE(c.saturated());
    // Busy and sharing: both said.
    c.machineBusyUs = 5'988'000;
    c.workerCpuUs = 3'600'000;
    EXPECT_EQ(loaderSaturationWarning(r),
        "the loader was saturated (workers 100% busy (60% on a CPU, 40% waiting for one), process 0.52 CPUs, "
        "machine 100% busy of 2 CPUs, steal 0%); it shared the machine with other work: its workers waited for a CPU "
        "40% of their time on a machine 100% busy: the figures may measure the loader rather than the target");
}

// The open model: the send spin keeps a worker on a CPU before each due send, which is waiting, not
// work (-t1 -c100 -R 15000 against nginx: 99% busy with the spin, 57% without, every request on
// time). The loader is judged by its work and by what it delivered of its schedule, and says which.
TEST(WrkText, AnOpenModelLoaderIsJudgedByItsWorkAndItsSchedule)
{
    RunResult r;
    r.config.ratePerS = 15'000;
    r.durationS = 2;
    r.targetRatePerS = 15'000;
    r.requests = 30'000;
    r.sendLag.recordN(20, 30'000);
    LoaderCost& c = r.loaderCost;
    c.workerWallUs = 2'000'000;
    c.workerCpuUs = 1'980'000; // 99%
    c.workerSpinUs = 840'000; // 42%
    c.processWallUs = 2'000'000;
    c.processCpuUs = 1'980'000;
    c.machineCpus = 2;
    c.machineCpuUs = 4'000'000;
    c.machineBusyUs = 2'400'000; // 60%
    EXPECT_GE(c.workerBusyShare(), 0.9);
    EXPECT_FALSE(c.saturated());
    EXPECT_FALSE(loaderSaturated(r));
    EXPECT_EQ(loaderSaturationWarning(r), "");
    EXPECT_NE(formatRunReport(r, { true })
                  .find("  Loader: workers 57% busy, the send spin aside (99% with it: 99% on "
                        "a CPU, 0% waiting for one), process 0.99 CPUs"),
        std::string::npos)
        << formatRunReport(r, { true });

    // Working as hard without the spin: saturated, and it says what it delivered.
    c.workerSpinUs = 0;
    EXPECT_EQ(loaderSaturationWarning(r),
        "the loader was saturated (workers 99% busy (99% on a CPU, 0% waiting for one), process 0.99 CPUs, machine "
        "60% busy of 2 CPUs, steal 0%); of its schedule: 0.0% of the requests sent more than 1 ms after their due "
        "time (send lag p99 20.00us), 100.0% of the rate asked achieved: the figures may measure the loader rather "
        "than the target");

    // Behind its schedule on a full machine, with CPU to spare by the other rules: that alone.
    c.workerSpinUs = 840'000;
    c.machineBusyUs = 3'800'000; // 95%
    r.lateRequests = 3'000; // 10%
    r.sendLag.reset();
    r.sendLag.recordN(20, 27'000);
    r.sendLag.recordN(4'000, 3'000);
    EXPECT_FALSE(c.saturated());
    EXPECT_TRUE(loaderSaturated(r));
    EXPECT_EQ(loaderSaturationWarning(r),
        "the loader fell behind its schedule on a machine 95% busy: 10.0% of the requests sent more than 1 ms after "
        "their due time (send lag p99 4.00ms), 100.0% of the rate asked achieved (workers 57% busy, the send spin "
        "aside (99% with it: 99% on a CPU, 0% waiting for one), process 0.99 CPUs, machine 95% busy of 2 CPUs, steal "
        "0%): the figures may measure the loader rather than the target");
    // A slow target makes requests late too, but leaves the machine idle: not the loader's doing.
    c.machineBusyUs = 400'000;
    EXPECT_FALSE(loaderSaturated(r));
}

// A distributed run: each loader by itself, so one saturated pod among idle ones is named.
TEST(WrkText, ASaturatedLoaderOfSeveralIsNamed)
{
    RunResult r;
    r.durationS = 1;
    r.requests = 10;
    LoaderSummary idle, busy;
    idle.index = 0;
    idle.host = "pod-a";
    idle.cost.workerWallUs = 1'000'000;
    idle.cost.workerCpuUs = 100'000;
    busy.index = 1;
    busy.host = "pod-b";
    busy.cost.workerWallUs = 1'000'000;
    busy.cost.workerCpuUs = 990'000;
    r.loaders = { idle, busy };
    r.loaderCost = idle.cost;
    r.loaderCost.add(busy.cost); // 54% over both: the fleet's average hides pod-b
    EXPECT_FALSE(r.loaderCost.saturated());
    EXPECT_EQ(loaderSaturationWarning(r),
        "loader #1 (pod-b) was saturated (workers 99% busy (99% on a CPU, 0% waiting for one)): the figures may "
        "measure the loaders rather than the target");
    EXPECT_TRUE(loaderSaturated(r.loaderCost, r.loaders));
}

// HTTP/3: the header names it, the report adds the QUIC lines (loss and ends only when there
// are any), the connection phases call the connect the QUIC handshake and have no TLS row, and
// quicDescription (a stored run's details in the GUI) says the same in one line.
TEST(WrkText, Http3HeaderAndQuicLines)
{
    RunConfig config;
    config.request.url = *parseUrl("https://localhost:8443/");
    config.httpVersion = HttpVersion::Http3;
    config.connections = 20;
    config.streams = 10;
    EXPECT_EQ(test::splitLines(formatRunHeader(config))[2], "  HTTP/3 (h3 over QUIC), 10 streams per connection");

    RunResult r;
    r.config = config;
    r.protocol = "h3";
    r.durationS = 1;
    r.requests = 100;
    r.latency.recordN(1000, 100);
    r.connectTime.recordN(5000, 20);
    r.quic.version = 1;
    r.quic.alpn = "h3";
    r.quic.handshakes = 20;
    TextReportOptions options;
    options.latencyDistribution = true;
    auto lines = test::splitLines(formatRunReport(r, options));
    EXPECT_TRUE(contains(lines, "  QUIC: QUIC v1, ALPN h3, 20 handshakes (1-RTT; 0-RTT not offered)"));
    EXPECT_FALSE(contains(lines, "  QUIC loss:", true));
    EXPECT_FALSE(contains(lines, "  QUIC connections ended:", true));
    EXPECT_TRUE(contains(lines, "    QUIC handshake ", true));
    EXPECT_FALSE(contains(lines, "    TLS handshake ", true));
    EXPECT_EQ(quicDescription(r.quic), "QUIC v1, ALPN h3, 20 handshakes (1-RTT)");

    r.quic.lostPackets = 3;
    r.quic.probeTimeouts = 5;
    r.quic.ends[4] = 2; // idle_timeout
    r.quic.ends[5] = 1; // peer_closed
    r.quic.firstEnd = "the server closed the connection with HTTP/3 error 0x102";
    lines = test::splitLines(formatRunReport(r, options));
    EXPECT_TRUE(contains(lines, "  QUIC loss: 3 packets of requests declared lost, 5 probe timeouts"));
    EXPECT_TRUE(contains(lines, "  QUIC connections ended: idle_timeout 2, peer_closed 1"));
    EXPECT_TRUE(contains(lines, "  First QUIC error: the server closed the connection with HTTP/3 error 0x102"));
    EXPECT_EQ(quicDescription(r.quic),
        "QUIC v1, ALPN h3, 20 handshakes (1-RTT); 3 packets of requests lost, 5 probe timeouts; ended: "
        "idle_timeout 2, peer_closed 1");
}
