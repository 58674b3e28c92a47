#include "report/svgchart.h"

#include "common/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb {

namespace {

// The plot area's margins: room for the y tick labels on the left, the x tick labels and the
// axis label below, the title and the legend above.
constexpr double LEFT = 64, RIGHT = 16, TITLE = 28, BOTTOM = 50;
constexpr double LEGEND_ROW = 18;
constexpr double CHAR_WIDTH_PX = 6.6; // of the 12 px sans-serif text, to lay the legend out without a font
constexpr char FONT[] = "font-family=\"sans-serif\" font-size=\"12\"";
constexpr char AXIS_COLOR[] = "#444";
constexpr char GRID_COLOR[] = "#ddd";

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string text(double x, double y, const std::string& s, const char* anchor = "middle", const std::string& extra = "")
{
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\" " + FONT + extra + ">"
        + xmlEscape(s) + "</text>\n";
}

struct LegendItem
{
    std::string name;
    std::string color;
    bool dashed = false;
    bool box = false; ///< a filled square (bars) instead of a line sample
};

/// The legend laid out in rows under the title; returns the height it takes.
double legend(std::string& out, const std::vector<LegendItem>& items, double width, bool draw)
{
    double x = LEFT, y = TITLE + 4;
    int rows = items.empty() ? 0 : 1;
    for (const LegendItem& item : items) {
        const double w = 26 + CHAR_WIDTH_PX * static_cast<double>(item.name.size()) + 14;
        if (x + w > width - RIGHT && x > LEFT) {
            x = LEFT;
            y += LEGEND_ROW;
            ++rows;
        }
        if (draw) {
            const double mid = y + LEGEND_ROW / 2;
            if (item.box)
                out += "<rect x=\"" + num(x) + "\" y=\"" + num(mid - 5) + "\" width=\"18\" height=\"10\" fill=\""
                    + xmlEscape(item.color) + "\"/>\n";
            else
                out += "<line x1=\"" + num(x) + "\" y1=\"" + num(mid) + "\" x2=\"" + num(x + 18) + "\" y2=\"" + num(mid)
                    + "\" stroke=\"" + xmlEscape(item.color) + "\" stroke-width=\"2\""
                    + (item.dashed ? " stroke-dasharray=\"5,3\"" : "") + "/>\n";
            out += text(x + 24, mid + 4, item.name, "start");
        }
        x += w;
    }
    return rows * LEGEND_ROW + (rows ? 6 : 0);
}

std::string header(const std::string& title, int width, int height)
{
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + std::to_string(width) + "\" height=\""
        + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height)
        + "\" role=\"img\" aria-label=\"" + xmlEscape(title) + "\">\n<title>" + xmlEscape(title)
        + "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
        + text(width / 2.0, 18, title, "middle", " font-weight=\"bold\"");
}

/// Horizontal grid lines with their labels, and the y axis label (rotated).
void yAxis(std::string& out, const std::vector<double>& ticks, double top, double bottom, double right,
    const std::string& label, double lo, double hi)
{
    for (double t : ticks) {
        const double y = bottom - (t - lo) / (hi - lo) * (bottom - top);
        out += "<line x1=\"" + num(LEFT) + "\" y1=\"" + num(y) + "\" x2=\"" + num(right) + "\" y2=\"" + num(y)
            + "\" stroke=\"" + GRID_COLOR + "\"/>\n";
        out += text(LEFT - 6, y + 4, tickLabel(t), "end");
    }
    const double mid = (top + bottom) / 2;
    out += text(14, mid, label, "middle", " transform=\"rotate(-90 14 " + num(mid) + ")\"");
    out += "<line x1=\"" + num(LEFT) + "\" y1=\"" + num(top) + "\" x2=\"" + num(LEFT) + "\" y2=\"" + num(bottom)
        + "\" stroke=\"" + AXIS_COLOR + "\"/>\n";
    out += "<line x1=\"" + num(LEFT) + "\" y1=\"" + num(bottom) + "\" x2=\"" + num(right) + "\" y2=\"" + num(bottom)
        + "\" stroke=\"" + AXIS_COLOR + "\"/>\n";
}

double maxOf(double a, double b)
{
    return std::isfinite(b) ? std::max(a, b) : a;
}

} // namespace

