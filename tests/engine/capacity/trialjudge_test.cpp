// A trial's verdict and the loader's part in it, judged from run results built to the figures a
// loader and a rate-limited target produce: a target that refuses the rate, a loader that stalled
// once and burst, a loader that ran late throughout, a saturated loader on a latency SLO.

#include "capacity/trialjudge.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

struct Trial
{
    double ratePerS = 2000;
    double durationS = 1;
    uint64_t requests = 2000;
    uint64_t refused = 0; ///< answered 503
    uint64_t late = 0; ///< sent more than 1 ms late, by lateLagUs
    uint64_t lateLagUs = 0;
    uint64_t serviceUs = 300;
    std::vector<std::string> slos { "non2xx<0.1%" };
};

RunResult runOf(const Trial& t)
{
    RunResult r;
    for (const auto& text : t.slos)
        r.config.slos.push_back(*parseSlo(text));
    r.durationS = t.durationS;
    r.targetRatePerS = t.ratePerS;
    r.requests = t.requests;
    r.status.byCode[200] = t.requests - t.refused;
    r.status.byCode[503] = t.refused;
    r.serviceLatency.recordN(t.serviceUs, t.requests);
    r.latency.recordN(t.serviceUs, t.requests - t.late);
    r.sendLag.recordN(50, t.requests - t.late);
    if (t.late > 0) {
        r.latency.recordN(t.serviceUs + t.lateLagUs, t.late);
        r.sendLag.recordN(t.lateLagUs, t.late);
    }
    r.lateRequests = t.late;
    r.maxLagUs = t.late > 0 ? t.lateLagUs : 50;
    r.slo = evaluateSlos(r.config.slos, sloInputsOf(r, r.durationS));
    return r;
}

constexpr double REST_US = 250;

/// 15 ms of stall at 2,000 req/s: 30 requests went out at once, late by lagUs.
Trial stalled(uint64_t refused, uint64_t lagUs = 15'000)
{
    Trial t;
    t.refused = refused;
    t.late = 30;
    t.lateLagUs = lagUs;
    return t;
}

} // namespace

TEST(TrialJudge, ATargetRefusingTheRateFailsTheTrial)
{
    Trial t;
    t.refused = 80;
    const TrialOutcome out = judgeTrial(runOf(t), REST_US);
    EXPECT_FALSE(out.passed);
    EXPECT_FALSE(out.loaderLimited) << out.loaderReason;
    EXPECT_EQ(out.failedSlo, "non2xx<0.1%");
}

TEST(TrialJudge, OneStallWhoseBurstIsAllThatWasRefusedIsTheLoaders)
{
    // A limiter with 10 ms of burst refused 5 of the stall's 30.
    const TrialOutcome out = judgeTrial(runOf(stalled(5)), REST_US);
    EXPECT_FALSE(out.passed);
    EXPECT_TRUE(out.loaderLimited);
    EXPECT_NE(out.loaderReason.find("the loader stalled (longest send lag 15.0 ms) and sent 30 requests late"),
        std::string::npos)
        << out.loaderReason;
}

TEST(TrialJudge, MoreRefusedThanOneStallSentLateIsTheTargets)
{
    const TrialOutcome out = judgeTrial(runOf(stalled(60)), REST_US);
    EXPECT_FALSE(out.passed);
    EXPECT_FALSE(out.loaderLimited) << out.loaderReason;
}

TEST(TrialJudge, ShortLagsAreNoStall)
{
    // Late by 2 ms: a limiter's 10 ms of burst takes that in; refusals are the target's.
    EXPECT_FALSE(judgeTrial(runOf(stalled(5, 2'000)), REST_US).loaderLimited);
}

TEST(TrialJudge, AStallBesideASlowedTargetIsTheTargets)
{
    Trial t = stalled(5);
    t.serviceUs = 20'000; // the target answers 80 times slower than at rest
    EXPECT_FALSE(judgeTrial(runOf(t), REST_US).loaderLimited);
}

TEST(TrialJudge, ManyLateSendsExplainALatencyFailureTheServiceTimeMeets)
{
    Trial t;
    t.slos = { "p99<5ms" };
    t.late = 400;
    t.lateLagUs = 8'000;
    const TrialOutcome out = judgeTrial(runOf(t), REST_US);
    EXPECT_FALSE(out.passed);
    EXPECT_TRUE(out.loaderLimited);
    EXPECT_NE(out.loaderReason.find("20% of the requests went out more than 1 ms late"), std::string::npos)
        << out.loaderReason;
}

TEST(TrialJudge, APassWithTooFewSentDidNotTestTheRate)
{
    Trial t;
    t.requests = 1500;
    const TrialOutcome out = judgeTrial(runOf(t), REST_US);
    EXPECT_TRUE(out.passed);
    EXPECT_TRUE(out.loaderLimited);
    EXPECT_NE(out.loaderReason.find("sent 1500 of the 2000 requests"), std::string::npos) << out.loaderReason;
}
