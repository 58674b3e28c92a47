#include "common/utf8.h"
#include "testsupport.h"
#include "wrk/wrklog.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using namespace wb;

namespace {

constexpr double KIB = 1024.0;
constexpr double MIB = 1024.0 * KIB;
constexpr double GIB = 1024.0 * MIB;

// The shared reference logs live beside the source tree: ${WB_SOURCE_DIR}/../shared/reference.
// CI clones the repository elsewhere with a copy of shared/ beside it, so only this relative place is used.
::testing::AssertionResult loadReference(const std::string& name, std::string& text)
{
    const std::filesystem::path path = std::filesystem::path(test::sourceDir()) / ".." / "shared" / "reference" / name;
    std::ifstream in(path, std::ios::binary);
    if (!in) return ::testing::AssertionFailure() << "reference log missing: " << path;
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (text.empty()) return ::testing::AssertionFailure() << "reference log is empty: " << path;
    return ::testing::AssertionSuccess();
}

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string text;
    for (const std::string& line : lines)
        text += line + "\n";
    return text;
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

void expectSameReport(const WrkLogReport& a, const WrkLogReport& b)
{
    EXPECT_EQ(a.firstLine, b.firstLine);
    EXPECT_EQ(a.lastLine, b.lastLine);
    EXPECT_EQ(a.isWrk2, b.isWrk2);
    EXPECT_EQ(a.commandLine, b.commandLine);
    EXPECT_EQ(a.hasLatencyFlag, b.hasLatencyFlag);
    EXPECT_EQ(a.url, b.url);
    EXPECT_EQ(a.plannedDurationS, b.plannedDurationS);
    EXPECT_EQ(a.threads, b.threads);
    EXPECT_EQ(a.connections, b.connections);
    EXPECT_EQ(a.latencyUs.avg, b.latencyUs.avg);
    EXPECT_EQ(a.latencyUs.stdev, b.latencyUs.stdev);
    EXPECT_EQ(a.latencyUs.max, b.latencyUs.max);
    EXPECT_EQ(a.latencyUs.withinStdevPct, b.latencyUs.withinStdevPct);
    EXPECT_EQ(a.requestsPerThread.avg, b.requestsPerThread.avg);
    EXPECT_EQ(a.requestsPerThread.max, b.requestsPerThread.max);
    EXPECT_EQ(a.latencyDistribution.size(), b.latencyDistribution.size());
    EXPECT_EQ(a.requests, b.requests);
    EXPECT_EQ(a.durationS, b.durationS);
    EXPECT_EQ(a.bytesRead, b.bytesRead);
    EXPECT_EQ(a.errorsRead, b.errorsRead);
    EXPECT_EQ(a.non2xx, b.non2xx);
    EXPECT_EQ(a.requestsPerS, b.requestsPerS);
    EXPECT_EQ(a.transferBytesPerS, b.transferBytesPerS);
}

// A plain wrk report (9 lines) used where its content does not matter.
const std::string PLAIN_REPORT = "Running 30s test @ http://localhost:8080\n"
                                 "  12 threads and 400 connections\n"
                                 "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                                 "    Latency     5.47ms    7.39ms 126.27ms   88.70%\n"
                                 "    Req/Sec     8.78k     4.38k   63.92k    82.47%\n"
                                 "  3142392 requests in 30.09s, 392.58MB read\n"
                                 "  Socket errors: connect 0, read 376, write 0, timeout 0\n"
                                 "Requests/sec: 104418.14\n"
                                 "Transfer/sec:     13.05MB\n";

// wrk2 -U output as src/wrk.c prints it (print_hdr_latency + hdr_percentiles_print CLASSIC), shortened spectra;
// 54 lines.
const std::string WRK2_REPORT = "Running 2m test @ http://127.0.0.1:8080/\n"
                                "  2 threads and 100 connections\n"
                                "  Thread calibration: mean lat.: 1.203ms, rate sampling interval: 10ms\n"
                                "  Thread calibration: mean lat.: 1.187ms, rate sampling interval: 10ms\n"
                                "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                                "    Latency     1.19ms  562.33us   9.87ms   71.25%\n"
                                "    Req/Sec     1.05k   112.40     1.67k    68.91%\n"
                                "  Latency Distribution (HdrHistogram - Recorded Latency)\n"
                                " 50.000%    1.13ms\n"
                                " 75.000%    1.49ms\n"
                                " 90.000%    1.86ms\n"
                                " 99.000%    3.02ms\n"
                                " 99.900%    6.54ms\n"
                                " 99.990%    9.12ms\n"
                                " 99.999%    9.87ms\n"
                                "100.000%    9.87ms\n"
                                "\n"
                                "  Detailed Percentile spectrum:\n"
                                "       Value   Percentile   TotalCount 1/(1-Percentile)\n"
                                "\n"
                                "       0.112     0.000000            1         1.00\n"
                                "       0.614     0.100000        23998         1.11\n"
                                "       1.133     0.500000       120012         2.00\n"
                                "       1.861     0.900000       215987        10.00\n"
                                "       3.023     0.990000       237592       100.00\n"
                                "       9.871     1.000000       239990          inf\n"
                                "#[Mean    =        1.190, StdDeviation   =        0.562]\n"
                                "#[Max     =        9.864, Total count    =       239990]\n"
                                "#[Buckets =           27, SubBuckets     =         2048]\n"
                                "----------------------------------------------------------\n"
                                "\n"
                                "  Latency Distribution (HdrHistogram - Uncorrected Latency (measured without "
                                "taking delayed starts into account))\n"
                                " 50.000%    1.02ms\n"
                                " 75.000%    1.31ms\n"
                                " 90.000%    1.64ms\n"
                                " 99.000%    2.71ms\n"
                                " 99.900%    5.99ms\n"
                                " 99.990%    8.80ms\n"
                                " 99.999%    9.50ms\n"
                                "100.000%    9.50ms\n"
                                "\n"
                                "  Detailed Percentile spectrum:\n"
                                "       Value   Percentile   TotalCount 1/(1-Percentile)\n"
                                "\n"
                                "       0.098     0.000000            1         1.00\n"
                                "       1.021     0.500000       120001         2.00\n"
                                "       9.503     1.000000       239990          inf\n"
                                "#[Mean    =        1.050, StdDeviation   =        0.498]\n"
                                "#[Max     =        9.496, Total count    =       239990]\n"
                                "#[Buckets =           27, SubBuckets     =         2048]\n"
                                "----------------------------------------------------------\n"
                                "  239990 requests in 2.00m, 28.61MB read\n"
                                "Requests/sec:   1999.87\n"
                                "Transfer/sec:    244.12KB\n";

struct ExpectedReport
{
    const char* headline; // the line two above "Running"
    size_t firstLine;
    size_t lastLine;
    const char* url;
    double latencyAvgUs, latencyStdevUs, latencyMaxUs, latencyWithinPct;
    double rateAvg, rateStdev, rateMax, rateWithinPct;
    uint64_t requests;
    double durationS;
    double bytesRead;
    uint64_t errorsRead;
    double requestsPerS;
    double transferBytesPerS;
};

// Read off container-performance-comparison.txt by hand.
const ExpectedReport CONTAINER_REPORTS[] = {
    { "native - http-pkg", 44, 52, "http://localhost:8080", 5470, 7390, 126270, 88.70, 8780, 4380, 63920, 82.47,
        3142392, 30.09, 392.58 * MIB, 376, 104418.14, 13.05 * MIB },
    { "native - go-gin", 56, 64, "http://localhost:8080", 5650, 7640, 107800, 87.77, 9010, 4620, 93690, 82.20, 3222179,
        30.08, 402.55 * MIB, 378, 107115.65, 13.38 * MIB },
    { "Docker - http-pkg", 68, 76, "http://localhost:8080", 11160, 4780, 95970, 78.89, 3000, 397.64, 4150, 71.00,
        1076704, 30.04, 134.51 * MIB, 261, 35839.72, 4.48 * MIB },
    { "Docker - go-gin", 80, 88, "http://localhost:8080", 11370, 4940, 98280, 77.62, 2950, 369.79, 4510, 71.00, 1057120,
        30.04, 132.07 * MIB, 255, 35188.61, 4.40 * MIB },
    { "Kubernetes - http-pkg", 92, 100, "http://localhost:8080", 24500, 18330, 333770, 96.43, 1440, 253.03, 2000, 69.28,
        512572, 30.07, 64.04 * MIB, 383, 17044.39, 2.13 * MIB },
    { "Kubernetes - go-gin", 104, 112, "http://localhost:8080", 23760, 16650, 316210, 96.12, 1470, 242.75, 2030, 70.18,
        524300, 30.08, 65.50 * MIB, 384, 17427.49, 2.18 * MIB },
    { "Native - actix", 116, 124, "http://localhost:8080", 9250, 22140, 291410, 91.73, 17100, 6020, 120980, 85.85,
        6112489, 30.09, 512.98 * MIB, 381, 203133.20, 17.05 * MIB },
    { "Native - rocket", 128, 136, "http://localhost:8000", 3230, 6410, 254090, 96.84, 13380, 1450, 47200, 87.34,
        4791067, 30.10, 1.11 * GIB, 373, 159194.28, 37.65 * MIB },
};

} // namespace