std::string xmlEscape(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : validUtf8(text)) {
        // XML 1.0 has no way to write the C0 controls but tab and line breaks, not even as
        // references (an SVG saved with one does not open): they become U+FFFD like bad UTF-8.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            out += REPLACEMENT_CHARACTER;
            continue;
        }
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::vector<double> niceTicks(double lo, double hi, int maxTicks)
{
    if (!std::isfinite(lo) || !std::isfinite(hi)) return { 0, 1 };
    if (hi <= lo) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
    const double raw = (hi - lo) / std::max(1, maxTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (double m : { 1.0, 2.0, 2.5, 5.0, 10.0 })
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    std::vector<double> ticks;
    const double first = std::floor(lo / step) * step;
    for (double t = first; t < hi + step * 0.999 && ticks.size() < 64; t += step)
        ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

std::string tickLabel(double v)
{
    char buf[32];
    const double a = std::fabs(v);
    if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%gM", std::round(v / 1e5) / 10);
    else if (a >= 1e4)
        std::snprintf(buf, sizeof buf, "%gk", std::round(v / 1e2) / 10);
    else if (a >= 1000 && a == std::floor(a)) {
        const long long n = std::llround(v);
        std::snprintf(buf, sizeof buf, "%s%lld,%03lld", n < 0 ? "-" : "", std::llabs(n) / 1000, std::llabs(n) % 1000);
    } else
        std::snprintf(buf, sizeof buf, "%g", std::round(v * 1000) / 1000);
    return buf;
}

std::string svgLineChart(const SvgLineChart& chart, int width, int height)
{
    const bool categorical = !chart.categories.empty();
    double xMax = 0, yMax = 0;
    for (const SvgLineSeries& s : chart.series)
        for (const SvgPoint& p : s.points)
            if (std::isfinite(p.x) && std::isfinite(p.y)) {
                xMax = maxOf(xMax, p.x);
                yMax = maxOf(yMax, p.y);
            }
    std::vector<LegendItem> items;
    for (const SvgLineSeries& s : chart.series)
        items.push_back({ s.name, s.color, s.dashed, false });

    std::string out = header(chart.title, width, height);
    const double top = TITLE + legend(out, items, width, true) + 6;
    const double bottom = height - BOTTOM, right = width - RIGHT;
    const std::vector<double> yTicks = niceTicks(0, yMax > 0 ? yMax * 1.05 : 1);
    const double yLo = yTicks.front(), yHi = yTicks.back();
    yAxis(out, yTicks, top, bottom, right, chart.yLabel, yLo, yHi);

    double xLo = 0, xHi = 1;
    if (categorical) {
        xLo = -0.5;
        xHi = static_cast<double>(chart.categories.size()) - 0.5;
    } else {
        const std::vector<double> xTicks = niceTicks(0, xMax > 0 ? xMax * 1.05 : 1);
        xLo = xTicks.front();
        xHi = xTicks.back();
    }
    const auto px = [&](double x) { return LEFT + (x - xLo) / (xHi - xLo) * (right - LEFT); };
    const auto py = [&](double y) { return bottom - (y - yLo) / (yHi - yLo) * (bottom - top); };
    if (categorical) {
        for (size_t i = 0; i < chart.categories.size(); ++i)
            out += text(px(static_cast<double>(i)), bottom + 16, chart.categories[i]);
    } else {
        for (double t : niceTicks(0, xMax > 0 ? xMax * 1.05 : 1)) {
            out += "<line x1=\"" + num(px(t)) + "\" y1=\"" + num(bottom) + "\" x2=\"" + num(px(t)) + "\" y2=\""
                + num(bottom + 4) + "\" stroke=\"" + AXIS_COLOR + "\"/>\n";
            out += text(px(t), bottom + 16, tickLabel(t));
        }
    }
    out += text((LEFT + right) / 2, height - 10, chart.xLabel);

    for (const SvgLineSeries& s : chart.series) {
        const std::string color = xmlEscape(s.color);
        std::string points;
        std::string marks;
        for (const SvgPoint& p : s.points) {
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
            const std::string x = num(px(p.x)), y = num(py(p.y));
            points += (points.empty() ? "" : " ") + x + "," + y;
            const std::string xText = categorical && p.x >= 0 && p.x < static_cast<double>(chart.categories.size())
                ? chart.categories[static_cast<size_t>(p.x)]
                : tickLabel(p.x);
            marks += "<circle cx=\"" + x + "\" cy=\"" + y + "\" r=\"3.5\" "
                + (s.hollow ? "fill=\"white\" stroke-width=\"1.5\" stroke=\"" : "fill=\"") + color + "\"><title>"
                + xmlEscape(s.name + (p.label.empty() ? "" : ", " + p.label) + ": " + xText + ", " + tickLabel(p.y))
                + "</title></circle>\n";
        }
        out += "<g class=\"series\" data-name=\"" + xmlEscape(s.name) + "\">\n";
        if (s.line && !points.empty())
            out += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\""
                + (s.dashed ? " stroke-dasharray=\"6,4\"" : "") + " points=\"" + points + "\"/>\n";
        out += marks + "</g>\n";
    }
    return out + "</svg>\n";
}

std::string svgBarChart(const SvgBarChart& chart, int width, int height)
{
    double yMax = 0;
    for (const SvgBarGroup& g : chart.groups)
        for (size_t i = 0; i < g.values.size(); ++i)
            yMax = maxOf(yMax, g.values[i] + (i < g.errors.size() && std::isfinite(g.errors[i]) ? g.errors[i] : 0));
    std::vector<LegendItem> items;
    for (const SvgBarGroup& g : chart.groups)
        items.push_back({ g.name, g.color, false, true });

    std::string out = header(chart.title, width, height);
    const double top = TITLE + legend(out, items, width, true) + 6;
    const double bottom = height - BOTTOM, right = width - RIGHT;
    const std::vector<double> yTicks = niceTicks(0, yMax > 0 ? yMax * 1.05 : 1);
    const double yLo = yTicks.front(), yHi = yTicks.back();
    yAxis(out, yTicks, top, bottom, right, chart.yLabel, yLo, yHi);
    const auto py = [&](double y) { return bottom - (y - yLo) / (yHi - yLo) * (bottom - top); };

    const size_t n = std::max<size_t>(1, chart.categories.size());
    const double slot = (right - LEFT) / static_cast<double>(n);
    const double groupWidth = slot * 0.7;
    const double barWidth = chart.groups.empty() ? 0 : groupWidth / static_cast<double>(chart.groups.size());
    for (size_t c = 0; c < chart.categories.size(); ++c)
        out += text(LEFT + slot * (static_cast<double>(c) + 0.5), bottom + 16, chart.categories[c]);
    for (size_t g = 0; g < chart.groups.size(); ++g) {
        const SvgBarGroup& group = chart.groups[g];
        const std::string color = xmlEscape(group.color);
        out += "<g class=\"bars\" data-name=\"" + xmlEscape(group.name) + "\">\n";
        for (size_t c = 0; c < chart.categories.size() && c < group.values.size(); ++c) {
            const double v = group.values[c];
            if (!std::isfinite(v)) continue;
            const double x
                = LEFT + slot * static_cast<double>(c) + (slot - groupWidth) / 2 + barWidth * static_cast<double>(g);
            const double y = py(std::max(0.0, v));
            const double err = c < group.errors.size() ? group.errors[c] : NAN;
            out += "<rect x=\"" + num(x + 1) + "\" y=\"" + num(y) + "\" width=\"" + num(std::max(1.0, barWidth - 2))
                + "\" height=\"" + num(bottom - y) + "\" fill=\"" + color + "\"><title>"
                + xmlEscape(group.name + ", " + chart.categories[c] + ": " + tickLabel(v)
                    + (std::isfinite(err) ? " \xC2\xB1 " + tickLabel(err) : ""))
                + "</title></rect>\n";
            if (std::isfinite(err) && err > 0) {
                const double mid = x + barWidth / 2, cap = barWidth / 4;
                const double hi = py(v + err), lo = py(std::max(0.0, v - err));
                out += "<path d=\"M" + num(mid - cap) + " " + num(hi) + "H" + num(mid + cap) + "M" + num(mid) + " "
                    + num(hi) + "V" + num(lo) + "M" + num(mid - cap) + " " + num(lo) + "H" + num(mid + cap)
                    + "\" stroke=\"#333\" stroke-width=\"1.5\" fill=\"none\"/>\n";
            }
        }
        out += "</g>\n";
    }
    return out + "</svg>\n";
}

} // namespace wb
