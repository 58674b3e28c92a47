#include "experiment/comparisonhtml.h"

#include "common/format.h"
#include "experiment/experimentplan.h"
#include "experiment/experimentreport.h"
#include "experiment/runcomparison.h"
#include "experiment/runfigures.h"
#include "report/palette.h"
#include "report/svgchart.h"
#include "store/csvexport.h"

#include <cmath>
#include <cstdio>

namespace wb {

namespace {

std::string pct(double v, int decimals = 2)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f %%", decimals, std::fabs(v));
    return buf;
}

std::string fixed1(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

/// The colour of each run: its target's, as the window draws it.
std::string runColor(const RunRecord& run)
{
    return targetColorHex(run.targetId ? run.targetId : run.id);
}

std::string runLabel(const RunRecord& run)
{
    return "#" + std::to_string(run.id) + " " + run.targetName;
}

std::string swatch(const RunRecord& run)
{
    return "<span class=\"swatch\" style=\"background: " + runColor(run) + "\"></span>";
}

std::string resultsTable(const RunComparison& c)
{
    // Figures of the table of a run's figures (runfigures.h), as Compare shows them.
    static const char* const LATENCY[] = { "p50", "p90", "p99" };
    std::vector<double> latencies;
    for (const RunRecord& r : c.runs)
        latencies.push_back(comparedValue(r, "p50"));
    const int decimals = msDecimalsFor(latencies);
    std::string out = "<div class=\"scroll\"><table id=\"comparison-table\" class=\"fit\">\n<thead><tr><th>run</th>"
                      "<th>target</th><th>req/s</th>";
    for (const char* key : LATENCY)
        out += std::string("<th>") + runFigure(key)->title + " (ms)</th>";
    out += "<th>errors</th><th>non-2xx</th><th>req/s noise (%)</th><th class=\"verdict\">vs baseline</th></tr>"
           "</thead>\n<tbody>\n";
    for (size_t i = 0; i < c.runs.size(); ++i) {
        const RunRecord& r = c.runs[i];
        const bool has = r.hasTotals;
        const auto num = [](const std::string& v) { return "<td class=\"num\">" + xmlEscape(v) + "</td>"; };
        out += std::string(i == 0 ? "<tr class=\"baseline\"" : "<tr") + " id=\"run-" + std::to_string(r.id) + "\">"
            + num(std::to_string(r.id)) + "<td>" + swatch(r) + xmlEscape(r.targetName) + "</td>"
            + num(has ? groupedNumber(r.totals.requestsPerS) : "-");
        for (const char* key : LATENCY)
            out += num(has ? msText(runFigure(key)->value(r), decimals) : "-");
        const double noise = c.noisePct("rps", i);
        out += num(has ? std::to_string(r.totals.errors.transportErrors()) : "-")
            + num(has ? std::to_string(r.totals.non2xx) : "-") + num(std::isnan(noise) ? "-" : fixed1(noise))
            + "<td class=\"verdict\">" + xmlEscape(comparisonVerdict(c, i)) + "</td></tr>\n";
    }
    return out + "</tbody></table></div>\n";
}

std::string chartsSection(const std::vector<RunData>& runs, const RunComparison& c)
{
    SvgLineChart overTime { "Requests/s over time", "time (s)", "req/s", {}, {} };
    SvgLineChart percentiles { "Latency percentiles", "percentile", "latency (ms)", { "p50", "p90", "p99", "p99.9" },
        {} };
    for (const RunRecord& shown : c.runs) {
        const RunData* data = nullptr;
        for (const RunData& d : runs)
            if (d.run.id == shown.id) data = &d;
        if (!data) continue;
        SvgLineSeries rate { runLabel(shown), runColor(shown), false, {} };
        for (const IntervalRecord& i : data->intervals)
            rate.points.push_back({ i.endS, i.requestsPerS(), "" });
        if (!rate.points.empty()) overTime.series.push_back(std::move(rate));
        if (!shown.hasTotals) continue;
        SvgLineSeries lat { runLabel(shown), runColor(shown), false, {} };
        const LatencySummary& l = shown.totals.latency;
        const double values[] = { l.p50Us, l.p90Us, l.p99Us, l.p999Us };
        for (size_t k = 0; k < 4; ++k)
            if (std::isfinite(values[k])) lat.points.push_back({ static_cast<double>(k), values[k] / 1000, "" });
        if (!lat.points.empty()) percentiles.series.push_back(std::move(lat));
    }
    std::string out = "<div class=\"charts\">\n";
    if (!overTime.series.empty()) out += svgLineChart(overTime);
    if (!percentiles.series.empty()) out += svgLineChart(percentiles);
    return out + "</div>\n";
}

std::string configurationTable(const RunComparison& c)
{
    std::string out = "<div class=\"scroll\"><table id=\"config-table\" class=\"fit\">\n<thead><tr><th>setting</th>";
    for (const RunRecord& r : c.runs)
        out += "<th>" + swatch(r) + xmlEscape(runLabel(r)) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    const auto row = [&](const std::string& name, auto value) {
        out += "<tr><th>" + xmlEscape(name) + "</th>";
        for (const RunRecord& r : c.runs)
            out += "<td>" + value(r) + "</td>";
        out += "</tr>\n";
    };
    row("URL", [](const RunRecord& r) { return xmlEscape(r.config.request.method + " " + r.url); });
    // Every header as it was sent, one a line: runs that differ only there are told apart.
    row("headers", [](const RunRecord& r) {
        std::string cell;
        for (const Header& hd : r.config.request.headers)
            cell += (cell.empty() ? "" : "<br>") + xmlEscape(hd.name + ": " + hd.value);
        return cell.empty() ? std::string("-") : cell;
    });
    row("body", [](const RunRecord& r) {
        return r.config.request.body.empty() ? std::string("-")
                                             : std::to_string(r.config.request.body.size()) + " bytes";
    });
    row("protocol", [](const RunRecord& r) {
        return xmlEscape(
            r.hasTotals && !r.totals.protocol.empty() ? r.totals.protocol : httpVersionId(r.config.httpVersion));
    });
    row("threads", [](const RunRecord& r) { return std::to_string(r.config.normalized().threads); });
    row("connections", [](const RunRecord& r) { return std::to_string(r.config.normalized().connections); });
    row("duration", [](const RunRecord& r) {
        std::string planned = planDurationText(r.config.normalized().durationUs);
        if (!r.hasTotals) return planned;
        char ran[32];
        std::snprintf(ran, sizeof ran, "%.2f s", r.totals.durationS);
        // A stopped run measured less than planned: both are said.
        return r.totals.stoppedEarly || r.status == RunStatus::Stopped ? xmlEscape(planned + " planned, ran " + ran)
                                                                       : xmlEscape(planned);
    });
    row("rate", [](const RunRecord& r) {
        return r.config.ratePerS > 0 ? groupedNumber(r.config.ratePerS) + " req/s" : std::string("closed loop");
    });
    row("timeout", [](const RunRecord& r) { return planDurationText(r.config.timeoutUs); });
    row("TLS verify", [](const RunRecord& r) {
        return std::string(!r.config.request.url.isTls() ? "-" : r.config.tls.verifyPeer ? "on" : "off");
    });
    row("status", [](const RunRecord& r) { return std::string(runStatusName(r.status)); });
    row("started",
        [](const RunRecord& r) { return r.startedAtMs ? xmlEscape(isoTimestamp(r.startedAtMs)) : std::string("-"); });
    row("engine", [](const RunRecord& r) { return xmlEscape(r.engineVersion); });
    row("loader host", [](const RunRecord& r) { return xmlEscape(r.hostName.empty() ? "-" : r.hostName); });
    row("tags", [](const RunRecord& r) {
        std::string tags;
        for (const std::string& t : r.tags)
            tags += (tags.empty() ? "" : ", ") + t;
        return xmlEscape(tags.empty() ? "-" : tags);
    });
    return out + "</tbody></table></div>\n";
}

} // namespace

std::string comparisonVerdict(const RunComparison& c, size_t run)
{
    if (run == 0) return "baseline";
    if (!c.runs.at(run).hasTotals || !c.runs.front().hasTotals) return "-";
    std::string out;
    const double rps = c.deltaPct("rps", run);
    if (std::isnan(rps))
        out = "req/s not known";
    else if (c.withinNoise("rps", run))
        out = "req/s within the runs' own variation (\xC2\xB1 " + pct(c.noiseAgainstBaselinePct("rps", run), 1) + ": "
            + (rps < 0 ? "-" : "+") + pct(rps) + ")";
    else
        out = pct(rps) + (rps < 0 ? " fewer req/s" : " more req/s");
    // The median and p90 are named when they moved beyond the runs' own variation (a tenfold
    // median says more than any p99); the p99 always, moved or not.
    for (const char* key : { "p50", "p90" }) {
        const double d = c.deltaPct(key, run);
        if (!std::isnan(d) && !c.withinNoise(key, run))
            out += std::string("; ") + key + " " + pct(d, 1) + (d < 0 ? " lower" : " higher");
    }
    const double p99 = c.deltaPct("p99", run);
    if (!std::isnan(p99))
        out += c.withinNoise("p99", run)
            ? "; p99 within the runs' own variation (\xC2\xB1 " + pct(c.noiseAgainstBaselinePct("p99", run), 1) + ")"
            : "; p99 " + pct(p99, 1) + (p99 < 0 ? " lower" : " higher");
    return out;
}

std::string formatComparisonHtml(const std::vector<RunData>& runs, const ComparisonReportOptions& options)
{
    const RunComparison c = compareRuns(runs, options.baselineId);
    std::string names;
    for (const RunRecord& r : c.runs)
        names += (names.empty() ? "" : " vs ") + runLabel(r);
    const std::string title = "Comparison of " + std::to_string(c.runs.size()) + " runs";
    std::string out
        = htmlReportHead(title) + "<header><h1>" + xmlEscape(title) + "</h1>\n<p class=\"meta\">" + xmlEscape(names);
    if (!options.sessionName.empty()) out += " in session <code>" + xmlEscape(options.sessionName) + "</code>";
    if (!c.runs.empty()) out += ". Baseline: " + xmlEscape(runLabel(c.runs.front()));
    out += ".</p></header>\n";
    out += "<section id=\"results\">\n<h2>Results</h2>\n" + resultsTable(c)
        + "<p>A difference from the baseline is held to the runs' own variation: the coefficient of variation "
          "between a run's intervals or, where the comparison holds two or more runs of one target under one load, "
          "between those runs. A difference smaller than that is within the runs' own variation: neither a gain nor "
          "a loss. Errors: requests without a usable answer; non-2xx: responses outside 2xx/3xx.</p>\n</section>\n";
    out += "<section id=\"charts-section\">\n<h2>Charts</h2>\n" + chartsSection(runs, c) + "</section>\n";
    out += "<section id=\"configuration\">\n<h2>Configuration</h2>\n" + configurationTable(c) + "</section>\n";
    return out + htmlReportFoot(options);
}

} // namespace wb
