// The open model (-R, rate stages) and connection ramps against the built-in
// server: rate accuracy, coordinated-omission correction across real stalls,
// and ramps that follow their plan. Their time bounds are judged on a run the machine did not pause
// (tests/support/pausemeter.h): a paused run is made again, and skipped with the figures if every
// attempt was paused; counts and errors are checked on every run.

#include "pausemeter.h"
#include "run/runcontroller.h"
#include "serve/targetserver.h"
#include "testsupport.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

std::unique_ptr<TargetServer> startServer(TargetServerOptions options = {})
{
    auto server = std::make_unique<TargetServer>(options);
    EXPECT_TRUE(server->start().ok());
    return server;
}

RunResult runToEnd(RunConfig cfg)
{
    RunController run(std::move(cfg));
    const Status st = run.prepare();
    EXPECT_TRUE(st.ok()) << st.error();
    return run.run();
}

RunConfig openConfig(uint16_t port, double rate, uint64_t durationMs, unsigned connections = 20)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(port) + "/");
    cfg.threads = 2;
    cfg.connections = connections;
    cfg.durationUs = durationMs * 1000;
    cfg.ratePerS = rate;
    return cfg;
}

/// A run, what paused it, and its time bounds.
struct Judged
{
    RunResult r;
    test::Pauses pauses;
    test::TimeBounds bounds;
};

/// Runs cfg until a run meets bounds(run) or the machine did not pause it.
template<class Bounds> Judged runJudged(const RunConfig& cfg, const Bounds& bounds)
{
    auto [r, pauses] = test::untilUnpaused(
        [&cfg] { return runToEnd(cfg); }, [&bounds](const RunResult& run) { return bounds(run).ok(); });
    test::TimeBounds b = bounds(r);
    return { std::move(r), pauses, std::move(b) };
}

/// The bounds hold, or every run was paused: then the test is skipped with the figures.
void judgeBounds(const Judged& j)
{
    if (!j.bounds.ok() && j.pauses.material()) GTEST_SKIP() << j.bounds.text() << "; " << j.pauses.text();
    EXPECT_TRUE(j.bounds.ok()) << j.bounds.text();
}

} // namespace

class RateAccuracy : public ::testing::TestWithParam<double>
{ };

TEST_P(RateAccuracy, AchievedRateIsWithinOnePercentOverFiveSeconds)
{
    const double rate = GetParam();
    if (rate > 5000 && test::timeScale() > 1)
        GTEST_SKIP() << "this (sanitizer) build is too slow to send " << rate
                     << " requests/s on a shared machine; the optimised build covers this rate";
    auto server = startServer();
    const auto bounds = [rate](const RunResult& run) {
        test::TimeBounds b;
        b.near("req/s", run.requestsPerS(), rate, 0.01 * rate);
        return b;
    };
    const Judged j = runJudged(openConfig(server->port(), rate, 5000, 50), bounds);
    const RunResult& r = j.r;
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_NEAR(r.targetRatePerS, rate, 1e-6 * rate);
    EXPECT_EQ(r.serviceLatency.count(), r.requests);
    EXPECT_EQ(r.sendLag.count(), r.requests);
    EXPECT_EQ(r.sendLag.maxUs(), r.maxLagUs);
    for (const auto& i : r.intervals)
        EXPECT_NEAR(i.targetRatePerS, rate, 1e-6 * rate);
    judgeBounds(j);
    // The scheduling error itself is measured by bench/open-model.sh: on this shared
    // 2-core machine (and under ASan) a bound on it here would only measure the load.
}

INSTANTIATE_TEST_SUITE_P(Rates, RateAccuracy, ::testing::Values(1000.0, 20000.0));

