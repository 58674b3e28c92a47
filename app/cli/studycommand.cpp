#include "studycommand.h"

#include "cliparse.h"
#include "clisession.h"
#include "exitcode.h"
#include "experiment/study.h"
#include "parse/runranges.h"
#include "store/sessionstore.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <tuple>

namespace wb::cli {

void addStudyCommand(CLI::App& app, StudyArgs& a)
{
    CLI::App* cmd
        = app.add_subcommand("study", "Build an experiment's results table from stored runs (nothing is run)");
    cmd->add_option("--db", a.dbPath, "Session file")->required();
    cmd->add_option("--runs", a.runs, "Runs: ids and ranges, e.g. 1-8,12")->required();
    auto* byTarget = cmd->add_option("--variant-by", a.variantBy, "Variants are the runs' targets (the default)")
                         ->check(CLI::IsMember({ "target" }));
    auto* byTags = cmd->add_option("--variant-by-tags", a.variantTags,
        "Variants are tags: each run carries exactly one of T1,T2,... (on the run or its target)");
    byTarget->excludes(byTags);
    cmd->add_option("--group-by-tags", a.groupTags, "Groups G1,G2,..., each with its own baseline (default: one)");
    cmd->add_option("--level", a.level, "The load axis: connections, threads, rate or none (default connections)")
        ->check(CLI::IsMember({ "connections", "threads", "rate", "none" }));
    cmd->add_option("--baseline", a.baseline, "The variant that is the baseline in every group (default: the first)");
    cmd->add_option("--metric", a.metric,
        "total (whole-run req/s, the default) or per-thread (the mean of wrk's per-thread Req/Sec averages); "
        "and, comma-separated, run metrics compared beside it: backend-cv, backend-max-min, front-door-share");
    cmd->add_option("--name", a.name, "The study's name (default: its variants)");
    addReportOptions(cmd, a.report);
}

int studyCommand(const StudyArgs& a)
{
    StudySpec spec;
    spec.name = a.name;
    spec.runs = a.runs;
    spec.baseline = a.baseline;
    spec.level = studyLevelFromName(a.level).value_or(StudyLevel::Connections);
    if (auto st = parseStudyMetrics(a.metric, spec); !st) {
        printError(st.error());
        return EXIT_USAGE;
    }
    auto ids = parseRunRanges(a.runs);
    if (!ids) {
        printError("--runs: " + ids.error());
        return EXIT_USAGE;
    }
    spec.runIds = *ids;
    for (auto [text, option, list] : { std::tuple { &a.variantTags, "--variant-by-tags", &spec.variantTags },
             std::tuple { &a.groupTags, "--group-by-tags", &spec.groupTags } }) {
        if (text->empty()) continue;
        auto tags = parseTagList(*text, option);
        if (!tags) {
            printError(tags.error());
            return EXIT_USAGE;
        }
        *list = *tags;
    }

    auto store = openSessionToChange(a.dbPath);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    auto id = createStudy(**store, spec);
    if (!id) {
        printError(id.error());
        return EXIT_FAILED;
    }
    auto results = loadExperimentResults(**store, *id);
    if (!results) {
        printError(results.error());
        return EXIT_FAILED;
    }
    std::ostream& text = a.report.toStdout() ? std::cerr : std::cout;
    text << "Study " << *id << " '" << results->experiment.name << "' stored in '" << a.dbPath
         << "': " << results->runsDone << " runs, " << results->plan.targets.size() << " variants (baseline "
         << results->plan.targets[results->plan.baselineIndex()].name << ")";
    if (results->grouped()) text << ", " << results->groups.size() << " groups";
    text << ", " << results->plan.levels.size() << (results->plan.levels.size() == 1 ? " level" : " levels")
         << ", metric " << rateMetricName(spec.metric);
    for (RunMetric m : spec.metrics)
        text << ", " << runMetricInfo(m).name;
    text << std::endl;
    return writeExperimentReport(*results, a.report, a.dbPath) ? 0 : 1;
}

} // namespace wb::cli
