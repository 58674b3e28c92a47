#include "experiment/experimentreport.h"

#include "common/format.h"
#include "experiment/comparability.h"
#include "experiment/frontdoormetrics.h"
#include "experiment/pooledeffect.h"
#include "report/units.h"
#include "store/csvexport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace wb {

namespace {

constexpr char EN_DASH[] = "\xE2\x80\x93";
constexpr char PLUS_MINUS[] = "\xC2\xB1";

std::string latencyText(double us)
{
    return std::isnan(us) ? "-" : formatTimeUs(us);
}

std::string errorsText(double v)
{
    if (std::isnan(v)) return "-";
    return v == std::floor(v) ? printedNumber("%.0f", v) : printedNumber("%.1f", v);
}

// "12,345 ± 123", "1.02ms ± 30.00us"; just the mean with one repetition.
std::string meanSd(const SampleStats& s, std::string (*format)(double))
{
    if (s.n == 0) return "-";
    if (std::isnan(s.stdev)) return format(s.mean);
    return format(s.mean) + " " + PLUS_MINUS + " " + format(s.stdev);
}

std::string rateText(double v)
{
    return groupedNumber(v);
}

std::string ratioText(const RatioEstimate& r)
{
    if (std::isnan(r.ratio)) return "-";
    std::string out = printedNumber("%.3f", r.ratio);
    if (!r.hasInterval()) return out;
    if (!r.bounded()) return out + " (CI unbounded)";
    return out + " (" + printedNumber("%.3f", r.low) + EN_DASH + printedNumber("%.3f", r.high) + ")";
}

std::string lossText(const ExperimentRow& row)
{
    if (row.baseline || std::isnan(row.requestsPerSRatio.ratio)) return "-";
    return printedNumber("%.2f%%", row.lossPct());
}

// Columns padded to their widest cell (counting UTF-8 characters, not bytes).
std::string alignedTable(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& rightAligned)
{
    auto width = [](const std::string& s) {
        return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
    };
    std::vector<size_t> widths(rightAligned.size(), 0);
    for (const auto& row : rows)
        for (size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], width(row[i]));
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i) {
            const std::string pad(widths[i] - width(row[i]), ' ');
            line += (i ? "  " : "") + (rightAligned[i] ? pad + row[i] : row[i] + pad);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

// A Markdown table cell: '|' would end the cell, a line break the row.
std::string md(const std::string& text)
{
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

std::string mdRow(const std::vector<std::string>& cells)
{
    std::string out = "|";
    for (const auto& c : cells)
        out += " " + md(c) + " |";
    return out + "\n";
}

std::string levelDescription(const LoadLevel& level)
{
    const RunConfig& c = level.load;
    std::string out = level.label + " (" + std::to_string(c.threads) + " threads, " + std::to_string(c.connections)
        + " connections";
    if (c.ratePerS > 0) out += ", " + groupedNumber(c.ratePerS) + " req/s";
    if (c.pipeline > 1) out += ", pipeline " + std::to_string(c.pipeline);
    return out + ")";
}

// "SLO p99<250ms": the column of one of the plan's SLOs.
std::string sloHeader(const Slo& slo)
{
    return "SLO " + slo.expr;
}

// "3/3": the repetitions that met each SLO, in the plan's order.
void appendSloCells(std::vector<std::string>& cells, const ExperimentRow& row)
{
    for (const SloTally& t : row.slo)
        cells.push_back(t.text());
}

std::string sloNote(const ExperimentResults& results)
{
    return std::string("SLO columns: repetitions that met the threshold / repetitions judged")
        + (results.anySloFailed() ? "; at least one run failed an SLO.\n" : "; every run met every SLO.\n");
}

// A run's own verdicts: "met", "failed: p99<1us, rps>1000000000".
std::string runSloText(const std::vector<SloVerdict>& verdicts)
{
    std::string failed;
    for (const SloVerdict& v : verdicts)
        if (!v.ok) failed += (failed.empty() ? "" : ", ") + v.expr;
    if (verdicts.empty()) return "-";
    return failed.empty() ? "met" : "failed: " + failed;
}

// "req/s", or "req/s per thread" when the table compares wrk's per-thread Req/Sec averages.
std::string rateHeader(const ExperimentResults& results)
{
    return results.metric == RateMetric::PerThread ? "req/s per thread" : "req/s";
}

std::string metricNote()
{
    return "req/s per thread: the mean of the per-thread Req/Sec averages (wrk's Thread Stats row), "
           "as hand-made loss columns were computed.";
}

// Where a study's runs came from and how they were put into cells.
std::string studySetup(const ExperimentResults& results)
{
    const ExperimentPlan& plan = results.plan;
    std::string out = "A study of " + std::to_string(results.runs.size()) + " stored runs (";
    std::string ids;
    for (const RunRecord& r : results.runs)
        ids += (ids.empty() ? "" : ", ") + std::to_string(r.id);
    out += ids + "); nothing was run for it. Variants: ";
    for (size_t i = 0; i < plan.targets.size(); ++i)
        out += (i ? ", " : "") + plan.targets[i].name + (plan.targets[i].baseline ? " (baseline)" : "");
    if (results.grouped()) {
        out += ". Groups, each with its own baseline: ";
        for (size_t i = 0; i < results.groups.size(); ++i)
            out += (i ? ", " : "") + results.groups[i];
    }
    out += ". Levels";
    if (!plan.axis.empty()) out += " by " + plan.axis;
    out += ": ";
    for (size_t i = 0; i < plan.levels.size(); ++i)
        out += (i ? ", " : "") + plan.levels[i].label;
    out += ". The runs of a cell (group, level and variant) are its repetitions.";
    if (results.metric == RateMetric::PerThread) out += " " + metricNote();
    return out;
}

// The runs appendix of a study: each run with the cell it fell into.
const ExperimentRow* rowOfRun(const ExperimentResults& results, int64_t id, size_t* repetition)
{
    for (const ExperimentRow& row : results.rows)
        for (size_t i = 0; i < row.runIds.size(); ++i)
            if (row.runIds[i] == id) {
                *repetition = i;
                return &row;
            }
    return nullptr;
}

// The fields in which the runs of the row's group and level differ, "" when none.
std::string differsField(const std::vector<ComparabilityWarning>& warnings, const ExperimentRow& row)
{
    const std::string scope = row.group.empty() ? row.cellLabel : row.group + ", " + row.cellLabel;
    for (const ComparabilityWarning& w : warnings)
        if (w.scope == scope) return w.fieldList();
    return "";
}

std::string ciCell(double v)
{
    return std::isfinite(v) ? csvNumber(v) : "";
}

} // namespace

std::vector<std::vector<std::string>> resultsTableRows(const ExperimentResults& results)
{
    const std::string rate = rateHeader(results);
    std::vector<std::vector<std::string>> rows { { "level",
        results.kind == ExperimentKind::Study ? "variant" : "target", "runs", rate, "p50", "p99", "errors", "non-2xx",
        rate + " vs baseline (95% CI)", "loss", "verdict" } };
    if (results.grouped()) rows.front().insert(rows.front().begin(), "group");
    for (const Slo& slo : results.plan.slos)
        rows.front().push_back(sloHeader(slo));
    for (const ExperimentRow& r : results.rows) {
        rows.push_back({ r.cellLabel, r.targetName + (r.baseline ? " *" : ""), std::to_string(r.runIds.size()),
            meanSd(r.requestsPerS, rateText), meanSd(r.p50Us, latencyText), meanSd(r.p99Us, latencyText),
            meanSd(r.errors, errorsText), meanSd(r.non2xx, errorsText),
            r.baseline ? "-" : ratioText(r.requestsPerSRatio), lossText(r), r.verdict });
        if (results.grouped()) rows.back().insert(rows.back().begin(), r.group);
        appendSloCells(rows.back(), r);
    }
    return rows;
}

std::vector<std::string> pooledLines(const ExperimentResults& results)
{
    std::vector<std::string> out;
    std::set<std::string> baselines;
    for (const ExperimentRow& r : results.rows)
        if (r.baseline) baselines.insert(r.targetName);
    const std::string baseline = baselines.size() == 1 ? *baselines.begin() : "baseline";
    for (const PooledEffect& e : pooledEffects(results))
        out.push_back(e.notCommon() ? e.name + ": " + e.verdict
                                    : e.name + " vs " + baseline + " " + ratioText(e.ratio) + ": " + e.verdict);
    return out;
}

std::string formatResultsTable(const ExperimentResults& results)
{
    const std::vector<std::vector<std::string>> rows = resultsTableRows(results);
    std::vector<bool> right { false, false, true, true, true, true, true, true, false, true, false };
    if (results.grouped()) right.insert(right.begin(), false);
    right.resize(rows.front().size(), true);
    std::string out = alignedTable(rows, right) + "* baseline" + (results.grouped() ? " of each group" : "") + ". Mean "
        + PLUS_MINUS + " standard deviation across repetitions; 95% confidence interval of "
        + "the ratio by Fieller's method with Welch's t.\n";
    if (results.metric == RateMetric::PerThread) out += metricNote() + "\n";
    if (!results.plan.slos.empty()) out += sloNote(results);
    const std::vector<std::string> pooled = pooledLines(results);
    if (!pooled.empty()) {
        out += "Pooled over the cells (one intercept per cell, one effect per "
            + std::string(results.kind == ExperimentKind::Study ? "variant" : "target") + ", on ln req/s):\n";
        for (const std::string& line : pooled)
            out += "  " + line + "\n";
    }
    if (const std::vector<std::string> lines = runMetricLines(results); !lines.empty()) {
        out += "Behind the front door (mean " + std::string(PLUS_MINUS)
            + " sd; the difference to the baseline with Welch's 95% interval):\n";
        for (const std::string& line : lines)
            out += "  " + line + "\n";
    }
    for (const ComparabilityWarning& w : experimentComparability(results))
        out += "WARNING " + w.text() + "\n";
    return out;
}

std::string reportMethodText(const ExperimentResults& results)
{
    const bool study = results.kind == ExperimentKind::Study;
    const ExperimentPlan& plan = results.plan;
    std::string text
        = (study ? std::string("Each cell (group, level and variant) holds the stored runs that fell into it")
                 : "Each cell (load level and target) was run " + std::to_string(plan.repetitions) + " times")
        + "; the table shows the mean and the sample standard deviation of the repetitions' results. "
          "The ratio to the baseline is the ratio of the means, with a 95% confidence interval by Fieller's "
          "theorem: the set of ratios r for which mean(B) - r * mean(A) is not significantly different from zero "
          "under Welch's t (unequal variances), with Welch-Satterthwaite degrees of freedom. A verdict is given only "
          "where that interval excludes 1; otherwise the difference is not significant at the 95% level. With few "
          "repetitions the intervals are wide: that is the honest answer, and more repetitions narrow them. "
          "The runs of each level are checked to differ in the variant only: threads, connections, duration, "
          "rate, protocol, TLS verification, engine version and loader host must agree, and imported runs are "
          "not set beside measured ones without a warning that names what differs.";
    for (RunMetric m : results.metrics) {
        const RunMetricInfo& info = runMetricInfo(m);
        text += std::string(" The ") + info.title + " of a run is " + info.meaning
            + "; it is compared as the difference of the means with Welch's t interval (a ratio means nothing "
              "near zero).";
    }
    return text;
}

std::string studySetupText(const ExperimentResults& results)
{
    return studySetup(results);
}

std::string levelDescriptionText(const LoadLevel& level)
{
    return levelDescription(level);
}

std::string formatMarkdownReport(const ExperimentResults& results, const MarkdownOptions& options)
{
    const ExperimentPlan& plan = results.plan;
    const ExperimentRecord& e = results.experiment;
    const bool study = results.kind == ExperimentKind::Study;
    const bool grouped = results.grouped();
    const std::string baseline = plan.targets.empty() ? "" : plan.targets[plan.baselineIndex()].name;
    const std::string rate = rateHeader(results);
    std::string out = "# " + (e.name.empty() ? "Experiment " + std::to_string(e.id) : e.name) + "\n\n";
    if (study) {
        out += "Study " + std::to_string(e.id);
        if (!options.sessionName.empty()) out += " in session `" + options.sessionName + "`";
        out += ": " + std::to_string(results.runsDone) + " stored runs.";
        if (e.createdAtMs) out += " Made " + isoTimestamp(e.createdAtMs) + ".";
        out += "\n\n";
    } else {
        out += "Experiment " + std::to_string(e.id);
        if (!options.sessionName.empty()) out += " in session `" + options.sessionName + "`";
        out += ", " + std::string(experimentStatusName(e.status)) + ": " + std::to_string(results.runsDone) + " of "
            + std::to_string(results.runsTotal) + " runs completed.";
        if (e.startedAtMs) out += " Last started " + isoTimestamp(e.startedAtMs);
        if (e.finishedAtMs) out += ", ended " + isoTimestamp(e.finishedAtMs);
        out += e.startedAtMs ? ".\n\n" : "\n\n";
    }

    out += "## Setup\n\n";
    if (study) {
        out += studySetup(results) + "\n\n";
    } else {
        if (grouped) {
            out += mdRow({ "group", "target", "URL", "role" }) + "|---|---|---|---|\n";
            for (const auto& t : plan.targets)
                out += mdRow({ t.group, t.name, t.request.method + " " + t.request.url.displayText(),
                    t.baseline ? "baseline of " + t.group : "" });
        } else {
            out += mdRow({ "target", "URL", "role" }) + "|---|---|---|\n";
            for (const auto& t : plan.targets)
                out += mdRow(
                    { t.name, t.request.method + " " + t.request.url.displayText(), t.baseline ? "baseline" : "" });
        }
        out += "\nLoad levels";
        if (!plan.axis.empty()) out += " (" + plan.axis + " swept)";
        out += ": ";
        for (size_t i = 0; i < plan.levels.size(); ++i)
            out += (i ? ", " : "") + levelDescription(plan.levels[i]);
        out += ".\n\nEach level and target: " + std::to_string(plan.repetitions) + " repetitions of "
            + planDurationText(plan.durationUs) + " (warm-up " + planDurationText(plan.warmupUs) + ", cool-down "
            + planDurationText(plan.cooldownUs) + " between runs), in " + experimentOrderName(plan.order) + " order ("
            + (plan.order == ExperimentOrder::Interleaved
                    ? "A B A B within each level, so that drift hits every target alike"
                    : "all repetitions of A, then of B, within each level")
            + "). Request timeout " + planDurationText(plan.levels.front().load.timeoutUs) + ".";
        if (!plan.slos.empty()) {
            out += " Every run is judged by the SLOs ";
            for (size_t i = 0; i < plan.slos.size(); ++i)
                out += (i ? ", `" : "`") + plan.slos[i].expr + "`";
            out += ".";
        }
        out += "\n\n";
    }
    out += "## Results\n\n";
    std::vector<std::string> header { "level", study ? "variant" : "target", "runs", rate, "p50", "p99", "errors",
        "non-2xx", rate + " vs " + (grouped ? "baseline" : baseline) + " (95% CI)", "loss vs baseline", "verdict" };
    std::string rule = "|---|---|--:|--:|--:|--:|--:|--:|---|--:|---|";
    if (grouped) {
        header.insert(header.begin(), "group");
        rule = "|---" + rule;
    }
    for (const Slo& slo : plan.slos) {
        header.push_back(sloHeader(slo));
        rule += "--:|";
    }
    out += mdRow(header) + rule + "\n";
    for (const ExperimentRow& r : results.rows) {
        std::vector<std::string> cells { r.cellLabel, r.baseline ? r.targetName + " (baseline)" : r.targetName,
            std::to_string(r.runIds.size()), meanSd(r.requestsPerS, rateText), meanSd(r.p50Us, latencyText),
            meanSd(r.p99Us, latencyText), meanSd(r.errors, errorsText), meanSd(r.non2xx, errorsText),
            r.baseline ? "1" : ratioText(r.requestsPerSRatio), lossText(r), r.verdict };
        if (grouped) cells.insert(cells.begin(), r.group);
        appendSloCells(cells, r);
        out += mdRow(cells);
    }
    out += "\nMean " + std::string(PLUS_MINUS) + " standard deviation across repetitions. Loss vs baseline = 1 "
        + "- (mean " + rate + " / baseline mean " + rate + ")"
        + (grouped ? ", against the baseline of the same group" : "")
        + ". Errors: socket, TLS and parse errors per run "
          "(requests without a usable answer); non-2xx: responses outside 2xx/3xx per run.";
    if (results.metric == RateMetric::PerThread) out += " " + metricNote();
    if (!plan.slos.empty()) out += " " + sloNote(results);
    out += "\n\n";
    for (const ComparabilityWarning& w : experimentComparability(results))
        out += "> **Warning:** " + md(w.text()) + "\n\n";

    if (const std::vector<std::string> lines = runMetricLines(results); !lines.empty()) {
        out += "## Behind the front door\n\nMean " + std::string(PLUS_MINUS)
            + " standard deviation across repetitions; the difference to the baseline with its 95% confidence "
              "interval (Welch's t).\n\n";
        for (const std::string& line : lines)
            out += "- " + md(line) + "\n";
        out += "\n";
    }
    const std::vector<std::string> pooled = pooledLines(results);
    if (!pooled.empty()) {
        out += "## Pooled over the cells\n\nA fixed-effect model on ln req/s: one intercept per cell, one common "
               "effect per variant, the within-cell variance pooled; beside it the F-test of whether the effect "
               "differs between cells (where it does, no pooled verdict).\n\n";
        for (const std::string& line : pooled)
            out += "- " + md(line) + "\n";
        out += "\n";
    }

    out += "## Latency against the baseline\n\n";
    const std::string vs = grouped ? "baseline" : baseline;
    std::vector<std::string> latencyHeader { "level", study ? "variant" : "target", "p50 vs " + vs + " (95% CI)",
        "p99 vs " + vs + " (95% CI)", "p99 verdict" };
    if (grouped) latencyHeader.insert(latencyHeader.begin(), "group");
    out += mdRow(latencyHeader) + (grouped ? "|---" : "") + "|---|---|---|---|---|\n";
    for (const ExperimentRow& r : results.rows) {
        if (r.baseline) continue;
        std::vector<std::string> cells { r.cellLabel, r.targetName, ratioText(r.p50Ratio), ratioText(r.p99Ratio),
            r.p99Verdict };
        if (grouped) cells.insert(cells.begin(), r.group);
        out += mdRow(cells);
    }
    out += "\n";

    if (!options.images.empty()) {
        out += "## Charts\n\n";
        for (const ReportImage& image : options.images)
            out += "![" + md(image.title) + "](" + image.path + ")\n\n*" + md(image.title) + "*\n\n";
    }

    out += "## Method\n\n" + reportMethodText(results) + "\n\n";

    if (options.listRuns && !results.runs.empty() && study) {
        out += "## Runs\n\n";
        std::vector<std::string> runsHeader { "run", "level", "repetition", "variant", "target", "status", "req/s",
            "req/s per thread", "p50", "p99", "errors", "non-2xx", "source" };
        std::string runsRule = "|--:|---|--:|---|---|---|--:|--:|--:|--:|--:|--:|---|";
        if (grouped) {
            runsHeader.insert(runsHeader.begin() + 1, "group");
            runsRule = "|--:|---" + runsRule.substr(4);
        }
        out += mdRow(runsHeader) + runsRule + "\n";
        for (const RunRecord& r : results.runs) {
            size_t repetition = 0;
            const ExperimentRow* row = rowOfRun(results, r.id, &repetition);
            std::vector<std::string> cells { std::to_string(r.id), row ? row->cellLabel : "-",
                row ? std::to_string(repetition + 1) : "-", row ? row->targetName : "-", r.targetName,
                runStatusName(r.status), groupedNumber(r.totals.requestsPerS), groupedNumber(r.totals.threadRate.mean),
                latencyText(r.totals.latency.p50Us), latencyText(r.totals.latency.p99Us),
                std::to_string(r.totals.errors.transportErrors()), std::to_string(r.totals.non2xx), r.source };
            if (grouped) cells.insert(cells.begin() + 1, row ? row->group : "-");
            out += mdRow(cells);
        }
        out += "\n";
    } else if (options.listRuns && !results.runs.empty()) {
        out += "## Runs\n\n";
        std::vector<std::string> runsHeader { "run", "level", "repetition", "target", "status", "started", "req/s",
            "p50", "p99", "errors", "non-2xx" };
        const bool slos = !plan.slos.empty();
        if (slos) runsHeader.push_back("SLOs");
        out += mdRow(runsHeader) + "|--:|---|--:|---|---|---|--:|--:|--:|--:|--:|" + (slos ? "---|" : "") + "\n";
        for (const RunRecord& r : results.runs) {
            const int cell = r.experiment.cellIndex;
            const std::string level
                = cell >= 0 && static_cast<size_t>(cell) < plan.levels.size() ? plan.levels[cell].label : "-";
            const bool has = r.hasTotals;
            std::vector<std::string> cells { std::to_string(r.id), level, std::to_string(r.experiment.repetition + 1),
                r.targetName, runStatusName(r.status), isoTimestamp(r.startedAtMs),
                has ? groupedNumber(r.totals.requestsPerS) : "-", has ? latencyText(r.totals.latency.p50Us) : "-",
                has ? latencyText(r.totals.latency.p99Us) : "-",
                has ? std::to_string(r.totals.errors.transportErrors()) : "-",
                has ? std::to_string(r.totals.non2xx) : "-" };
            if (slos) cells.push_back(has ? runSloText(r.totals.slo) : "-");
            out += mdRow(cells);
        }
        out += "\n";
    }
    return out;
}

std::string resultsCsv(const ExperimentResults& results)
{
    const ExperimentPlan& plan = results.plan;
    std::vector<std::string> header { "experiment_id", "cell", "group", "level", "axis", "axis_value", "threads",
        "connections", "rate", "target", "baseline", "runs", "rps_mean", "rps_stdev", "p50_ms_mean", "p50_ms_stdev",
        "p99_ms_mean", "p99_ms_stdev", "errors_mean", "errors_stdev", "non2xx_mean", "non2xx_stdev", "rps_ratio",
        "rps_ratio_ci_low", "rps_ratio_ci_high", "loss_pct", "p50_ratio", "p50_ratio_ci_low", "p50_ratio_ci_high",
        "p99_ratio", "p99_ratio_ci_low", "p99_ratio_ci_high", "df", "significant", "verdict", "run_ids", "differs" };
    for (const Slo& slo : plan.slos)
        header.push_back("slo " + slo.expr);
    for (const std::string& column : runMetricCsvHeader(results))
        header.push_back(column);
    std::string out = csvRow(header);
    auto ms = [](double us) { return csvNumber(us / 1000.0); };
    const std::vector<ComparabilityWarning> warnings = experimentComparability(results);
    for (const ExperimentRow& r : results.rows) {
        const LoadLevel& level = plan.levels[r.cell];
        std::string ids;
        for (int64_t id : r.runIds)
            ids += (ids.empty() ? "" : ";") + std::to_string(id);
        const RatioEstimate& q = r.requestsPerSRatio;
        std::vector<std::string> fields { std::to_string(results.experiment.id), std::to_string(r.cell), r.group,
            r.cellLabel, plan.axis, csvNumber(level.axisValue), std::to_string(level.load.threads),
            std::to_string(level.load.connections), csvNumber(level.load.ratePerS), r.targetName,
            r.baseline ? "1" : "0", std::to_string(r.runIds.size()), csvNumber(r.requestsPerS.mean),
            csvNumber(r.requestsPerS.stdev), ms(r.p50Us.mean), ms(r.p50Us.stdev), ms(r.p99Us.mean), ms(r.p99Us.stdev),
            csvNumber(r.errors.mean), csvNumber(r.errors.stdev), csvNumber(r.non2xx.mean), csvNumber(r.non2xx.stdev),
            csvNumber(q.ratio), ciCell(q.low), ciCell(q.high), r.baseline ? "" : csvNumber(r.lossPct()),
            csvNumber(r.p50Ratio.ratio), ciCell(r.p50Ratio.low), ciCell(r.p50Ratio.high), csvNumber(r.p99Ratio.ratio),
            ciCell(r.p99Ratio.low), ciCell(r.p99Ratio.high), csvNumber(q.df),
            r.baseline || !q.hasInterval() ? "" : (q.significant() ? "1" : "0"), r.verdict, ids,
            differsField(warnings, r) };
        // "2/3" as in the tables; an empty field when no repetition was judged.
        for (const SloTally& t : r.slo)
            fields.push_back(t.judged ? t.text() : "");
        for (std::string& cell : runMetricCsvCells(results, r))
            fields.push_back(std::move(cell));
        out += csvRow(fields);
    }
    // The pooled verdict across cells: one row per variant, level "pooled", the ratio, its CI, df and verdict.
    for (const PooledEffect& e : pooledEffects(results)) {
        std::vector<std::string> fields(header.size());
        fields[0] = std::to_string(results.experiment.id);
        fields[3] = "pooled";
        fields[9] = e.name;
        fields[10] = "0";
        fields[11] = std::to_string(e.runs);
        if (!e.notCommon()) {
            fields[22] = csvNumber(e.ratio.ratio);
            fields[23] = ciCell(e.ratio.low);
            fields[24] = ciCell(e.ratio.high);
            fields[32] = csvNumber(e.ratio.df);
            fields[33] = e.ratio.hasInterval() ? (e.ratio.significant() ? "1" : "0") : "";
        }
        fields[34] = e.verdict;
        out += csvRow(fields);
    }
    return out;
}

} // namespace wb
