#include "stats/ratesamples.h"

#include <cmath>
#include <gtest/gtest.h>

TEST(RateSamples, MeanStdevMaxAndWithinStdev)
{
    wb::RateSamples s;
    s.perThreadRequestsPerS = { 10, 12, 14, 16, 18, 100 };
    EXPECT_DOUBLE_EQ(s.mean(), 170.0 / 6);
    EXPECT_DOUBLE_EQ(s.max(), 100);
    // Sample stdev computed by hand: sum of squared deviations / (n-1).
    double m = 170.0 / 6, sq = 0;
    for (double v : s.perThreadRequestsPerS)
        sq += (v - m) * (v - m);
    EXPECT_NEAR(s.stdev(), std::sqrt(sq / 5), 1e-9);
    EXPECT_NEAR(s.percentWithinStdev(), 100.0 * 5 / 6, 1e-9); // all but the outlier
}

TEST(RateSamples, EmptyIsZero)
{
    wb::RateSamples s;
    EXPECT_EQ(s.mean(), 0);
    EXPECT_EQ(s.stdev(), 0);
    EXPECT_EQ(s.max(), 0);
    EXPECT_EQ(s.percentWithinStdev(), 0);
}