// Stalls of S every P: the share S/P of requests falls due during a stall and waits,
// uniformly, between 0 and S. So the corrected latency's CDF above 1 - S/P is
// F(x) = (1 - S/P) + (S/P) * x / S, i.e. percentile q lies at S * (q - (1 - S/P)) / (S/P).
// Service time stays near the unstalled one: only the request each connection has in
// flight when a stall begins sees it.
TEST(CoordinatedOmission, CorrectedLatencyMatchesTheStallPattern)
{
    const double periodMs = 1000, stallMs = 250;
    // 2000/s over 50 connections: 40/s each, so a stall leaves ~10 requests queued per
    // connection, which go out one round trip at a time once it ends (a short tail even on
    // a slow build), and one request per connection per stall (2.5% of all) is in flight
    // when it begins.
    const double rate = 2000, durationMs = 5000;
    const unsigned connections = 50;
    TargetServerOptions options;
    options.stallEveryUs = static_cast<uint64_t>(periodMs * 1000);
    options.stallForUs = static_cast<uint64_t>(stallMs * 1000);
    auto server = startServer(options);
    const double expectedRequests = rate * durationMs / 1000;
    const double share = stallMs / periodMs;
    const auto bounds = [&](const RunResult& run) {
        test::TimeBounds b;
        // Every request due in the window is sent, late or not, and its answer awaited.
        b.atLeast("requests", static_cast<double>(run.requests), 0.9 * expectedRequests);
        // A slow or busy client can only add latency: the lower bounds stay tight, the upper ones
        // leave room for the backlog to clear (a few round trips per connection) on a slow build.
        const double slackMs = 20 * test::timeScale();
        // Not right at 1 - S/P: the backlog a stall leaves takes a few ms to clear, which blurs the knee.
        for (double q : { 0.85, 0.90, 0.95, 0.99 }) {
            const double expectedMs = stallMs * (q - (1 - share)) / share;
            const double actualMs = static_cast<double>(run.latency.valueAtPercentileUs(q * 100)) / 1000.0;
            const std::string name = "p" + std::to_string(static_cast<int>(q * 100)) + " ms";
            b.atLeast(name, actualMs, 0.9 * expectedMs - 2.0);
            b.atMost(name, actualMs, 1.1 * expectedMs + slackMs);
        }
        // Outside the stalls requests were not held: the share answered within S/10 of their due
        // time is about 1 - S/P (without the correction it would be nearly all of them).
        const auto fastUs = static_cast<uint64_t>(stallMs * 1000 / 10);
        const double fastShare = run.latency.count() == 0
            ? 0
            : static_cast<double>(run.latency.countAtOrBelow(fastUs)) / static_cast<double>(run.latency.count());
        b.near("share answered fast", fastShare, 1 - share, 0.07);
        // Service time stays at loopback speed: the requests in flight when a stall begins
        // (one per connection per stall, 2.5%) are the only ones that see it.
        const auto serviceBoundUs = static_cast<double>(stallMs * 1000 / 5);
        b.atMost("service p90 us", static_cast<double>(run.serviceLatency.valueAtPercentileUs(90)), serviceBoundUs);
        b.atMost("service p95 us", static_cast<double>(run.serviceLatency.valueAtPercentileUs(95)), serviceBoundUs);
        // Late sends: every connection holding a stalled request sends its queue late, i.e.
        // most of the requests that fall due during a stall.
        b.atLeast("late requests", static_cast<double>(run.lateRequests), 0.5 * share * expectedRequests);
        const double maxLagMs = static_cast<double>(run.maxLagUs) / 1000.0;
        b.atLeast("max lag ms", maxLagMs, 0.85 * stallMs);
        b.atMost("max lag ms", maxLagMs, stallMs + 100 * test::timeScale());
        return b;
    };
    const Judged j
        = runJudged(openConfig(server->port(), rate, static_cast<uint64_t>(durationMs), connections), bounds);
    const RunResult& r = j.r;
    ASSERT_GT(r.latency.count(), 0u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    judgeBounds(j);
}

TEST(OpenModel, PipelinedRequestsEachKeepTheirOwnDueTime)
{
    TargetServerOptions options;
    options.delayUs = 20'000; // each answer 20 ms after its request arrived
    auto server = startServer(options);
    auto cfg = openConfig(server->port(), 2000, 2000, 4);
    cfg.pipeline = 64; // 4 connections x 64 in flight cover 2000/s x 20 ms = 40 outstanding
    const auto bounds = [](const RunResult& run) {
        test::TimeBounds b;
        b.near("req/s", run.requestsPerS(), 2000, 20);
        // No queueing: corrected latency is the server delay, not the pipeline's wait (which
        // would add up to another 20 ms).
        b.atMost(
            "p99 ms", static_cast<double>(run.latency.valueAtPercentileUs(99)) / 1000, 20 + 15 * test::timeScale());
        return b;
    };
    const Judged j = runJudged(cfg, bounds);
    const RunResult& r = j.r;
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    // Slowness only adds latency: the lower bound is exact, paused or not.
    EXPECT_GE(r.latency.valueAtPercentileUs(50), 20'000u);
    judgeBounds(j);
}

TEST(OpenModel, RateStagesFollowThePlan)
{
    auto server = startServer();
    RunConfig cfg = openConfig(server->port(), 0, 0);
    cfg.stages = { { 1'000'000, 2000 }, { 1'000'000, 2000 }, { 1'000'000, 0 } };
    cfg.durationUs = 3'000'000;
    cfg.intervalUs = 500'000;
    // Per 500 ms interval: ramp 0->2000 (avg 500, 1500), flat 2000, ramp down (1500, 500).
    static constexpr double expected[] = { 500, 1500, 2000, 2000, 1500, 500 };
    const auto bounds = [](const RunResult& run) {
        test::TimeBounds b;
        // Answers are counted when they arrive, so a slow build shifts a few across boundaries;
        // the total is within the answers in flight at the end.
        for (size_t i = 0; i < 6 && i < run.intervals.size(); ++i)
            b.near("interval " + std::to_string(i) + " req/s", run.intervals[i].requestsPerS(), expected[i],
                0.10 * expected[i] + 10);
        b.near("requests", static_cast<double>(run.requests), 4000, 40);
        return b;
    };
    const Judged j = runJudged(cfg, bounds);
    const RunResult& r = j.r;
    ASSERT_EQ(r.intervals.size(), 6u);
    for (size_t i = 0; i < 6; ++i)
        EXPECT_NEAR(r.intervals[i].targetRatePerS, expected[i], 1e-6) << i;
    judgeBounds(j);
}

TEST(ClosedModel, ConnectionStagesFollowThePlan)
{
    auto server = startServer();
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(server->port()) + "/");
    cfg.threads = 2;
    cfg.connections = 40;
    cfg.stages = { { 1'000'000, 20 }, { 1'000'000, 40 } };
    cfg.stagesAreConnections = true;
    cfg.durationUs = 2'000'000;
    cfg.intervalUs = 250'000;
    const auto bounds = [](const RunResult& run) {
        test::TimeBounds b;
        // Open connections at each interval end: target(t) = 20 t for t <= 1 s, then 20 + 20 (t - 1),
        // applied every 100 ms (so up to 2 behind; a few more while a slow build is still connecting).
        for (size_t i = 0; i < run.intervals.size(); ++i) {
            const double t = 0.25 * static_cast<double>(i + 1);
            const double target = t <= 1 ? 20 * t : 20 + 20 * (t - 1);
            b.near("connections at " + std::to_string(t) + " s", static_cast<double>(run.intervals[i].connections),
                target, 5);
        }
        return b;
    };
    const Judged j = runJudged(cfg, bounds);
    const RunResult& r = j.r;
    ASSERT_EQ(r.intervals.size(), 8u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u)
        << "connect " << r.errors.connect << " read " << r.errors.read << " write " << r.errors.write << " timeout "
        << r.errors.timeout << " parse " << r.errors.parse << " " << r.firstConnectError;
    judgeBounds(j);
}

TEST(OpenModel, ConfigurationErrors)
{
    RunConfig cfg = openConfig(80, 1000, 1000);
    cfg.stages = { { 1'000'000, 10 } };
    cfg.stagesAreConnections = true;
    EXPECT_NE(cfg.validate().error().find("cannot be combined with -R"), std::string::npos);
    cfg.stagesAreConnections = false;
    cfg.ratePerS = 0;
    cfg.warmupUs = 1'000'000;
    EXPECT_NE(cfg.validate().error().find("--warmup cannot be combined with --stages"), std::string::npos);
}
