#include "capacity/capacityreport.h"

#include "capacity/capacitycompare.h"
#include "common/text.h"
#include "parse/quantity.h"
#include "prometheus/exposition/scrapetext.h"
#include "report/palette.h"
#include "report/svgchart.h"
#include "report/units.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace wb {

namespace {

std::string verdictsText(const std::vector<SloVerdict>& verdicts)
{
    std::string out;
    for (const SloVerdict& v : verdicts)
        out += fmt::format("{}{} {}{}", out.empty() ? "" : ", ", v.expr, formatSloValue(v), v.ok ? "" : " FAILED");
    return out;
}

/// The target's metrics that moved most between two trials (relative change, at least 5%), as
/// "label a -> b", at most six.
std::string metricChanges(const CapacityTrialFigures& below, const CapacityTrialFigures& above)
{
    struct Change
    {
        std::string label;
        double from, to, relative;
    };
    std::vector<Change> changes;
    for (const auto& [label, from] : below.metrics)
        for (const auto& [otherLabel, to] : above.metrics)
            if (label == otherLabel && std::isfinite(from) && std::isfinite(to)) {
                const double relative = std::abs(to - from) / std::max(std::abs(from), 1e-9);
                if (relative >= 0.05) changes.push_back({ label, from, to, relative });
            }
    std::stable_sort(
        changes.begin(), changes.end(), [](const Change& a, const Change& b) { return a.relative > b.relative; });
    if (changes.size() > 6) changes.resize(6);
    std::string out;
    for (const Change& c : changes)
        out += fmt::format("{}{} {:.4g} -> {:.4g}", out.empty() ? "" : ", ", c.label, c.from, c.to);
    return out;
}

} // namespace

CapacityTrialFigures capacityTrialFigures(double p50Us, double p99Us, uint64_t requests, uint64_t transportErrors,
    uint64_t non2xx, std::vector<std::pair<std::string, double>> metrics)
{
    const double sent = static_cast<double>(std::max<uint64_t>(1, requests + transportErrors));
    return { p50Us, p99Us, 100.0 * static_cast<double>(transportErrors) / sent,
        100.0 * static_cast<double>(non2xx) / sent, std::move(metrics) };
}

std::vector<std::pair<std::string, double>> capacityTrialMetrics(const ScrapeRecord& record, int64_t fromUnixMs)
{
    std::vector<std::pair<std::string, double>> out;
    for (const ScrapeSeries& series : record.series) {
        const SeriesSummary summary = summarizeSeries(series, fromUnixMs);
        if (summary.points == 0) continue;
        const std::string endpoint
            = series.endpoint < record.endpoints.size() ? record.endpoints[series.endpoint].name : "?";
        out.emplace_back(endpoint + ": " + series.label(), summary.mean);
    }
    return out;
}

std::string capacityVerdictsText(const std::vector<SloVerdict>& verdicts)
{
    return verdictsText(verdicts);
}

