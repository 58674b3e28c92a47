#pragma once
// Shared plumbing of wrkbench-cli's subcommands.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace wb::cli {

/// wrk's command lines have no subcommand: "wrkbench-cli -t2 -c10 URL" means
/// "wrkbench-cli run -t2 -c10 URL". Inserts "run" when the first argument is
/// not a subcommand or a global flag.
/// "--on agents HOST:PORT,..." as the users type it: the list becomes --agents LIST
/// (CLI11 gives an option one value; a URL after "--on local" must stay the URL).
std::vector<std::string> withOnAgentsList(std::vector<std::string> args);
std::vector<std::string> withDefaultSubcommand(int argc, char** argv, const std::vector<std::string>& subcommands);

/// Parses args into app; on a usage error prints one line to stderr and
/// returns the exit code (2), on --help/--version prints them and returns 0;
/// returns -1 when parsing succeeded and the command should run.
int parseOrExit(CLI::App& app, std::vector<std::string> args);

/// Prints "wrkbench-cli: error: <message>" to stderr.
void printError(const std::string& message);
/// Prints "wrkbench-cli: warning: <message>" to stderr.
void printWarning(const std::string& message);

/// Writes text to path, or to stdout when path is empty or "-"; false (with the error printed)
/// when the file cannot be written.
bool writeOutput(const std::string& path, const std::string& text);

/// This machine's host name (a pod's is its name), for the loaders table.
std::string hostName();

} // namespace wb::cli
