#include "capacitycommand.h"

#include "capacity/capacityjson.h"
#include "capacity/capacityoptions.h"
#include "capacity/capacityrecord.h"
#include "capacity/capacityreport.h"
#include "capacity/capacitysearch.h"
#include "capacity/trialjudge.h"
#include "cliparse.h"
#include "clisession.h"
#include "common/jsontext.h"
#include "exitcode.h"
#include "experiment/experimentplan.h"
#include "metrics/scraperecord.h"
#include "parse/quantity.h"
#include "probe/probe.h"
#include "progressline.h"
#include "record/recordedrun.h"
#include "report/units.h"
#include "run/slo.h"
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

/// Probes of the target at rest: their median is the latency the target is waited back to.
constexpr unsigned REST_PROBES = 5;
/// Between trials, at most this many probes (100 ms apart) wait for the target to answer within
/// SETTLED_FACTOR times its rest latency (or 1 ms more) twice in a row.
constexpr unsigned SETTLE_PROBES_MAX = 30;
constexpr double SETTLED_FACTOR = 2;
/// A trial's default warm-up: this share of its length, at most 5 s.
constexpr double WARMUP_SHARE = 0.2;

/// The run settings the search sets itself, or that a search does not take.
constexpr std::string_view SEARCH_SETS[] = { "rate", "duration", "stages", "slo_abort", "loaders" };

std::atomic<StopSwitch*> g_trialStop { nullptr };
std::atomic<bool> g_interrupted { false };

extern "C" void onCapacityInterrupt(int)
{
    // First Ctrl-C: stop the trial running and the search, and report what was measured.
    g_interrupted = true;
    if (StopSwitch* stop = g_trialStop.load()) stop->pull();
    std::signal(SIGINT, SIG_DFL);
}

double nowS()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// One target of the search: its configuration, its probe, its search and what each trial measured.
struct SearchTarget
{
    std::string url;
    std::string label; ///< "A", "B"... in the text
    RunConfig config;
    ProbeOptions probe;
    double restLatencyUs = 0;
    CapacitySearch search { CapacityOptions {} };
    std::vector<CapacityTrialFigures> seen; ///< by trial, beside the search's records
};

std::string labelOf(size_t i)
{
    return i < 26 ? std::string(1, static_cast<char>('A' + i)) : std::to_string(i + 1);
}

Result<double> restLatencyUs(const ProbeOptions& probe)
{
    auto probes = probeRepeated(probe, REST_PROBES);
    if (!probes) return Error { probes.error() };
    std::vector<double> us;
    for (const ProbeResult& p : *probes)
        us.push_back(static_cast<double>(p.totalUs));
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}