std::string capacitySummaryText(const CapacityReportTarget& t, const CapacityOptions& o)
{
    const CapacityResult& r = t.result;
    std::string out = fmt::format("{} {}: ", t.label, t.url);
    const auto rate = [](double perS) { return rateText(perS) + " req/s"; };
    switch (r.limitedBy) {
    case CapacityLimit::Loader:
        out += fmt::format("limited by the loader at {}: {}. No capacity is claimed; the target carried at least {}. "
                           "Give the loader more threads (-t), connections (-c) or CPU",
            rate(r.loaderLimitPerS), r.loaderReason, r.lowerPerS > 0 ? rate(r.lowerPerS) : "nothing that was tried");
        break;
    case CapacityLimit::Range:
        if (r.stop == CapacityStop::FailsAtMin)
            out += fmt::format("fails its SLOs even at {} (--min){}", rate(r.upperPerS),
                r.firstFailedSlo.empty() ? "" : ": " + r.firstFailedSlo);
        else if (r.stop == CapacityStop::AtMost)
            out += fmt::format("at least {}: it passed at --to", rate(r.lowerPerS));
        else
            out += fmt::format("at least {}; nothing tried failed before the search stopped", rate(r.lowerPerS));
        break;
    case CapacityLimit::Target: {
        const double width = r.lowerPerS > 0 ? (r.upperPerS / r.lowerPerS - 1) * 100 : 0;
        if (r.lowerPerS <= 0) {
            out += fmt::format("below {} (nothing passed before the search stopped)", rate(r.upperPerS));
            break;
        }
        out += fmt::format("capacity {} (passes {}, fails {}: {:.1f}% apart{})", rate(r.ratePerS), rate(r.lowerPerS),
            rate(r.upperPerS), width,
            r.stop == CapacityStop::Precision     ? fmt::format(", within {:g}%", o.precision * 100)
                : r.stop == CapacityStop::Budget  ? fmt::format(": the budget ran out before {:g}%", o.precision * 100)
                : r.stop == CapacityStop::Stopped ? ": stopped before the precision"
                                                  : "");
        if (!r.firstFailedSlo.empty()) out += fmt::format("; above it {} failed first", r.firstFailedSlo);
        if (!r.lowerFinal) out += "; the lower end passed only a short trial";
        break;
    }
    }
    out += "\n";
    // What changed between the last passing and the first failing trial.
    const auto lastAt = [&](double atPerS, bool passed) -> const CapacityTrialFigures* {
        const CapacityTrialFigures* found = nullptr;
        for (size_t i = 0; i < r.trials.size() && i < t.figures.size(); ++i)
            if (r.trials[i].trial.ratePerS == atPerS && r.trials[i].outcome.passed == passed) found = &t.figures[i];
        return found;
    };
    if (r.lowerPerS > 0 && r.upperPerS > 0 && r.limitedBy == CapacityLimit::Target) {
        const CapacityTrialFigures* below = lastAt(r.lowerPerS, true);
        const CapacityTrialFigures* above = lastAt(r.upperPerS, false);
        if (below && above)
            out += fmt::format("  from {} to {}: p50 {} -> {}, p99 {} -> {}, errors {:.2f}% -> {:.2f}%, non-2xx "
                               "{:.2f}% -> {:.2f}%\n",
                rate(r.lowerPerS), rate(r.upperPerS), formatTimeUs(below->p50Us), formatTimeUs(above->p50Us),
                formatTimeUs(below->p99Us), formatTimeUs(above->p99Us), below->errorsPct, above->errorsPct,
                below->non2xxPct, above->non2xxPct);
        if (below && above)
            if (const std::string moved = metricChanges(*below, *above); !moved.empty())
                out += fmt::format(
                    "  the target's metrics from {} to {}: {}\n", rate(r.lowerPerS), rate(r.upperPerS), moved);
    }
    if (r.limitedBy != CapacityLimit::Loader && r.loaderLimitPerS > 0)
        out += fmt::format("  Note: the loader could not make {} ({}); no trial from there up counted\n",
            rate(r.loaderLimitPerS), r.loaderReason);
    if (r.nonMonotone)
        out += fmt::format("  Warning: not monotone: {} passed above {}, which failed, both tried again; the "
                           "capacity is the bracket below {}\n",
            rate(r.nonMonotonePassPerS), rate(r.nonMonotoneFailPerS), rate(r.nonMonotoneFailPerS));
    if (r.shortTrialsMisled)
        out += "  Note: short trials passed a rate that failed at full length (the target degrades within a trial); "
               "the search went on with --final trials only\n";
    unsigned shortTrials = 0, finalTrials = 0;
    for (const CapacityTrialRecord& tr : r.trials)
        (tr.trial.final ? finalTrials : shortTrials) += 1;
    out += fmt::format("  {} trials ({} of {}, {} of {}) in {:.1f}s\n", r.trials.size(), shortTrials,
        durationText(o.trialUs), finalTrials, durationText(o.finalUs), r.elapsedS);
    return out;
}

std::string capacityComparisonText(const CapacityReport& report)
{
    std::string out;
    const auto& t = report.targets;
    for (size_t i = 1; i < t.size(); ++i) {
        const auto ratio = capacityRatio(t[0].result, t[i].result);
        out += (ratio ? describeRatio(*ratio, t[0].label, t[i].label)
                      : fmt::format(
                          "{} and {} cannot be compared: one of them has no rate that passed", t[i].label, t[0].label))
            + "\n";
    }
    return out;
}

std::string capacitySlosText(const std::vector<Slo>& slos)
{
    std::string out;
    for (const Slo& s : slos)
        out += (out.empty() ? "" : ", ") + s.expr;
    return out;
}

CapacityHeadline capacityHeadline(const CapacityResult& r)
{
    const auto rate = [](double perS) { return rateText(perS) + " req/s"; };
    switch (r.limitedBy) {
    case CapacityLimit::Loader:
        return { "limited by the loader",
            fmt::format("it could not make {} ({}); the target carried at least {}", rate(r.loaderLimitPerS),
                r.loaderReason, r.lowerPerS > 0 ? rate(r.lowerPerS) : "nothing that was tried") };
    case CapacityLimit::Range:
        if (r.stop == CapacityStop::FailsAtMin)
            return { "below " + rate(r.upperPerS),
                "fails its SLOs even at --min" + (r.firstFailedSlo.empty() ? "" : ": " + r.firstFailedSlo) };
        if (r.stop == CapacityStop::AtMost) return { "at least " + rate(r.lowerPerS), "it passed at --to" };
        return { "at least " + rate(r.lowerPerS), "nothing tried failed before the search stopped" };
    case CapacityLimit::Target:
        break;
    }
    if (r.lowerPerS <= 0) return { "below " + rate(r.upperPerS), "nothing passed before the search stopped" };
    std::string detail = fmt::format("passes {}, fails {} ({:.1f}% apart)", rate(r.lowerPerS), rate(r.upperPerS),
        (r.upperPerS / r.lowerPerS - 1) * 100);
    if (!r.firstFailedSlo.empty()) detail += "; above it " + r.firstFailedSlo + " failed first";
    if (r.stop == CapacityStop::Budget) detail += "; the budget ran out first";
    if (r.stop == CapacityStop::Stopped) detail += "; stopped before the precision";
    if (r.nonMonotone) detail += "; not monotone";
    return { rate(r.ratePerS), detail };
}

