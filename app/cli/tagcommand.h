#pragma once
// wrkbench-cli tag --db FILE --run RANGES [--add TAG]... [--remove TAG]...
// Tags stored runs after the fact (imported logs, CLI runs), so studies can
// group them: one transaction for all the runs named, or nothing changes.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace wb::cli {

struct TagArgs
{
    std::string dbPath;
    std::string runs; ///< "1-12,15,20-22"
    std::vector<std::string> add;
    std::vector<std::string> remove;
};

void addTagCommand(CLI::App& app, TagArgs& args);
/// Prints how many runs changed; exit code 0, 1 (session error, missing run) or 2 (usage).
int tagCommand(const TagArgs& args);

} // namespace wb::cli
