#include "experimentcommand.h"

#include "capacitycommand.h"
#include "cliparse.h"
#include "clisession.h"
#include "common/clock.h"
#include "common/format.h"
#include "exitcode.h"
#include "experiment/experimentreport.h"
#include "experiment/experimentresults.h"
#include "experiment/experimentrunner.h"
#include "experiment/htmlreport.h"
#include "progressline.h"
#include "report/units.h"
#include "store/sessionstore.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <csignal>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <unistd.h>
#include <utility>
#include <vector>

namespace wb::cli {

namespace {

ExperimentRunner* g_experimentRunner = nullptr;

// Progress and messages: stdout, or stderr when a report goes to stdout (so it stays clean, as with run --json -).
std::ostream* g_text = &std::cout;
// The progress line on a terminal's stderr, when shown: a run's line is then written whole when it
// ends (its start would be overwritten), and the line says what runs meanwhile.
ProgressLine* g_progress = nullptr;
std::string g_runStart;

extern "C" void onExperimentInterrupt(int)
{
    // First Ctrl-C: stop the run in progress (kept as 'stopped') and start no other. Second: default action.
    static const char message[]
        = "\nStopping: the run in progress is kept as 'stopped'; resume the experiment later.\n";
    if (g_experimentRunner) g_experimentRunner->cancel();
    (void)!::write(STDERR_FILENO, message, sizeof message - 1);
    std::signal(SIGINT, SIG_DFL);
}

Result<std::string> readTextFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error { "cannot read plan '" + path + "'" };
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

void printPlan(const ExperimentPlan& plan, std::ostream& out)
{
    out << planSummaryText(plan) << std::endl;
    if (plan.slos.empty()) return;
    out << "Every run is judged by the SLOs";
    for (size_t i = 0; i < plan.slos.size(); ++i)
        out << (i ? ", " : " ") << plan.slos[i].expr;
    out << std::endl;
}

void printProgress(const ExperimentProgress& p)
{
    using Event = ExperimentProgress::Event;
    if (p.event == Event::RunStarting) {
        const std::string start = fmt::format("cell {}/{} ({}) rep {}/{}: {}", p.cell + 1, p.cellCount, p.cellLabel,
            p.repetition + 1, p.repetitions, p.targetName);
        if (g_progress && g_progress->shown()) {
            g_runStart = start + " ... ";
            g_progress->setContext(fmt::format("{}, {}/{} done{}", start, p.runsDone, p.runsTotal,
                p.runsDone > 0 ? ", ETA " + wallTimeText(p.etaS) : ""));
            return;
        }
        *g_text << start << " ... " << std::flush;
        return;
    }
    ProgressLine::erase();
    *g_text << std::exchange(g_runStart, {});
    if (p.status == RunStatus::Failed) {
        *g_text << "failed: " << p.message << std::endl;
        return;
    }
    *g_text << groupedNumber(p.requestsPerS) << " req/s, p99 " << formatTimeUs(p.p99Us) << ", " << p.errors
            << (p.errors == 1 ? " error" : " errors");
    if (p.non2xx > 0) *g_text << ", " << p.non2xx << " non-2xx/3xx";
    if (!p.slo.empty()) {
        std::string failed;
        for (const SloVerdict& v : p.slo)
            if (!v.ok) failed += (failed.empty() ? "" : ", ") + v.expr;
        *g_text << (failed.empty() ? ", SLOs met" : ", SLO FAILED: " + failed);
    }
    if (p.status == RunStatus::Stopped)
        *g_text << "  [stopped: kept as run " << p.runId << ", not counted]" << std::endl;
    else
        *g_text << "  [run " << p.runId << "; " << p.runsDone << "/" << p.runsTotal << " done"
                << (p.runsDone < p.runsTotal ? ", ETA " + wallTimeText(p.etaS) : "") << "]" << std::endl;
}

} // namespace

void addReportOptions(CLI::App* cmd, ExperimentReportArgs& a)
{
    cmd->add_option("--markdown", a.markdownPath, "Write the Markdown report to FILE ('-' for stdout)");
    cmd->add_option("--csv", a.csvPath, "Write the results table as CSV to FILE ('-' for stdout)");
    cmd->add_option("--html", a.htmlPath,
        "Write one self-contained HTML report (table, SVG charts, method, every run) to FILE ('-' for stdout)");
}

bool writeExperimentReport(const ExperimentResults& results, const ExperimentReportArgs& a, const std::string& dbPath)
{
    if (!a.toStdout()) std::cout << "\n" << formatResultsTable(results) << std::flush;
    bool ok = true;
    if (!a.markdownPath.empty()) {
        MarkdownOptions options;
        options.sessionName = dbPath;
        ok = writeOutput(a.markdownPath, formatMarkdownReport(results, options)) && ok;
    }
    if (!a.csvPath.empty()) ok = writeOutput(a.csvPath, resultsCsv(results)) && ok;
    if (!a.htmlPath.empty()) {
        HtmlReportOptions options;
        options.sessionName = dbPath;
        options.generatedAtMs = wallClockNowMs();
        ok = writeOutput(a.htmlPath, formatHtmlReport(results, options)) && ok;
    }
    return ok;
}

namespace {

// The experiment's results: the table and the files. sloFailed (when given): whether a run
// the results use failed one of the plan's SLOs.
bool report(SessionStore& store, int64_t experimentId, const ExperimentReportArgs& a, const std::string& dbPath,
    bool* sloFailed = nullptr)
{
    auto results = loadExperimentResults(store, experimentId);
    if (!results) {
        printError(results.error());
        return false;
    }
    if (sloFailed) *sloFailed = results->anySloFailed();
    return writeExperimentReport(*results, a, dbPath);
}

} // namespace

void addExperimentCommand(CLI::App& app, ExperimentArgs& a)
{
    CLI::App* cmd = app.add_subcommand(
        "experiment", "Run an A-vs-B experiment from a plan (targets x load levels x repetitions), or resume one");
    cmd->add_option("plan", a.planPath, "The plan, a JSON file (see docs/EXPERIMENTS.md)");
    cmd->add_option("--db", a.dbPath, "Session file (created when missing)");
    cmd->add_option("--resume", a.resumeId, "Resume experiment ID: make only the runs it still lacks");
    cmd->add_flag("--check", a.check, "Check the plan and show what would run; run nothing");
    cmd->add_flag("--quiet,-q", a.quiet,
        "No progress line: on a terminal, stderr otherwise shows the run under way (its cell, repetition and "
        "target, the experiment's ETA) and its last interval's figures");
    addReportOptions(cmd, a.report);
}

void addExperimentReportCommand(CLI::App& app, ExperimentReportCommandArgs& a)
{
    CLI::App* cmd = app.add_subcommand("experiment-report", "Show or export the results of an experiment");
    cmd->add_option("--db", a.dbPath, "Session file")->required();
    cmd->add_option("--experiment", a.experimentId, "Experiment id (see 'wrkbench-cli experiments')")->required();
    addReportOptions(cmd, a.report);
}

void addExperimentsCommand(CLI::App& app, ExperimentsArgs& a)
{
    CLI::App* cmd = app.add_subcommand("experiments", "List the experiments of a session");
    cmd->add_option("--db", a.dbPath, "Session file")->required();
}

int experimentCommand(const ExperimentArgs& a)
{
    if (a.planPath.empty() == (a.resumeId == 0)) {
        printError("give either a plan file or --resume ID");
        return EXIT_USAGE;
    }
    if (a.dbPath.empty() && !a.check) {
        printError("--db FILE is required: every run of an experiment is stored in a session");
        return EXIT_USAGE;
    }
    std::optional<ExperimentPlan> plan;
    if (!a.planPath.empty()) {
        auto text = readTextFile(a.planPath);
        if (!text) {
            printError(text.error());
            return EXIT_FAILED;
        }
        auto parsed = parseExperimentPlan(*text);
        if (!parsed) {
            printError("'" + a.planPath + "': " + parsed.error());
            return EXIT_FAILED;
        }
        plan = std::move(*parsed);
        if (a.check && plan->search) {
            std::string slos;
            for (const Slo& slo : plan->search->slos)
                slos += (slos.empty() ? "" : ", ") + slo.expr;
            std::cout << "Plan '" << a.planPath << "' is valid: a capacity search of " << plan->targets.size()
                      << " targets under " << slos << " (docs/CAPACITY.md)\n";
            if (!plan->description.empty()) {
                std::istringstream lines(plan->description);
                for (std::string line; std::getline(lines, line);)
                    std::cout << (line.empty() ? "" : "  ") << line << "\n";
            }
            for (const ExperimentTarget& t : plan->targets)
                std::cout << "  " << (t.group.empty() ? "" : t.group + " ") << t.name << ": "
                          << t.request.url.displayText() << "\n";
            return EXIT_OK;
        }
        if (a.check) {
            std::cout << "Plan '" << a.planPath << "' is valid: ";
            printPlan(*plan, std::cout);
            // The plan's own words (what its targets stand for, how to point it elsewhere).
            if (!plan->description.empty()) {
                std::istringstream lines(plan->description);
                for (std::string line; std::getline(lines, line);)
                    std::cout << (line.empty() ? "" : "  ") << line << "\n";
            }
            for (const ScheduledRun& p : plan->schedule())
                std::cout << "  " << plan->levels[p.cell].label << " rep " << p.repetition + 1 << ": "
                          << plan->targets[p.target].name << "\n";
            return EXIT_OK;
        }
    }

    // A plan with "search": a capacity search over its targets, stored as a capacity search.
    if (plan && plan->search) {
        SearchOutputs out;
        out.dbPath = a.dbPath;
        out.markdownPath = a.report.markdownPath;
        out.csvPath = a.report.csvPath;
        out.htmlPath = a.report.htmlPath;
        out.quiet = a.quiet;
        return planSearchCommand(*plan, a.dbPath, out);
    }
    SessionOpenOptions options;
    options.create = a.resumeId == 0; // a resumed experiment must already be in the session
    auto store = SessionStore::open(a.dbPath, options);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    int64_t id = a.resumeId;
    if (plan) {
        // A target that does not answer fails now, before the experiment exists.
        if (auto st = ExperimentRunner::checkTargets(*plan); !st) {
            printError(st.error());
            return EXIT_FAILED;
        }
        std::vector<std::string> warnings;
        auto created = ExperimentRunner::create(**store, *plan, &warnings);
        if (!created) {
            printError(created.error());
            return EXIT_FAILED;
        }
        for (const auto& w : warnings)
            printWarning(w);
        id = *created;
    } else {
        auto record = (*store)->experiments().get(id);
        if (!record) {
            printError(record.error());
            return EXIT_FAILED;
        }
        if (Status st = ExperimentRunner::checkRunnable(*record); !st) {
            printError(st.error());
            return EXIT_FAILED;
        }
        auto parsed = parseExperimentPlan(record->planJson);
        if (!parsed) {
            printError("the plan of experiment " + std::to_string(id) + ": " + parsed.error());
            return EXIT_FAILED;
        }
        plan = std::move(*parsed);
        if (auto st = ExperimentRunner::checkTargets(*plan); !st) {
            printError(st.error());
            return EXIT_FAILED;
        }
    }
    auto record = (*store)->experiments().get(id);
    g_text = a.report.toStdout() ? &std::cerr : &std::cout;
    *g_text << (a.resumeId ? "Resuming experiment " : "Experiment ") << id << " '"
            << (record ? record->name : plan->name) << "' in '" << a.dbPath << "': ";
    printPlan(*plan, *g_text);

    ExperimentRunner runner(a.dbPath);
    runner.setProgressCallback(printProgress);
    ProgressLine progress(!a.quiet);
    runner.setRunObserver(&progress);
    g_progress = &progress;
    g_experimentRunner = &runner;
    std::signal(SIGINT, onExperimentInterrupt);
    auto outcome = runner.run(id);
    std::signal(SIGINT, SIG_DFL);
    g_experimentRunner = nullptr;
    g_progress = nullptr;
    ProgressLine::erase();
    if (!outcome) {
        printError(outcome.error());
        return EXIT_FAILED;
    }
    if (outcome->runsSkipped > 0 && outcome->runsMade == 0 && outcome->status == ExperimentStatus::Completed)
        *g_text << "Nothing to do: all " << outcome->runsTotal << " runs were already complete." << std::endl;
    bool sloFailed = false;
    const bool reported = report(**store, id, a.report, a.dbPath, &sloFailed);
    switch (outcome->status) {
    case ExperimentStatus::Failed:
        printError(outcome->error);
        std::cerr << "Fix the target, then resume: wrkbench-cli experiment --db " << a.dbPath << " --resume " << id
                  << std::endl;
        return EXIT_FAILED;
    case ExperimentStatus::Completed:
        *g_text << "Experiment " << id << " complete: " << outcome->runsTotal << " runs in '" << a.dbPath << "'"
                << std::endl;
        if (!reported) return EXIT_FAILED;
        if (sloFailed) {
            *g_text << "A run failed an SLO (see the SLO columns)." << std::endl;
            return EXIT_SLO_FAILED;
        }
        return EXIT_OK;
    default:
        *g_text << "Experiment " << id << " stopped: " << outcome->runsDone << " of " << outcome->runsTotal
                << " runs complete. Resume with: wrkbench-cli experiment --db " << a.dbPath << " --resume " << id
                << std::endl;
        return EXIT_STOPPED;
    }
}

int experimentReportCommand(const ExperimentReportCommandArgs& a)
{
    auto store = openSessionToRead(a.dbPath);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    return report(**store, a.experimentId, a.report, a.dbPath) ? 0 : 1;
}

int experimentsCommand(const ExperimentsArgs& a)
{
    auto store = openSessionToRead(a.dbPath);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    auto experiments = (*store)->experiments().all();
    if (!experiments) {
        printError(experiments.error());
        return EXIT_FAILED;
    }
    std::vector<std::vector<std::string>> rows { { "id", "kind", "status", "created", "runs", "name" } };
    for (const ExperimentRecord& e : *experiments) {
        std::string runs = "?";
        if (e.kind == ExperimentKind::Capacity) {
            // A search has no planned total: its trials so far.
            if (auto trials = (*store)->experiments().capacityTrials(e.id)) runs = std::to_string(trials->size());
        } else if (auto results = loadExperimentResults(**store, e.id)) {
            runs = std::to_string(results->runsDone) + "/" + std::to_string(results->runsTotal);
        }
        rows.push_back({ std::to_string(e.id), experimentKindName(e.kind), experimentStatusName(e.status),
            localTime(e.createdAtMs), runs, e.name });
    }
    std::cout << textTable(rows, { false, false, false, false, false, false }) << std::flush;
    return EXIT_OK;
}

} // namespace wb::cli
