// --metrics-listen as Prometheus sees it: a real Prometheus server (Debian's `prometheus`),
// started here on loopback with a 1 s scrape interval, scrapes wrkbench-cli while it runs
// against a real nginx; after the run its HTTP API must agree with the run's own JSON: the
// responses and errors exactly, and the p99 within the bucket that holds the run's p99 (a
// classic histogram knows only its bucket counts: histogram_quantile interpolates inside the
// bucket, so the bucket's bounds are all it can promise).

#include "requirenginx.h"
#include "testsupport.h"

#include <arpa/inet.h>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <csignal>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace wb;

namespace {

// The bucket bounds wrkbench exposes (livemetrics/livemetrics.h), seconds.
constexpr std::array<double, 14> BOUNDS_S
    = { 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 };

bool prometheusAvailable()
{
    return test::runProcess({ "sh", "-c", "command -v prometheus" }, 5000).exitCode == 0;
}

/// GET path from 127.0.0.1:port over HTTP/1.0: the body ("" when it failed).
std::string httpGet(uint16_t port, const std::string& path)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval tv { 5, 0 };
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return {};
    }
    const std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string out;
    char buffer[8192];
    for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
        out.append(buffer, static_cast<size_t>(n));
    ::close(fd);
    const size_t body = out.find("\r\n\r\n");
    return body == std::string::npos ? std::string() : out.substr(body + 4);
}

std::string urlEncoded(const std::string& text)
{
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '_' || c == '.' || c == '-')
            out += static_cast<char>(c);
        else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

/// The value of a PromQL query that yields one sample; NaN when there is none (yet).
double query(uint16_t port, const std::string& promql)
{
    const std::string body = httpGet(port, "/api/v1/query?query=" + urlEncoded(promql));
    const auto j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_discarded() || j.value("status", "") != "success") return std::nan("");
    const auto& result = j["data"]["result"];
    if (!result.is_array() || result.size() != 1) return std::nan("");
    return std::stod(result[0]["value"][1].get<std::string>());
}

class MetricsCli : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(); }
    static void TearDownTestSuite() { stopNginx(); }
};

} // namespace

TEST_F(MetricsCli, ARealPrometheusScrapesTheRunAndAgreesWithItsJson)
{
    if (!prometheusAvailable()) {
        if (test::underCi()) FAIL() << "prometheus is not installed, and CI must test against it";
        GTEST_SKIP() << "prometheus is not installed (packaging/install-deps.sh installs it)";
    }
    test::TempDir dir;
    const uint16_t metricsPort = test::freeTcpPort();
    const uint16_t webPort = test::freeTcpPort();
    test::writeFile(dir.file("prometheus.yml"),
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n"
        "scrape_configs:\n  - job_name: wrkbench\n    static_configs:\n      - targets: ['127.0.0.1:"
            + std::to_string(metricsPort) + "']\n");
    test::ChildProcess prometheus;
    // Its own deadline: the server ends by itself should this test die without stopping it.
    ASSERT_TRUE(prometheus.start(
        { "timeout", "120", "prometheus", "--config.file=" + dir.file("prometheus.yml"),
            "--storage.tsdb.path=" + dir.file("tsdb"), "--web.listen-address=127.0.0.1:" + std::to_string(webPort) },
        dir.file("prometheus.log")));
    ASSERT_TRUE(test::waitForPort("127.0.0.1", webPort, test::scaledMs(30'000)))
        << test::readFile(dir.file("prometheus.log"));
    // Ready, and its scrape loop going: it has tried the target (down until the run starts), so the
    // run's scrapes come every second from its start.
    bool scraping = false;
    const auto readyBy = std::chrono::steady_clock::now() + std::chrono::milliseconds(test::scaledMs(30'000));
    while (!scraping && std::chrono::steady_clock::now() < readyBy) {
        const auto targets = nlohmann::json::parse(httpGet(webPort, "/api/v1/targets"), nullptr, false);
        if (!targets.is_discarded() && targets.contains("data"))
            for (const auto& t : targets["data"]["activeTargets"])
                scraping = scraping || t.value("lastScrape", "0001-").rfind("0001-", 0) != 0;
        if (!scraping) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ASSERT_TRUE(scraping) << test::readFile(dir.file("prometheus.log"));

    const std::string url = "http://127.0.0.1:" + std::to_string(nginx().port()) + "/";
    const auto r = test::runCli({ "-t2", "-c8", "-d5s", "--metrics-listen", "127.0.0.1:" + std::to_string(metricsPort),
                                    "--metrics-linger", "30s", "--json", "-", url },
        120'000);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const uint64_t requests = j["summary"]["requests"];
    ASSERT_GT(requests, 0u);

    // The last scrape (after the run: --metrics-linger waited for it) is the run's end. Prometheus
    // marks the series stale once wrkbench-cli is gone, so the queries read the last sample.
    // Labelled by the run's target (its URL here) and loader (this host).
    const std::string total
        = "sum(last_over_time(wrkbench_requests_total{job=\"wrkbench\",target=\"" + url + "\"}[10m]))";
    double got = std::nan("");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(test::scaledMs(20'000));
    while (std::chrono::steady_clock::now() < deadline) {
        got = query(webPort, total);
        if (got == static_cast<double>(requests)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    EXPECT_EQ(got, static_cast<double>(requests)) << test::readFile(dir.file("prometheus.log"));
    uint64_t errors = 0;
    for (const auto& [kind, count] : j["summary"]["errors"].items())
        errors += count.get<uint64_t>();
    EXPECT_EQ(query(webPort, "sum(last_over_time(wrkbench_errors_total[10m]))"), static_cast<double>(errors));
    EXPECT_EQ(
        query(webPort, "last_over_time(wrkbench_request_duration_seconds_count[10m])"), static_cast<double>(requests));
    EXPECT_EQ(query(webPort, "last_over_time(wrkbench_run_finished[10m])"), 1.0);
    EXPECT_GT(query(webPort, "max_over_time(wrkbench_connections[10m])"), 0.0) << "a gauge while it ran";
    // More than one scrape during the run: the counters grew while it ran.
    EXPECT_GE(query(webPort, "count_over_time(wrkbench_requests_total{status_class=\"2xx\"}[10m])"), 2.0);

    // The p99: Prometheus interpolates inside the bucket holding the 99th percentile response, so
    // its answer and the run's own p99 must fall in the same bucket (bounds inclusive; the run's
    // histogram keeps 2 significant digits, so its value may be up to 1% either side of the value
    // the bucket counted: within 1% of a bound, either bucket beside it).
    const double p99 = query(webPort,
        "histogram_quantile(0.99, sum by (le) (last_over_time(wrkbench_request_duration_seconds_bucket[10m])))");
    const double ownP99S = j["summary"]["latency_us"]["p99"].get<double>() / 1e6;
    ASSERT_FALSE(std::isnan(p99));
    double lower = 0, upper = INFINITY;
    for (double bound : BOUNDS_S) {
        if (ownP99S * 1.01 <= bound) { // the whole of [value / 1.01, value * 1.01] is at or below it
            upper = bound;
            break;
        }
        if (bound < ownP99S / 1.01) lower = bound;
    }
    EXPECT_GE(p99, lower * 0.99) << "run p99 " << ownP99S << " s, Prometheus " << p99 << " s";
    EXPECT_LE(p99, upper) << "run p99 " << ownP99S << " s, Prometheus " << p99 << " s";
    prometheus.signalAndWait(SIGTERM, 10'000);
}