TEST(WrkLog, ReferenceContainerComparisonEveryReport)
{
    std::string text;
    ASSERT_TRUE(loadReference("container-performance-comparison.txt", text));
    const std::vector<std::string> lines = test::splitLines(text);
    const WrkLogParseResult result = parseWrkLog(text);

    EXPECT_TRUE(result.skipped.empty()) << result.skipped.front().reason;
    ASSERT_EQ(result.reports.size(), std::size(CONTAINER_REPORTS));
    for (size_t i = 0; i < result.reports.size(); ++i) {
        const WrkLogReport& r = result.reports[i];
        const ExpectedReport& e = CONTAINER_REPORTS[i];
        SCOPED_TRACE(e.headline);
        ASSERT_EQ(r.firstLine, e.firstLine);
        EXPECT_EQ(r.lastLine, e.lastLine);
        ASSERT_GE(r.firstLine, 3u);
        EXPECT_EQ(lines[r.firstLine - 3], e.headline); // the line numbers point into the file
        EXPECT_EQ(lines[r.lastLine - 1].rfind("Transfer/sec:", 0), 0u);

        EXPECT_EQ(r.commandLine, ""); // a headline, not a command, precedes each
        EXPECT_FALSE(r.isWrk2);
        EXPECT_FALSE(r.hasLatencyFlag);
        EXPECT_EQ(r.rate, 0);
        EXPECT_EQ(r.timeoutS, 0);
        EXPECT_EQ(r.url, e.url);
        EXPECT_EQ(r.plannedDurationS, 30);
        EXPECT_EQ(r.threads, 12u);
        EXPECT_EQ(r.connections, 400u);
        EXPECT_DOUBLE_EQ(r.latencyUs.avg, e.latencyAvgUs);
        EXPECT_DOUBLE_EQ(r.latencyUs.stdev, e.latencyStdevUs);
        EXPECT_DOUBLE_EQ(r.latencyUs.max, e.latencyMaxUs);
        EXPECT_DOUBLE_EQ(r.latencyUs.withinStdevPct, e.latencyWithinPct);
        EXPECT_DOUBLE_EQ(r.requestsPerThread.avg, e.rateAvg);
        EXPECT_DOUBLE_EQ(r.requestsPerThread.stdev, e.rateStdev);
        EXPECT_DOUBLE_EQ(r.requestsPerThread.max, e.rateMax);
        EXPECT_DOUBLE_EQ(r.requestsPerThread.withinStdevPct, e.rateWithinPct);
        EXPECT_TRUE(r.latencyDistribution.empty());
        EXPECT_TRUE(r.spectrum.empty());
        EXPECT_EQ(r.requests, e.requests);
        EXPECT_DOUBLE_EQ(r.durationS, e.durationS);
        EXPECT_NEAR(static_cast<double>(r.bytesRead), e.bytesRead, 1.0);
        EXPECT_EQ(r.errorsConnect, 0u);
        EXPECT_EQ(r.errorsRead, e.errorsRead);
        EXPECT_EQ(r.errorsWrite, 0u);
        EXPECT_EQ(r.errorsTimeout, 0u);
        EXPECT_EQ(r.non2xx, 0u);
        EXPECT_DOUBLE_EQ(r.requestsPerS, e.requestsPerS);
        EXPECT_DOUBLE_EQ(r.transferBytesPerS, e.transferBytesPerS);
    }
}

