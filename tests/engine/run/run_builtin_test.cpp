// The engine against the built-in target server on loopback. Request counts are
// floors that only make the equalities next to them meaningful: these tests must
// hold on a slow (sanitizer) build on a busy machine; speed is bench/'s business.

#include "run/runcontroller.h"
#include "serve/targetserver.h"
#include "testsupport.h"
#include "wrk/wrktext.h"

#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <thread>

using namespace wb;

namespace {

class Collector : public RunObserver
{
public:
    void onInterval(const IntervalRecord& r) override { intervals.push_back(r); }
    void onFinished(const RunResult&) override { ++finished; }
    std::vector<IntervalRecord> intervals;
    int finished = 0;
};

class RunAgainstBuiltin : public ::testing::Test
{
protected:
    void SetUp() override { startServer({}); }

    void startServer(TargetServerOptions options)
    {
        m_server.reset();
        m_server = std::make_unique<TargetServer>(options);
        ASSERT_TRUE(m_server->start().ok());
    }

    RunConfig config(const std::string& path, uint64_t durationMs = 1000)
    {
        RunConfig cfg;
        cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(m_server->port()) + path);
        cfg.threads = 2;
        cfg.connections = 8;
        cfg.durationUs = durationMs * 1000;
        cfg.intervalUs = 250'000;
        return cfg;
    }

    RunResult runToEnd(const RunConfig& cfg, Collector* collector = nullptr)
    {
        RunController run(cfg);
        if (collector) run.addObserver(collector);
        const Status st = run.prepare();
        EXPECT_TRUE(st.ok()) << st.error();
        return run.run();
    }

    std::unique_ptr<TargetServer> m_server;
};

} // namespace