namespace {

std::string setupText(const CapacityReport& r)
{
    return fmt::format("{} thread{}, {} connection{}; trials of {}, {} near the boundary, {} repeats; precision {:g}%, "
                       "budget {}",
        r.threads, r.threads == 1 ? "" : "s", r.connections, r.connections == 1 ? "" : "s",
        durationText(r.options.trialUs), durationText(r.options.finalUs), r.options.repeat, r.options.precision * 100,
        durationText(r.options.budgetUs));
}

const char* verdictWord(const TrialOutcome& o)
{
    return o.loaderLimited ? "loader" : o.passed ? "passed" : "failed";
}

std::string msOrEmpty(double us)
{
    return std::isfinite(us) ? fmt::format("{:.3f}", us / 1000) : std::string();
}

std::string pctOrEmpty(double pct)
{
    return std::isfinite(pct) ? fmt::format("{:.2f}", pct) : std::string();
}

/// Each trial of each target, in order: the rows of the trials tables.
template<typename Row> void forEachTrial(const CapacityReport& report, const Row& row)
{
    for (const CapacityReportTarget& t : report.targets)
        for (size_t i = 0; i < t.result.trials.size(); ++i) {
            static const CapacityTrialFigures unknown { NAN, NAN, NAN, NAN, {} };
            row(t, i, t.result.trials[i], i < t.figures.size() ? t.figures[i] : unknown);
        }
}

/// Markdown table cells: '|' and line breaks would end the cell.
std::string mdCell(const std::string& text)
{
    std::string out;
    for (char c : validUtf8(text))
        out += c == '|' ? std::string("\\|") : c == '\n' || c == '\r' ? std::string(" ") : std::string(1, c);
    return out;
}

/// The latency SLO's bound in ms, when one of the SLOs is a latency one (the chart's line).
std::vector<std::pair<std::string, double>> latencyBoundsMs(const std::vector<Slo>& slos)
{
    std::vector<std::pair<std::string, double>> out;
    for (const Slo& s : slos)
        if (s.metric == Slo::Metric::Latency) out.emplace_back(s.expr, s.threshold / 1000);
    return out;
}

std::string chartSvg(const CapacityReport& report)
{
    SvgLineChart chart;
    chart.title = "p99 latency against the offered rate";
    chart.xLabel = "offered rate (req/s)";
    chart.yLabel = "p99 (ms)";
    double maxRate = 0;
    for (size_t k = 0; k < report.targets.size(); ++k) {
        const CapacityReportTarget& t = report.targets[k];
        SvgLineSeries passed, failed;
        passed.name = t.label + " passed";
        failed.name = t.label + " failed";
        passed.color = failed.color = targetColorHex(static_cast<int64_t>(k) + 1);
        passed.line = failed.line = false;
        failed.hollow = true;
        for (size_t i = 0; i < t.result.trials.size() && i < t.figures.size(); ++i) {
            const CapacityTrialRecord& tr = t.result.trials[i];
            maxRate = std::max(maxRate, tr.trial.ratePerS);
            const std::string label = fmt::format("trial {} for {}{}", i + 1, durationText(tr.trial.durationUs),
                tr.outcome.loaderLimited ? ", limited by the loader" : "");
            (tr.outcome.passed ? passed : failed)
                .points.push_back({ tr.trial.ratePerS, t.figures[i].p99Us / 1000, label });
        }
        chart.series.push_back(std::move(passed));
        chart.series.push_back(std::move(failed));
    }
    for (const auto& [expr, ms] : latencyBoundsMs(report.slos)) {
        SvgLineSeries slo;
        slo.name = "SLO " + expr;
        slo.color = "#888888";
        slo.dashed = true;
        slo.points = { { 0, ms, {} }, { maxRate, ms, {} } };
        chart.series.push_back(std::move(slo));
    }
    return svgLineChart(chart, 760, 380);
}

} // namespace

