// --start-at: unix seconds, RFC 3339, +DURATION, and refusals.

#include "parse/starttime.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

constexpr int64_t NOW = 1'764'653'400'000'000; // 2025-12-02T05:30:00Z

TEST(StartTime, UnixSecondsWithAFraction)
{
    EXPECT_EQ(*parseStartTimeUs("1764653400", NOW), NOW);
    EXPECT_EQ(*parseStartTimeUs("1764653400.25", NOW), NOW + 250'000);
    EXPECT_EQ(*parseStartTimeUs("1764653400.0000019", NOW), NOW + 1);
}

TEST(StartTime, Rfc3339)
{
    EXPECT_EQ(*parseStartTimeUs("2025-12-02T05:30:00Z", NOW), NOW);
    EXPECT_EQ(*parseStartTimeUs("2025-12-02T05:30:00.5Z", NOW), NOW + 500'000);
    EXPECT_EQ(*parseStartTimeUs("2025-12-02t05:30:00z", NOW), NOW);
    EXPECT_EQ(*parseStartTimeUs("2025-12-02T06:30:00+01:00", NOW), NOW);
    EXPECT_EQ(*parseStartTimeUs("2025-12-02T04:00:00-01:30", NOW), NOW);
    EXPECT_EQ(formatRfc3339Utc(NOW + 250'000), "2025-12-02T05:30:00.250Z");
}

TEST(StartTime, RelativeToNow)
{
    EXPECT_EQ(*parseStartTimeUs("+10s", NOW), NOW + 10'000'000);
    EXPECT_EQ(*parseStartTimeUs("+1500ms", NOW), NOW + 1'500'000);
}

TEST(StartTime, RefusalsNameTheProblem)
{
    for (const char* bad : { "", "soon", "1764653400.", "1764653400x", "2025-12-02T05:30:00", "2025-12-02T25:30:00Z",
             "2025-13-02T05:30:00Z", "2025-02-30T05:30:00Z", "2025-12-02T05:30Z", "2025-12-02T05:30:00+1:00", "+x",
             "99999999999999999999" })
        EXPECT_FALSE(parseStartTimeUs(bad, NOW)) << bad;
    EXPECT_NE(parseStartTimeUs("2025-12-02T05:30:00", NOW).error().find("needs a time zone"), std::string::npos);
}

TEST(StartTime, MoreThanASecondInThePastIsRefused)
{
    EXPECT_TRUE(checkStartNotPast(NOW - 900'000, NOW));
    EXPECT_TRUE(checkStartNotPast(NOW + 5'000'000, NOW));
    const Status late = checkStartNotPast(NOW - 3'000'000, NOW);
    ASSERT_FALSE(late);
    EXPECT_NE(late.error().find("3.0 s in the past"), std::string::npos) << late.error();
}

} // namespace
