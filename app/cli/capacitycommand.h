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

} // namespace wb::cli
