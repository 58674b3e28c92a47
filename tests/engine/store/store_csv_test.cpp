// CSV export: RFC 4180 quoting, units, and a round trip through Python's csv module.

#include "pythoncsv.h"
#include "store/csvexport.h"
#include "store/sessionstore.h"
#include "storetestutil.h"
#include "testsupport.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace wb;
using namespace wb::storetest;

namespace {

RunData sampleRun()
{
    RunData d;
    d.run.id = 7;
    d.run.targetName = "NEG, \"east\"";
    d.run.config = sampleConfig();
    d.run.url = d.run.config.request.url.displayText();
    d.run.status = RunStatus::Stopped;
    d.run.startedAtMs = 1'700'000'000'250;
    d.run.tags = { "a", "b" };
    d.run.notes = "line one\nline two, with \"quotes\"";
    d.run.hasTotals = true;
    d.run.totals.durationS = 12.5;
    d.run.totals.requests = 1000;
    d.run.totals.requestsPerS = 80;
    d.run.totals.errors.read = 4;
    LatencyHistogram h;
    for (uint64_t us = 100; us < 1100; ++us)
        h.record(us);
    d.run.totals.latency = LatencySummary::of(h);
    d.latency = h;
    for (uint32_t i = 0; i < 3; ++i)
        d.intervals.push_back(IntervalRecord::of(sampleSnapshot(i, 500 + i, 100)));
    d.statusCodes = { { 200, 990 }, { 503, 10 } };
    return d;
}

} // namespace

TEST(Csv, QuotesOnlyWhatMustBeQuoted)
{
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
    EXPECT_EQ(csvRow({ "a", "b,c", "" }), "a,\"b,c\",\n");
}

TEST(Csv, NumbersAndTimestamps)
{
    EXPECT_EQ(csvNumber(5.47), "5.47");
    EXPECT_EQ(csvNumber(1234.567), "1234.567");
    EXPECT_EQ(csvNumber(0), "0");
    EXPECT_EQ(csvNumber(std::nan("")), "");
    EXPECT_EQ(std::stod(csvNumber(1.0 / 3.0)), 1.0 / 3.0) << "reads back exactly";
    EXPECT_EQ(isoTimestamp(1'700'000'000'250), "2023-11-14T22:13:20.250Z");
    EXPECT_EQ(isoTimestamp(0), "");
}

TEST(Csv, ExportsRoundTripThroughPythonsCsvModule)
{
    const RunData d = sampleRun();

    const auto summary = test::parseCsvWithPython(summaryCsv({ d }));
    ASSERT_TRUE(summary.is_object());
    ASSERT_EQ(summary["rows"].size(), 1u);
    const auto& s = summary["rows"][0];
    EXPECT_EQ(s["run_id"], "7");
    EXPECT_EQ(s["target"], "NEG, \"east\"");
    EXPECT_EQ(s["notes"], "line one\nline two, with \"quotes\"");
    EXPECT_EQ(s["tags"], "a,b");
    EXPECT_EQ(s["status"], "stopped");
    EXPECT_EQ(s["started"], "2023-11-14T22:13:20.250Z");
    EXPECT_EQ(s["duration_s"], "12.5");
    EXPECT_EQ(s["requests"], "1000");
    EXPECT_EQ(s["errors_read"], "4");
    EXPECT_EQ(std::stod(s["latency_max_ms"].get<std::string>()), 1.099);
    EXPECT_EQ(std::stod(s["latency_p50_ms"].get<std::string>()), d.run.totals.latency.p50Us / 1000);
    EXPECT_EQ(s["service_p50_ms"], "") << "unknown is empty";
    EXPECT_EQ(s["planned_duration_s"], "90");
    EXPECT_EQ(s["rate_per_s"], "1500");

    const auto series = test::parseCsvWithPython(seriesCsv({ d }));
    ASSERT_EQ(series["rows"].size(), 3u);
    const auto& i1 = series["rows"][1];
    EXPECT_EQ(i1["index"], "1");
    EXPECT_EQ(i1["start_s"], "0.5");
    EXPECT_EQ(i1["end_s"], "1");
    EXPECT_EQ(i1["requests_per_s"], "200");
    EXPECT_EQ(i1["status_codes"], "200:90;503:10");
    EXPECT_EQ(std::stod(i1["latency_p99_ms"].get<std::string>()), d.intervals[1].latency.p99Us / 1000);
    EXPECT_EQ(i1["max_lag_ms"], "1.001");

    const auto spectrum = test::parseCsvWithPython(percentilesCsv({ d }));
    const auto& rows = spectrum["rows"];
    ASSERT_GT(rows.size(), 100u);
    double previous = 0;
    for (const auto& row : rows) {
        EXPECT_EQ(row["kind"], "latency");
        const double p = std::stod(row["percentile"].get<std::string>());
        EXPECT_GT(p, previous);
        previous = p;
    }
    EXPECT_EQ(rows.back()["percentile"], "100");
    EXPECT_EQ(rows.back()["count"], "1000");
    EXPECT_EQ(rows.back()["latency_ms"], "1.099");

    const auto status = test::parseCsvWithPython(statusCsv({ d }));
    ASSERT_EQ(status["rows"].size(), 2u);
    EXPECT_EQ(status["rows"][1]["status_code"], "503");
    EXPECT_EQ(status["rows"][1]["count"], "10");

    RunRecord running = d.run;
    running.hasTotals = false;
    RunRecord answeredBadly = d.run;
    answeredBadly.totals.non2xx = 10; // non-2xx answers are counted apart from errors
    const auto runs = test::parseCsvWithPython(runsCsv({ answeredBadly, running }));
    ASSERT_EQ(runs["rows"].size(), 2u);
    EXPECT_EQ(runs["header"].size(), 13u);
    EXPECT_EQ(runs["rows"][0]["errors"], "4");
    EXPECT_EQ(runs["rows"][0]["non2xx"], "10");
    EXPECT_EQ(runs["rows"][1]["non2xx"], "") << "no totals yet";
    EXPECT_EQ(runs["rows"][0]["requests_per_s"], "80");
    EXPECT_EQ(runs["rows"][1]["requests_per_s"], "") << "no totals yet";
    EXPECT_EQ(runs["rows"][0]["target"], "NEG, \"east\"");
}
