#pragma once
// `wrkbench-cli capacity`: the most load each target carries while its SLOs hold, found by the
// search of engine/capacity, each trial an ordinary open-model run; several targets compared.

#include "runcommand.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace wb {
class CapacityRunner;
class SessionStore;
struct ExperimentPlan;
} // namespace wb

namespace wb::cli {

struct CapacityArgs
{
    RunArgs run; ///< the trials' run flags (the URL is each target's; the rate and length the search's)
    std::vector<std::string> urls;
    std::map<std::string, std::string> search; ///< the search's options as typed, by key (capacityoptions.h)
    int64_t resumeId = 0; ///< --resume: go on with the search stored under this id in --db
    std::string markdownPath; ///< --markdown, --csv, --html: the reports ('-': stdout)
    std::string csvPath;
    std::string htmlPath;
    std::vector<std::string> scrape; ///< --scrape: the target metrics every trial reads
    std::string scrapeMetric;
};

void addCapacityCommand(CLI::App& app, CapacityArgs& args);
int capacityCommand(const CapacityArgs& args);

/// Where a search's results go (`capacity`'s flags, or `experiment`'s for a plan with "search").
struct SearchOutputs
{
    std::string dbPath; ///< the session the search is stored in ("" none)
    std::string jsonPath, markdownPath, csvPath, htmlPath; ///< "-": stdout (the text then goes to stderr)
    bool quiet = false; ///< no progress line
    int64_t resumedId = 0; ///< a resumed search: its id, said first
};
/// Makes the runner's trials with Ctrl-C handled, prints each and the result, writes the reports;
/// the exit code (0, 4 failed at --min, 5 limited by the loader, 130 stopped, 1 an error).
int searchAndReport(CapacityRunner& runner, SessionStore* store, const SearchOutputs& out);
/// `experiment --db FILE PLAN` for a plan with a "search" section: a capacity search over the
/// plan's targets (groups included), each trial a run of its named session target.
int planSearchCommand(const ExperimentPlan& plan, const std::string& dbPath, const SearchOutputs& out);

} // namespace wb::cli
