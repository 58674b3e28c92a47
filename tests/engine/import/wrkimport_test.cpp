// Importing wrk/wrk2 reports: what the report says ends up in the run, all
// reports of a log are stored together or not at all. The parser's own tests
// check its numbers; here the reference logs go through parser and store.

#include "import/wrkimport.h"
#include "storetestutil.h"
#include "testsupport.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;
using namespace wb::storetest;

namespace {

WrkLogReport wrk2Report()
{
    WrkLogReport r;
    r.firstLine = 3;
    r.lastLine = 40;
    r.isWrk2 = true;
    r.commandLine = "wrk -t2 -c100 -d30s -R2000 --latency http://svc.default... :80/echo";
    r.hasLatencyFlag = true;
    r.rate = 2000;
    r.timeoutS = 60;
    r.url = "http://svc.default... :80/echo"; // redacted in the blog post: does not parse
    r.plannedDurationS = 30;
    r.threads = 2;
    r.connections = 100;
    r.latencyUs = { 1520, 610, 9870, 71.25 };
    r.requestsPerThread = { 1050, 120.5, 1500, 68.5 };
    r.latencyDistribution
        = { { 50, 1450 }, { 75, 1900 }, { 90, 2300 }, { 99, 4100 }, { 99.9, 8000 }, { 99.99, 9800 }, { 100, 9870 } };
    r.spectrum = { { 800, 0.1, 6000 }, { 1450, 0.5, 30000 }, { 4100, 0.99, 59400 }, { 9870, 1.0, 60000 } };
    r.requests = 60000;
    r.durationS = 30.01;
    r.bytesRead = 7340032;
    r.errorsRead = 3;
    r.errorsTimeout = 2;
    r.non2xx = 17;
    r.requestsPerS = 1999.33;
    r.transferBytesPerS = 244578.5;
    return r;
}

ImportOptions importing(const std::string& target, const std::vector<std::string>& tags, const std::string& source)
{
    ImportOptions o;
    o.targetName = target;
    o.tags = tags;
    o.sourceName = source;
    return o;
}

std::string referenceDir()
{
    return test::sourceDir() + "/../shared/reference";
}

} // namespace

TEST(Import, StoresEverythingTheReportSays)
{
    test::TempDir dir;
    auto store = openStore(dir.file("s.wrkbench"));
    auto ids = importWrkReports(*store, { wrk2Report() }, importing("", { "Ambassador" }, "blog.txt"));
    ASSERT_TRUE(ids.ok()) << ids.error();
    ASSERT_EQ(ids->size(), 1u);
    auto data = store->runs().load(ids->front());
    ASSERT_TRUE(data.ok()) << data.error();
    const RunRecord& r = data->run;
    EXPECT_EQ(r.status, RunStatus::Imported);
    EXPECT_EQ(r.targetName, "http://svc.default... :80/echo") << "named after the report's URL";
    EXPECT_EQ(r.url, "http://svc.default... :80/echo");
    EXPECT_EQ(r.engineVersion, "wrk2");
    EXPECT_EQ(r.source, "blog.txt:3-40");
    EXPECT_EQ(r.commandLine, wrk2Report().commandLine);
    EXPECT_EQ(r.startedAtMs, 0);
    EXPECT_EQ(r.hostName, "");
    EXPECT_EQ(r.tags, std::vector<std::string> { "Ambassador" });
    EXPECT_EQ(r.config.threads, 2u);
    EXPECT_EQ(r.config.connections, 100u);
    EXPECT_EQ(r.config.durationUs, 30'000'000u);
    EXPECT_EQ(r.config.ratePerS, 2000);
    EXPECT_EQ(r.config.timeoutUs, 60'000'000u);
    ASSERT_TRUE(r.hasTotals);
    const RunTotals& t = r.totals;
    EXPECT_EQ(t.requests, 60000u);
    EXPECT_DOUBLE_EQ(t.durationS, 30.01);
    EXPECT_EQ(t.bytes, 7340032u);
    EXPECT_DOUBLE_EQ(t.requestsPerS, 1999.33);
    EXPECT_DOUBLE_EQ(t.bytesPerS, 244578.5);
    EXPECT_EQ(t.errors.read, 3u);
    EXPECT_EQ(t.errors.timeout, 2u);
    EXPECT_EQ(t.non2xx, 17u);
    EXPECT_EQ(t.errors.transportErrors(), 5u);
    EXPECT_DOUBLE_EQ(t.latency.meanUs, 1520);
    EXPECT_DOUBLE_EQ(t.latency.stdevUs, 610);
    EXPECT_DOUBLE_EQ(t.latency.maxUs, 9870);
    EXPECT_DOUBLE_EQ(t.latency.withinStdevPct, 71.25);
    EXPECT_TRUE(std::isnan(t.latency.minUs)) << "wrk prints no minimum";
    EXPECT_DOUBLE_EQ(t.latency.p50Us, 1450);
    EXPECT_DOUBLE_EQ(t.latency.p99Us, 4100);
    EXPECT_DOUBLE_EQ(t.latency.p9999Us, 9800);
    EXPECT_DOUBLE_EQ(t.threadRate.mean, 1050);
    EXPECT_DOUBLE_EQ(t.threadRate.stdev, 120.5);
    EXPECT_DOUBLE_EQ(t.threadRate.max, 1500);
    EXPECT_DOUBLE_EQ(t.threadRate.withinStdevPct, 68.5);
    EXPECT_TRUE(std::isnan(t.serviceLatency.p50Us));

    ASSERT_EQ(data->latencyDistribution.size(), 7u);
    EXPECT_DOUBLE_EQ(data->latencyDistribution[4].percentile, 99.9);
    EXPECT_DOUBLE_EQ(data->latencyDistribution[4].valueUs, 8000);
    ASSERT_EQ(data->spectrum.size(), 4u);
    EXPECT_DOUBLE_EQ(data->spectrum[2].percentile, 99);
    EXPECT_DOUBLE_EQ(data->spectrum[2].valueUs, 4100);
    EXPECT_EQ(data->spectrum[2].totalCount, 59400u);
    EXPECT_FALSE(data->latency.has_value());
}

