#include "experiment/htmlreport.h"

#include "common/format.h"
#include "common/jsontext.h"
#include "experiment/comparability.h"
#include "experiment/experimentreport.h"
#include "experiment/frontdoorhtml.h"
#include "experiment/htmlscrape.h"
#include "experiment/kneecurve.h"
#include "report/palette.h"
#include "report/svgchart.h"
#include "report/units.h"
#include "run/runcontroller.h"
#include "store/csvexport.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace wb {

namespace {

// Inline, so the file needs nothing else; print-friendly, and readable in a narrow window
// (tables scroll sideways rather than squeezing their cells).
constexpr char STYLE[] = R"(
body { font-family: sans-serif; font-size: 14px; color: #222; margin: 24px auto; max-width: 1200px; padding: 0 16px; }
h1 { font-size: 24px; margin-bottom: 4px; }
h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ccc; padding-bottom: 4px; }
p.meta { color: #666; margin-top: 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; white-space: nowrap; vertical-align: top; }
th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.fit { width: 100%; }
table.fit th, table.fit td { white-space: normal; }
.verdict { min-width: 12em; }
span.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; border-radius: 2px; }
tr.baseline td { background: #f7fbff; }
tr.warning td { background: #fff4e5; color: #8a4b00; white-space: normal; border-left: 4px solid #e67e22; }
div.warning { background: #fff4e5; border-left: 4px solid #e67e22; padding: 8px 12px; margin: 8px 0; color: #8a4b00; }
p.ok { color: #2e7d32; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
.charts svg { border: 1px solid #ddd; max-width: 100%; height: auto; }
details { margin: 4px 0; }
pre { background: #f7f7f7; padding: 8px; overflow-x: auto; font-size: 12px; }
footer { margin-top: 32px; color: #888; font-size: 12px; }
)";

bool numeric(const std::string& cell)
{
    return !cell.empty() && (std::isdigit(static_cast<unsigned char>(cell[0])) || cell == "-");
}

/// The series of the per-level charts: one per group and target, as the GUI's charts have them.
struct LevelSeries
{
    std::string name;
    std::string color;
    std::vector<double> rps, rpsSd, p50Ms, p99Ms;
};

std::vector<LevelSeries> levelSeries(const ExperimentResults& results)
{
    std::vector<LevelSeries> out;
    const std::vector<std::string> groups = results.grouped() ? results.groups : std::vector<std::string> { "" };
    const size_t levels = results.plan.levels.size();
    for (const std::string& group : groups)
        for (size_t t = 0; t < results.plan.targets.size(); ++t) {
            LevelSeries s;
            s.name = group.empty() ? results.plan.targets[t].name : group + " " + results.plan.targets[t].name;
            s.color = colorHex(results.seriesColor(group, t)); // the window's (experimentchartdata.cpp)
            s.rps = s.rpsSd = s.p50Ms = s.p99Ms = std::vector<double>(levels, NAN);
            bool any = false;
            for (const ExperimentRow& r : results.rows) {
                if (r.group != group || r.target != t || r.cell >= levels || r.requestsPerS.n == 0) continue;
                any = true;
                s.rps[r.cell] = r.requestsPerS.mean;
                s.rpsSd[r.cell] = r.requestsPerS.n > 1 ? r.requestsPerS.stdev : NAN;
                s.p50Ms[r.cell] = r.p50Us.n ? r.p50Us.mean / 1000 : NAN;
                s.p99Ms[r.cell] = r.p99Us.n ? r.p99Us.mean / 1000 : NAN;
            }
            if (any) out.push_back(std::move(s));
        }
    return out;
}

/// The colour of a results row: its series' in the charts (group and target).
std::string seriesColorOfRow(const ExperimentResults& results, const ExperimentRow& row)
{
    return colorHex(results.seriesColor(row.group, row.target));
}

std::string charts(const ExperimentResults& results)
{
    const std::vector<LevelSeries> series = levelSeries(results);
    std::vector<std::string> levels;
    for (const LoadLevel& l : results.plan.levels)
        levels.push_back(l.label);
    const std::string rate = results.metric == RateMetric::PerThread ? "req/s per thread" : "req/s";

    SvgBarChart bars { "Requests/s per level (mean \xC2\xB1 sd)", rate, levels, {} };
    SvgLineChart latency { "Latency per level: p50 solid, p99 dashed", "level", "latency (ms)", levels, {} };
    for (size_t i = 0; i < series.size(); ++i) {
        const LevelSeries& s = series[i];
        bars.groups.push_back({ s.name, s.color, s.rps, s.rpsSd });
        for (const bool p99 : { false, true }) {
            SvgLineSeries line { s.name + (p99 ? " p99" : " p50"), s.color, p99, {} };
            const std::vector<double>& v = p99 ? s.p99Ms : s.p50Ms;
            for (size_t l = 0; l < v.size(); ++l)
                if (std::isfinite(v[l])) line.points.push_back({ static_cast<double>(l), v[l], "" });
            // Only what has a value: an imported wrk log without --latency has no percentiles.
            if (!line.points.empty()) latency.series.push_back(std::move(line));
        }
    }
    std::string out = "<div class=\"charts\">\n" + svgBarChart(bars)
        + (latency.series.empty() ? std::string("<p>No latency chart: none of the runs has a p50 or p99 (a wrk log "
                                                "printed without --latency has none).</p>\n")
                                  : svgLineChart(latency));
    const std::vector<KneeCurve> knee = experimentKneeCurves(results);
    if (!knee.empty()) {
        SvgLineChart chart { "Latency against throughput: p50 solid, p99 dashed", "achieved req/s", "latency (ms)", {},
            {} };
        for (size_t i = 0; i < knee.size(); ++i)
            for (const bool p99 : { false, true }) {
                std::string color = reportSeriesColor(i);
                for (const LevelSeries& s : series)
                    if (s.name == knee[i].name) color = s.color; // as the window's knee chart
                SvgLineSeries line { knee[i].name + (p99 ? " p99" : " p50"), color, p99, {} };
                for (const KneePoint& p : knee[i].points)
                    if (std::isfinite(p99 ? p.p99Us : p.p50Us))
                        line.points.push_back({ p.requestsPerS, (p99 ? p.p99Us : p.p50Us) / 1000, p.label });
                if (!line.points.empty()) chart.series.push_back(std::move(line));
            }
        if (!chart.series.empty()) out += svgLineChart(chart, 1136, 380);
    }
    return out + "</div>\n";
}

std::string warningsSection(const std::vector<ComparabilityWarning>& warnings)
{
    if (warnings.empty())
        return "<p class=\"ok\" id=\"comparable\">Comparable: within every level the runs differ in the variant only "
               "(threads, connections, duration, rate, protocol, TLS verification, engine version, loader host and "
               "source agree).</p>\n";
    std::string out;
    for (const ComparabilityWarning& w : warnings)
        out += "<div class=\"warning\"><strong>Not comparable: " + xmlEscape(w.scope.empty() ? "the runs" : w.scope)
            + "</strong> \xE2\x80\x94 the runs differ in more than the variant: "
            + xmlEscape(describeDifferences(w.differences)) + "</div>\n";
    return out;
}

/// The latency columns in ms, the unit in the header (the text table keeps wrk's units per cell).
void latencyColumnsInMs(const ExperimentResults& results, std::vector<std::vector<std::string>>& rows)
{
    for (const auto& [key, field] :
        { std::pair { "p50", &ExperimentRow::p50Us }, std::pair { "p99", &ExperimentRow::p99Us } }) {
        const auto column = std::find(rows.front().begin(), rows.front().end(), key);
        if (column == rows.front().end()) continue;
        const size_t c = static_cast<size_t>(column - rows.front().begin());
        std::vector<double> values;
        for (const ExperimentRow& r : results.rows)
            if ((r.*field).n > 0) values.push_back((r.*field).mean);
        const int decimals = msDecimalsFor(values);
        rows.front()[c] = std::string(key) + " (ms)";
        for (size_t i = 1; i < rows.size() && i - 1 < results.rows.size(); ++i) {
            const SampleStats& st = results.rows[i - 1].*field;
            rows[i][c] = st.n == 0     ? "-"
                : std::isnan(st.stdev) ? msText(st.mean, decimals)
                                       : msText(st.mean, decimals) + " \xC2\xB1 " + msText(st.stdev, decimals);
        }
    }
}

std::string resultsTable(const ExperimentResults& results, const std::vector<ComparabilityWarning>& warnings)
{
    std::vector<std::vector<std::string>> rows = resultsTableRows(results);
    latencyColumnsInMs(results, rows);
    const size_t verdict
        = static_cast<size_t>(std::find(rows.front().begin(), rows.front().end(), "verdict") - rows.front().begin());
    // Every column inside the page (the verdict above all): cells wrap rather than scroll sideways.
    std::string out = "<div class=\"scroll\"><table id=\"results-table\" class=\"fit\">\n<thead><tr>";
    for (size_t c = 0; c < rows.front().size(); ++c)
        out += (c == verdict ? "<th class=\"verdict\">" : "<th>") + xmlEscape(rows.front()[c]) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    std::string lastScope;
    for (size_t i = 1; i < rows.size(); ++i) {
        const ExperimentRow& r = results.rows[i - 1];
        const std::string scope = r.group.empty() ? r.cellLabel : r.group + ", " + r.cellLabel;
        if (i == 1 || scope != lastScope)
            for (const ComparabilityWarning& w : warnings)
                if (w.scope == scope)
                    out += "<tr class=\"warning\"><td colspan=\"" + std::to_string(rows.front().size())
                        + "\">\xE2\x9A\xA0 " + xmlEscape(scope) + ": not comparable, the runs differ in "
                        + xmlEscape(w.fieldList()) + "</td></tr>\n";
        lastScope = scope;
        out += r.baseline ? "<tr class=\"baseline\">" : "<tr>";
        const size_t targetColumn = results.grouped() ? 2 : 1;
        for (size_t c = 0; c < rows[i].size(); ++c) {
            const std::string swatch = c == targetColumn
                ? "<span class=\"swatch\" style=\"background: " + seriesColorOfRow(results, r) + "\"></span>"
                : std::string();
            out += (c == verdict                           ? "<td class=\"verdict\">"
                           : c >= 2 && numeric(rows[i][c]) ? "<td class=\"num\">"
                                                           : "<td>")
                + swatch + xmlEscape(rows[i][c]) + "</td>";
        }
        out += "</tr>\n";
    }
    return out + "</tbody></table></div>\n";
}

std::string setup(const ExperimentResults& results)
{
    const ExperimentPlan& plan = results.plan;
    if (results.kind == ExperimentKind::Study) return "<p>" + xmlEscape(studySetupText(results)) + "</p>\n";
    std::string out = "<div class=\"scroll\"><table id=\"targets-table\"><thead><tr>"
        + std::string(results.grouped() ? "<th>group</th>" : "")
        + "<th>target</th><th>request</th><th>protocol</th><th>role</th></tr></thead><tbody>\n";
    for (const ExperimentTarget& t : plan.targets)
        out += "<tr>" + (results.grouped() ? "<td>" + xmlEscape(t.group) + "</td>" : std::string()) + "<td>"
            + xmlEscape(t.name) + "</td><td>" + xmlEscape(t.request.method + " " + t.request.url.displayText())
            + "</td><td>" + xmlEscape(httpVersionId(t.httpVersion)) + "</td><td>" + (t.baseline ? "baseline" : "")
            + "</td></tr>\n";
    out += "</tbody></table></div>\n<p>Load levels" + xmlEscape(plan.axis.empty() ? "" : " (" + plan.axis + " swept)")
        + ": ";
    for (size_t i = 0; i < plan.levels.size(); ++i)
        out += (i ? ", " : "") + xmlEscape(levelDescriptionText(plan.levels[i]));
    return out + ". Each level and target: " + std::to_string(plan.repetitions) + " repetitions of "
        + xmlEscape(planDurationText(plan.durationUs)) + " (warm-up " + xmlEscape(planDurationText(plan.warmupUs))
        + ", cool-down " + xmlEscape(planDurationText(plan.cooldownUs)) + "), " + experimentOrderName(plan.order)
        + " order.</p>\n";
}

std::string rateText(const RunConfig& c)
{
    if (!c.stages.empty())
        return std::to_string(c.stages.size()) + (c.stagesAreConnections ? " connection" : " rate") + " stages";
    return c.ratePerS > 0 ? groupedNumber(c.ratePerS) + "/s" : "-";
}

// A stored configuration comes from a session file, which may be anyone's: indenting a deep
// document costs its depth on every line (5,000 levels in a few KB of file made a 100 MB page),
// so only a document small and shallow enough is indented, and only while that stays small.
constexpr size_t PRETTY_JSON_MAX_INPUT_BYTES = 64 * 1024;
constexpr size_t PRETTY_JSON_MAX_OUTPUT_BYTES = 256 * 1024;

std::string prettyJson(const std::string& text)
{
    if (text.size() > PRETTY_JSON_MAX_INPUT_BYTES)
        return text.substr(0, PRETTY_JSON_MAX_INPUT_BYTES) + "\n... (" + groupedNumber(static_cast<double>(text.size()))
            + " bytes; the first " + groupedNumber(PRETTY_JSON_MAX_INPUT_BYTES) + " shown)";
    const auto doc = parseJsonTextOrDiscarded<nlohmann::json>(text);
    if (doc.is_discarded()) return text; // as stored: not JSON, or nested deeper than any configuration
    std::string pretty = jsonText(doc, 2);
    return pretty.size() <= PRETTY_JSON_MAX_OUTPUT_BYTES ? pretty : jsonText(doc);
}

std::string runsSection(const ExperimentResults& results)
{
    std::map<int64_t, const ExperimentRow*> rowOf;
    for (const ExperimentRow& r : results.rows)
        for (int64_t id : r.runIds)
            rowOf[id] = &r;
    const bool grouped = results.grouped();
    // A study's variant may be a tag, not the run's target: both are shown. A plan's is its target.
    const bool study = results.kind == ExperimentKind::Study;
    std::string out = "<div class=\"scroll\"><table id=\"runs-table\"><thead><tr><th>run</th>"
        + std::string(grouped ? "<th>group</th>" : "") + "<th>level</th>" + (study ? "<th>variant</th>" : "")
        + "<th>target</th><th>URL</th><th>tags</th><th>status</th><th>started</th><th>req/s</th><th>p50 (ms)</th>"
          "<th>p99 (ms)</th><th>errors</th><th>non-2xx</th><th>threads</th><th>connections</th><th>duration</th>"
          "<th>rate</th><th>protocol</th><th>TLS verify</th><th>engine</th><th>loader host</th><th>source</th>"
          "</tr></thead><tbody>\n";
    std::string details;
    std::vector<double> latencies;
    for (const RunRecord& r : results.runs)
        if (r.hasTotals) latencies.push_back(r.totals.latency.p50Us);
    const int decimals = msDecimalsFor(latencies);
    for (const RunRecord& r : results.runs) {
        const ExperimentRow* row = rowOf.count(r.id) ? rowOf[r.id] : nullptr;
        const RunConfig c = r.config.normalized();
        std::string tags;
        for (const std::string& t : r.tags)
            tags += (tags.empty() ? "" : ", ") + t;
        const bool has = r.hasTotals;
        const auto cell = [](const std::string& v) { return "<td>" + xmlEscape(v) + "</td>"; };
        const auto num = [](const std::string& v) { return "<td class=\"num\">" + xmlEscape(v) + "</td>"; };
        out += "<tr id=\"run-" + std::to_string(r.id) + "\">" + num(std::to_string(r.id))
            + (grouped ? cell(row ? row->group : "-") : "") + cell(row ? row->cellLabel : "-")
            + (study ? cell(row ? row->targetName : "-") : std::string()) + cell(r.targetName) + cell(r.url)
            + cell(tags) + cell(runStatusName(r.status)) + cell(r.startedAtMs ? isoTimestamp(r.startedAtMs) : "-")
            + num(has ? groupedNumber(r.totals.requestsPerS) : "-")
            + num(has ? msText(r.totals.latency.p50Us, decimals) : "-")
            + num(has ? msText(r.totals.latency.p99Us, decimals) : "-")
            + num(has ? std::to_string(r.totals.errors.transportErrors()) : "-")
            + num(has ? std::to_string(r.totals.non2xx) : "-") + num(std::to_string(c.threads))
            + num(std::to_string(c.connections)) + cell(planDurationText(c.durationUs)) + cell(rateText(c))
            + cell(has && !r.totals.protocol.empty() ? r.totals.protocol : httpVersionId(c.httpVersion))
            + cell(!c.request.url.isTls() || r.status == RunStatus::Imported ? "-"
                    : c.tls.verifyPeer                                       ? "on"
                                                                             : "off")
            + cell(r.engineVersion) + cell(r.hostName.empty() ? "-" : r.hostName)
            + cell(r.status == RunStatus::Imported ? "imported " + r.source : "measured") + "</tr>\n";
        details += "<details><summary>Run " + std::to_string(r.id) + " (" + xmlEscape(r.targetName)
            + ") configuration</summary>";
        if (!r.commandLine.empty()) details += "<p>Command line: <code>" + xmlEscape(r.commandLine) + "</code></p>";
        if (!r.notes.empty()) details += "<p>Notes: " + xmlEscape(r.notes) + "</p>";
        if (!r.error.empty()) details += "<p>Error: " + xmlEscape(r.error) + "</p>";
        details += "<pre>" + xmlEscape(prettyJson(r.configJson)) + "</pre></details>\n";
    }
    return out + "</tbody></table></div>\n" + details;
}

} // namespace

std::string reportSeriesColor(size_t i)
{
    return targetColorHex(static_cast<int64_t>(i) + 1);
}

int msDecimalsFor(const std::vector<double>& us)
{
    double smallest = NAN;
    for (double v : us)
        if (std::isfinite(v) && v > 0 && !(v >= smallest)) smallest = v;
    if (std::isnan(smallest)) return 2;
    // The smallest value keeps two significant digits or more, with 1 to 3 decimals: a column holding
    // 0.059 ms reads 0.059 and 1.140; one whose smallest is 1.14 ms, 1.14; from 10 ms, 25.0.
    const int decimals = 2 - static_cast<int>(std::floor(std::log10(smallest / 1000.0)));
    return std::clamp(decimals, 1, 3);
}

std::string msText(double us, int decimals)
{
    if (!std::isfinite(us)) return "-";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, us / 1000.0);
    return buf;
}

std::string htmlReportHead(const std::string& title)
{
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
        + xmlEscape(title) + " \xE2\x80\x94 wrkbench report</title>\n<style>" + STYLE + "</style>\n</head>\n<body>\n";
}

std::string htmlReportFoot(const HtmlReportOptions& options)
{
    std::string out = "<footer>Written by wrkbench " + xmlEscape(engineVersion());
    if (options.generatedAtMs) out += " on " + xmlEscape(isoTimestamp(options.generatedAtMs));
    return out + ". One self-contained file: nothing is loaded from the network.</footer>\n</body>\n</html>\n";
}

std::string formatHtmlReport(const ExperimentResults& results, const HtmlReportOptions& options)
{
    const ExperimentRecord& e = results.experiment;
    const bool study = results.kind == ExperimentKind::Study;
    const std::string title = e.name.empty() ? (study ? "Study " : "Experiment ") + std::to_string(e.id) : e.name;
    const std::vector<ComparabilityWarning> warnings = experimentComparability(results);

    std::string out = htmlReportHead(title);
    out += "<header><h1>" + xmlEscape(title) + "</h1>\n<p class=\"meta\">" + (study ? "Study " : "Experiment ")
        + std::to_string(e.id);
    if (!options.sessionName.empty()) out += " in session <code>" + xmlEscape(options.sessionName) + "</code>";
    if (study)
        out += ": " + std::to_string(results.runsDone) + " stored runs";
    else
        out += ", " + std::string(experimentStatusName(e.status)) + ": " + std::to_string(results.runsDone) + " of "
            + std::to_string(results.runsTotal) + " runs completed";
    if (e.createdAtMs) out += ". Made " + xmlEscape(isoTimestamp(e.createdAtMs));
    out += ".</p></header>\n";
    if (!e.notes.empty()) out += "<p>" + xmlEscape(e.notes) + "</p>\n";

    out += "<section id=\"results\">\n<h2>Results</h2>\n" + warningsSection(warnings) + resultsTable(results, warnings)
        + "<p>Mean \xC2\xB1 standard deviation across repetitions; the ratio to the baseline"
        + (results.grouped() ? " of the same group" : "")
        + " with its 95% confidence interval (Fieller's method with Welch's t). Errors: requests without a usable "
          "answer per run; non-2xx: responses outside 2xx/3xx per run.</p>\n</section>\n";
    const std::vector<std::string> pooled = pooledLines(results);
    if (!pooled.empty()) {
        out += "<section id=\"pooled\">\n<h2>Pooled over the cells</h2>\n<p>A fixed-effect model on ln req/s: one "
               "intercept per cell, one common effect per variant, the within-cell variance pooled; beside it the "
               "F-test of whether the effect differs between cells (where it does, no pooled verdict).</p>\n<ul>\n";
        for (const std::string& line : pooled)
            out += "<li>" + xmlEscape(line) + "</li>\n";
        out += "</ul>\n</section>\n";
    }
    out += "<section id=\"charts-section\">\n<h2>Charts</h2>\n" + charts(results) + "</section>\n";
    out += htmlTargetMetricsSection(results);
    out += "<section id=\"setup\">\n<h2>Setup</h2>\n" + setup(results) + "</section>\n";
    out += "<section id=\"method\">\n<h2>Method</h2>\n<p>" + xmlEscape(reportMethodText(results))
        + "</p>\n</section>\n";
    out += "<section id=\"runs\">\n<h2>Runs</h2>\n" + runsSection(results) + "</section>\n";
    out += frontDoorHtmlSection(results); // "" without --backend-from / --upstream-time runs
    return out + htmlReportFoot(options);
}

} // namespace wb
