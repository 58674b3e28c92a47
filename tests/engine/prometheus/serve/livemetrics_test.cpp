// --metrics-listen's exposition: counters are the intervals added up, gauges the last interval's,
// the latency histogram's buckets cumulative and consistent with the run's histogram; and the
// server answers a scrape over a real loopback socket, refuses anything else, and says when the
// finished run has been scraped.

#include "prometheus/exposition/exposition.h"
#include "prometheus/serve/metricsserver.h"
#include "testsupport.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <map>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

using namespace wb;

namespace {

/// "name{labels}" -> value, for every sample line.
std::map<std::string, double> samples(const std::string& text)
{
    std::map<std::string, double> out;
    for (const std::string& line : test::splitLines(text)) {
        if (line.empty() || line[0] == '#') continue;
        const size_t space = line.rfind(' ');
        out[line.substr(0, space)] = std::stod(line.substr(space + 1));
    }
    return out;
}

const std::string LABELS = R"(run="r1",target="t \"x\"",loader="h")";

IntervalRecord interval(uint32_t index, uint64_t ok, uint64_t failed, uint64_t latencyUs, uint32_t inFlight)
{
    IntervalSnapshot s;
    s.index = index;
    s.startS = index;
    s.endS = index + 1;
    s.requests = ok + failed;
    s.status.byCode[200] = ok;
    s.status.byCode[503] = failed;
    s.errors.timeout = 1;
    s.bytes = 100 * s.requests;
    s.latency.recordN(latencyUs, ok + failed);
    s.connections = 4;
    s.inFlight = inFlight;
    s.loaderCost.workerWallUs = 1'000'000;
    s.loaderCost.workerCpuUs = 500'000;
    return IntervalRecord::of(s);
}

sockaddr_in loopback(uint16_t port)
{
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

/// One HTTP exchange with the server: what it answered ("" when nothing came within guardMs, a
/// bound only against a hang).
std::string exchange(uint16_t port, const std::string& request, int guardMs = 60'000)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    const timeval guard { guardMs / 1000, (guardMs % 1000) * 1000 };
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof guard);
    const sockaddr_in a = loopback(port);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return {};
    }
    ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string out;
    char buffer[4096];
    for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
        out.append(buffer, static_cast<size_t>(n));
    ::close(fd);
    return out;
}

/// A peer that connects and never says anything (connect not waited for: the server's backlog
/// may be full).
int idlePeer(uint16_t port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    const sockaddr_in a = loopback(port);
    (void)::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a);
    return fd;
}

/// The server has not closed fd: nothing to read, no end of stream.
bool stillOpen(int fd)
{
    pollfd p { fd, POLLIN, 0 };
    return ::poll(&p, 1, 0) == 0;
}

} // namespace

