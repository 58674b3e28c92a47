#include "tagcommand.h"

#include "cliparse.h"
#include "clisession.h"
#include "exitcode.h"
#include "parse/runranges.h"
#include "store/sessionstore.h"

#include <CLI/CLI.hpp>
#include <iostream>

namespace wb::cli {

void addTagCommand(CLI::App& app, TagArgs& a)
{
    CLI::App* cmd = app.add_subcommand("tag", "Add or remove tags on stored runs");
    cmd->add_option("--db", a.dbPath, "Session file")->required();
    cmd->add_option("--run", a.runs, "Runs: ids and ranges, e.g. 1-12,15,20-22")->required();
    cmd->add_option("--add", a.add, "Tag to add (repeatable)")->allow_extra_args(false);
    cmd->add_option("--remove", a.remove, "Tag to remove (repeatable)")->allow_extra_args(false);
}

int tagCommand(const TagArgs& a)
{
    if (a.add.empty() && a.remove.empty()) {
        printError("nothing to do: give --add TAG or --remove TAG");
        return EXIT_USAGE;
    }
    auto ids = parseRunRanges(a.runs);
    if (!ids) {
        printError("--run: " + ids.error());
        return EXIT_USAGE;
    }
    auto store = openSessionToChange(a.dbPath);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    if (auto st = (*store)->runs().changeTags(*ids, a.add, a.remove); !st) {
        printError(st.error());
        return EXIT_FAILED;
    }
    std::cout << "Tagged " << ids->size() << (ids->size() == 1 ? " run" : " runs") << " in '" << a.dbPath << "'"
              << std::endl;
    return EXIT_OK;
}

} // namespace wb::cli
