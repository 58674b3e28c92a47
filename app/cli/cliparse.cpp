#include "cliparse.h"

#include "common/text.h"
#include "exitcode.h"
#include "progressline.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace wb::cli {

std::vector<std::string> withDefaultSubcommand(int argc, char** argv, const std::vector<std::string>& subcommands)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    const bool hasSubcommand = !args.empty()
        && (std::find(subcommands.begin(), subcommands.end(), args.front()) != subcommands.end()
            || args.front() == "--help" || args.front() == "-h" || args.front() == "--version" || args.front() == "-v");
    if (!hasSubcommand && !args.empty()) args.insert(args.begin(), "run");
    return args;
}

std::vector<std::string> withOnAgentsList(std::vector<std::string> args)
{
    for (size_t i = 0; i + 2 < args.size(); ++i)
        if (args[i] == "--on" && args[i + 1] == "agents" && args[i + 2].rfind('-', 0) != 0
            && args[i + 2].find("://") == std::string::npos) {
            args.insert(args.begin() + static_cast<long>(i) + 2, "--agents");
            break;
        }
    return args;
}

void printError(const std::string& message)
{
    ProgressLine::erase();
    std::cerr << "wrkbench-cli: error: " << message << std::endl;
}

bool writeOutput(const std::string& path, const std::string& text)
{
    if (path.empty() || path == "-") {
        std::cout << text << std::flush;
        return true;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << validUtf8(text); // CSV, Markdown, HTML: names from sessions and scraped endpoints in them
    out.close();
    if (!out) printError("cannot write '" + path + "'");
    return static_cast<bool>(out);
}

void printWarning(const std::string& message)
{
    ProgressLine::erase();
    std::cerr << "wrkbench-cli: warning: " << message << std::endl;
}

int parseOrExit(CLI::App& app, std::vector<std::string> args)
{
    // CLI11 parses a reversed vector (it pops from the back).
    std::reverse(args.begin(), args.end());
    try {
        app.parse(args);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string what = e.what();
        if (!what.empty() && what.back() == '\n') what.pop_back();
        printError(what + " (see 'wrkbench-cli --help')");
        return EXIT_USAGE;
    }
    return -1;
}

std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
    return name;
}

} // namespace wb::cli
