#include "experiment/htmlscrape.h"

#include "experiment/htmlreport.h"
#include "prometheus/exposition/scrapetext.h"
#include "report/svgchart.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace wb {

namespace {

constexpr size_t MAX_CHARTS = 6; // a report stays readable; the table lists every series
constexpr size_t MAX_TABLE_ROWS = 400;

int preference(const std::string& label)
{
    if (label.find("busy_percent") != std::string::npos) return 0;
    if (label.size() >= 2 && label.compare(label.size() - 2, 2, " %") == 0) return 1;
    if (label.size() >= 4 && label.compare(label.size() - 4, 4, " p99") == 0) return 2;
    if (label.size() >= 3 && label.compare(label.size() - 3, 3, " /s") == 0) return 3;
    return 4;
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

int64_t measureStartMs(const RunRecord& r, const ScrapeRecord& scrape)
{
    if (r.startedAtMs) return r.startedAtMs;
    int64_t first = 0;
    for (const ScrapeSeries& s : scrape.series)
        if (!s.points.empty() && (first == 0 || s.points.front().atUnixMs < first)) first = s.points.front().atUnixMs;
    return first;
}

} // namespace

std::string htmlTargetMetricsSection(const ExperimentResults& results)
{
    if (results.scrapes.empty()) return {};
    std::vector<std::string> targets; // colours by target, in plan order
    for (const ExperimentTarget& t : results.plan.targets)
        targets.push_back(t.name);
    auto colorOf = [&](const std::string& target) {
        auto it = std::find(targets.begin(), targets.end(), target);
        if (it == targets.end()) {
            targets.push_back(target);
            it = targets.end() - 1;
        }
        return reportSeriesColor(static_cast<size_t>(it - targets.begin()));
    };

    // label -> one line per run (and endpoint)
    std::map<std::string, std::vector<SvgLineSeries>> charts;
    std::vector<std::string> order;
    std::string rows;
    size_t rowCount = 0;
    for (const RunRecord& r : results.runs) {
        auto found = results.scrapes.find(r.id);
        if (found == results.scrapes.end()) continue;
        const ScrapeRecord& scrape = found->second;
        const int64_t startMs = measureStartMs(r, scrape);
        for (const ScrapeSeries& s : scrape.series) {
            const std::string endpoint = s.endpoint < scrape.endpoints.size() ? scrape.endpoints[s.endpoint].name : "";
            const std::string label = s.label();
            SvgLineSeries line { "run " + std::to_string(r.id) + " " + r.targetName + " (" + endpoint + ")",
                colorOf(r.targetName), false, {} };
            for (const ScrapePoint& p : s.points) {
                const double t = static_cast<double>(p.atUnixMs - startMs) / 1000.0;
                if (t >= 0) line.points.push_back({ t, p.value, "" });
            }
            if (!charts.count(label)) order.push_back(label);
            charts[label].push_back(std::move(line));
            if (rowCount++ < MAX_TABLE_ROWS) {
                const SeriesSummary sum = summarizeSeries(s, startMs);
                rows += "<tr><td>" + std::to_string(r.id) + "</td><td>" + xmlEscape(r.targetName) + "</td><td>"
                    + xmlEscape(endpoint) + "</td><td><code>" + xmlEscape(label) + "</code></td><td>"
                    + (sum.points ? number(sum.mean) : "-") + "</td><td>" + (sum.points ? number(sum.max) : "-")
                    + "</td></tr>\n";
            }
        }
    }
    std::stable_sort(order.begin(), order.end(),
        [](const std::string& a, const std::string& b) { return preference(a) < preference(b); });
    std::string out = "<section id=\"target-metrics\">\n<h2>Target metrics</h2>\n<p>What the targets' own metrics "
                      "endpoints said during each run (read before, every interval and after the load; counters as "
                      "rates per second, histograms as quantiles per interval; docs/METRICS.md). Time from each "
                      "run's start; colours by target.</p>\n<div class=\"charts\">\n";
    for (size_t i = 0; i < order.size() && i < MAX_CHARTS; ++i) {
        SvgLineChart chart { order[i], "seconds since the run's start", order[i], {}, charts[order[i]] };
        out += svgLineChart(chart);
    }
    out += "</div>\n";
    if (order.size() > MAX_CHARTS)
        out += "<p>" + std::to_string(order.size() - MAX_CHARTS) + " more series in the table below.</p>\n";
    out += "<div class=\"scroll\"><table><thead><tr><th>Run</th><th>Target</th><th>Endpoint</th><th>Series</th>"
           "<th>Mean</th><th>Max</th></tr></thead><tbody>\n"
        + rows + "</tbody></table></div>\n";
    if (rowCount > MAX_TABLE_ROWS)
        out += "<p>" + std::to_string(rowCount - MAX_TABLE_ROWS)
            + " more rows: export them with "
              "<code>wrkbench-cli export --what scrape --csv</code>.</p>\n";
    return out + "</section>\n";
}

} // namespace wb
