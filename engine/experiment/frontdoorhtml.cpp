#include "experiment/frontdoorhtml.h"

#include "common/format.h"
#include "experiment/experimentreport.h"
#include "experiment/frontdoormetrics.h"
#include "report/svgchart.h"
#include "report/units.h"
#include "run/responsenotes.h"

#include <cmath>
#include <cstdio>

namespace wb {

namespace {

std::string num(const std::string& v)
{
    return "<td class=\"num\">" + xmlEscape(v) + "</td>";
}

std::string timeText(uint64_t us)
{
    return formatTimeUs(static_cast<double>(us));
}

std::string backendsTable(const RunRecord& run, const FrontDoorView& v)
{
    const BackendBalance& b = v.balance;
    std::string out
        = "<p>Backends (" + xmlEscape(backendFromText(run.config.backendFrom)) + "): " + std::to_string(b.backends);
    if (b.backends > 1)
        out += ", max/min share " + printedNumber("%.2f", b.maxMinRatio) + ", CV " + printedNumber("%.3f", b.cv)
            + ", chi-square " + printedNumber("%.1f", b.chiSquare) + " (" + std::to_string(b.degreesOfFreedom)
            + " df) against an even split: p = " + printedNumber("%.3g", b.pValue);
    out += ".</p>\n<div class=\"scroll\"><table class=\"backends\" id=\"backends-" + std::to_string(run.id)
        + "\"><thead><tr><th>backend</th><th>requests</th><th>share</th><th></th><th>p50</th><th>p90</th>"
          "<th>p99</th><th>max</th><th>non-2xx</th><th>first seen</th><th>last seen</th></tr></thead><tbody>\n";
    for (size_t i : backendsByRequests(v.backends)) {
        const BackendStats& s = v.backends.stats[i];
        const double share = v.shareOf(s);
        out += "<tr>" + std::string("<td>") + xmlEscape(v.backends.names[i]) + "</td>"
            + num(groupedNumber(static_cast<double>(s.requests)))
            + num(printedNumber("%.2f%%", 100.0 * share))
            // The bar: the share of the run's responses, drawn to scale (100% = 10em).
            + "<td><div style=\"background:#0072B2;height:10px;width:" + printedNumber("%.2f", 10.0 * share)
            + "em\"></div></td>" + num(timeText(s.latency.valueAtPercentileUs(50)))
            + num(timeText(s.latency.valueAtPercentileUs(90))) + num(timeText(s.latency.valueAtPercentileUs(99)))
            + num(timeText(s.latency.maxUs())) + num(std::to_string(s.non2xx))
            + num(printedNumber("%.2fs", s.firstSeenS)) + num(printedNumber("%.2fs", s.lastSeenS)) + "</tr>\n";
    }
    out += "</tbody></table></div>\n";
    if (v.backends.unnamed > 0)
        out += "<p>" + std::to_string(v.backends.unnamed) + " responses named no backend.</p>\n";
    if (!v.events.empty()) {
        out += "<ul class=\"events\">\n";
        for (const BackendEvent& e : v.events)
            out += "<li>" + xmlEscape(e.name) + " " + backendEventId(e.kind) + " at " + printedNumber("%.2fs", e.atS)
                + "</li>\n";
        out += "</ul>\n";
    }
    return out;
}

std::string splitTable(const RunRecord& run, const FrontDoorView& v)
{
    std::string out = "<p>Upstream time (" + xmlEscape(upstreamTimeText(run.config.upstreamTime))
        + "): the three distributions side by side (percentiles do not add).</p>\n<table class=\"split\" id=\"split-"
        + std::to_string(run.id)
        + "\"><thead><tr><th></th><th>responses</th><th>p50</th><th>p90</th><th>p99</th><th>max</th><th>mean</th>"
          "</tr></thead><tbody>\n";
    const auto row = [&](const std::string& name, const LatencyHistogram& hist) {
        out += "<tr><td>" + name + "</td>" + num(groupedNumber(static_cast<double>(hist.count())))
            + num(timeText(hist.valueAtPercentileUs(50))) + num(timeText(hist.valueAtPercentileUs(90)))
            + num(timeText(hist.valueAtPercentileUs(99))) + num(timeText(hist.maxUs()))
            + num(hist.empty() ? "-" : formatTimeUs(hist.meanUs())) + "</tr>\n";
    };
    row(run.config.openModel() ? "service time" : "latency", v.total);
    row("upstream", v.upstream);
    row("front door", v.frontDoor);
    out += "</tbody></table>\n";
    if (const MeanSplit& s = v.meanSplit; s.responses > 0)
        out += "<p>Mean split: " + formatTimeUs(s.totalUs()) + " = upstream " + formatTimeUs(s.upstreamUs)
            + " + front door " + formatTimeUs(s.frontDoorUs) + " ("
            + printedNumber("%.1f", 100.0 * (std::isnan(s.frontDoorShare()) ? 0.0 : s.frontDoorShare()))
            + "% front door).</p>\n";
    if (v.upstreamMissing > 0)
        out += "<p>" + std::to_string(v.upstreamMissing)
            + " responses stated no upstream time (in neither side).</p>\n";
    return out;
}

} // namespace

std::string frontDoorHtmlSection(const ExperimentResults& results)
{
    std::string body;
    for (const RunRecord& run : results.runs) {
        const auto it = results.frontDoor.find(run.id);
        if (it == results.frontDoor.end() || !it->second.any()) continue;
        body += "<h3 id=\"front-door-" + std::to_string(run.id) + "\">Run " + std::to_string(run.id) + " ("
            + xmlEscape(run.targetName) + ")</h3>\n";
        if (it->second.backendsAsked) body += backendsTable(run, it->second);
        if (it->second.upstreamAsked) body += splitTable(run, it->second);
    }
    if (body.empty()) return {};
    std::string out = "<section id=\"front-door\">\n<h2>Behind the front door</h2>\n";
    if (const std::vector<std::string> lines = runMetricLines(results); !lines.empty()) {
        out += "<p>Mean \xC2\xB1 standard deviation across repetitions; the difference to the baseline with its 95% "
               "confidence interval (Welch's t).</p>\n<ul class=\"run-metrics\">\n";
        for (const std::string& line : lines)
            out += "<li>" + xmlEscape(line) + "</li>\n";
        out += "</ul>\n";
    }
    return out + body + "</section>\n";
}

} // namespace wb