TEST_F(RunAgainstBuiltin, KeepAliveRunCountsEveryResponseOnce)
{
    Collector collector;
    const RunResult r = runToEnd(config("/"), &collector);
    EXPECT_GE(r.requests, 20u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
    EXPECT_EQ(r.latency.count(), r.requests);
    EXPECT_GT(r.bytes, r.requests * 40); // status line and headers alone are longer than that
    EXPECT_NEAR(r.durationS, 1.0, 0.05);
    EXPECT_NEAR(r.requestsPerS(), static_cast<double>(r.requests) / r.durationS, 1e-6);
    // The server answered at least what we counted (in-flight requests at the end are not counted).
    EXPECT_GE(m_server->requestsServed(), r.requests);

    // Intervals: 4 x 250 ms, contiguous, adding up to the totals, delivered to the observer.
    ASSERT_EQ(r.intervals.size(), 4u);
    ASSERT_EQ(collector.intervals.size(), 4u);
    EXPECT_EQ(collector.finished, 1);
    uint64_t sum = 0;
    for (size_t i = 0; i < r.intervals.size(); ++i) {
        EXPECT_EQ(r.intervals[i].index, i);
        EXPECT_NEAR(r.intervals[i].startS, 0.25 * static_cast<double>(i), 1e-9);
        EXPECT_NEAR(r.intervals[i].endS, 0.25 * static_cast<double>(i + 1), 1e-9);
        EXPECT_GT(r.intervals[i].requests, 0u);
        EXPECT_EQ(collector.intervals[i].requests, r.intervals[i].requests);
        sum += r.intervals[i].requests;
    }
    EXPECT_EQ(sum, r.requests);
    // Req/Sec samples every 100 ms per thread: at most 2 threads x 10 samples (a late
    // sample, on a busy machine, pushes the later ones back: fewer, never more).
    EXPECT_GE(r.threadRates.perThreadRequestsPerS.size(), 10u);
    EXPECT_LE(r.threadRates.perThreadRequestsPerS.size(), 22u);
    EXPECT_NEAR(r.threadRates.mean() * 2, r.requestsPerS(), 0.5 * r.requestsPerS());
}

TEST_F(RunAgainstBuiltin, ConnectionCloseIsFollowedByReconnects)
{
    const RunConfig cfg = config("/close");
    const RunResult r = runToEnd(cfg);
    // More answers than connections: each closed connection was replaced.
    EXPECT_GT(r.requests, 2u * cfg.connections);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
}

TEST_F(RunAgainstBuiltin, PipelinedRequestsAreAllAnswered)
{
    auto cfg = config("/");
    cfg.pipeline = 8;
    const RunResult r = runToEnd(cfg);
    // More than one full pipeline per connection: the batches were refilled.
    EXPECT_GT(r.requests, uint64_t { cfg.connections } * cfg.pipeline);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
}

TEST_F(RunAgainstBuiltin, ChunkedResponsesParse)
{
    const RunResult r = runToEnd(config("/chunked"));
    EXPECT_GE(r.requests, 20u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
}

TEST_F(RunAgainstBuiltin, LargeBodiesAreStreamedNotBuffered)
{
    auto cfg = config("/bytes/1000000", 500);
    cfg.connections = 2;
    const RunResult r = runToEnd(cfg);
    EXPECT_GE(r.requests, 4u); // several per connection: each body was read to its end
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_GE(r.bytes, r.requests * 1'000'000);
}

TEST_F(RunAgainstBuiltin, HeadAndPostWork)
{
    auto head = config("/");
    head.request.method = "HEAD";
    const RunResult h = runToEnd(head);
    EXPECT_GE(h.requests, 20u);
    EXPECT_EQ((h.errors.transportErrors() + h.status.non2xx()), 0u);

    auto post = config("/echo");
    post.request.method = "POST";
    post.request.body = std::string(300, 'p');
    const RunResult p = runToEnd(post);
    EXPECT_GE(p.requests, 20u);
    EXPECT_EQ((p.errors.transportErrors() + p.status.non2xx()), 0u);
    EXPECT_GT(p.bytes, p.requests * 300); // the body came back
}

TEST_F(RunAgainstBuiltin, Non2xxResponsesAreCountedAsStatusErrors)
{
    const RunResult r = runToEnd(config("/status/404"));
    EXPECT_GE(r.requests, 20u);
    EXPECT_EQ(r.status.byCode[404], r.requests);
    EXPECT_EQ(r.status.non2xx(), r.requests);
    EXPECT_EQ(r.errors.transportErrors(), 0u);
    EXPECT_EQ(r.errors.socketErrors(), 0u);
}

TEST_F(RunAgainstBuiltin, ServerThatNeverAnswersTimesOut)
{
    auto cfg = config("/silent", 1300);
    cfg.connections = 2;
    cfg.timeoutUs = 300'000;
    const RunResult r = runToEnd(cfg);
    EXPECT_EQ(r.requests, 0u);
    // Each connection times out about every 300-400 ms (100 ms check granularity) and is
    // replaced: at most 4 each in 1.3 s, and at least one replacement timed out as well
    // (a busy machine only makes them later, so fewer).
    EXPECT_GE(r.errors.timeout, 3u);
    EXPECT_LE(r.errors.timeout, 10u);
}

TEST_F(RunAgainstBuiltin, LatencyReflectsServerDelay)
{
    TargetServerOptions slow;
    slow.delayUs = 50'000;
    startServer(slow);
    auto cfg = config("/", 800);
    const RunResult r = runToEnd(cfg);
    ASSERT_GE(r.requests, 16u); // two rounds of the 8 connections
    // Slowness only adds latency: the lower bounds are exact.
    EXPECT_GE(r.latency.valueAtPercentileUs(50), 50'000u);
    EXPECT_GE(r.latency.minUs(), 50'000u);
    // And no more than happened: each connection has one request outstanding at a time,
    // so the latencies of its responses add up to at most the time it was measured, plus
    // the one request it may have sent just before measurement began. A latency taken
    // from the wrong moment (the connect, the previous response) or counted twice breaks
    // this on any machine; a slow machine only makes fewer, not longer, requests.
    const double latencySumS = r.latency.meanUs() * static_cast<double>(r.latency.count()) / 1e6;
    const double connectionTimeS = static_cast<double>(cfg.connections) * r.durationS;
    EXPECT_LE(latencySumS, connectionTimeS + cfg.connections * r.latency.maxUs() / 1e6)
        << "latency sum " << latencySumS << " s over " << cfg.connections << " connections and " << r.durationS << " s";
    // The server's delay caps what a connection can complete: a request a delay at the least.
    EXPECT_LE(r.requests, static_cast<uint64_t>(connectionTimeS / 0.050) + cfg.connections);
}

TEST_F(RunAgainstBuiltin, WarmupIsNotMeasured)
{
    auto cfg = config("/", 500);
    cfg.warmupUs = 500'000;
    const RunResult r = runToEnd(cfg);
    // The warm-up ran, reached the server and is in no figure: the server served the
    // warm-up's responses and the measured ones, the run counts them apart.
    EXPECT_GT(r.warmupRequests, 0u);
    EXPECT_GT(r.requests, 0u);
    EXPECT_GE(m_server->requestsServed(), r.warmupRequests + r.requests);
    // The measured time is the planned duration: never less, and without the warm-up's 0.5 s.
    EXPECT_GE(r.durationS, 0.5);
    EXPECT_LT(r.durationS, 1.0);
    ASSERT_EQ(r.intervals.size(), 2u);
    EXPECT_EQ(r.intervals.front().startS, 0.0);
    uint64_t sum = 0;
    for (const auto& i : r.intervals)
        sum += i.requests;
    EXPECT_EQ(sum, r.requests);
}

namespace {

/// Threads of this process now (the kernel's list): the run's workers are joined
/// when run() returns, so the count is back to what it was before prepare().
size_t threadCount()
{
    size_t n = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
        (void)entry;
        ++n;
    }
    return n;
}

/// Stops the run when the n-th interval is reported: a stop in the middle of a
/// run, made by an event of the run rather than by a sleep.
class StopAtInterval : public RunObserver
{
public:
    StopAtInterval(RunController& run, size_t n)
        : m_run(run)
        , m_n(n)
    { }
    void onInterval(const IntervalRecord& r) override
    {
        intervals.push_back(r);
        if (intervals.size() == m_n) {
            stoppedAfterS = r.endS;
            m_run.stop();
        }
    }
    std::vector<IntervalRecord> intervals;
    double stoppedAfterS = -1;

private:
    RunController& m_run;
    size_t m_n;
};

} // namespace

// A stop ends the run: the result says so, it has the intervals up to the stop and
// not the rest of the 30 s, and the workers are gone when run() returns.
TEST_F(RunAgainstBuiltin, StopEndsTheRunEarly)
{
    auto cfg = config("/", 30'000); // 120 intervals of 250 ms
    const size_t threadsBefore = threadCount();
    RunController run(cfg);
    StopAtInterval stopper(run, 2);
    run.addObserver(&stopper);
    ASSERT_TRUE(run.prepare().ok());
    const RunResult r = run.run();
    EXPECT_EQ(threadCount(), threadsBefore) << "worker threads still running after run() returned";
    EXPECT_TRUE(r.stoppedEarly);
    ASSERT_GE(r.intervals.size(), 2u);
    EXPECT_LT(r.intervals.size(), 120u);
    // The measured time ends at the stop: after the interval that stopped it, and
    // the last interval ends where the measured time does.
    EXPECT_GE(r.durationS, stopper.stoppedAfterS);
    EXPECT_LT(r.durationS, 30.0);
    EXPECT_DOUBLE_EQ(r.intervals.back().endS, r.durationS);
    EXPECT_GT(r.requests, 0u);
    uint64_t sum = 0;
    for (const auto& i : r.intervals)
        sum += i.requests;
    EXPECT_EQ(sum, r.requests);
    EXPECT_GE(m_server->requestsServed(), r.requests);
}

// -n: the run ends once the responses are counted, long before its 60 s, with exactly that
// many, each thread its share; the measured time and the last interval end where the count did.
TEST_F(RunAgainstBuiltin, ResponsesEndTheRunAtTheirCount)
{
    for (const bool open : { false, true }) {
        SCOPED_TRACE(open ? "open model" : "closed loop");
        auto cfg = config("/", 60'000);
        cfg.responses = 1001; // 501 and 500 for the two threads
        if (open) cfg.ratePerS = 4000;
        cfg.warmupUs = 100'000; // the warm-up's answers are not among them
        Collector collector;
        const RunResult r = runToEnd(cfg, &collector);
        EXPECT_EQ(r.requests, 1001u);
        EXPECT_EQ(r.status.byCode[200], 1001u);
        EXPECT_EQ(r.latency.count(), 1001u);
        EXPECT_EQ(r.errors.transportErrors(), 0u);
        EXPECT_FALSE(r.stoppedEarly) << "a run that reached its count ended as planned";
        EXPECT_LT(r.durationS, 60.0);
        ASSERT_FALSE(r.intervals.empty());
        EXPECT_DOUBLE_EQ(r.intervals.back().endS, r.durationS);
        uint64_t sum = 0;
        for (const auto& i : r.intervals)
            sum += i.requests;
        EXPECT_EQ(sum, 1001u);
        EXPECT_EQ(collector.intervals.size(), r.intervals.size());
        EXPECT_GE(m_server->requestsServed(), 1001u + r.warmupRequests);
    }
}

TEST_F(RunAgainstBuiltin, ResponsesEndTheRunOverHttp2)
{
    auto cfg = config("/", 60'000);
    cfg.httpVersion = HttpVersion::Http2;
    cfg.streams = 8;
    cfg.responses = 777;
    const RunResult r = runToEnd(cfg);
    EXPECT_EQ(r.requests, 777u);
    EXPECT_EQ(r.errors.transportErrors(), 0u);
    EXPECT_FALSE(r.stoppedEarly);
    EXPECT_LT(r.durationS, 60.0);
}

// The duration still bounds a run whose count is out of reach.
TEST_F(RunAgainstBuiltin, TheDurationEndsARunShortOfItsResponses)
{
    auto cfg = config("/delay/50", 500);
    cfg.responses = 1'000'000;
    const RunResult r = runToEnd(cfg);
    EXPECT_GT(r.requests, 0u);
    EXPECT_LT(r.requests, 1'000'000u);
    EXPECT_NEAR(r.durationS, 0.5, 0.05);
    const std::string report = formatRunReport(r, {});
    EXPECT_NE(report.find("Warning: the run reached its duration ("), std::string::npos) << report;
    EXPECT_NE(report.find(") before its 1000000 responses (--responses)"), std::string::npos) << report;
}

TEST(RunSetupResponses, FewerResponsesThanThreadsAreRefused)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:9/");
    cfg.threads = 4;
    cfg.connections = 8;
    cfg.responses = 3;
    const Status st = cfg.validate();
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("--responses 3 gives some of the 4 threads no response"), std::string::npos)
        << st.error();
    cfg.responses = 4;
    EXPECT_TRUE(cfg.validate().ok());
}

TEST_F(RunAgainstBuiltin, StopWhileNoResponsesArriveEndsTheRun)
{
    auto cfg = config("/silent", 30'000);
    cfg.timeoutUs = 30'000'000; // neither the run nor a request timeout ends it before 30 s
    const size_t threadsBefore = threadCount();
    RunController run(cfg);
    StopAtInterval stopper(run, 1); // intervals are reported with no response in them
    run.addObserver(&stopper);
    ASSERT_TRUE(run.prepare().ok());
    const RunResult r = run.run();
    EXPECT_EQ(threadCount(), threadsBefore) << "worker threads still running after run() returned";
    EXPECT_TRUE(r.stoppedEarly);
    ASSERT_GE(r.intervals.size(), 1u);
    EXPECT_LT(r.intervals.size(), 120u);
    EXPECT_LT(r.durationS, 30.0);
    EXPECT_EQ(r.requests, 0u);
    EXPECT_EQ(r.errors.timeout, 0u) << "a stop is not a timeout";
}

TEST(RunIpv6, LoopbackLiteral)
{
    TargetServerOptions options;
    options.bindAddress = "::1";
    TargetServer server(options);
    if (!server.start().ok()) GTEST_SKIP() << "no IPv6 loopback here";
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://[::1]:" + std::to_string(server.port()) + "/");
    cfg.threads = 1;
    cfg.connections = 2;
    cfg.durationUs = 300'000;
    RunController run(cfg);
    const Status st = run.prepare();
    ASSERT_TRUE(st.ok()) << st.error();
    const RunResult r = run.run();
    EXPECT_GT(r.requests, 0u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
}

TEST(RunSetup, ConnectionRefusedIsReportedBeforeTheRun)
{
    // A port nobody listens on: bind one, note it, close it.
    TargetServer probe({});
    ASSERT_TRUE(probe.start().ok());
    const uint16_t port = probe.port();
    probe.stop();
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(port) + "/");
    RunController run(cfg);
    const Status st = run.prepare();
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error(), "connection refused by 127.0.0.1:" + std::to_string(port));
}

TEST(RunSetup, UnresolvableHostIsReported)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://no-such-host.invalid/");
    RunController run(cfg);
    const Status st = run.prepare();
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("cannot resolve host 'no-such-host.invalid'"), std::string::npos) << st.error();
}

TEST(RunSetup, InvalidCombinationsAreRefused)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:9/");
    cfg.threads = 4;
    cfg.connections = 2;
    EXPECT_NE(cfg.validate().error().find("must be at least the number of threads"), std::string::npos);
    cfg.connections = 0;
    EXPECT_FALSE(cfg.validate().ok());
    cfg.connections = 4;
    cfg.request.method = "get";
    EXPECT_FALSE(cfg.validate().ok());
}

TEST(RunSetup, TooManyConnectionsForTheFileLimitAreRefused)
{
    rlimit limit {};
    getrlimit(RLIMIT_NOFILE, &limit);
    if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > 100'000'000) GTEST_SKIP() << "no finite fd limit";
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:9/");
    cfg.connections = static_cast<unsigned>(limit.rlim_max + 10);
    RunController run(cfg);
    const Status st = run.prepare();
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("file descriptors"), std::string::npos) << st.error();
}
