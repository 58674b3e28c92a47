// The SVG charts of the HTML report: escaping, round ticks, and what each chart draws.

#include "report/svgchart.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

namespace {

size_t count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

} // namespace

TEST(SvgChart, EscapesMarkup)
{
    EXPECT_EQ(xmlEscape("<script>alert('x') & \"y\"</script>"),
        "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;");
    EXPECT_EQ(xmlEscape("plain"), "plain");
}

TEST(SvgChart, TicksAreRoundAndCoverTheRange)
{
    EXPECT_EQ(niceTicks(0, 9.3), (std::vector<double> { 0, 2, 4, 6, 8, 10 }));
    EXPECT_EQ(niceTicks(0, 1450), (std::vector<double> { 0, 500, 1000, 1500 }));
    const std::vector<double> empty = niceTicks(0, 0); // nothing to show: still an axis from 0 to 1
    ASSERT_EQ(empty.size(), 6U);
    EXPECT_DOUBLE_EQ(empty.back(), 1.0);
    EXPECT_EQ(tickLabel(1500), "1,500");
    EXPECT_EQ(tickLabel(25000), "25k");
    EXPECT_EQ(tickLabel(2500000), "2.5M");
    EXPECT_EQ(tickLabel(0.25), "0.25");
}

TEST(SvgChart, LineChartDrawsEachSeriesEscaped)
{
    SvgLineChart chart { "p50 <&> p99", "achieved req/s", "latency (ms)", {}, {} };
    chart.series.push_back(
        { "<script>alert(1)</script> p50", "#0072B2", false, { { 100, 1, "r100" }, { 200, 2, "" } } });
    chart.series.push_back({ "B p99", "#D55E00", true, { { 100, 3, "" }, { NAN, 4, "" }, { 300, 9, "" } } });
    const std::string svg = svgLineChart(chart);
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0U);
    EXPECT_EQ(count(svg, "<polyline"), 2U);
    EXPECT_EQ(count(svg, "<circle"), 4U); // the NaN point is skipped
    EXPECT_EQ(count(svg, "stroke-dasharray=\"6,4\""), 1U);
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_NE(svg.find("&lt;script&gt;alert(1)&lt;/script&gt; p50"), std::string::npos);
    EXPECT_NE(svg.find("p50 &lt;&amp;&gt; p99"), std::string::npos);
    EXPECT_NE(svg.find("r100"), std::string::npos); // a point's label is its tooltip
    EXPECT_NE(svg.find(">achieved req/s<"), std::string::npos);
}

TEST(SvgChart, BarChartDrawsBarsAndErrorBars)
{
    SvgBarChart chart { "req/s", "req/s", { "c25", "c50" }, {} };
    chart.groups.push_back({ "A", "#0072B2", { 1000, 2000 }, { 50, NAN } });
    chart.groups.push_back({ "B", "#D55E00", { 900, NAN }, {} });
    const std::string svg = svgBarChart(chart);
    EXPECT_EQ(count(svg, "<rect x="), 3U + 2U); // three bars, two legend boxes
    EXPECT_EQ(count(svg, "<path d="), 1U); // one error bar
    EXPECT_NE(svg.find(">c50<"), std::string::npos);
}