// This log holds wrk commands (wrapped over two lines), a "wrk" that printed
// its usage and a summary table typed from the reports, but no report itself.
TEST(WrkLog, ReferenceAmbassadorLogHasNoReport)
{
    std::string text;
    ASSERT_TRUE(loadReference("ambassador-vs-service-wrk.txt", text));
    const WrkLogParseResult result = parseWrkLog(text);
    EXPECT_TRUE(result.reports.empty());
    EXPECT_TRUE(result.skipped.empty());
}

// Its wrapped command lines, as they are in the file, attach to a report placed right below them.
TEST(WrkLog, ReferenceAmbassadorWrappedCommandsAttach)
{
    std::string text;
    ASSERT_TRUE(loadReference("ambassador-vs-service-wrk.txt", text));
    std::vector<std::string> lines = test::splitLines(text);
    ASSERT_GE(lines.size(), 110u);
    ASSERT_EQ(lines[104], "wrk -t100 -c10000 -d60s --timeout 60s"); // line 105
    ASSERT_EQ(lines[108], "http://ambassador.default.svc... :80/http-echo/"); // line 109
    const std::vector<std::string> service
        = test::splitLines("Running 1m test @ http://http-echo.default.svc.cluster.local:80\n"
                           "  100 threads and 10000 connections\n"
                           "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                           "    Latency   225.50ms  406.12ms   6.90s    91.98%\n"
                           "    Req/Sec   611.35    312.80     3.21k    70.02%\n"
                           "  3570843 requests in 1.00m, 599.35MB read\n"
                           "  Socket errors: connect 0, read 0, write 0, timeout 412\n"
                           "Requests/sec:  59413.33\n"
                           "Transfer/sec:      9.97MB\n");
    const std::vector<std::string> ambassador
        = test::splitLines("Running 1m test @ http://ambassador.default.svc.cluster.local:80/http-echo/\n"
                           "  100 threads and 1000 connections\n"
                           "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                           "    Latency    38.44ms   21.07ms 367.21ms   68.18%\n"
                           "    Req/Sec   306.71     88.42     1.01k    71.33%\n"
                           "  1832100 requests in 1.00m, 393.57MB read\n"
                           "Requests/sec:  30484.25\n"
                           "Transfer/sec:      6.55MB\n");
    lines.insert(lines.begin() + 109, ambassador.begin(), ambassador.end()); // after line 109
    lines.insert(lines.begin() + 106, service.begin(), service.end()); // after line 106
    const WrkLogParseResult result = parseWrkLog(joinLines(lines));

    EXPECT_TRUE(result.skipped.empty());
    ASSERT_EQ(result.reports.size(), 2u);
    const WrkLogReport& s = result.reports[0];
    EXPECT_EQ(s.firstLine, 107u);
    EXPECT_EQ(s.lastLine, 115u);
    EXPECT_EQ(s.commandLine, "wrk -t100 -c10000 -d60s --timeout 60s http://http-echo.default.svc.... :80");
    EXPECT_EQ(s.timeoutS, 60);
    EXPECT_FALSE(s.hasLatencyFlag);
    EXPECT_FALSE(s.isWrk2);
    EXPECT_EQ(s.threads, 100u);
    EXPECT_EQ(s.connections, 10000u);
    EXPECT_EQ(s.plannedDurationS, 60);
    EXPECT_DOUBLE_EQ(s.latencyUs.avg, 225500);
    EXPECT_DOUBLE_EQ(s.latencyUs.max, 6900000);
    EXPECT_DOUBLE_EQ(s.requestsPerThread.avg, 611.35);
    EXPECT_DOUBLE_EQ(s.requestsPerThread.max, 3210);
    EXPECT_DOUBLE_EQ(s.durationS, 60);
    EXPECT_EQ(s.errorsTimeout, 412u);
    EXPECT_DOUBLE_EQ(s.requestsPerS, 59413.33);

    const WrkLogReport& a = result.reports[1];
    EXPECT_EQ(a.firstLine, 119u);
    EXPECT_EQ(a.lastLine, 126u);
    EXPECT_EQ(a.commandLine, "wrk -t100 -c1000 -d60s --timeout 60s http://ambassador.default.svc... :80/http-echo/");
    EXPECT_EQ(a.url, "http://ambassador.default.svc.cluster.local:80/http-echo/");
    EXPECT_EQ(a.connections, 1000u);
    EXPECT_DOUBLE_EQ(a.latencyUs.max, 367210);
    EXPECT_NEAR(static_cast<double>(a.bytesRead), 393.57 * MIB, 1.0);
    EXPECT_DOUBLE_EQ(a.transferBytesPerS, 6.55 * MIB);
}

