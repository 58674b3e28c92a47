#include "sessioncommands.h"

#include "cliparse.h"
#include "clisession.h"
#include "common/jsontext.h"
#include "exitcode.h"
#include "experiment/comparisonhtml.h"
#include "prometheus/exposition/scrapetext.h"
#include "report/units.h"
#include "store/csvexport.h"
#include "store/sessionstore.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

namespace wb::cli {

namespace {

std::string latencyText(double us)
{
    return std::isnan(us) ? "-" : formatTimeUs(us);
}

std::string fixed2(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string joinTags(const std::vector<std::string>& tags)
{
    std::string out;
    for (const auto& t : tags)
        out += (out.empty() ? "" : ",") + t;
    return out;
}

} // namespace

void addRunsCommand(CLI::App& app, RunsArgs& a)
{
    CLI::App* cmd = app.add_subcommand("runs", "List the runs of a session, one line each");
    cmd->add_option("--db", a.dbPath, "Session file")->required();
    cmd->add_option("--target", a.target, "Only runs against this target");
    cmd->add_option("--tag", a.tags, "Only runs with this tag, on the run or its target (repeatable: all of them)")
        ->allow_extra_args(false);
    cmd->add_option("--status", a.status, "Only runs with this status")
        ->check(CLI::IsMember({ "running", "completed", "stopped", "interrupted", "failed", "imported" }));
    cmd->add_flag("--csv", a.csv, "CSV with a header row instead of the table");
    cmd->add_option("--loaders", a.loadersOf, "The loaders of this run (one made by several loaders), one line each");
}

namespace {

// The loaders table of a run made by several loaders (`run --loaders`, `merge`).
int printLoaders(SessionStore& store, int64_t runId)
{
    auto data = store.runs().load(runId);
    if (!data) {
        printError(data.error());
        return EXIT_FAILED;
    }
    if (data->loaders.empty()) {
        std::cout << "Run " << runId << " was made by one process (no loaders table)" << std::endl;
        return EXIT_OK;
    }
    std::vector<std::vector<std::string>> rows { { "loader", "host", "connections", "requests", "req/s", "errors",
        "start offset", "clock", "state", "workers busy" } };
    for (const LoaderSummary& l : data->loaders)
        rows.push_back({ std::to_string(l.index), l.host, std::to_string(l.connections), std::to_string(l.requests),
            fixed2(l.requestsPerS), std::to_string(l.errors), fixed2(l.startOffsetMs) + "ms", l.clock, l.state,
            !l.cost.measured() ? "-"
                               : fmt::format("{}%{}", std::lround(l.cost.workerBusyShare() * 100),
                                   l.cost.saturated() ? " (saturated)" : "") });
    std::cout << textTable(rows, { true, false, true, true, true, true, true, false, false, true });
    return EXIT_OK;
}

} // namespace

int runsCommand(const RunsArgs& a)
{
    auto store = openSessionToRead(a.dbPath);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    if (a.loadersOf > 0) return printLoaders(**store, a.loadersOf);
    RunFilter filter;
    filter.targetName = a.target;
    filter.tags = a.tags;
    if (!a.status.empty()) filter.status = runStatusFromName(a.status);
    auto runs = (*store)->runs().list(filter);
    if (!runs) {
        printError(runs.error());
        return EXIT_FAILED;
    }
    if (a.csv) {
        std::cout << runsCsv(*runs) << std::flush;
        return EXIT_OK;
    }
    std::vector<std::vector<std::string>> rows { { "id", "target", "tags", "started", "status", "threads",
        "connections", "duration", "req/s", "p50", "p99", "errors", "non-2xx" } };
    for (const RunRecord& r : *runs) {
        const RunTotals& t = r.totals;
        const bool has = r.hasTotals;
        rows.push_back({ std::to_string(r.id), r.targetName, joinTags(r.tags), localTime(r.startedAtMs),
            runStatusName(r.status), std::to_string(r.config.threads), std::to_string(r.config.connections),
            has ? fixed2(t.durationS) + "s" : "-", has ? fixed2(t.requestsPerS) : "-",
            has ? latencyText(t.latency.p50Us) : "-", has ? latencyText(t.latency.p99Us) : "-",
            has ? std::to_string(t.errors.transportErrors()) : "-", has ? std::to_string(t.non2xx) : "-" });
    }
    std::cout << textTable(rows, { true, false, false, false, false, true, true, true, true, true, true, true, true });
    return EXIT_OK;
}

void addExportCommand(CLI::App& app, ExportArgs& a)
{
    CLI::App* cmd = app.add_subcommand("export", "Export stored runs as CSV, or compared as one HTML report");
    cmd->add_option("--db", a.dbPath, "Session file")->required();
    cmd->add_option("--run", a.runIds, "Run id (repeatable: several runs side by side)")
        ->required()
        ->allow_extra_args(false);
    cmd->add_option("--what", a.what,
           "summary, series (the intervals), percentiles (the full spectrum), status, backends (--backend-from: one "
           "row per backend), upstream (--upstream-time: the split) or scrape (--scrape: the target's metrics, one "
           "row per point); with --csv (or --json for scrape)")
        ->check(CLI::IsMember({ "summary", "series", "percentiles", "status", "backends", "upstream", "scrape" }));
    CLI::Option* csv = cmd->add_option("--csv", a.output, "Write CSV, to OUT or to stdout when OUT is missing or '-'")
                           ->expected(0, 1);
    CLI::Option* json
        = cmd->add_option("--json", a.output, "--what scrape: write JSON (one object per run), to OUT or stdout")
              ->expected(0, 1)
              ->excludes(csv);
    CLI::Option* html
        = cmd->add_option("--html", a.htmlOutput,
                 "Write the runs compared (the first is the baseline) as one self-contained HTML page, to "
                 "OUT or to stdout when OUT is missing or '-'")
              ->expected(0, 1)
              ->excludes(csv)
              ->excludes(json);
    cmd->callback([&a, csv, json, html] {
        a.csv = csv->count() > 0;
        a.json = json->count() > 0;
        a.html = html->count() > 0;
    });
}

namespace {

// --what scrape: the runs' target metrics, CSV rows or one JSON object per run.
Result<std::string> scrapeExport(SessionStore& store, const std::vector<RunData>& runs, bool json)
{
    std::string csv = scrapeCsvHeader();
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const RunData& run : runs) {
        auto scrape = store.runs().scrapeOf(run.run.id);
        if (!scrape) return Error { scrape.error() };
        const int64_t startMs = !run.intervals.empty() && run.intervals.front().startUnixMs
            ? run.intervals.front().startUnixMs
            : run.run.startedAtMs;
        if (json)
            out.push_back({ { "run_id", run.run.id }, { "measure_start_unix_ms", startMs },
                { "scrape", nlohmann::ordered_json(scrapeRecordToJson(*scrape)) } });
        else
            csv += scrapeCsvRows(run.run.id, startMs, *scrape);
    }
    return json ? jsonText(out, 2) + "\n" : csv;
}

} // namespace

int exportCommand(const ExportArgs& a)
{
    if (int(a.csv) + int(a.json) + int(a.html) != 1) {
        printError("choose one output format: --csv [OUT], --html [OUT] or, with --what scrape, --json [OUT]");
        return EXIT_USAGE;
    }
    if (!a.html && a.what.empty()) {
        printError("--csv needs --what: summary, series, percentiles, status, backends, upstream or scrape");
        return EXIT_USAGE;
    }
    if (a.json && a.what != "scrape") {
        printError("--json goes with --what scrape (a run's whole result as JSON is 'run --json')");
        return EXIT_USAGE;
    }
    auto store = openSessionToRead(a.dbPath);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    std::vector<RunData> runs;
    for (int64_t id : a.runIds) {
        auto data = (*store)->runs().load(id);
        if (!data) {
            printError(data.error());
            return EXIT_FAILED;
        }
        runs.push_back(std::move(*data));
    }
    if (a.html) {
        ComparisonReportOptions options;
        options.sessionName = std::filesystem::path(a.dbPath).filename().string();
        options.generatedAtMs
            = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count();
        return writeOutput(a.htmlOutput, formatComparisonHtml(runs, options)) ? 0 : 1;
    }
    if (a.what == "scrape") {
        auto text = scrapeExport(**store, runs, a.json);
        if (!text) {
            printError(text.error());
            return EXIT_FAILED;
        }
        return writeOutput(a.output, *text) ? 0 : 1;
    }
    const std::string csv = a.what == "summary" ? summaryCsv(runs)
        : a.what == "series"                    ? seriesCsv(runs)
        : a.what == "percentiles"               ? percentilesCsv(runs)
        : a.what == "backends"                  ? backendsCsv(runs)
        : a.what == "upstream"                  ? upstreamCsv(runs)
                                                : statusCsv(runs);
    return writeOutput(a.output, csv) ? 0 : 1;
}

} // namespace wb::cli