TEST(LiveMetrics, CountersAddUpGaugesAreTheLastIntervals)
{
    LiveMetrics m({ "r1", "t \"x\"", "h" });
    m.onStarted(RunConfig {});
    m.onInterval(interval(0, 90, 10, 800, 7)); // 0.8 ms
    m.onInterval(interval(1, 50, 0, 30'000, 3)); // 30 ms
    auto s = samples(m.render());
    EXPECT_EQ(s["wrkbench_requests_total{" + LABELS + ",status_class=\"2xx\"}"], 140);
    EXPECT_EQ(s["wrkbench_requests_total{" + LABELS + ",status_class=\"5xx\"}"], 10);
    EXPECT_EQ(s["wrkbench_requests_total{" + LABELS + ",status_class=\"other\"}"], 0);
    EXPECT_EQ(s["wrkbench_errors_total{" + LABELS + ",kind=\"timeout\"}"], 2);
    EXPECT_EQ(s["wrkbench_errors_total{" + LABELS + ",kind=\"connect\"}"], 0);
    EXPECT_EQ(s["wrkbench_read_bytes_total{" + LABELS + "}"], 15'000);
    EXPECT_EQ(s["wrkbench_in_flight_requests{" + LABELS + "}"], 3);
    EXPECT_EQ(s["wrkbench_connections{" + LABELS + "}"], 4);
    // Cumulative buckets: the 100 answers of 0.8 ms are under 1 ms, the 50 of 30 ms under 50 ms.
    const std::string bucket = "wrkbench_request_duration_seconds_bucket{" + LABELS + ",le=";
    EXPECT_EQ(s[bucket + "\"0.0005\"}"], 0);
    EXPECT_EQ(s[bucket + "\"0.001\"}"], 100);
    EXPECT_EQ(s[bucket + "\"0.025\"}"], 100);
    EXPECT_EQ(s[bucket + "\"0.05\"}"], 150);
    EXPECT_EQ(s[bucket + "\"+Inf\"}"], 150);
    EXPECT_EQ(s["wrkbench_request_duration_seconds_count{" + LABELS + "}"], 150);
    EXPECT_DOUBLE_EQ(s["wrkbench_request_duration_seconds_sum{" + LABELS + "}"], 100 * 0.0008 + 50 * 0.03);
    EXPECT_DOUBLE_EQ(s["wrkbench_loader_worker_cpu_seconds_total{" + LABELS + "}"], 1.0);
    EXPECT_DOUBLE_EQ(s["wrkbench_loader_worker_busy_ratio{" + LABELS + "}"], 0.5);
    EXPECT_EQ(s["wrkbench_run_finished{" + LABELS + "}"], 0);
    EXPECT_FALSE(m.finished());
    m.onFinished(RunResult {});
    s = samples(m.render());
    EXPECT_EQ(s["wrkbench_run_finished{" + LABELS + "}"], 1);
    EXPECT_EQ(s["wrkbench_in_flight_requests{" + LABELS + "}"], 0);
    EXPECT_EQ(s["wrkbench_requests_total{" + LABELS + ",status_class=\"2xx\"}"], 140) << "counters stay";
}

TEST(LiveMetrics, EveryBucketIsCumulative)
{
    LiveMetrics m({ "r", "t", "l" });
    for (uint32_t i = 0; i < 40; ++i)
        m.onInterval(interval(i, 1 + i, 0, 100 + 37'000ULL * i * i, 1));
    unsigned buckets = 0;
    for (const auto& [name, value] : samples(m.render()))
        if (name.rfind("wrkbench_request_duration_seconds_bucket", 0) == 0) ++buckets;
    EXPECT_EQ(buckets, LATENCY_BUCKET_BOUNDS_S.size() + 1);
    // In bound order (the map sorts the names as text, so walk the bounds themselves).
    const auto s = samples(m.render());
    double previous = 0;
    for (double bound : LATENCY_BUCKET_BOUNDS_S) {
        char key[128];
        std::snprintf(key, sizeof key,
            "wrkbench_request_duration_seconds_bucket{run=\"r\",target=\"t\",loader=\"l\",le=\"%g\"}", bound);
        ASSERT_TRUE(s.count(key)) << key;
        EXPECT_GE(s.at(key), previous) << key;
        previous = s.at(key);
    }
    EXPECT_LE(previous, s.at("wrkbench_request_duration_seconds_count{run=\"r\",target=\"t\",loader=\"l\"}"));
}

// The writer beside its reader: what --metrics-listen serves is read back by the parser --scrape
// uses (engine/prometheus/exposition) without a bad line, every family typed as written, and the same values
// (wrkbench scraping another wrkbench gets what that one counted).
TEST(LiveMetrics, OurOwnParserReadsItWhole)
{
    LiveMetrics m({ "r1", "t \"x\"", "h" });
    m.onStarted(RunConfig {});
    m.onInterval(interval(0, 90, 10, 800, 7));
    m.onInterval(interval(1, 50, 0, 30'000, 3));
    const std::string text = m.render();
    const Exposition e = parseExposition(text);
    EXPECT_EQ(e.badLines, 0u) << (e.warnings.empty() ? std::string() : e.warnings.front());
    EXPECT_FALSE(e.truncated);
    const auto written = samples(text);
    EXPECT_EQ(e.samples.size(), written.size());
    size_t compared = 0;
    for (const MetricSample& sample : e.samples) {
        std::string labels;
        for (const MetricLabel& l : sample.labels)
            labels += (labels.empty() ? "" : ",") + l.name + "=\"" + escapeLabelValue(l.value) + "\"";
        const std::string key = sample.name + (labels.empty() ? "" : "{" + labels + "}");
        ASSERT_TRUE(written.count(key)) << key;
        EXPECT_DOUBLE_EQ(sample.value, written.at(key)) << key;
        ++compared;
        if (sample.name == "wrkbench_requests_total") {
            EXPECT_EQ(sample.type, MetricType::Counter) << key;
        }
        if (sample.name.rfind("wrkbench_request_duration_seconds", 0) == 0) {
            EXPECT_EQ(sample.type, MetricType::Histogram) << key;
        }
        if (sample.name == "wrkbench_in_flight_requests") {
            EXPECT_EQ(sample.type, MetricType::Gauge) << key;
        }
    }
    EXPECT_EQ(compared, written.size());
    EXPECT_GT(compared, 20u);
}

TEST(MetricsServer, AnswersAScrapeAndRefusesTheRest)
{
    MetricsServer server({ "r", "t", "l" });
    ASSERT_TRUE(server.listen("127.0.0.1:0").ok());
    ASSERT_GT(server.port(), 0);
    server.metrics().onInterval(interval(0, 5, 0, 1000, 1));
    const std::string ok = exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(ok.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << ok;
    EXPECT_NE(ok.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
    EXPECT_NE(ok.find("wrkbench_requests_total{run=\"r\",target=\"t\",loader=\"l\",status_class=\"2xx\"} 5\n"),
        std::string::npos);
    EXPECT_EQ(exchange(server.port(), "GET / HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0u);
    EXPECT_EQ(exchange(server.port(), "POST /metrics HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
    EXPECT_EQ(exchange(server.port(), std::string(9000, 'a')).rfind("HTTP/1.1 431", 0), 0u);
    // Read by the server side's one request reader (http/serverrequest.h), with its answers.
    EXPECT_EQ(exchange(server.port(), "GET  /metrics HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
    EXPECT_EQ(exchange(server.port(), "GET /metrics HTTP/2.0\r\n\r\n").rfind("HTTP/1.1 505", 0), 0u);
    EXPECT_EQ(exchange(server.port(), "GET /metrics HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789")
                  .rfind("HTTP/1.1 413", 0),
        0u);
    EXPECT_EQ(exchange(server.port(), "GET /metrics HTTP/1.1\r\nBad Name: x\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
    EXPECT_EQ(server.scrapes(), 1u);
    EXPECT_EQ(exchange(server.port(), "GET /metrics?name[]=x HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 200", 0), 0u);
    EXPECT_EQ(server.scrapes(), 2u);
    // Not yet finished: lingering waits for a scrape of the finished run, which has not come.
    EXPECT_FALSE(server.lingerUntilScraped(1000));
    server.metrics().onFinished(RunResult {});
    EXPECT_NE(
        exchange(server.port(), "GET /metrics HTTP/1.0\r\n\r\n").find("wrkbench_run_finished{"), std::string::npos);
    EXPECT_TRUE(server.lingerUntilScraped(1000));
}

// Four peers that connected and said nothing held a scrape 7.8 s when the server answered one
// connection at a time, waiting 2 s on each: Prometheus' scrapes then failed. Connections are now
// served side by side, so the scrape is answered while the four are still open; and a hundred
// (more than the server keeps) cannot keep it out either.
TEST(MetricsServer, IdlePeersDelayNoScrape)
{
    MetricsServer server({ "r", "t", "l" });
    ASSERT_TRUE(server.listen("127.0.0.1:0").ok());
    server.metrics().onInterval(interval(0, 5, 0, 1000, 1));
    std::vector<int> idle;
    for (int i = 0; i < 4; ++i)
        idle.push_back(idlePeer(server.port()));
    const std::string answer = exchange(server.port(), "GET /metrics HTTP/1.1\r\n\r\n");
    EXPECT_EQ(answer.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << answer;
    for (const int fd : idle)
        EXPECT_TRUE(stillOpen(fd)) << "answered only after an idle peer was given up";

    for (int i = 0; i < 100; ++i)
        idle.push_back(idlePeer(server.port()));
    const std::string crowded = exchange(server.port(), "GET /metrics HTTP/1.1\r\n\r\n");
    EXPECT_EQ(crowded.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << crowded;
    EXPECT_EQ(server.scrapes(), 2u);
    for (const int fd : idle)
        ::close(fd);
}

TEST(MetricsServer, AnAddressInUseOrNotAnAddressIsOneSentence)
{
    MetricsServer first({ "r", "t", "l" });
    ASSERT_TRUE(first.listen("127.0.0.1:0").ok());
    MetricsServer second({ "r", "t", "l" });
    const Status taken = second.listen("127.0.0.1:" + std::to_string(first.port()));
    ASSERT_FALSE(taken.ok());
    EXPECT_NE(taken.error().find("cannot listen on 127.0.0.1:"), std::string::npos) << taken.error();
    MetricsServer third({ "r", "t", "l" });
    const Status bad = third.listen("localhost");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error(), "--metrics-listen: 'localhost' is not an address (ip:port or [ipv6]:port)");
}

// Prometheus' own linter reads the exposition as Prometheus does, and holds it to the naming
// conventions (counters end in _total, units in the names, HELP and TYPE for every family).
TEST(LiveMetrics, PromtoolFindsNothingToSay)
{
    if (test::runProcess({ "sh", "-c", "command -v promtool" }, 5000).exitCode != 0) {
        if (test::underCi()) FAIL() << "promtool (Debian's prometheus) is not installed, and CI must check with it";
        GTEST_SKIP() << "promtool is not installed (packaging/install-deps.sh installs prometheus)";
    }
    LiveMetrics m({ "2026-12-04T21:00:00Z", "http://127.0.0.1:8080/", "loader-1" });
    m.onStarted(RunConfig {});
    m.onInterval(interval(0, 90, 10, 800, 7));
    m.onInterval(interval(1, 50, 0, 30'000, 3));
    test::TempDir dir;
    test::writeFile(dir.file("metrics.txt"), m.render());
    const auto r = test::runProcess({ "sh", "-c", "promtool check metrics < " + dir.file("metrics.txt") }, 30'000);
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(r.out + r.err, "") << "promtool's lint findings";
}