std::string capacityMarkdown(const CapacityReport& report)
{
    std::string out
        = "# Capacity under " + mdCell(capacitySlosText(report.slos)) + "\n\n" + setupText(report) + ".\n\n";
    // The summaries as the CLI prints them: a text block keeps their lines and claims as they are.
    std::string summaries;
    for (const CapacityReportTarget& t : report.targets)
        summaries += capacitySummaryText(t, report.options);
    summaries = validUtf8(summaries + capacityComparisonText(report));
    for (size_t at = summaries.find("```"); at != std::string::npos; at = summaries.find("```", at))
        summaries.replace(at, 3, "'''"); // a URL's own fence would end the block
    out += "```text\n" + summaries + "```\n";
    out += "\n| target | trial | rate (req/s) | length | verdict | p50 (ms) | p99 (ms) | errors % | non-2xx % | SLOs | "
           "run |\n|---|---:|---:|---|---|---:|---:|---:|---:|---|---:|\n";
    forEachTrial(report,
        [&](const CapacityReportTarget& t, size_t i, const CapacityTrialRecord& tr, const CapacityTrialFigures& f) {
            out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", mdCell(t.label), i + 1,
                rateText(tr.trial.ratePerS), durationText(tr.trial.durationUs), verdictWord(tr.outcome),
                msOrEmpty(f.p50Us), msOrEmpty(f.p99Us), pctOrEmpty(f.errorsPct), pctOrEmpty(f.non2xxPct),
                mdCell(capacityVerdictsText(tr.outcome.slo)),
                tr.outcome.runId > 0 ? std::to_string(tr.outcome.runId) : "");
        });
    return out;
}

std::string capacityCsv(const CapacityReport& report)
{
    std::string out = "target,url,trial,rate_per_s,duration_s,final,verdict,loader_reason,p50_ms,p99_ms,errors_pct,"
                      "non2xx_pct,failed_slo,run_id\n";
    forEachTrial(report,
        [&](const CapacityReportTarget& t, size_t i, const CapacityTrialRecord& tr, const CapacityTrialFigures& f) {
            out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csvField(t.label), csvField(t.url), i + 1,
                fmt::format("{:g}", tr.trial.ratePerS),
                fmt::format("{:g}", static_cast<double>(tr.trial.durationUs) / 1e6), tr.trial.final ? 1 : 0,
                verdictWord(tr.outcome), csvField(tr.outcome.loaderReason), msOrEmpty(f.p50Us), msOrEmpty(f.p99Us),
                pctOrEmpty(f.errorsPct), pctOrEmpty(f.non2xxPct), csvField(tr.outcome.failedSlo),
                tr.outcome.runId > 0 ? std::to_string(tr.outcome.runId) : "");
        });
    return out;
}

std::string capacityHtml(const CapacityReport& report)
{
    const auto h = [](const std::string& text) { return xmlEscape(text); };
    const std::string title = "Capacity under " + capacitySlosText(report.slos);
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + h(title)
        + "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%}td.n{text-align:right}"
          "svg{border:1px solid #ddd;max-width:100%;height:auto}pre{white-space:pre-wrap}</style></head><body>\n<h1>"
        + h(title) + "</h1>\n<p>" + h(setupText(report)) + "</p>\n";
    for (const CapacityReportTarget& t : report.targets)
        out += "<pre>" + h(capacitySummaryText(t, report.options)) + "</pre>\n";
    if (const std::string ratios = capacityComparisonText(report); !ratios.empty()) out += "<p>" + h(ratios) + "</p>\n";
    out += "<div class=\"chart\">" + chartSvg(report)
        + "</div>\n<h2>Trials</h2>\n<table>\n<tr><th>target</th>"
          "<th>trial</th><th>rate (req/s)</th><th>length</th><th>verdict</th><th>p50 (ms)</th><th>p99 (ms)</th>"
          "<th>errors %</th><th>non-2xx %</th><th>SLOs</th><th>run</th></tr>\n";
    forEachTrial(report,
        [&](const CapacityReportTarget& t, size_t i, const CapacityTrialRecord& tr, const CapacityTrialFigures& f) {
            out += fmt::format(
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td>"
                "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                "<td>{}</td><td class=\"n\">{}</td></tr>\n",
                h(t.label), i + 1, h(rateText(tr.trial.ratePerS)), h(durationText(tr.trial.durationUs)),
                h(tr.outcome.loaderLimited ? "loader: " + tr.outcome.loaderReason : verdictWord(tr.outcome)),
                msOrEmpty(f.p50Us), msOrEmpty(f.p99Us), pctOrEmpty(f.errorsPct), pctOrEmpty(f.non2xxPct),
                h(capacityVerdictsText(tr.outcome.slo)), tr.outcome.runId > 0 ? std::to_string(tr.outcome.runId) : "");
        });
    return out + "</table>\n</body></html>\n";
}

} // namespace wb
