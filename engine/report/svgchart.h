#pragma once
// Charts as SVG text, for reports that must stand alone (the HTML report opens
// offline in any browser, so its charts are inline SVG, not images or scripts).
// Plain C++ with no Qt: wrkbench-cli writes the same report on a bare loader VM as
// the GUI. Two kinds, the two the reports need: grouped bars with error bars
// (requests/s per level) and lines on numeric or category x axes (latency per level,
// latency against throughput). Every text is escaped; colours are the caller's.

#include <string>
#include <vector>

namespace wb {

/// Text for XML and HTML: valid UTF-8 (common/text.h), the C0 controls XML cannot hold
/// replaced like bad bytes, & < > " ' escaped (element content and attribute values alike).
std::string xmlEscape(const std::string& text);

struct SvgPoint
{
    double x = 0;
    double y = 0;
    std::string label; ///< shown as the point's tooltip (<title>), with x and y
};

struct SvgLineSeries
{
    std::string name;
    std::string color = "#1f77b4"; ///< any CSS colour
    bool dashed = false;
    std::vector<SvgPoint> points; ///< drawn in this order; non-finite values are skipped
    bool line = true; ///< false: the points' marks alone (a scatter)
    bool hollow = false; ///< marks as rings rather than dots (failures beside passes)
};

struct SvgLineChart
{
    std::string title;
    std::string xLabel;
    std::string yLabel;
    /// When set, x is an index into these (0, 1, ...) and the axis shows them as labels.
    std::vector<std::string> categories;
    std::vector<SvgLineSeries> series;
};

struct SvgBarGroup
{
    std::string name; ///< one bar per category, in this colour
    std::string color = "#1f77b4";
    std::vector<double> values; ///< per category; NaN = no bar
    std::vector<double> errors; ///< +- per category (an error bar); NaN or absent = none
};

struct SvgBarChart
{
    std::string title;
    std::string yLabel;
    std::vector<std::string> categories;
    std::vector<SvgBarGroup> groups;
};

/// An <svg> element width x height (user units = CSS pixels, scalable by viewBox).
std::string svgLineChart(const SvgLineChart& chart, int width = 560, int height = 340);
std::string svgBarChart(const SvgBarChart& chart, int width = 560, int height = 340);

/// Round tick values covering [lo, hi]: a 1-2-5 step, at most maxTicks intervals.
std::vector<double> niceTicks(double lo, double hi, int maxTicks = 5);

/// A tick label: "0", "2.5", "1,500", "12k", "1.5M".
std::string tickLabel(double v);

} // namespace wb
