#include "capacitycommand.h"

#include "capacity/capacityjson.h"
#include "capacity/capacityoptions.h"
#include "capacity/capacityrecord.h"
#include "capacity/capacityreport.h"
#include "capacity/capacityrunner.h"
#include "capacity/capacitysearch.h"
#include "capacity/trialjudge.h"
#include "cliparse.h"
#include "clisession.h"
#include "common/jsontext.h"
#include "exitcode.h"
#include "experiment/experimentplan.h"
#include "experiment/plansearch.h"
#include "parse/quantity.h"
#include "probe/probe.h"
#include "progressline.h"
#include "prometheus/exposition/scraperecord.h"
#include "record/recordedrun.h"
#include "report/units.h"
#include "run/slo.h"
#include "script/luastate.h"
#include "store/sessionstore.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

namespace wb::cli {
namespace {

/// The run settings the search sets itself, or that a search does not take.
constexpr std::string_view SEARCH_SETS[] = { "rate", "duration", "responses", "stages", "slo_abort", "loaders" };

std::atomic<CapacityRunner*> g_capacityRunner { nullptr };
std::atomic<bool> g_interrupted { false };

extern "C" void onCapacityInterrupt(int)
{
    // First Ctrl-C: stop the trial running and the search, and report what was measured.
    g_interrupted = true;
    if (CapacityRunner* runner = g_capacityRunner.load()) runner->stop();
    std::signal(SIGINT, SIG_DFL);
}

} // namespace

void addCapacityCommand(CLI::App& app, CapacityArgs& a)
{
    CLI::App* c = app.add_subcommand("capacity",
        "Find the most load each target carries while its --slo thresholds hold (open-model trials); several URLs "
        "are compared");
    c->add_option("urls", a.urls, "Target URLs (the first is the baseline of the comparison)");
    addSettingOptions(*c, a.run.settings, SEARCH_SETS);
    for (const CapacityOption& o : capacityOptions()) {
        std::string help(o.help);
        if (const std::string def = o.defaultText(); !def.empty()) help += " (default " + def + ")";
        const std::string key(o.key);
        c->add_option_function<std::string>(
            std::string(o.flag), [&a, key](const std::string& v) { a.search[key] = v; }, help);
    }
    RunArgs& r = a.run;
    c->add_option("-H,--header", r.headers, "Add header to request, \"Name: value\" (repeatable)")
        ->allow_extra_args(false);
    c->add_option("-X,--method", r.method, "HTTP method (default GET)");
    c->add_option("--body", r.body, "Request body");
    c->add_option("--body-file", r.bodyFile, "Read the request body from a file");
    c->add_option("-s,--script", r.script,
        "wrk Lua script every trial runs, as under run (arguments after `--` go to its init(args)); what it prints "
        "is kept with each stored trial");
    c->add_flag("--http2,--h2", r.http2, "Speak HTTP/2 (h2 by ALPN over https, h2c over http)");
    c->add_flag("--http3,--h3", r.http3, "Speak HTTP/3 over QUIC (https:// only)");
    c->add_flag("-k,--insecure", r.insecure, "Do not verify the server certificate");
    c->add_option("--cacert", r.caFile, "Trust the CA certificates in this PEM file");
    c->add_option("--json", r.jsonPath, "Write the result as JSON to FILE ('-' for stdout)");
    addLoaderOptions(*c, r); // each trial a distributed run: the capacity of a door one machine cannot fill
    addScrapeOptions(*c, a.scrape, a.scrapeMetric);
    c->add_option(
        "--markdown", a.markdownPath, "Write the result and every trial as Markdown to FILE ('-' for stdout)");
    c->add_option("--csv", a.csvPath, "Write every trial as CSV to FILE ('-' for stdout)");
    c->add_option("--html", a.htmlPath,
        "Write one self-contained HTML report (the result, p99 against the offered rate as an SVG chart, every "
        "trial) to FILE ('-' for stdout)");
    c->add_flag("--quiet,-q", r.quiet,
        "No progress line: on a terminal, stderr otherwise shows the trial under way (its number, target and rate, "
        "the budget left) and its last interval's figures");
    CLI::Option* db = c->add_option("--db", r.dbPath,
        "Store the search in this session file: an experiment of kind capacity, each trial a run linked to it");
    c->add_option("--tag", r.tags, "Tag the stored trials (repeatable)")->needs(db)->allow_extra_args(false);
    c->add_option("--resume", a.resumeId,
         "Go on with the search stored as experiment ID in --db (its own targets and options; a search that ended "
         "shows its result)")
        ->needs(db);
}

namespace {

/// A new search: its options and targets read, each probed at rest; the error is printed, with the exit code.
std::optional<int> freshSearch(const CapacityArgs& a, std::optional<CapacityRunner>& runner)
{
    CapacityOptions options;
    for (const auto& [key, text] : a.search) {
        for (const CapacityOption& o : capacityOptions())
            if (o.key == key)
                if (Status st = o.read(options, text); !st) {
                    printError(std::string(o.flag) + ": " + st.error());
                    return EXIT_USAGE;
                }
    }
    if (Status st = options.validate(); !st) {
        printError(st.error());
        return EXIT_USAGE;
    }
    if (a.urls.empty()) {
        printError("give the target URLs (or --resume ID with --db to go on with a stored search)");
        return EXIT_USAGE;
    }
    auto scrape = scrapeSpecOf(a.scrape, a.scrapeMetric);
    if (!scrape) {
        printError(scrape.error());
        return EXIT_USAGE;
    }
    if (!a.run.settings.count("slo")) {
        printError("give at least one --slo (e.g. --slo 'p99<50ms' --slo 'errors<0.1%'): the capacity is the most "
                   "load that keeps them");
        return EXIT_USAGE;
    }
    std::optional<ScriptSpec> script;
    if (!a.run.script.empty()) {
        auto spec = readScriptFile(a.run.script, a.run.scriptArgs);
        if (!spec) {
            printError(spec.error());
            return EXIT_USAGE;
        }
        script = std::move(*spec);
    }
    std::vector<std::pair<std::string, RunConfig>> targets;
    for (const std::string& url : a.urls) {
        RunArgs args = a.run;
        args.url = url;
        auto cfg = runConfigOf(args);
        if (!cfg) {
            printError(url + ": " + cfg.error());
            return EXIT_USAGE;
        }
        if (script) cfg->script = *script;
        targets.emplace_back(url, std::move(*cfg));
    }
    auto fleet = fleetOf(a.run, targets.front().second);
    if (!fleet) {
        printError(fleet.error());
        return EXIT_USAGE;
    }
    auto started
        = CapacityRunner::start(std::move(targets), options, std::move(*scrape), a.run.settings.count("warmup") > 0);
    if (!started) {
        printError(started.error());
        return EXIT_FAILED;
    }
    runner.emplace(std::move(*started));
    runner->setFleet(std::move(fleet->first), std::move(fleet->second));
    return std::nullopt;
}

} // namespace

int capacityCommand(const CapacityArgs& a)
{
    std::optional<CapacityRunner> runner;
    std::unique_ptr<SessionStore> store;
    if (a.resumeId > 0) {
        if (!a.urls.empty() || !a.search.empty() || !a.run.settings.empty() || !a.scrape.empty()) {
            printError("--resume goes on with the search's own targets, options and settings: give only --db (and "
                       "--json, --markdown, --csv, --html, --quiet, and the loaders' credentials)");
            return EXIT_USAGE;
        }
        auto opened = openSessionToChange(a.run.dbPath);
        if (!opened) {
            printError(opened.error());
            return EXIT_FAILED;
        }
        store = std::move(*opened);
        auto resumed = CapacityRunner::resume(*store, a.run.dbPath, a.resumeId);
        if (!resumed) {
            printError(resumed.error());
            return EXIT_USAGE;
        }
        runner.emplace(std::move(*resumed));
        // The stored configurations say where the loaders run; the flags say how to reach them.
        auto fleet = fleetOf(a.run, runner->targets().front().config);
        if (!fleet) {
            printError(fleet.error());
            return EXIT_USAGE;
        }
        runner->setFleet(std::move(fleet->first), std::move(fleet->second));
    } else {
        if (auto rc = freshSearch(a, runner)) return *rc;
        if (!a.run.dbPath.empty()) {
            auto opened = SessionStore::open(a.run.dbPath);
            if (!opened) {
                printError(opened.error());
                return EXIT_FAILED;
            }
            store = std::move(*opened);
            if (Status st = runner->storeIn(*store, a.run.dbPath, a.run.tags); !st) {
                printError(st.error());
                return EXIT_FAILED;
            }
        }
    }
    SearchOutputs out;
    out.dbPath = a.run.dbPath;
    out.jsonPath = a.run.jsonPath;
    out.markdownPath = a.markdownPath;
    out.csvPath = a.csvPath;
    out.htmlPath = a.htmlPath;
    out.quiet = a.run.quiet;
    out.resumedId = a.resumeId;
    return searchAndReport(*runner, store.get(), out);
}

int searchAndReport(CapacityRunner& runner, SessionStore* store, const SearchOutputs& out)
{
    const std::vector<CapacityRunTarget>& targets = runner.targets();
    const CapacityOptions& options = runner.options();
    const int64_t searchId = runner.searchId();
    // A report on stdout keeps it to itself: the text goes to stderr.
    const bool reportOnStdout
        = out.jsonPath == "-" || out.markdownPath == "-" || out.csvPath == "-" || out.htmlPath == "-";
    std::ostream& text = reportOnStdout ? std::cerr : std::cout;
    // A stored search that ended only says its result.
    const bool searching = runner.searching();
    if (out.resumedId > 0)
        text << fmt::format("{} search {} in '{}' ({} trial{} made)\n", searching ? "Going on with" : "The ended",
            searchId, out.dbPath, runner.trialsMade(), runner.trialsMade() == 1 ? "" : "s");
    std::string slos;
    for (const Slo& s : targets[0].config.slos)
        slos += (slos.empty() ? "" : ", ") + s.expr;
    const RunConfig& load = targets[0].config;
    text << fmt::format("Capacity under {} ({} thread{}, {} connection{}; trials of {}, {} near the boundary, {} "
                        "repeats; precision {:g}%, budget {})\n",
        slos, load.threads, load.threads == 1 ? "" : "s", load.connections, load.connections == 1 ? "" : "s",
        durationText(options.trialUs), durationText(options.finalUs), options.repeat, options.precision * 100,
        durationText(options.budgetUs));
    for (const CapacityRunTarget& t : targets)
        text << fmt::format("  {} {}: at rest {} a request; starting at {} req/s{}\n", t.label, t.url,
            formatTimeUs(t.restLatencyUs), rateText(t.search.options().fromPerS),
            options.fromPerS > 0 ? "" : " (an eighth of what the connections carry at that latency)");
    text << std::flush;

    ProgressLine progress(!out.quiet);
    CapacityRunEvents events;
    events.observer = &progress;
    events.warning = printWarning;
    events.starting = [&](const CapacityRunTarget& t, const CapacityTrial& trial, unsigned number) {
        progress.setContext(fmt::format("trial {}{} at {} req/s, {} of the budget left", number,
            targets.size() > 1 ? " " + t.label : "", rateText(trial.ratePerS), wallTimeText(t.search.budgetLeftS())));
    };
    events.judged = [&](const CapacityRunTarget& t, const CapacityTrial& trial, const TrialOutcome& outcome,
                        unsigned number, bool settled) {
        ProgressLine::erase();
        text << fmt::format("  {:>3} {}{:>10} req/s for {:<5} {:<7} {}{}{}\n", number,
            targets.size() > 1 ? t.label + " " : "", rateText(trial.ratePerS), durationText(trial.durationUs),
            outcome.loaderLimited ? "LOADER"
                : outcome.passed  ? "passed"
                                  : "FAILED",
            capacityVerdictsText(outcome.slo), outcome.loaderLimited ? "; " + outcome.loaderReason : "",
            settled ? "" : " (the target had not settled back to its rest latency before it)")
             << std::flush;
    };
    g_capacityRunner = &runner;
    std::signal(SIGINT, onCapacityInterrupt);
    const Status ran = runner.run(events);
    std::signal(SIGINT, SIG_DFL);
    g_capacityRunner = nullptr;
    ProgressLine::erase();
    if (g_interrupted) printWarning("stopped: the brackets below are what was measured");

    const CapacityReport report = runner.report();
    const std::vector<CapacityTarget> results = runner.results();
    text << "\n";
    for (const CapacityReportTarget& t : report.targets)
        text << capacitySummaryText(t, options);
    text << capacityComparisonText(report) << std::flush;
    for (const auto& [path, content] : { std::pair { out.markdownPath, &capacityMarkdown },
             std::pair { out.csvPath, &capacityCsv }, std::pair { out.htmlPath, &capacityHtml } })
        if (!path.empty() && !writeOutput(path, content(report))) return EXIT_FAILED;
    if (store && searching) {
        const bool complete = ran && !g_interrupted;
        text << fmt::format("Search {} in '{}': {}\n", searchId, out.dbPath,
            complete ? "complete"
                     : fmt::format("go on with: wrkbench-cli capacity --db {} --resume {}", out.dbPath, searchId))
             << std::flush;
    }
    if (!out.jsonPath.empty() && !writeOutput(out.jsonPath, jsonText(capacityDocument(results), 2) + "\n"))
        return EXIT_FAILED;
    if (!ran) {
        printError(ran.error());
        return EXIT_FAILED;
    }
    if (g_interrupted) return EXIT_STOPPED;
    int rc = 0;
    for (const CapacityTarget& r : results) {
        if (r.result.limitedBy == CapacityLimit::Loader) rc = EXIT_LOADER_LIMITED;
        if (r.result.stop == CapacityStop::FailsAtMin && rc == 0) rc = EXIT_SLO_FAILED;
    }
    return rc;
}

int planSearchCommand(const ExperimentPlan& plan, const std::string& dbPath, const SearchOutputs& out)
{
    auto store = SessionStore::open(dbPath);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    std::vector<std::string> warnings;
    auto setup = planSearchSetup(**store, plan, &warnings);
    for (const std::string& w : warnings)
        printWarning(w);
    if (!setup) {
        printError(setup.error());
        return EXIT_FAILED;
    }
    auto runner = CapacityRunner::start(std::move(setup->targets), setup->options, {}, setup->warmupGiven);
    if (!runner) {
        printError(runner.error());
        return EXIT_FAILED;
    }
    for (size_t i = 0; i < setup->sessionTargetIds.size(); ++i)
        runner->setSessionTarget(i, setup->sessionTargetIds[i]);
    if (Status st = runner->storeIn(**store, dbPath, {}, setup->name); !st) {
        printError(st.error());
        return EXIT_FAILED;
    }
    return searchAndReport(*runner, store->get(), out);
}

} // namespace wb::cli
