// Scraping during real runs (engine/prometheus/scrape through RecordedRun): the built-in server's own
// /metrics agrees with what the run counted, a real node_exporter (Debian's
// prometheus-node-exporter, started here on a free loopback port with a deadline) gives CPU
// series that are present and plausible, and a failing or slow endpoint is a warning per
// endpoint, never a failed run. The series are stored with the run and read back whole.

#include "prometheus/scrape/scraper.h"
#include "record/recordedrun.h"
#include "testsupport.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <gtest/gtest.h>
#include <map>
#include <unistd.h>

using namespace wb;

namespace {

RunConfig builtinLoad(const std::string& path, uint64_t durationMs, uint64_t intervalMs)
{
    RunConfig config;
    config.request.url = *parseUrl("http://builtin" + path);
    config.threads = 1;
    config.connections = 4;
    config.durationUs = durationMs * 1000;
    config.intervalUs = intervalMs * 1000;
    return config;
}

const ScrapeSeries* findSeries(const ScrapeRecord& r, const std::string& name, SeriesKind kind)
{
    for (const ScrapeSeries& s : r.series)
        if (s.name == name && s.kind == kind) return &s;
    return nullptr;
}

bool nodeExporterInstalled()
{
    return ::access("/usr/bin/prometheus-node-exporter", X_OK) == 0;
}

} // namespace

// Conservation: the requests the server says it answered between the scrape before the load and
// the one after (its rate added up over the windows) are what the run counted, plus at most the
// requests in flight when it ended (the server answered them; the run no longer counted them).
TEST(Scraper, BuiltinMetricsAgreeWithTheRun)
{
    test::TempDir dir;
    RecordedRunOptions options;
    options.sessionPath = dir.file("s.wrkbench");
    options.scrape.endpoints = { { "server", "http://builtin/metrics" } };
    RecordedRun run(builtinLoad("/", 2000, 200), options);
    const RecordedRunOutcome out = run.run();
    ASSERT_TRUE(out.ran()) << out.error;
    const RunResult& result = *out.result;
    ASSERT_GT(result.requests, 0u);
    const ScrapeRecord& scrape = out.scrape;
    ASSERT_EQ(scrape.endpoints.size(), 1u);
    EXPECT_EQ(scrape.endpoints[0].url, "http://builtin/metrics") << "stored as typed";
    // A scrape during the run may time out on a busy machine (it has 160 ms); the next window then
    // spans both, and the sums below still hold. The scrapes around the load have 2 s.
    EXPECT_LT(scrape.endpoints[0].failures, scrape.endpoints[0].scrapes);
    EXPECT_GE(scrape.endpoints[0].scrapes, 2u + 2000 / 200 / 2) << "before, after and the intervals between";

    // Every scrape that answered has a point of the connections gauge: the windows' ends.
    const ScrapeSeries* connections = findSeries(scrape, "wrkbench_server_connections", SeriesKind::Value);
    const ScrapeSeries* requests = findSeries(scrape, "wrkbench_server_requests_total", SeriesKind::Rate);
    const ScrapeSeries* busy = findSeries(scrape, "wrkbench_server_busy_percent", SeriesKind::Percent);
    ASSERT_NE(connections, nullptr);
    ASSERT_NE(requests, nullptr);
    ASSERT_NE(busy, nullptr);
    ASSERT_EQ(requests->points.size() + 1, connections->points.size());
    double served = 0;
    for (size_t i = 0; i < requests->points.size(); ++i) {
        const ScrapePoint& p = requests->points[i];
        ASSERT_EQ(p.atUnixMs, connections->points[i + 1].atUnixMs);
        served += p.value * static_cast<double>(p.atUnixMs - connections->points[i].atUnixMs) / 1000.0;
    }
    const double counted = static_cast<double>(result.requests + result.warmupRequests);
    EXPECT_GE(std::llround(served), std::llround(counted));
    EXPECT_LE(std::llround(served), std::llround(counted) + 4) << "at most one request in flight per connection";
    for (const ScrapePoint& p : busy->points) {
        EXPECT_GE(p.value, 0);
        EXPECT_LE(p.value, 100);
    }
    EXPECT_EQ(connections->points.front().value, 1) << "before the load: only the scrape's own connection";

    // Stored with the run and read back as it was.
    auto store = SessionStore::open(options.sessionPath);
    ASSERT_TRUE(store.ok()) << store.error();
    auto stored = (*store)->runs().scrapeOf(out.runId);
    ASSERT_TRUE(stored.ok()) << stored.error();
    EXPECT_EQ(*stored, scrape);
    ASSERT_TRUE((*store)->runs().remove(out.runId).ok());
    EXPECT_TRUE((*store)->runs().scrapeOf(out.runId)->endpoints.empty()) << "a run's metrics go with it";
}

