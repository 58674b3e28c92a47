// The open model's schedule, directly: when request k falls due for a constant
// rate and for linear ramps (the real runs in run_openmodel_test check it end to
// end, over seconds; these check the arithmetic exactly, in microseconds).

#include "run/rateschedule.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

TEST(RateSchedule, ConstantRateIsEvenlySpaced)
{
    const RateSchedule s(2000, {});
    EXPECT_DOUBLE_EQ(s.dueTimeS(0), 0);
    EXPECT_DOUBLE_EQ(s.dueTimeS(1), 0.0005);
    EXPECT_DOUBLE_EQ(s.dueTimeS(2000), 1.0);
    EXPECT_DOUBLE_EQ(s.cumulative(1.5), 3000);
    EXPECT_DOUBLE_EQ(s.cumulative(-1), 0);
    EXPECT_LT(RateSchedule(0, {}).dueTimeS(0), 0); // no rate: never due
}

TEST(RateSchedule, RampFromZeroFollowsTheIntegral)
{
    // 0 -> 1000/s over 2 s: N(t) = 250 t^2, so request k is due at sqrt(k / 250).
    const RateSchedule s(0, { { 2'000'000, 1000 } });
    EXPECT_DOUBLE_EQ(s.cumulative(2), 1000);
    EXPECT_DOUBLE_EQ(s.cumulative(1), 250);
    for (uint64_t k : { 1u, 10u, 250u, 999u })
        EXPECT_NEAR(s.dueTimeS(k), std::sqrt(static_cast<double>(k) / 250), 1e-9) << k;
    EXPECT_LT(s.dueTimeS(1000), 0); // the plan holds 1000 requests: the 1001st never comes
}

TEST(RateSchedule, StagesChainAndInverseMatchesCumulative)
{
    // 10s:1000, 30s:5000, 10s:0 (the README's example): 5,000 + 90,000 + 25,000 requests.
    const RateSchedule s(0, { { 10'000'000, 1000 }, { 30'000'000, 5000 }, { 10'000'000, 0 } });
    EXPECT_DOUBLE_EQ(s.cumulative(10), 5000);
    EXPECT_DOUBLE_EQ(s.cumulative(40), 95'000);
    EXPECT_DOUBLE_EQ(s.cumulative(50), 120'000);
    EXPECT_DOUBLE_EQ(s.cumulative(60), 120'000); // nothing after the end
    // Due times are increasing and invert the integral.
    double previous = -1;
    for (uint64_t k = 0; k < 120'000; k += 997) {
        const double t = s.dueTimeS(k);
        ASSERT_GT(t, previous) << k;
        EXPECT_NEAR(s.cumulative(t), static_cast<double>(k), 1e-6 * static_cast<double>(k + 1)) << k;
        previous = t;
    }
    EXPECT_LT(s.dueTimeS(120'000), 0);
}

TEST(RateSchedule, FlatStageIsExactLikeAConstantRate)
{
    const RateSchedule ramp(0, { { 1'000'000, 4000 }, { 1'000'000, 4000 } });
    // Past the first (ramp) stage's 2,000 requests, the flat stage spaces them 250 us apart.
    EXPECT_NEAR(ramp.dueTimeS(2000), 1.0, 1e-12);
    EXPECT_NEAR(ramp.dueTimeS(2004), 1.001, 1e-12);
}