TEST(WrkLog, WrkLatencyBlockAndCommand)
{
    const WrkLogParseResult result = parseWrkLog("$ wrk -t2 -c100 -d10s --latency http://127.0.0.1:8080/index.html\n"
                                                 "Running 10s test @ http://127.0.0.1:8080/index.html\n"
                                                 "  2 threads and 100 connections\n"
                                                 "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                                                 "    Latency   635.91us    0.89ms  12.92ms   93.69%\n"
                                                 "    Req/Sec    56.20k     8.07k   62.00k    86.54%\n"
                                                 "  Latency Distribution\n"
                                                 "     50%  250.00us\n"
                                                 "     75%  491.00us\n"
                                                 "     90%  700.00us\n"
                                                 "     99%    5.80ms\n"
                                                 "  1124345 requests in 10.10s, 0.89GB read\n"
                                                 "Requests/sec: 111319.18\n"
                                                 "Transfer/sec:     90.52MB\n");
    ASSERT_EQ(result.reports.size(), 1u);
    const WrkLogReport& r = result.reports[0];
    EXPECT_EQ(r.firstLine, 2u);
    EXPECT_EQ(r.lastLine, 14u);
    EXPECT_EQ(r.commandLine, "wrk -t2 -c100 -d10s --latency http://127.0.0.1:8080/index.html");
    EXPECT_TRUE(r.hasLatencyFlag);
    EXPECT_FALSE(r.isWrk2);
    EXPECT_EQ(r.plannedDurationS, 10);
    EXPECT_DOUBLE_EQ(r.latencyUs.avg, 635.91);
    EXPECT_DOUBLE_EQ(r.latencyUs.stdev, 890);
    EXPECT_DOUBLE_EQ(r.requestsPerThread.avg, 56200);
    ASSERT_EQ(r.latencyDistribution.size(), 4u);
    const double percentiles[] = { 50, 75, 90, 99 };
    const double valuesUs[] = { 250, 491, 700, 5800 };
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(r.latencyDistribution[i].percentile, percentiles[i]);
        EXPECT_DOUBLE_EQ(r.latencyDistribution[i].valueUs, valuesUs[i]);
    }
    EXPECT_TRUE(r.spectrum.empty());
    EXPECT_EQ(r.requests, 1124345u);
    EXPECT_DOUBLE_EQ(r.durationS, 10.10);
    EXPECT_NEAR(static_cast<double>(r.bytesRead), 0.89 * GIB, 1.0);
    EXPECT_DOUBLE_EQ(r.requestsPerS, 111319.18);
    EXPECT_DOUBLE_EQ(r.transferBytesPerS, 90.52 * MIB);
}

TEST(WrkLog, Wrk2FullOutputWithSpectrumAndUncorrectedBlock)
{
    const WrkLogParseResult result = parseWrkLog(
        "user@loader:~/wrk2$ ./wrk -t2 -c100 -d2m -R 2k -U http://127.0.0.1:8080/ | tee run.txt\n" + WRK2_REPORT);
    ASSERT_EQ(result.reports.size(), 1u) << (result.skipped.empty() ? "" : result.skipped[0].reason);
    const WrkLogReport& r = result.reports[0];
    EXPECT_EQ(r.firstLine, 2u);
    EXPECT_EQ(r.lastLine, 55u);
    EXPECT_EQ(r.commandLine, "./wrk -t2 -c100 -d2m -R 2k -U http://127.0.0.1:8080/");
    EXPECT_TRUE(r.isWrk2);
    EXPECT_TRUE(r.hasLatencyFlag);
    EXPECT_EQ(r.rate, 2000);
    EXPECT_EQ(r.plannedDurationS, 120);
    EXPECT_EQ(r.threads, 2u);
    EXPECT_EQ(r.connections, 100u);
    EXPECT_DOUBLE_EQ(r.latencyUs.avg, 1190);
    EXPECT_DOUBLE_EQ(r.latencyUs.stdev, 562.33);
    EXPECT_DOUBLE_EQ(r.latencyUs.max, 9870);
    EXPECT_DOUBLE_EQ(r.latencyUs.withinStdevPct, 71.25);
    EXPECT_DOUBLE_EQ(r.requestsPerThread.avg, 1050);
    EXPECT_DOUBLE_EQ(r.requestsPerThread.stdev, 112.40);

    ASSERT_EQ(r.latencyDistribution.size(), 8u);
    EXPECT_EQ(r.latencyDistribution[0].percentile, 50);
    EXPECT_DOUBLE_EQ(r.latencyDistribution[0].valueUs, 1130);
    EXPECT_DOUBLE_EQ(r.latencyDistribution[5].percentile, 99.99);
    EXPECT_DOUBLE_EQ(r.latencyDistribution[5].valueUs, 9120);
    EXPECT_EQ(r.latencyDistribution[7].percentile, 100);
    ASSERT_EQ(r.spectrum.size(), 6u);
    EXPECT_DOUBLE_EQ(r.spectrum[0].valueUs, 112);
    EXPECT_EQ(r.spectrum[0].percentile, 0);
    EXPECT_EQ(r.spectrum[0].totalCount, 1u);
    EXPECT_DOUBLE_EQ(r.spectrum[3].valueUs, 1861);
    EXPECT_DOUBLE_EQ(r.spectrum[3].percentile, 0.9);
    EXPECT_EQ(r.spectrum[3].totalCount, 215987u);
    EXPECT_DOUBLE_EQ(r.spectrum[5].valueUs, 9871);
    EXPECT_EQ(r.spectrum[5].percentile, 1);
    EXPECT_EQ(r.spectrum[5].totalCount, 239990u);

    ASSERT_EQ(r.uncorrectedLatencyDistribution.size(), 8u);
    EXPECT_DOUBLE_EQ(r.uncorrectedLatencyDistribution[0].valueUs, 1020);
    EXPECT_DOUBLE_EQ(r.uncorrectedLatencyDistribution[7].valueUs, 9500);
    ASSERT_EQ(r.uncorrectedSpectrum.size(), 3u);
    EXPECT_DOUBLE_EQ(r.uncorrectedSpectrum[1].valueUs, 1021);
    EXPECT_EQ(r.uncorrectedSpectrum[1].totalCount, 120001u);

    EXPECT_EQ(r.requests, 239990u);
    EXPECT_DOUBLE_EQ(r.durationS, 120);
    EXPECT_NEAR(static_cast<double>(r.bytesRead), 28.61 * MIB, 1.0);
    EXPECT_DOUBLE_EQ(r.requestsPerS, 1999.87);
    EXPECT_DOUBLE_EQ(r.transferBytesPerS, 244.12 * KIB);
}

