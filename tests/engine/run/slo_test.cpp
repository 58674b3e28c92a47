// SLO expressions: what parses, what each error points at, and what a verdict reads.

#include "run/slo.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

namespace {

Slo parsed(const std::string& text)
{
    auto slo = parseSlo(text);
    EXPECT_TRUE(slo.ok()) << text << ": " << (slo ? "" : slo.error());
    return slo ? *slo : Slo {};
}

std::string errorOf(const std::string& text)
{
    auto slo = parseSlo(text);
    EXPECT_FALSE(slo.ok()) << text;
    return slo ? std::string() : slo.error();
}

} // namespace

TEST(SloParse, TheDocumentedForms)
{
    Slo s = parsed("p99<250ms");
    EXPECT_EQ(s.metric, Slo::Metric::Latency);
    EXPECT_EQ(s.stat, Slo::Stat::Percentile);
    EXPECT_DOUBLE_EQ(s.percentile, 99);
    EXPECT_EQ(s.op, Slo::Op::Less);
    EXPECT_DOUBLE_EQ(s.threshold, 250'000);
    EXPECT_EQ(s.expr, "p99<250ms");

    s = parsed("p99.9 < 1s"); // spaces mean nothing
    EXPECT_DOUBLE_EQ(s.percentile, 99.9);
    EXPECT_DOUBLE_EQ(s.threshold, 1e6);
    EXPECT_EQ(s.expr, "p99.9<1s");

    s = parsed("errors<0.1%");
    EXPECT_EQ(s.metric, Slo::Metric::Errors);
    EXPECT_TRUE(s.share);
    EXPECT_DOUBLE_EQ(s.threshold, 0.1);
    EXPECT_TRUE(s.isBudget());

    s = parsed("errors<=10");
    EXPECT_FALSE(s.share);
    EXPECT_EQ(s.op, Slo::Op::LessOrEqual);
    EXPECT_DOUBLE_EQ(s.threshold, 10);

    s = parsed("non2xx<1%");
    EXPECT_EQ(s.metric, Slo::Metric::Non2xx);
    s = parsed("rps>5000");
    EXPECT_EQ(s.metric, Slo::Metric::Rps);
    EXPECT_EQ(s.op, Slo::Op::Greater);
    EXPECT_DOUBLE_EQ(parsed("rps>=5k").threshold, 5000);

    EXPECT_EQ(parsed("service_p99<50ms").metric, Slo::Metric::Service);
    EXPECT_EQ(parsed("connect_p99<5ms").metric, Slo::Metric::Connect);
    EXPECT_EQ(parsed("tls_p50<20ms").metric, Slo::Metric::TlsHandshake);
    EXPECT_EQ(parsed("tls_handshake_max<1s").metric, Slo::Metric::TlsHandshake);
    EXPECT_EQ(parsed("ttfb_p99<100ms").metric, Slo::Metric::FirstByte);
    EXPECT_EQ(parsed("first_byte_mean<10ms").stat, Slo::Stat::Mean);
    EXPECT_EQ(parsed("max<2s").stat, Slo::Stat::Max);
    EXPECT_EQ(parsed("avg<900us").stat, Slo::Stat::Mean);
    EXPECT_DOUBLE_EQ(parsed("p100<1s").percentile, 100);
}

TEST(SloParse, ErrorsPointAtTheBadCharacter)
{
    EXPECT_EQ(errorOf("p99<25x"), "SLO 'p99<25x': at character 7, unknown unit 'x' (use us, ms or s)");
    EXPECT_EQ(errorOf("p99<250"), "SLO 'p99<250': at character 8, a time needs a unit (us, ms or s)");
    EXPECT_EQ(errorOf("q99<1s").rfind("SLO 'q99<1s': at character 1, unknown metric", 0), 0u);
    EXPECT_EQ(errorOf("p99=1s"), "SLO 'p99=1s': at character 4, expected <, <=, > or >=");
    EXPECT_EQ(errorOf("p<1s"), "SLO 'p<1s': at character 2, a percentile must follow 'p' (p50, p99, p99.9)");
    EXPECT_EQ(errorOf("p101<1s"), "SLO 'p101<1s': at character 2, the percentile must be above 0 and at most 100");
    EXPECT_EQ(errorOf("p99<ms"), "SLO 'p99<ms': at character 5, expected a number");
    EXPECT_EQ(errorOf("errors<0.5"),
        "SLO 'errors<0.5': at character 8, a count is a whole number (or write a share such as 0.5%)");
    EXPECT_EQ(errorOf("errors<1%%"),
        "SLO 'errors<1%%': at character 9, unknown unit '%%' (use a share such as 0.1% or a count)");
    EXPECT_EQ(errorOf("errors<101%"), "SLO 'errors<101%': at character 8, a share is at most 100%");
    EXPECT_EQ(
        errorOf("rps>5q"), "SLO 'rps>5q': at character 6, unknown unit 'q' (requests/s: a number, or with k or M)");
    EXPECT_EQ(errorOf("p99<1.2.3ms"), "SLO 'p99<1.2.3ms': at character 5, expected a number");
    EXPECT_EQ(errorOf("p99<" + std::string(305, '9') + "s"),
        "SLO 'p99<" + std::string(305, '9') + "s': at character 5, the threshold is too large"); // found by fuzzing
    EXPECT_EQ(errorOf("").rfind("empty SLO", 0), 0u);
    EXPECT_EQ(errorOf("   ").rfind("empty SLO", 0), 0u);
}

TEST(SloVerdict, ReadsTheRightNumbers)
{
    LatencyHistogram latency;
    latency.recordN(1000, 99);
    latency.record(400'000);
    LatencyHistogram firstByte;
    firstByte.recordN(300, 100);
    SloInputs in;
    in.latency = &latency;
    in.firstByte = &firstByte;
    in.requests = 100;
    in.errors.read = 1; // 1 of 101 attempts
    in.non2xx = 4; // 4 of 100 responses
    in.durationS = 2;

    SloVerdict v = evaluateSlo(parsed("p99<250ms"), in);
    EXPECT_TRUE(v.ok);
    EXPECT_EQ(v.unit, "us");
    EXPECT_NEAR(v.value, 1000, 4);
    EXPECT_EQ(formatSloLine(v), "SLO p99<250ms: ok (1.0ms)");

    v = evaluateSlo(parsed("max<250ms"), in);
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(formatSloLine(v), "SLO max<250ms: FAILED (400.0ms)");

    v = evaluateSlo(parsed("errors<0.5%"), in);
    EXPECT_FALSE(v.ok);
    EXPECT_NEAR(v.value, 100.0 / 101, 1e-9);
    EXPECT_EQ(formatSloLine(v), "SLO errors<0.5%: FAILED (0.99%)");
    EXPECT_TRUE(evaluateSlo(parsed("errors<=1"), in).ok);
    EXPECT_FALSE(evaluateSlo(parsed("errors<1"), in).ok);

    v = evaluateSlo(parsed("non2xx<5%"), in);
    EXPECT_TRUE(v.ok);
    EXPECT_DOUBLE_EQ(v.value, 4.0);

    v = evaluateSlo(parsed("rps>=50"), in);
    EXPECT_TRUE(v.ok);
    EXPECT_EQ(formatSloLine(v), "SLO rps>=50: ok (50.0 req/s)");
    EXPECT_FALSE(evaluateSlo(parsed("rps>50"), in).ok);

    EXPECT_TRUE(evaluateSlo(parsed("ttfb_p99<1ms"), in).ok);
    EXPECT_FALSE(evaluateSlo(parsed("ttfb_p99<200us"), in).ok);

    // Nothing measured is no evidence: the SLO fails and says why.
    v = evaluateSlo(parsed("connect_p99<5ms"), in);
    EXPECT_FALSE(v.ok);
    EXPECT_TRUE(std::isnan(v.value));
    EXPECT_EQ(formatSloLine(v), "SLO connect_p99<5ms: FAILED (no data)");
    EXPECT_FALSE(evaluateSlo(parsed("p99<1s"), SloInputs {}).ok);
    EXPECT_TRUE(evaluateSlo(parsed("errors<1"), SloInputs {}).ok); // a count of none is 0

    EXPECT_FALSE(allSlosMet(evaluateSlos({ parsed("p99<250ms"), parsed("max<250ms") }, in)));
    EXPECT_TRUE(allSlosMet(evaluateSlos({ parsed("p99<250ms") }, in)));
    EXPECT_TRUE(allSlosMet({}));
}

TEST(SloAbort, OnlySpentBudgetsStopARun)
{
    SloInputs in;
    in.requests = 1000;
    in.errors.timeout = 30; // 30 of 1,030 attempts: 2.9%
    EXPECT_TRUE(sloCannotBeMet(parsed("errors<10"), in, 0));
    EXPECT_FALSE(sloCannotBeMet(parsed("errors<100"), in, 0));
    // Closed loop: the share so far.
    EXPECT_TRUE(sloCannotBeMet(parsed("errors<1%"), in, 0));
    EXPECT_FALSE(sloCannotBeMet(parsed("errors<5%"), in, 0));
    // Open model: 30 errors are 0.3% of the 10,000 requests the run will make, within a 1% budget;
    // 30 of 2,000 (1.5%) spend it whatever comes.
    EXPECT_FALSE(sloCannotBeMet(parsed("errors<1%"), in, 10'000));
    EXPECT_TRUE(sloCannotBeMet(parsed("errors<1%"), in, 2'000));
    // Latency, rps and lower bounds never abort.
    EXPECT_FALSE(sloCannotBeMet(parsed("p99<1us"), in, 0));
    EXPECT_FALSE(sloCannotBeMet(parsed("rps>1000000"), in, 0));
    EXPECT_FALSE(sloCannotBeMet(parsed("errors>50"), in, 0));
    in.non2xx = 500;
    EXPECT_TRUE(sloCannotBeMet(parsed("non2xx<1%"), in, 0));
}
