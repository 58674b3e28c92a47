#include "parse/quantity.h"
#include "report/units.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>

using namespace wb;

namespace {

uint64_t countOf(const std::string& text)
{
    const Result<uint64_t> r = parseCount(text);
    EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error());
    return r.ok() ? *r : UINT64_MAX;
}

uint64_t durationOf(const std::string& text)
{
    const Result<uint64_t> r = parseDurationUs(text);
    EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error());
    return r.ok() ? *r : UINT64_MAX;
}

} // namespace

TEST(ParseCount, PlainNumbers)
{
    EXPECT_EQ(countOf("0"), 0u);
    EXPECT_EQ(countOf("1"), 1u);
    EXPECT_EQ(countOf("100"), 100u);
    EXPECT_EQ(countOf("007"), 7u);
    EXPECT_EQ(countOf("18446744073709551615"), UINT64_MAX);
}

TEST(ParseCount, SiSuffixesAreDecimalAndCaseInsensitive)
{
    EXPECT_EQ(countOf("10k"), 10'000u);
    EXPECT_EQ(countOf("10K"), 10'000u);
    EXPECT_EQ(countOf("1.5M"), 1'500'000u);
    EXPECT_EQ(countOf("1.5m"), 1'500'000u);
    EXPECT_EQ(countOf("2G"), 2'000'000'000u);
    EXPECT_EQ(countOf("3T"), 3'000'000'000'000u);
    EXPECT_EQ(countOf("0.001k"), 1u);
    EXPECT_EQ(countOf("2.50k"), 2'500u);
    EXPECT_EQ(countOf("1.000000000000000000000k"), 1'000u); // trailing zeros are harmless
}

TEST(ParseCount, RejectsJunkSignsAndFractions)
{
    for (const char* bad : { "", "-1", "+1", " 1", "1 ", "10x", "1e99", "1e3", "abc", "k", ".5k", "1.", "1.k", "1.5",
             "1.0001k", "0x10", "10kk", "10ki", "1,000" }) {
        const Result<uint64_t> r = parseCount(bad);
        EXPECT_FALSE(r.ok()) << "'" << bad << "' parsed as " << *r;
        if (!r.ok()) {
            EXPECT_EQ(r.error().rfind(std::string("invalid number '") + bad + "'", 0), 0u) << r.error();
        }
    }
}

TEST(ParseCount, RejectsOverflow)
{
    for (const char* big : { "18446744073709551616", "99999999999999999999", "18446744073709552k", "20000000T" }) {
        const Result<uint64_t> r = parseCount(big);
        EXPECT_FALSE(r.ok()) << big;
        if (!r.ok()) {
            EXPECT_NE(r.error().find(big), std::string::npos) << r.error();
        }
    }
    EXPECT_EQ(countOf("18446744073709551k"), 18'446'744'073'709'551'000u); // largest whole k that fits
}

TEST(ParseDuration, BareNumberIsSeconds)
{
    EXPECT_EQ(durationOf("30"), 30'000'000u);
    EXPECT_EQ(durationOf("0"), 0u);
}

TEST(ParseDuration, Units)
{
    EXPECT_EQ(durationOf("250us"), 250u);
    EXPECT_EQ(durationOf("500ms"), 500'000u);
    EXPECT_EQ(durationOf("30s"), 30'000'000u);
    EXPECT_EQ(durationOf("2m"), 120'000'000u);
    EXPECT_EQ(durationOf("1h"), 3'600'000'000u);
    EXPECT_EQ(durationOf("2M"), 120'000'000u); // case-insensitive, as in wrk: M is minutes here
    EXPECT_EQ(durationOf("10MS"), 10'000u);
    EXPECT_EQ(durationOf("1H"), 3'600'000'000u);
}

TEST(ParseDuration, FractionsAreExact)
{
    EXPECT_EQ(durationOf("1.5s"), 1'500'000u);
    EXPECT_EQ(durationOf("0.1s"), 100'000u); // 0.1 is not exact in binary floating point
    EXPECT_EQ(durationOf("0.5m"), 30'000'000u);
    EXPECT_EQ(durationOf("1.25h"), 4'500'000'000u);
    EXPECT_EQ(durationOf("2.5ms"), 2'500u);
    EXPECT_EQ(durationOf("0.000001s"), 1u);
    EXPECT_EQ(durationOf("1.1234567m"), 67'407'402u); // 7 decimals, still whole microseconds
}

TEST(ParseDuration, RejectsJunk)
{
    for (const char* bad : { "", "-1s", "3x", "s", "1.5us", "0.0000001s", "1e3s", "30 s", "1d", "ms", "1sec", ".5s" }) {
        const Result<uint64_t> r = parseDurationUs(bad);
        EXPECT_FALSE(r.ok()) << "'" << bad << "' parsed as " << *r;
        if (!r.ok()) {
            EXPECT_EQ(r.error().rfind(std::string("invalid duration '") + bad + "'", 0), 0u) << r.error();
        }
    }
    const Result<uint64_t> r = parseDurationUs("3x");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), "invalid duration '3x' (use e.g. 30s, 2m, 500ms)");
}

TEST(ParseDuration, RejectsOverflow)
{
    EXPECT_FALSE(parseDurationUs("5124095577h").ok()); // 1.8e19 us
    EXPECT_FALSE(parseDurationUs("99999999999999999999us").ok());
    EXPECT_EQ(durationOf("5124095h"), 5'124'095ull * 3'600'000'000ull);
}

// Values and strings below are taken from real wrk reports
// (/work/shared/reference/container-performance-comparison.txt and a local run).
TEST(FormatUnits, MatchesRealWrkOutput)
{
    EXPECT_EQ(formatTimeUs(5470), "5.47ms");
    EXPECT_EQ(formatTimeUs(7390), "7.39ms");
    EXPECT_EQ(formatTimeUs(126270), "126.27ms");
    EXPECT_EQ(formatTimeUs(660.82), "660.82us");
    EXPECT_EQ(formatTimeUs(30.09e6), "30.09s");
    EXPECT_EQ(formatTimeUs(2.10e6), "2.10s");
    EXPECT_EQ(formatMetric(8780), "8.78k");
    EXPECT_EQ(formatMetric(397.64), "397.64");
    EXPECT_EQ(formatMetric(63920), "63.92k");
    EXPECT_EQ(formatMetric(120980), "120.98k");
    EXPECT_EQ(formatBinary(392.58 * 1024 * 1024), "392.58M");
    EXPECT_EQ(formatBinary(1.11 * 1024 * 1024 * 1024), "1.11G");
    EXPECT_EQ(formatBinary(13.05 * 1024 * 1024), "13.05M");
    EXPECT_EQ(formatBinary(479.25 * 1024), "479.25K");
    EXPECT_EQ(formatBinary(0.98 * 1024 * 1024), "0.98M"); // wrk prints "0.98MB read", not "1003.52KB"
    EXPECT_EQ(formatTimeS(30), "30s");
    EXPECT_EQ(formatTimeS(2), "2s");
    EXPECT_EQ(formatTimeS(120), "2m");
    EXPECT_EQ(formatTimeS(60), "1m");
}

TEST(FormatUnits, SwitchesUnitAtEightyFivePercentOfScale)
{
    EXPECT_EQ(formatBinary(0.85 * 1024 - 1), "869.40");
    EXPECT_EQ(formatBinary(0.85 * 1024), "0.85K");
    EXPECT_EQ(formatBinary(0.85 * 1024 * 1024), "0.85M");
    EXPECT_EQ(formatBinary(1023), "1.00K");
    EXPECT_EQ(formatMetric(849.99), "849.99");
    EXPECT_EQ(formatMetric(850), "0.85k");
    EXPECT_EQ(formatMetric(850'000), "0.85M");
    EXPECT_EQ(formatTimeUs(849), "849.00us");
    EXPECT_EQ(formatTimeUs(850), "0.85ms");
    EXPECT_EQ(formatTimeS(50), "50s");
    EXPECT_EQ(formatTimeS(51), "1m"); // 0.85 m, no decimals
    EXPECT_EQ(formatTimeUs(50.99e6), "50.99s");
    EXPECT_EQ(formatTimeUs(51e6), "0.85m");
}

TEST(FormatUnits, MicrosecondsMoveToSecondsAtOneSecond)
{
    // Below 1e6 us the millisecond scale is the last one reached, even past 999 ms.
    EXPECT_EQ(formatTimeUs(999'994), "999.99ms");
    EXPECT_EQ(formatTimeUs(999'999), "1000.00ms");
    EXPECT_EQ(formatTimeUs(1e6), "1.00s");
    EXPECT_EQ(formatTimeUs(120e6), "2.00m");
}

TEST(FormatUnits, LastUnitIsNeverReached)
{
    // wrk's loop stops before its last unit: hours, "P" bytes and "P" counts never appear.
    EXPECT_EQ(formatTimeS(7200), "120m");
    EXPECT_EQ(formatTimeUs(7200e6), "120.00m");
    EXPECT_EQ(formatBinary(1024.0 * 1024 * 1024 * 1024 * 1024), "1024.00T");
    EXPECT_EQ(formatMetric(2e15), "2000.00T");
}

TEST(FormatUnits, ZeroAndRounding)
{
    EXPECT_EQ(formatTimeUs(0), "0.00us");
    EXPECT_EQ(formatBinary(0), "0.00");
    EXPECT_EQ(formatMetric(0), "0.00");
    EXPECT_EQ(formatTimeS(0), "0s");
    EXPECT_EQ(formatTimeUs(1.005), "1.00us"); // 1.005 is just below in binary, as printf rounds it
    EXPECT_EQ(formatTimeUs(1.125), "1.12us"); // exact tie: round half to even, as printf
}