TEST(WrkLog, Wrk2RecognisedWithoutCommandLine)
{
    const WrkLogParseResult result = parseWrkLog("wrk2 results, recorded latency\n\n" + WRK2_REPORT);
    ASSERT_EQ(result.reports.size(), 1u);
    EXPECT_EQ(result.reports[0].firstLine, 3u);
    EXPECT_TRUE(result.reports[0].isWrk2);
    EXPECT_EQ(result.reports[0].commandLine, "");
    EXPECT_EQ(result.reports[0].rate, 0);
    EXPECT_TRUE(result.reports[0].hasLatencyFlag);

    // Calibration lines alone say wrk2, without any distribution block.
    std::string calibrated = PLAIN_REPORT;
    calibrated.insert(calibrated.find("  Thread Stats"),
        "  Thread calibration: mean lat.: 10087 usec, rate sampling interval: 22 msec\n");
    const WrkLogParseResult second = parseWrkLog(calibrated);
    ASSERT_EQ(second.reports.size(), 1u);
    EXPECT_TRUE(second.reports[0].isWrk2);
    EXPECT_FALSE(second.reports[0].hasLatencyFlag);
    EXPECT_FALSE(parseWrkLog(PLAIN_REPORT).reports.at(0).isWrk2);
}

TEST(WrkLog, CrlfAnsiTabsQuotesAndFencesAreStripped)
{
    const WrkLogParseResult plain
        = parseWrkLog("Results:\n\n$ wrk -t12 -c400 -d30s http://localhost:8080\n" + PLAIN_REPORT);
    ASSERT_EQ(plain.reports.size(), 1u);

    std::string decorated = "Results:\n"
                            "```console\n"
                            "> \x1b[1;32m$\x1b[0m wrk -t12 -c400 -d30s http://localhost:8080\n"
                            "> \x1b[36mRunning\x1b[0m 30s test @ http://localhost:8080\n"
                            ">\t12 threads and 400 connections\n"
                            ">   Thread Stats\tAvg      Stdev     Max   +/- Stdev\n"
                            ">     \x1b[33mLatency\x1b[0m\t5.47ms\t7.39ms\t126.27ms\t88.70%\n"
                            "> \t  Req/Sec     8.78k     4.38k   63.92k    82.47%   \n"
                            ">   3142392 requests in 30.09s, 392.58MB read\n"
                            ">   \x1b]0;title\x07Socket errors: connect 0, read 376, write 0, timeout 0\n"
                            "> Requests/sec: \x1b[1m104418.14\x1b[22m\n"
                            "> Transfer/sec:     13.05MB\x1b[K\n"
                            "```\n";
    decorated = replaceAll(decorated, "\n", "\r\n");
    const WrkLogParseResult result = parseWrkLog(decorated);
    ASSERT_EQ(result.reports.size(), 1u) << (result.skipped.empty() ? "" : result.skipped[0].reason);
    // The fence line takes the place of the blank line: same line numbers.
    expectSameReport(result.reports[0], plain.reports[0]);
    EXPECT_EQ(result.reports[0].firstLine, 4u);
    EXPECT_EQ(result.reports[0].lastLine, 12u);
    EXPECT_EQ(result.reports[0].commandLine, "wrk -t12 -c400 -d30s http://localhost:8080");
    EXPECT_EQ(result.reports[0].errorsRead, 376u);
}

TEST(WrkLog, TwoReportsBackToBack)
{
    std::string second = replaceAll(PLAIN_REPORT, "3142392 requests", "42 requests");
    second = replaceAll(second, "http://localhost:8080", "http://localhost:9090/b");
    const WrkLogParseResult result = parseWrkLog(PLAIN_REPORT + second);
    ASSERT_EQ(result.reports.size(), 2u);
    EXPECT_TRUE(result.skipped.empty());
    EXPECT_EQ(result.reports[0].firstLine, 1u);
    EXPECT_EQ(result.reports[0].lastLine, 9u);
    EXPECT_EQ(result.reports[0].requests, 3142392u);
    EXPECT_EQ(result.reports[1].firstLine, 10u);
    EXPECT_EQ(result.reports[1].lastLine, 18u);
    EXPECT_EQ(result.reports[1].requests, 42u);
    EXPECT_EQ(result.reports[1].url, "http://localhost:9090/b");
    EXPECT_EQ(result.reports[1].commandLine, ""); // the first report's lines are no command
}

