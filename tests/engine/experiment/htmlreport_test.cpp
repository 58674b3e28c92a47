// The self-contained HTML report: every user text escaped (a target named
// <script>alert(1)</script> stays text), nothing that a browser would fetch, the
// results table with a warning row where runs differ beyond the variant, the SVG
// charts (the knee chart only for a sweep), the method and every run's configuration.

#include "experiment/experimentresults.h"
#include "experiment/htmlreport.h"
#include "report/palette.h"

#include <algorithm>
#include <cctype>
#include <gtest/gtest.h>

using namespace wb;

namespace {

const std::string EVIL = "<script>alert(1)</script>";

ExperimentResults results(bool mixedEngines, const std::string& values = "[10, 20]")
{
    auto plan = parseExperimentPlan(R"({"name": "A & B <test>", "targets": [
        {"name": "A", "url": "http://10.0.0.1/", "baseline": true, "session_target_id": 1},
        {"name": "B", "url": "http://10.0.0.2/", "session_target_id": 2}],
        "sweep": {"axis": "connections", "values": )"
        + values + R"(}, "repetitions": 2, "duration": "10s"})");
    EXPECT_TRUE(plan.ok()) << plan.error();
    plan->targets[1].name = EVIL; // a session target may be named anything
    std::vector<RunRecord> runs;
    int64_t id = 1;
    for (size_t cell = 0; cell < plan->levels.size(); ++cell)
        for (int rep = 0; rep < 2; ++rep)
            for (int64_t target : { 1, 2 }) {
                RunRecord r;
                r.id = id++;
                r.targetId = target;
                r.targetName = plan->targets[static_cast<size_t>(target - 1)].name;
                r.url = "http://10.0.0.2/?q=<b>\"x\"</b>";
                r.tags = { "<i>tag</i>" };
                r.notes = "notes </td></tr></table><script>x</script>";
                r.configJson = R"({"url": "http://10.0.0.2/<script>"})";
                r.status = RunStatus::Completed;
                r.hasTotals = true;
                r.engineVersion = mixedEngines && id == 4 ? "0.0.9" : "0.1.0";
                r.config = plan->runConfig(cell, static_cast<size_t>(target - 1));
                r.totals.requestsPerS = 1000.0 * static_cast<double>(cell + 1) + rep * 10 - (target == 2 ? 100 : 0);
                r.totals.latency.p50Us = 1000.0 * static_cast<double>(cell + 1) + rep;
                r.totals.latency.p99Us = 4000.0 * static_cast<double>(cell + 1) + rep;
                r.experiment = ExperimentSlot { 1, static_cast<int>(cell), rep };
                runs.push_back(r);
            }
    ExperimentRecord e;
    e.id = 1;
    e.name = plan->name;
    e.status = ExperimentStatus::Completed;
    return computeExperimentResults(e, *plan, runs);
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

size_t count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

} // namespace

