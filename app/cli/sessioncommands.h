#pragma once
// The session subcommands of wrkbench-cli:
//   runs   --db FILE [--target NAME] [--tag TAG]... [--status S] [--csv]
//   export --db FILE --run ID... --what summary|series|percentiles|status|scrape --csv [OUT]
//   export --db FILE --run ID... --what scrape --json [OUT]
//   import --db FILE [--target NAME] [--tag TAG]... [--tag-headings] LOGFILE...

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace wb::cli {

struct RunsArgs
{
    std::string dbPath;
    std::string target;
    std::vector<std::string> tags;
    std::string status;
    bool csv = false;
    int64_t loadersOf = 0; ///< --loaders RUN: the loaders table of that run instead of the list
};

struct ExportArgs
{
    std::string dbPath;
    std::vector<int64_t> runIds;
    std::string what;
    bool csv = false; ///< --csv given
    bool json = false; ///< --json given (--what scrape)
    std::string output; ///< --csv OUT or --json OUT; empty or "-" = stdout
    bool html = false; ///< --html given: the runs compared, one self-contained page (the first the baseline)
    std::string htmlOutput; ///< --html OUT; empty or "-" = stdout
};

struct ImportArgs
{
    std::string dbPath;
    std::string target;
    std::vector<std::string> tags;
    bool tagHeadings = false;
    std::vector<std::string> files;
};

void addRunsCommand(CLI::App& app, RunsArgs& args);
void addExportCommand(CLI::App& app, ExportArgs& args);
void addImportCommand(CLI::App& app, ImportArgs& args);

/// One line per run; exit code 0, 1 (session error) or 2 (usage).
int runsCommand(const RunsArgs& args);
/// Writes the CSV; exit code 0, 1 (session or file error) or 2 (usage).
int exportCommand(const ExportArgs& args);
/// Prints how many reports each file held and where they were stored; exit
/// code 0, or 1 when a file could not be read or stored.
int importCommand(const ImportArgs& args);

} // namespace wb::cli