TEST(WrkLog, ReportCutBeforeRequestsSecIsSkippedAndTheNextOneRead)
{
    const std::string cut = PLAIN_REPORT.substr(0, PLAIN_REPORT.find("Requests/sec:"));
    const WrkLogParseResult result
        = parseWrkLog("log start\n" + cut + "$ wrk -t12 -c400 -d30s http://localhost:8080\n" + PLAIN_REPORT);
    ASSERT_EQ(result.skipped.size(), 1u);
    EXPECT_EQ(result.skipped[0].line, 2u);
    EXPECT_NE(result.skipped[0].reason.find("line 9"), std::string::npos) << result.skipped[0].reason;
    EXPECT_NE(result.skipped[0].reason.find("'Requests/sec:'"), std::string::npos) << result.skipped[0].reason;
    ASSERT_EQ(result.reports.size(), 1u);
    EXPECT_EQ(result.reports[0].firstLine, 10u);
    EXPECT_EQ(result.reports[0].commandLine, "wrk -t12 -c400 -d30s http://localhost:8080");

    // Cut at the end of the text, and cut right before the next report.
    const WrkLogParseResult atEnd = parseWrkLog(cut);
    ASSERT_EQ(atEnd.skipped.size(), 1u);
    EXPECT_TRUE(atEnd.reports.empty());
    EXPECT_EQ(atEnd.skipped[0].line, 1u);
    EXPECT_EQ(atEnd.skipped[0].reason, "report ends before 'Requests/sec:'");
    const std::string header = PLAIN_REPORT.substr(0, PLAIN_REPORT.find("  Thread Stats"));
    const WrkLogParseResult beforeNext = parseWrkLog(header + PLAIN_REPORT);
    ASSERT_EQ(beforeNext.skipped.size(), 1u);
    EXPECT_EQ(beforeNext.skipped[0].reason, "report ends before the 'Thread Stats' header");
    ASSERT_EQ(beforeNext.reports.size(), 1u);
    EXPECT_EQ(beforeNext.reports[0].firstLine, 3u);
}

TEST(WrkLog, GarbledNumbersSkipTheReport)
{
    struct Case
    {
        std::string from, to;
        size_t line;
        std::string what;
    };
    const Case cases[] = {
        { "7.39ms", "7.3x9ms", 4, "the Latency stdev" },
        { "126.27ms", "126.27", 4, "the Latency max" }, // a time needs its unit
        { "63.92k", "63.92q", 5, "the Req/Sec max" },
        { "82.47%", "82.47", 5, "the Req/Sec +/- Stdev" },
        { "3142392 requests", "31423g92 requests", 6, "the request count" },
        { "392.58MB", "392.58XB", 6, "the bytes read" },
        { "30.09s,", "-30.09s,", 6, "the measured duration" },
        { "read 376,", "read 3 76,", 7, "the socket errors" },
        { "104418.14", "104418.1.4", 8, "Requests/sec" },
        { "13.05MB", "13.05", 9, "" }, // a bare number is bytes: fine
        { "12 threads", "1e3 threads", 2, "the thread count" },
        { "400 connections", "99999999999 connections", 2, "the connection count" },
        { "Running 30s", "Running 3x0s", 1, "the test length" },
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.to);
        const WrkLogParseResult result = parseWrkLog(replaceAll(PLAIN_REPORT, c.from, c.to));
        if (c.what.empty()) {
            EXPECT_EQ(result.reports.size(), 1u);
            continue;
        }
        EXPECT_TRUE(result.reports.empty());
        ASSERT_EQ(result.skipped.size(), 1u);
        EXPECT_EQ(result.skipped[0].line, 1u);
        const std::string expected = "line " + std::to_string(c.line) + ": cannot read " + c.what + " in '";
        EXPECT_EQ(result.skipped[0].reason.rfind(expected, 0), 0u) << result.skipped[0].reason;
    }
}

TEST(WrkLog, LinesOutOfOrderOrForeignSkipTheReport)
{
    struct Case
    {
        std::string from, to, reason;
    };
    const std::string errors = "  Socket errors: connect 0, read 376, write 0, timeout 0\n";
    const Case cases[] = {
        { "  3142392 requests", "  Non-2xx or 3xx responses: 7\n  3142392 requests",
            "line 6: expected the 'N requests in T, B read' line, found 'Non-2xx or 3xx responses: 7'" },
        { errors + "Requests/sec: 104418.14\n", "Requests/sec: 104418.14\n" + errors,
            "line 8: expected 'Transfer/sec:', found 'Socket errors: connect 0, read 376, write 0, timeout 0'" },
        { "  3142392 requests", "  (the server log said 200 OK)\n  3142392 requests",
            "line 6: expected the 'N requests in T, B read' line, found '(the server log said 200 OK)'" },
        { "    Req/Sec", "```\n    Req/Sec", "line 5: expected the 'Req/Sec' row, found '```'" },
        { "  Thread Stats", "  Thread Status: fine\n  Thread Stats",
            "line 3: expected the 'Thread Stats' header, found 'Thread Status: fine'" },
    };
    for (const Case& c : cases) {
        const WrkLogParseResult result = parseWrkLog(replaceAll(PLAIN_REPORT, c.from, c.to));
        EXPECT_TRUE(result.reports.empty());
        ASSERT_EQ(result.skipped.size(), 1u);
        EXPECT_EQ(result.skipped[0].line, 1u);
        EXPECT_EQ(result.skipped[0].reason, c.reason);
    }
}

