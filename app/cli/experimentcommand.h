#pragma once
// The experiment subcommands of wrkbench-cli (docs/EXPERIMENTS.md):
//   experiment        --db FILE PLAN.json | --resume ID   [--markdown OUT] [--csv OUT] [--html OUT] [--check]
//   experiment-report --db FILE --experiment ID          [--markdown OUT] [--csv OUT] [--html OUT]
//   experiments       --db FILE

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace wb {
struct ExperimentResults;
}

namespace wb::cli {

struct ExperimentReportArgs
{
    std::string markdownPath; ///< "-" = stdout
    std::string csvPath; ///< "-" = stdout
    std::string htmlPath; ///< the self-contained HTML report; "-" = stdout
    /// A report goes to stdout: the table and the progress go to stderr instead.
    bool toStdout() const { return markdownPath == "-" || csvPath == "-" || htmlPath == "-"; }
};

struct ExperimentArgs
{
    std::string dbPath;
    std::string planPath;
    int64_t resumeId = 0;
    bool check = false; ///< validate the plan and show the schedule, run nothing
    bool quiet = false; ///< --quiet: no progress line on a terminal's stderr
    ExperimentReportArgs report;
};

struct ExperimentReportCommandArgs
{
    std::string dbPath;
    int64_t experimentId = 0;
    ExperimentReportArgs report;
};

struct ExperimentsArgs
{
    std::string dbPath;
};

void addExperimentCommand(CLI::App& app, ExperimentArgs& args);
/// --markdown OUT, --csv OUT and --html OUT (experiment, experiment-report, study).
void addReportOptions(CLI::App* cmd, ExperimentReportArgs& args);
/// The table on stdout unless a report goes there, then the files. False (after one
/// error line) when a file could not be written.
bool writeExperimentReport(
    const ExperimentResults& results, const ExperimentReportArgs& args, const std::string& dbPath);
void addExperimentReportCommand(CLI::App& app, ExperimentReportCommandArgs& args);
void addExperimentsCommand(CLI::App& app, ExperimentsArgs& args);

/// Runs (or resumes) an experiment, printing a line per run and the results
/// table. Exit code 0 (complete), 1 (session or plan error, a target that
/// cannot be reached), 2 (usage), 130 (stopped with Ctrl-C: resume it later).
int experimentCommand(const ExperimentArgs& args);
/// Prints the results table, or writes the Markdown / CSV / HTML report. 0, 1 or 2.
int experimentReportCommand(const ExperimentReportCommandArgs& args);
/// One line per experiment of the session. 0 or 1.
int experimentsCommand(const ExperimentsArgs& args);

} // namespace wb::cli