TEST(Scraper, NodeExporterDuringARealRun)
{
    if (!nodeExporterInstalled()) {
        if (test::underCi()) FAIL() << "prometheus-node-exporter is not installed (packaging/install-deps.sh)";
        GTEST_SKIP() << "prometheus-node-exporter is not installed (packaging/install-deps.sh installs it)";
    }
    test::TempDir dir;
    const uint16_t port = test::freeTcpPort();
    test::ChildProcess exporter;
    // `timeout` is the deadline: the exporter ends by itself even if this test does not.
    ASSERT_TRUE(exporter.start({ "timeout", "120", "/usr/bin/prometheus-node-exporter",
                                   "--web.listen-address=127.0.0.1:" + std::to_string(port),
                                   "--collector.disable-defaults", "--collector.cpu", "--collector.loadavg" },
        dir.file("exporter.log")));
    ASSERT_TRUE(test::waitForPort("127.0.0.1", port, test::scaledMs(20'000)))
        << test::readFile(dir.file("exporter.log"));

    RecordedRunOptions options;
    options.scrape.endpoints = { { "node", "http://127.0.0.1:" + std::to_string(port) + "/metrics" },
        { "server", "http://builtin/metrics" } };
    options.scrape.metricRegex = "node_load1";
    RecordedRun run(builtinLoad("/", 3000, 500), options);
    const RecordedRunOutcome out = run.run();
    ASSERT_TRUE(out.ran()) << out.error;
    const ScrapeRecord& scrape = out.scrape;
    ASSERT_EQ(scrape.endpoints.size(), 2u);
    EXPECT_LT(scrape.endpoints[0].failures, scrape.endpoints[0].scrapes);

    // Busy: present, a share, and above nothing while this machine served and loaded for 3 s.
    const ScrapeSeries* busy = findSeries(scrape, "node_cpu_busy_percent", SeriesKind::Percent);
    ASSERT_NE(busy, nullptr);
    EXPECT_GE(busy->points.size(), 3u);
    double most = 0;
    for (const ScrapePoint& p : busy->points) {
        EXPECT_GE(p.value, 0);
        EXPECT_LE(p.value, 100);
        most = std::max(most, p.value);
    }
    EXPECT_GT(most, 0);
    // Per mode: the modes of each window share 100%.
    std::map<int64_t, double> perWindow;
    size_t modes = 0;
    for (const ScrapeSeries& s : scrape.series)
        if (s.name.rfind("node_cpu_mode_percent{", 0) == 0) {
            ++modes;
            for (const ScrapePoint& p : s.points)
                perWindow[p.atUnixMs] += p.value;
        }
    EXPECT_GE(modes, 4u) << "user, system, idle, ... as node_exporter names them";
    for (const auto& [at, sum] : perWindow)
        EXPECT_NEAR(sum, 100, 1e-6) << at;
    // The user's own filter: a gauge kept as it is, from the scrape before the load on.
    const ScrapeSeries* load = findSeries(scrape, "node_load1", SeriesKind::Value);
    ASSERT_NE(load, nullptr);
    // One load point per scrape; one busy point per window whose CPU counters moved, at the
    // window's closing scrape. node_exporter reads /proc/stat in 10 ms ticks, so the short window
    // from the last interval's scrape to the one after the run may show no CPU time at all
    // (CI, with the other core busy: 8 load points, 6 busy).
    EXPECT_GE(load->points.size(), busy->points.size() + 1);
    EXPECT_LE(load->points.size(), busy->points.size() + 2);
    for (const ScrapePoint& p : busy->points)
        EXPECT_TRUE(std::any_of(
            load->points.begin(), load->points.end(), [&](const ScrapePoint& q) { return q.atUnixMs == p.atUnixMs; }))
            << "a busy window that ends at no scrape: " << p.atUnixMs;
    EXPECT_EQ(findSeries(scrape, "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"}", SeriesKind::Rate), nullptr)
        << "the preset reads the raw counters without showing them";
    EXPECT_NE(findSeries(scrape, "wrkbench_server_busy_percent", SeriesKind::Percent), nullptr);
    exporter.signalAndWait(SIGTERM, 5000);
}

TEST(Scraper, FailingEndpointsAreWarningsNotFailedRuns)
{
    const uint16_t closed = test::freeTcpPort();
    RecordedRunOptions options;
    std::vector<std::string> warnings;
    options.onWarning = [&](const std::string& w) { warnings.push_back(w); };
    options.scrape.endpoints = { { "gone", "http://127.0.0.1:" + std::to_string(closed) + "/metrics" },
        { "missing", "http://builtin/status/404" }, { "slow", "http://builtin/delay/5000" },
        { "server", "http://builtin/metrics" } };
    RecordedRun run(builtinLoad("/", 1000, 200), options);
    const RecordedRunOutcome out = run.run();
    ASSERT_TRUE(out.ran()) << out.error;
    EXPECT_GT(out.result->requests, 0u);
    const ScrapeRecord& scrape = out.scrape;
    ASSERT_EQ(scrape.endpoints.size(), 4u);
    for (size_t i = 0; i < 3; ++i) {
        const ScrapeEndpointStats& e = scrape.endpoints[i];
        EXPECT_EQ(e.failures, e.scrapes) << e.name;
        ASSERT_FALSE(e.warnings.empty()) << e.name;
        EXPECT_EQ(e.warnings[0].rfind("scrape '" + e.name + "': ", 0), 0u) << e.warnings[0];
        const bool said
            = std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) { return w == e.warnings[0]; });
        EXPECT_TRUE(said) << e.warnings[0];
    }
    EXPECT_NE(scrape.endpoints[1].warnings[0].find("HTTP status 404"), std::string::npos);
    // Within the interval (200 ms): 160 ms; the scrapes around the load may wait 2 s.
    EXPECT_NE(scrape.endpoints[2].warnings[0].find("no answer within"), std::string::npos);
    EXPECT_LT(scrape.endpoints[3].failures, scrape.endpoints[3].scrapes) << "one endpoint's trouble is its own";
    EXPECT_NE(findSeries(scrape, "wrkbench_server_requests_total", SeriesKind::Rate), nullptr);
}

TEST(Scraper, CheckReadsEachEndpointOnce)
{
    auto spec = resolveBuiltinScrape(
        { { { "server", "http://builtin/metrics" }, { "bad", "http://builtin/status/500" } }, "" });
    ASSERT_TRUE(spec.ok()) << spec.error();
    const std::vector<ScrapeCheck> checks = Scraper::check(*spec);
    ASSERT_EQ(checks.size(), 2u);
    EXPECT_TRUE(checks[0].error.empty()) << checks[0].error;
    EXPECT_EQ(checks[0].samplesSeen, 7u) << "requests, two busy threads, connections, threads, refused, queue wait";
    EXPECT_NE(std::find(checks[0].kept.begin(), checks[0].kept.end(), "preset wrkbench"), checks[0].kept.end());
    EXPECT_EQ(checks[1].error, "HTTP status 500");
}
