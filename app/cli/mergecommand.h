#pragma once
// `wrkbench-cli merge`: loaders' results (`run --shard I/N --json F`) into one
// stored run whose percentiles are those of all their requests together.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace wb::cli {

struct MergeArgs
{
    std::vector<std::string> files;
    std::string dbPath;
    std::string targetName;
    std::vector<std::string> tags;
    std::string jsonPath;
    bool latency = false;
};

void addMergeCommand(CLI::App& app, MergeArgs& args);
int mergeCommand(const MergeArgs& args);

} // namespace wb::cli