TEST(WrkLog, TimeUnitsUsMsSMH)
{
    const WrkLogParseResult result = parseWrkLog("Running 1h test @ https://example.test/\n"
                                                 "  4 threads and 8 connections\n"
                                                 "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                                                 "    Latency   250.00us    1.50s    2.00m    99.10%\n"
                                                 "    Req/Sec     1.20M     3.00G   400.00     1.00%\n"
                                                 "  Latency Distribution\n"
                                                 "     50%  100.00us\n"
                                                 "     75%    2.50ms\n"
                                                 "     90%    1.25s\n"
                                                 "     99%    1.50h\n"
                                                 "  1000 requests in 1.00h, 512.00B read\n"
                                                 "Requests/sec:      0.28\n"
                                                 "Transfer/sec:       1.50TB\n");
    ASSERT_EQ(result.reports.size(), 1u) << (result.skipped.empty() ? "" : result.skipped[0].reason);
    const WrkLogReport& r = result.reports[0];
    EXPECT_EQ(r.plannedDurationS, 3600);
    EXPECT_DOUBLE_EQ(r.latencyUs.avg, 250);
    EXPECT_DOUBLE_EQ(r.latencyUs.stdev, 1500000);
    EXPECT_DOUBLE_EQ(r.latencyUs.max, 120000000);
    EXPECT_DOUBLE_EQ(r.requestsPerThread.avg, 1200000);
    EXPECT_DOUBLE_EQ(r.requestsPerThread.stdev, 3e9);
    EXPECT_DOUBLE_EQ(r.requestsPerThread.max, 400);
    ASSERT_EQ(r.latencyDistribution.size(), 4u);
    EXPECT_DOUBLE_EQ(r.latencyDistribution[0].valueUs, 100);
    EXPECT_DOUBLE_EQ(r.latencyDistribution[1].valueUs, 2500);
    EXPECT_DOUBLE_EQ(r.latencyDistribution[2].valueUs, 1250000);
    EXPECT_DOUBLE_EQ(r.latencyDistribution[3].valueUs, 5400000000);
    EXPECT_DOUBLE_EQ(r.durationS, 3600);
    EXPECT_EQ(r.bytesRead, 512u);
    EXPECT_DOUBLE_EQ(r.transferBytesPerS, 1.5 * GIB * 1024);

    // "2.00m" in the requests line is minutes.
    const WrkLogParseResult minutes = parseWrkLog(replaceAll(PLAIN_REPORT, "in 30.09s", "in 2.00m"));
    ASSERT_EQ(minutes.reports.size(), 1u);
    EXPECT_DOUBLE_EQ(minutes.reports[0].durationS, 120);
}

TEST(WrkLog, SocketErrorsNon2xxAndNan)
{
    std::string text = replaceAll(PLAIN_REPORT, "connect 0, read 376, write 0, timeout 0",
        "connect 3, read 376, write 2, timeout 41\n  Non-2xx or 3xx responses: 1234");
    // wrk prints -nan for the spread of an empty sample.
    text = replaceAll(text, "7.39ms 126.27ms   88.70%", "-nanus 126.27ms    -nan%");
    const WrkLogParseResult result = parseWrkLog(text);
    ASSERT_EQ(result.reports.size(), 1u) << (result.skipped.empty() ? "" : result.skipped[0].reason);
    const WrkLogReport& r = result.reports[0];
    EXPECT_EQ(r.errorsConnect, 3u);
    EXPECT_EQ(r.errorsRead, 376u);
    EXPECT_EQ(r.errorsWrite, 2u);
    EXPECT_EQ(r.errorsTimeout, 41u);
    EXPECT_EQ(r.non2xx, 1234u);
    EXPECT_EQ(r.latencyUs.stdev, 0);
    EXPECT_EQ(r.latencyUs.withinStdevPct, 0);
    EXPECT_DOUBLE_EQ(r.latencyUs.max, 126270);
    EXPECT_EQ(r.lastLine, 10u);

    // Without any error line.
    const WrkLogParseResult clean
        = parseWrkLog(replaceAll(PLAIN_REPORT, "  Socket errors: connect 0, read 376, write 0, timeout 0\n", ""));
    ASSERT_EQ(clean.reports.size(), 1u);
    EXPECT_EQ(clean.reports[0].errorsRead, 0u);
    EXPECT_EQ(clean.reports[0].lastLine, 8u);
}

TEST(WrkLog, CommandLineForms)
{
    struct Case
    {
        std::string before;
        std::string command; // expected commandLine, "" when none
        bool latency;
        double rate, timeoutS;
    };
    const Case cases[] = {
        { "[root@master01 ambassador]# wrk -t100 -c10000 -d60s --timeout 60s \\\n  http://localhost:8080\n",
            "wrk -t100 -c10000 -d60s --timeout 60s http://localhost:8080", false, 0, 60 },
        { "me@box:~/bench$ sudo ./wrk -t12 -c400 -d30s -L http://localhost:8080\n",
            "./wrk -t12 -c400 -d30s -L http://localhost:8080", true, 0, 0 },
        { "% wrk2 --threads=12 --connections 400 --rate=50k --timeout=2m http://localhost:8080 2>&1\n",
            "wrk2 --threads=12 --connections 400 --rate=50k --timeout=2m http://localhost:8080", false, 50000, 120 },
        { "$ wrk -t12 -c400 -d30s -H 'Host: a b' -s post.lua http://localhost:8080 arg1\nnative - http-pkg\n\n",
            "wrk -t12 -c400 -d30s -H 'Host: a b' -s post.lua http://localhost:8080 arg1", false, 0, 0 },
        { "\xe2\x9e\x9c  bench wrk -LR100 -t12 -c400 http://localhost:8080\n",
            "wrk -LR100 -t12 -c400 http://localhost:8080", true, 100, 0 },
        { "We ran wrk -t12 -c400 -d30s http://localhost:8080 on each box.\n", "", false, 0, 0 }, // prose
        { "Appendix - Full wrk Output\n\nnative - http-pkg\n\n", "", false, 0, 0 },
        { "wrk2 results on the loader box:\n", "", false, 0, 0 },
        { "[root@master01 ambassador]# wrk\nUsage: wrk <options> <url>\n", "", false, 0, 0 }, // printed its usage
        { "$ wrk -t12 -c400 -d30s http://localhost:8080\none\ntwo\nthree\nfour\n", "", false, 0, 0 }, // too far up
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.before);
        const WrkLogParseResult result = parseWrkLog(c.before + PLAIN_REPORT);
        ASSERT_EQ(result.reports.size(), 1u);
        const WrkLogReport& r = result.reports[0];
        EXPECT_EQ(r.commandLine, c.command);
        EXPECT_EQ(r.hasLatencyFlag, c.latency);
        EXPECT_EQ(r.rate, c.rate);
        EXPECT_EQ(r.isWrk2, c.rate > 0 || c.command.starts_with("wrk2"));
        EXPECT_EQ(r.timeoutS, c.timeoutS);
        EXPECT_EQ(r.threads, 12u); // the report's own numbers, whatever the command says
    }
}