TEST(Import, PercentilesFallBackToTheSpectrum)
{
    test::TempDir dir;
    auto store = openStore(dir.file("s.wrkbench"));
    WrkLogReport r = wrk2Report();
    r.latencyDistribution.clear();
    auto ids = importWrkReports(*store, { r }, importing("Ambassador", {}, ""));
    ASSERT_TRUE(ids.ok()) << ids.error();
    auto run = store->runs().record(ids->front());
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->targetName, "Ambassador");
    EXPECT_DOUBLE_EQ(run->totals.latency.p50Us, 1450);
    EXPECT_DOUBLE_EQ(run->totals.latency.p75Us, 4100) << "first spectrum row at or above 75%";
    EXPECT_DOUBLE_EQ(run->totals.latency.p99Us, 4100);
}

TEST(Import, ALogIsStoredWholeOrNotAtAll)
{
    test::TempDir dir;
    auto store = openStore(dir.file("s.wrkbench"));
    WrkLogReport second = wrk2Report();
    second.url = "http://other/";
    // The failure comes after the first report and a new target were written.
    auto ids = importWrkReports(*store, { wrk2Report(), second }, importing("", { "bad,tag" }, ""));
    ASSERT_FALSE(ids.ok());
    EXPECT_NE(ids.error().find("bad,tag"), std::string::npos) << ids.error();
    EXPECT_TRUE(store->runs().list()->empty());
    EXPECT_TRUE(store->targets().all()->empty());
}

TEST(Import, ReferenceLogsThroughParserAndStore)
{
    test::TempDir dir;
    auto store = openStore(dir.file("s.wrkbench"));
    const std::string path = referenceDir() + "/container-performance-comparison.txt";
    const WrkLogParseResult parsed = parseWrkLog(test::readFile(path));
    ASSERT_EQ(parsed.reports.size(), 8u);
    auto ids = importWrkReports(*store, parsed.reports, importing("", { "containers" }, path));
    ASSERT_TRUE(ids.ok()) << ids.error();
    ASSERT_EQ(ids->size(), 8u);

    // "native - http-pkg", the first report.
    auto first = store->runs().load(ids->at(0));
    ASSERT_TRUE(first.ok());
    const RunTotals& t = first->run.totals;
    EXPECT_EQ(first->run.targetName, "http://localhost:8080");
    EXPECT_EQ(first->run.config.threads, 12u);
    EXPECT_EQ(first->run.config.connections, 400u);
    EXPECT_EQ(first->run.config.durationUs, 30'000'000u);
    EXPECT_EQ(t.requests, 3142392u);
    EXPECT_NEAR(t.durationS, 30.09, 1e-9);
    EXPECT_NEAR(static_cast<double>(t.bytes), 392.58 * 1024 * 1024, 0.01 * 1024 * 1024);
    EXPECT_NEAR(t.requestsPerS, 104418.14, 1e-6);
    EXPECT_NEAR(t.bytesPerS, 13.05 * 1024 * 1024, 0.01 * 1024 * 1024);
    EXPECT_NEAR(t.latency.meanUs, 5470, 0.5);
    EXPECT_NEAR(t.latency.stdevUs, 7390, 0.5);
    EXPECT_NEAR(t.latency.maxUs, 126270, 0.5);
    EXPECT_NEAR(t.latency.withinStdevPct, 88.70, 1e-9);
    EXPECT_NEAR(t.threadRate.mean, 8780, 0.5);
    EXPECT_NEAR(t.threadRate.max, 63920, 0.5);
    EXPECT_EQ(t.errors.read, 376u);
    EXPECT_EQ(t.errors.connect, 0u);
    EXPECT_EQ(first->run.source,
        path + ":" + std::to_string(parsed.reports[0].firstLine) + "-" + std::to_string(parsed.reports[0].lastLine));

    // "Native - rocket", the last one, on another port: another target.
    auto last = store->runs().record(ids->at(7));
    ASSERT_TRUE(last.ok());
    EXPECT_EQ(last->targetName, "http://localhost:8000");
    EXPECT_EQ(last->totals.requests, 4791067u);
    EXPECT_NEAR(last->totals.requestsPerS, 159194.28, 1e-6);
    EXPECT_EQ(store->runs().list(filterOf("http://localhost:8080"))->size(), 7u);
    EXPECT_EQ(store->runs().list(filterOf("", { "containers" }))->size(), 8u);

    // The other reference file: whatever the parser finds is stored, nothing more.
    const std::string other = referenceDir() + "/ambassador-vs-service-wrk.txt";
    const WrkLogParseResult parsedOther = parseWrkLog(test::readFile(other));
    auto otherIds = importWrkReports(*store, parsedOther.reports, importing("", {}, other));
    ASSERT_TRUE(otherIds.ok()) << otherIds.error();
    EXPECT_EQ(otherIds->size(), parsedOther.reports.size());
    EXPECT_EQ(store->runs().list()->size(), 8u + parsedOther.reports.size());
}
