// wrkbench-cli: the headless entry point. Thin: each subcommand lives in its own file.

#include "agentcommand.h"
#include "capacitycommand.h"
#include "cliparse.h"
#include "exitcode.h"
#include "experimentcommand.h"
#include "loadercommand.h"
#include "mergecommand.h"
#include "probecommand.h"
#include "runcommand.h"
#include "servecommand.h"
#include "sessioncommands.h"
#include "studycommand.h"
#include "tagcommand.h"
#include "terminalout.h"

#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv)
{
    using namespace wb::cli;
    installTerminalText(); // before anything is printed, usage errors included
    CLI::App app { "wrkbench-cli " WB_VERSION " - HTTP load generator with wrk's command line, and session tools.\n"
                   "wrk's own command lines work as they are: wrkbench-cli -t2 -c100 -d30s --latency URL",
        "wrkbench-cli" };
    app.set_version_flag("-v,--version", "wrkbench-cli " WB_VERSION);
    app.require_subcommand(1);
    app.footer("Numbers accept SI units (1k, 1M, 1G); durations accept us, ms, s, m, h (a bare number is seconds).");

    RunArgs runArgs;
    addRunCommand(app, runArgs);
    ServeArgs serveArgs;
    addServeCommand(app, serveArgs);
    CapacityArgs capacityArgs;
    addCapacityCommand(app, capacityArgs);
    RunsArgs runsArgs;
    addRunsCommand(app, runsArgs);
    ExportArgs exportArgs;
    addExportCommand(app, exportArgs);
    ImportArgs importArgs;
    addImportCommand(app, importArgs);
    TagArgs tagArgs;
    addTagCommand(app, tagArgs);
    ProbeArgs probeArgs;
    addProbeCommand(app, probeArgs);
    ExperimentArgs experimentArgs;
    addExperimentCommand(app, experimentArgs);
    ExperimentReportCommandArgs experimentReportArgs;
    addExperimentReportCommand(app, experimentReportArgs);
    ExperimentsArgs experimentsArgs;
    addExperimentsCommand(app, experimentsArgs);
    StudyArgs studyArgs;
    addStudyCommand(app, studyArgs);
    MergeArgs mergeArgs;
    addMergeCommand(app, mergeArgs);
    LoaderArgs loaderArgs;
    addLoaderCommand(app, loaderArgs);
    AgentArgs agentArgs;
    addAgentCommand(app, agentArgs);

    if (argc < 2) {
        std::cerr << app.help();
        return EXIT_FAILED;
    }
    // wrk's `-- args`: everything after the first `--` is the script's, never an option.
    int ownArgc = argc;
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "--") {
            runArgs.scriptArgs.assign(argv + i + 1, argv + argc);
            capacityArgs.run.scriptArgs = runArgs.scriptArgs;
            ownArgc = i;
            break;
        }
    if (const int rc = parseOrExit(app,
            withOnAgentsList(withDefaultSubcommand(ownArgc, argv,
                { "run", "serve", "capacity", "runs", "export", "import", "tag", "probe", "experiment",
                    "experiment-report", "experiments", "study", "merge", "loader", "agent" })));
        rc >= 0)
        return rc;
    if (app.got_subcommand("run")) return runCommand(runArgs);
    if (app.got_subcommand("serve")) return serveCommand(serveArgs);
    if (app.got_subcommand("capacity")) return capacityCommand(capacityArgs);
    if (app.got_subcommand("runs")) return runsCommand(runsArgs);
    if (app.got_subcommand("export")) return exportCommand(exportArgs);
    if (app.got_subcommand("import")) return importCommand(importArgs);
    if (app.got_subcommand("tag")) return tagCommand(tagArgs);
    if (app.got_subcommand("probe")) return probeCommand(probeArgs);
    if (app.got_subcommand("experiment")) return experimentCommand(experimentArgs);
    if (app.got_subcommand("experiment-report")) return experimentReportCommand(experimentReportArgs);
    if (app.got_subcommand("experiments")) return experimentsCommand(experimentsArgs);
    if (app.got_subcommand("study")) return studyCommand(studyArgs);
    if (app.got_subcommand("merge")) return mergeCommand(mergeArgs);
    if (app.got_subcommand("loader")) return loaderCommand(loaderArgs);
    if (app.got_subcommand("agent")) return agentCommand(agentArgs);
    return EXIT_USAGE;
}