TEST(WrkLog, NothingToFind)
{
    for (const std::string& text :
        { std::string(), std::string("\n\n\n"), std::string("Running"), std::string("Running the full test @ home\n"),
            std::string("Running 30s test @"), std::string("\r\r\r\x1b[\x1b]\x1b") }) {
        const WrkLogParseResult result = parseWrkLog(text);
        EXPECT_TRUE(result.reports.empty());
        if (text.starts_with("Running 30s")) {
            ASSERT_EQ(result.skipped.size(), 1u);
            EXPECT_EQ(result.skipped[0].reason, "line 1: cannot read the URL after '@' in 'Running 30s test @'");
        } else {
            EXPECT_TRUE(result.skipped.empty()) << text;
        }
    }
}

namespace {

// Deterministic bytes, so a failure reproduces.
struct Random
{
    uint64_t state;
    uint32_t next()
    {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 33);
    }
};

} // namespace

TEST(WrkLog, BinaryGarbageFindsNothingAndStaysValid)
{
    Random random { 42 };
    std::string garbage;
    for (int i = 0; i < 1 << 20; ++i)
        garbage.push_back(static_cast<char>(random.next() & 0xff));
    // Report beginnings inside the garbage: each is skipped, none crashes.
    for (size_t at = 1000; at < garbage.size(); at += 100000)
        garbage.insert(at, "\nRunning 30s test @ http://\xff\xfe/\n  12 threads and 400 connections\n  Thread Stats");
    const WrkLogParseResult result = parseWrkLog(garbage);
    EXPECT_TRUE(result.reports.empty());
    EXPECT_GE(result.skipped.size(), 10u);
    for (const WrkLogSkip& skip : result.skipped) {
        EXPECT_FALSE(skip.reason.empty());
        EXPECT_TRUE(isValidUtf8(skip.reason)) << skip.reason;
    }
}

namespace {

/// CPU time the calling thread spends in f, in seconds.
template<typename F> double threadCpuSecondsOf(F&& f)
{
    const auto now = [] {
        timespec ts {};
        ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
    };
    const double start = now();
    f();
    return now() - start;
}

} // namespace

TEST(WrkLog, HugeLogIsLinear)
{
    // 50 MB of log-like lines with reports spread through it.
    Random random { 7 };
    const std::string fragments[]
        = { "Running", "  Thread Stats   Avg", "    Latency     5.47ms", "Requests/sec:", "wrk -t2 -c10 http://x",
              "\x1b[31merror\x1b[0m", "Running 30s test @ ", "  12 threads and 400 connections" };
    std::string text;
    text.reserve(52u << 20);
    size_t line = 1;
    std::vector<size_t> reportLines;
    while (text.size() < (50u << 20)) {
        const uint32_t pick = random.next() % 1000;
        if (pick == 0) {
            reportLines.push_back(line);
            text += replaceAll(PLAIN_REPORT, "3142392", std::to_string(reportLines.size()));
            line += 9;
            continue;
        }
        if (pick < 20) text += fragments[pick % std::size(fragments)];
        const size_t length = random.next() % 120;
        for (size_t i = 0; i < length; ++i)
            text.push_back(static_cast<char>(' ' + random.next() % 95));
        text.push_back('\n');
        ++line;
    }
    // Linear, shown by how the cost grows rather than by a limit on it: ten times the
    // text costs about ten times the parse (quadratic would be a hundred). The cost is
    // the parsing thread's CPU time, which another process keeping a core busy does not
    // add to; the bound, 30, leaves room for caches and allocation either way.
    const std::string tenth = text.substr(0, text.find('\n', text.size() / 10) + 1);
    const double tenthS = threadCpuSecondsOf([&] { (void)parseWrkLog(tenth); });
    WrkLogParseResult result;
    const double wholeS = threadCpuSecondsOf([&] { result = parseWrkLog(text); });
    std::cout << "5 MB parsed in " << tenthS << " s, 50 MB in " << wholeS << " s of CPU\n";
    EXPECT_LT(wholeS, 30 * std::max(tenthS, 0.001));
    ASSERT_EQ(result.reports.size(), reportLines.size());
    for (size_t i = 0; i < reportLines.size(); ++i) {
        EXPECT_EQ(result.reports[i].firstLine, reportLines[i]);
        EXPECT_EQ(result.reports[i].requests, i + 1);
    }

    // Worst cases: every line starts a report that ends at once, and one long line;
    // at a tenth and at full size (100000 starts and 10 MB).
    const auto worst = [](int starts, size_t lineBytes) {
        std::string log;
        for (int i = 0; i < starts; ++i)
            log += "Running 1s test @ u\n  1 threads and 1 connections\n";
        return log + std::string(lineBytes, 'R');
    };
    const std::string worstTenth = worst(10000, 1u << 20), worstWhole = worst(100000, 10u << 20);
    const double worstTenthS = threadCpuSecondsOf([&] { (void)parseWrkLog(worstTenth); });
    WrkLogParseResult manyStarts;
    const double worstWholeS = threadCpuSecondsOf([&] { manyStarts = parseWrkLog(worstWhole); });
    EXPECT_LT(worstWholeS, 30 * std::max(worstTenthS, 0.001));
    EXPECT_EQ(manyStarts.skipped.size(), 100000u);
    EXPECT_EQ(manyStarts.skipped.back().line, 199999u);
}