/// Waits until the target answers about as fast as at rest, so one overload does not poison the
/// next trial. Returns whether it did within the probes allowed.
bool settle(const SearchTarget& t)
{
    unsigned inARow = 0;
    for (unsigned i = 0; i < SETTLE_PROBES_MAX && !g_interrupted; ++i) {
        auto p = probe(t.probe);
        const bool fast = p
            && static_cast<double>(p->totalUs) <= std::max(SETTLED_FACTOR * t.restLatencyUs, t.restLatencyUs + 1000);
        inARow = fast ? inARow + 1 : 0;
        if (inARow >= 2) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
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
    c->add_flag("--http2,--h2", r.http2, "Speak HTTP/2 (h2 by ALPN over https, h2c over http)");
    c->add_flag("--http3,--h3", r.http3, "Speak HTTP/3 over QUIC (https:// only)");
    c->add_flag("-k,--insecure", r.insecure, "Do not verify the server certificate");
    c->add_option("--cacert", r.caFile, "Trust the CA certificates in this PEM file");
    c->add_option("--json", r.jsonPath, "Write the result as JSON to FILE ('-' for stdout)");
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

/// What the settling probes of a target send (its configuration, built-in names resolved).
std::optional<int> probeFor(SearchTarget& t)
{
    RunConfig resolved = t.config;
    if (Status st = resolveBuiltinHosts(resolved); !st) {
        printError(st.error());
        return EXIT_FAILED;
    }
    t.probe = probeOptionsFor(resolved);
    t.probe.allowHttp2 = resolved.httpVersion == HttpVersion::Http2;
    return std::nullopt;
}

/// A new search's targets, each probed at rest; the error is printed, with the exit code.
std::optional<int> freshTargets(
    const CapacityArgs& a, CapacityOptions& options, std::vector<SearchTarget>& targets, ScrapeSpec& scrape)
{
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
    auto spec = scrapeSpecOf(a.scrape, a.scrapeMetric);
    if (!spec) {
        printError(spec.error());
        return EXIT_USAGE;
    }
    scrape = std::move(*spec);
    if (!a.run.settings.count("slo")) {
        printError("give at least one --slo (e.g. --slo 'p99<50ms' --slo 'errors<0.1%'): the capacity is the most "
                   "load that keeps them");
        return EXIT_USAGE;
    }
    targets.reserve(a.urls.size());
    for (size_t i = 0; i < a.urls.size(); ++i) {
        RunArgs args = a.run;
        args.url = a.urls[i];
        auto cfg = runConfigOf(args);
        if (!cfg) {
            printError(a.urls[i] + ": " + cfg.error());
            return EXIT_USAGE;
        }
        SearchTarget t;
        t.url = a.urls[i];
        t.label = labelOf(i);
        t.config = *cfg;
        if (!a.run.settings.count("warmup"))
            t.config.warmupUs = std::min<uint64_t>(
                5'000'000, static_cast<uint64_t>(static_cast<double>(options.trialUs) * WARMUP_SHARE));
        targets.push_back(std::move(t));
    }
    // The target at rest: what a request takes before any load, the latency each trial waits back to.
    for (SearchTarget& t : targets) {
        if (auto rc = probeFor(t)) return rc;
        auto rest = restLatencyUs(t.probe);
        if (!rest) {
            printError(t.url + ": probe: " + rest.error());
            return EXIT_FAILED;
        }
        t.restLatencyUs = *rest;
        CapacityOptions own = options;
        if (own.fromPerS <= 0) own.fromPerS = suggestedFromPerS(t.config.connections, t.restLatencyUs, options);
        t.search = CapacitySearch(own);
    }
    return std::nullopt;
}

/// A stored search's targets, their searches replayed to where it stopped, and what each trial
/// showed (from its stored run); the error is printed, with the exit code.
std::optional<int> storedTargets(const CapacityArgs& a, SessionStore& store, CapacityOptions& options,
    std::vector<SearchTarget>& targets, ScrapeSpec& scrape, unsigned& trialsMade)
{
    const auto refuse = [](const std::string& message) -> std::optional<int> {
        printError(message);
        return EXIT_USAGE;
    };
    if (!a.urls.empty() || !a.search.empty() || !a.run.settings.empty() || !a.scrape.empty())
        return refuse("--resume goes on with the search's own targets, options and settings: give only --db (and "
                      "--json, --markdown, --csv, --html, --quiet)");
    const std::string which = fmt::format("search {} in '{}'", a.resumeId, a.run.dbPath);
    auto record = store.experiment(a.resumeId);
    if (!record) return refuse(record.error());
    if (record->kind != ExperimentKind::Capacity)
        return refuse(fmt::format("experiment {} in '{}' is a {}, not a capacity search (wrkbench-cli experiment "
                                  "--resume takes plans)",
            a.resumeId, a.run.dbPath, experimentKindName(record->kind)));
    auto definition = capacityDefinitionFromJson(record->planJson);
    if (!definition) return refuse(which + ": " + definition.error());
    auto trials = store.capacityTrials(a.resumeId);
    if (!trials) return refuse(which + ": " + trials.error());
    options = definition->options;
    scrape = definition->scrape;
    std::vector<CapacitySearch> searches = definition->searches();
    if (Status st = replayCapacityTrials(searches, *trials); !st) return refuse(which + ": " + st.error());
    for (size_t i = 0; i < definition->targets.size(); ++i) {
        CapacityTargetDefinition& d = definition->targets[i];
        SearchTarget t;
        t.url = d.url;
        t.label = d.label;
        t.config = std::move(d.config);
        t.restLatencyUs = d.restLatencyUs;
        t.search = std::move(searches[i]);
        targets.push_back(std::move(t));
    }
    for (const CapacityTrialRow& row : *trials) {
        CapacityTrialFigures seen { NAN, NAN, NAN, NAN, {} };
        if (auto run = store.runRecord(row.runId); run && run->hasTotals) {
            const RunTotals& totals = run->totals;
            auto scraped = store.scrapeOf(row.runId);
            seen = capacityTrialFigures(totals.latency.p50Us, totals.latency.p99Us, totals.requests,
                totals.errors.transportErrors(), totals.non2xx,
                scraped ? capacityTrialMetrics(
                    *scraped, run->startedAtMs + static_cast<int64_t>(run->config.warmupUs / 1000))
                        : std::vector<std::pair<std::string, double>> {});
        }
        targets[static_cast<size_t>(row.target)].seen.push_back(seen);
    }
    for (SearchTarget& t : targets)
        if (auto rc = probeFor(t)) return rc;
    trialsMade = static_cast<unsigned>(trials->size());
    return std::nullopt;
}

/// The definition a new search is stored with.
CapacityDefinition definitionOf(
    const CapacityOptions& options, const std::vector<SearchTarget>& targets, const ScrapeSpec& scrape)
{
    CapacityDefinition d;
    d.options = options;
    d.scrape = scrape;
    for (const SearchTarget& t : targets)
        d.targets.push_back({ t.label, t.url, t.config, t.restLatencyUs, t.search.options().fromPerS });
    return d;
}

} // namespace

int capacityCommand(const CapacityArgs& a)
{
    CapacityOptions options;
    std::vector<SearchTarget> targets;
    unsigned trialNumber = 0;
    ScrapeSpec scrape;
    std::unique_ptr<SessionStore> store;
    int64_t searchId = a.resumeId;
    if (a.resumeId > 0) {
        auto opened = openSessionToChange(a.run.dbPath);
        if (!opened) {
            printError(opened.error());
            return EXIT_FAILED;
        }
        store = std::move(*opened);
        if (auto rc = storedTargets(a, *store, options, targets, scrape, trialNumber)) return *rc;
    } else {
        if (auto rc = freshTargets(a, options, targets, scrape)) return *rc;
        if (!a.run.dbPath.empty()) {
            auto opened = SessionStore::open(a.run.dbPath);
            if (!opened) {
                printError(opened.error());
                return EXIT_FAILED;
            }
            store = std::move(*opened);
            std::string name = "capacity";
            for (const SearchTarget& t : targets)
                name += (t.label == "A" ? " " : " vs ") + t.url;
            auto id = store->addExperiment(
                name, capacityDefinitionToJson(definitionOf(options, targets, scrape)), {}, ExperimentKind::Capacity);
            if (!id) {
                printError(a.run.dbPath + ": " + id.error());
                return EXIT_FAILED;
            }
            searchId = *id;
        }
    }
    // A report on stdout keeps it to itself: the text goes to stderr.
    const bool reportOnStdout = a.run.jsonPath == "-" || a.markdownPath == "-" || a.csvPath == "-" || a.htmlPath == "-";
    std::ostream& text = reportOnStdout ? std::cerr : std::cout;
    // Whether any search has a trial to make (next() hands out the same trial until it is recorded):
    // a stored search that ended only says its result.
    const bool searching
        = std::any_of(targets.begin(), targets.end(), [](SearchTarget& t) { return t.search.next().has_value(); });
    if (store && searching)
        if (Status st = store->beginExperiment(searchId); !st) {
            printError(st.error());
            return EXIT_FAILED;
        }
    if (a.resumeId > 0)
        text << fmt::format("{} search {} in '{}' ({} trial{} made)\n", searching ? "Going on with" : "The ended",
            searchId, a.run.dbPath, trialNumber, trialNumber == 1 ? "" : "s");
    std::string slos;
    for (const Slo& s : targets[0].config.slos)
        slos += (slos.empty() ? "" : ", ") + s.expr;
    const RunConfig& load = targets[0].config;
    text << fmt::format("Capacity under {} ({} thread{}, {} connection{}; trials of {}, {} near the boundary, {} "
                        "repeats; precision {:g}%, budget {})\n",
        slos, load.threads, load.threads == 1 ? "" : "s", load.connections, load.connections == 1 ? "" : "s",
        durationText(options.trialUs), durationText(options.finalUs), options.repeat, options.precision * 100,
        durationText(options.budgetUs));
    for (const SearchTarget& t : targets)
        text << fmt::format("  {} {}: at rest {} a request; starting at {} req/s{}\n", t.label, t.url,
            formatTimeUs(t.restLatencyUs), rateText(t.search.options().fromPerS),
            options.fromPerS > 0 ? "" : " (an eighth of what the connections carry at that latency)");
    text << std::flush;

    std::signal(SIGINT, onCapacityInterrupt);
    ProgressLine progress(!a.run.quiet);
    std::string fatal;
    bool first = true;
    // Each step gives every target still searching one trial, in turn, so drift hits them alike.
    for (bool any = true; any && fatal.empty() && !g_interrupted;) {
        any = false;
        for (SearchTarget& t : targets) {
            if (g_interrupted || !fatal.empty()) break;
            auto trial = t.search.next();
            if (!trial) continue;
            any = true;
            const double started = nowS();
            const bool settled = first || settle(t);
            first = false;
            RunConfig cfg = t.config;
            cfg.ratePerS = trial->ratePerS;
            cfg.durationUs = trial->durationUs;
            RecordedRunOptions ro;
            ro.sessionPath = a.run.dbPath;
            ro.tags = a.run.tags;
            ro.cancelBeforeLoad = false;
            ro.onWarning = printWarning;
            ro.scrape = scrape;
            const int targetIndex = static_cast<int>(&t - targets.data());
            if (store) ro.experiment = { searchId, targetIndex, static_cast<int>(trialNumber) };
            RecordedRun run(cfg, ro);
            progress.setContext(fmt::format("trial {}{} at {} req/s, {} of the budget left", trialNumber + 1,
                targets.size() > 1 ? " " + t.label : "", rateText(trial->ratePerS),
                wallTimeText(t.search.budgetLeftS())));
            run.addObserver(&progress);
            g_trialStop = &run.stopSwitch();
            if (g_interrupted) run.stopSwitch().pull();
            const RecordedRunOutcome out = run.run();
            g_trialStop = nullptr;
            ProgressLine::erase();
            if (!out.ran()) {
                fatal = t.url + ": " + out.error;
                break;
            }
            const RunResult& result = *out.result;
            if (!out.storageWarning.empty()) printWarning(out.storageWarning);
            if (g_interrupted || result.stoppedEarly) break; // a trial cut short judges nothing
            TrialOutcome outcome = judgeTrial(result, t.restLatencyUs);
            outcome.runId = out.runId;
            outcome.elapsedS = nowS() - started;
            t.seen.push_back(capacityTrialFigures(static_cast<double>(result.latency.valueAtPercentileUs(50)),
                static_cast<double>(result.latency.valueAtPercentileUs(99)), result.requests,
                result.errors.transportErrors(), result.status.non2xx(),
                capacityTrialMetrics(out.scrape, result.measureStartUnixMs)));
            ++trialNumber;
            text << fmt::format("  {:>3} {}{:>10} req/s for {:<5} {:<7} {}{}{}\n", trialNumber,
                targets.size() > 1 ? t.label + " " : "", rateText(trial->ratePerS), durationText(trial->durationUs),
                outcome.loaderLimited ? "LOADER"
                    : outcome.passed  ? "passed"
                                      : "FAILED",
                capacityVerdictsText(outcome.slo), outcome.loaderLimited ? "; " + outcome.loaderReason : "",
                settled ? "" : " (the target had not settled back to its rest latency before it)")
                 << std::flush;
            t.search.record(outcome);
            if (store)
                if (Status st = store->addCapacityTrial(searchId, capacityTrialRow(targetIndex, *trial, outcome)); !st)
                    fatal = a.run.dbPath + ": the trial could not be stored: " + st.error();
        }
    }
    std::signal(SIGINT, SIG_DFL);
    for (SearchTarget& t : targets)
        t.search.stop(); // a search ended by Ctrl-C or an error says its bracket as it is
    if (g_interrupted) printWarning("stopped: the brackets below are what was measured");

    std::vector<CapacityTarget> results;
    CapacityReport report;
    report.slos = targets[0].config.slos;
    report.threads = targets[0].config.threads;
    report.connections = targets[0].config.connections;
    report.options = options;
    text << "\n";
    for (const SearchTarget& t : targets) {
        results.push_back({ t.url, t.search.result() });
        report.targets.push_back({ t.label, t.url, t.restLatencyUs, results.back().result, t.seen });
        text << capacitySummaryText(report.targets.back(), options);
    }
    text << capacityComparisonText(report) << std::flush;
    for (const auto& [path, content] : { std::pair { a.markdownPath, &capacityMarkdown },
             std::pair { a.csvPath, &capacityCsv }, std::pair { a.htmlPath, &capacityHtml } })
        if (!path.empty() && !writeOutput(path, content(report))) return EXIT_FAILED;
    if (store && searching) {
        const ExperimentStatus status = !fatal.empty() ? ExperimentStatus::Failed
            : g_interrupted                            ? ExperimentStatus::Stopped
                                                       : ExperimentStatus::Completed;
        if (Status st = store->finishExperiment(searchId, status, fatal); !st) printWarning(st.error());
        text << fmt::format("Search {} in '{}': {}\n", searchId, a.run.dbPath,
            status == ExperimentStatus::Completed
                ? "complete"
                : fmt::format("go on with: wrkbench-cli capacity --db {} --resume {}", a.run.dbPath, searchId))
             << std::flush;
    }
    if (!a.run.jsonPath.empty() && !writeOutput(a.run.jsonPath, jsonText(capacityDocument(results), 2) + "\n"))
        return EXIT_FAILED;
    if (!fatal.empty()) {
        printError(fatal);
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

} // namespace wb::cli