TEST(HtmlReport, EveryUserTextIsEscaped)
{
    const std::string html = formatHtmlReport(results(false), { "<lab>.wrkbench", 0 });
    EXPECT_EQ(lower(html).find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<b>"), std::string::npos);
    EXPECT_EQ(html.find("<i>"), std::string::npos);
    EXPECT_EQ(html.find("<lab>"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(html.find("<title>A &amp; B &lt;test&gt;"), std::string::npos);
    EXPECT_NE(html.find("&lt;i&gt;tag&lt;/i&gt;"), std::string::npos);
    EXPECT_NE(html.find("notes &lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;"), std::string::npos);
    EXPECT_NE(html.find("&quot;http://10.0.0.2/&lt;script&gt;&quot;"), std::string::npos); // the configuration
}

TEST(HtmlReport, NothingIsLoadedFromElsewhere)
{
    const std::string html = lower(formatHtmlReport(results(false)));
    for (const char* fetch : { "<link", "<img", "<iframe", "<object", "<embed", "src=", "href=", "@import", "url(" })
        EXPECT_EQ(html.find(fetch), std::string::npos) << fetch;
    EXPECT_NE(html.find("content-security-policy"), std::string::npos);
    EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
}

TEST(HtmlReport, TableChartsMethodAndRuns)
{
    const std::string html = formatHtmlReport(results(false), { "lab.wrkbench", 1'700'000'000'000 });
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
    EXPECT_NE(html.find("<table id=\"results-table\" class=\"fit\">"), std::string::npos);
    EXPECT_EQ(count(html, "<tr class=\"baseline\">"), 2U); // A at each level
    EXPECT_NE(html.find("id=\"comparable\""), std::string::npos);
    EXPECT_EQ(html.find("<tr class=\"warning\">"), std::string::npos);
    // Bars, latency per level, latency against throughput (two levels make a curve).
    EXPECT_EQ(count(html, "<svg "), 3U);
    EXPECT_NE(html.find("Latency against throughput"), std::string::npos);
    EXPECT_NE(html.find("Fieller"), std::string::npos);
    for (int id = 1; id <= 8; ++id)
        EXPECT_NE(html.find("<tr id=\"run-" + std::to_string(id) + "\">"), std::string::npos) << id;
    EXPECT_EQ(count(html, "<details>"), 8U);
    EXPECT_NE(html.find("lab.wrkbench"), std::string::npos);
    EXPECT_NE(html.find("2023-11-14"), std::string::npos);

    // One level: no knee chart.
    EXPECT_EQ(count(formatHtmlReport(results(false, "[10]")), "<svg "), 2U);
}

TEST(HtmlReport, WarningRowNamesTheDifferingFields)
{
    const std::string html = formatHtmlReport(results(true));
    EXPECT_EQ(count(html, "<tr class=\"warning\">"), 1U);
    EXPECT_NE(html.find("c10: not comparable, the runs differ in engine version</td></tr>"), std::string::npos) << html;
    EXPECT_NE(html.find("Not comparable: c10"), std::string::npos);
    EXPECT_EQ(html.find("id=\"comparable\""), std::string::npos);
    // The warning row comes before the level's rows.
    EXPECT_LT(html.find("<tr class=\"warning\">"), html.find("<tr class=\"baseline\">"));
}

// One unit per column: latency in ms in the header, plain numbers in the cells, with the digits
// the column's smallest value needs (a 59 µs p50 beside a 1.14 ms one reads 0.059 and 1.140).
TEST(HtmlReport, LatencyColumnsCarryTheirUnitInTheHeader)
{
    const std::string html = formatHtmlReport(results(false));
    const size_t table = html.find("<table id=\"results-table\"");
    const std::string results = html.substr(table, html.find("</table>", table) - table);
    EXPECT_NE(results.find("<th>p50 (ms)</th>"), std::string::npos) << results;
    EXPECT_NE(results.find("<th>p99 (ms)</th>"), std::string::npos);
    // p50 of level c10 across its two repetitions: 1000 and 1001 us (the smallest, 1.0005 ms, needs two decimals).
    EXPECT_NE(results.find("<td class=\"num\">1.00 \xC2\xB1 0.00</td>"), std::string::npos) << results;
    for (const char* unit : { "us<", "us ", "\xC2\xB5s", "ms<", "ms " })
        EXPECT_EQ(results.find(unit), std::string::npos) << unit;
    EXPECT_EQ(msDecimalsFor({ 59, 1140 }), 3);
    EXPECT_EQ(msText(59, 3), "0.059");
    EXPECT_EQ(msText(1140, 3), "1.140");
    EXPECT_EQ(msDecimalsFor({ 25'000 }), 1);
    EXPECT_EQ(msDecimalsFor({ 2'500 }), 2);
    EXPECT_EQ(msDecimalsFor({}), 2);
}

// A target is drawn in the window's colour for it (report/palette.h, by session target id):
// in the bars, the lines and the swatch of its table rows.
TEST(HtmlReport, TargetsHaveTheWindowsColours)
{
    const std::string html = formatHtmlReport(results(false));
    EXPECT_EQ(targetColorHex(1), "#4e79a7");
    EXPECT_EQ(targetColorHex(2), "#e4780e");
    for (const int64_t id : { 1, 2 }) {
        EXPECT_NE(
            html.find("<span class=\"swatch\" style=\"background: " + targetColorHex(id) + "\">"), std::string::npos)
            << id;
        EXPECT_GE(count(html, "\"" + targetColorHex(id) + "\""), 3U) << id; // bars and both latency lines
    }
    // Okabe-Ito, the report's palette before, is gone.
    EXPECT_EQ(html.find("#0072B2"), std::string::npos);
    // The verdict column is marked, so that a browser test can find it.
    EXPECT_NE(html.find("<th class=\"verdict\">verdict</th>"), std::string::npos);
}
