// The README a newcomer reads and the docs it leads to: short, every link resolves, and every
// wrkbench-cli command line in it uses options the CLI has (each checked against the `--help` of
// its subcommand, as the CLI prints it).

#include "testsupport.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace wb;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> markdownFiles()
{
    const fs::path root = test::sourceDir();
    std::vector<fs::path> files { root / "README.md" };
    for (const auto& entry : fs::directory_iterator(root / "docs"))
        if (entry.path().extension() == ".md") files.push_back(entry.path());
    return files;
}

/// The command lines of the README's sh blocks that start with wrkbench-cli, continuation lines
/// joined, comments cut.
std::vector<std::string> readmeCommands()
{
    std::vector<std::string> out;
    bool inSh = false;
    std::string pending;
    for (const std::string& line : test::splitLines(test::readFile(test::sourceDir() + "/README.md"))) {
        if (line.starts_with("```")) {
            inSh = !inSh && line == "```sh";
            continue;
        }
        if (!inSh) continue;
        std::string text = pending + line;
        pending.clear();
        if (const size_t hash = text.find(" # "); hash != std::string::npos) text.resize(hash);
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        if (!text.empty() && text.back() == '\\') {
            text.pop_back();
            pending = text;
            continue;
        }
        const size_t start = text.find_first_not_of(' ');
        if (start != std::string::npos && text.compare(start, 13, "wrkbench-cli ") == 0)
            out.push_back(text.substr(start));
    }
    return out;
}

std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

} // namespace

TEST(Readme, IsShortEnoughToReadInFiveMinutes)
{
    const auto lines = test::splitLines(test::readFile(test::sourceDir() + "/README.md"));
    EXPECT_LE(lines.size(), 150u);
    EXPECT_GT(lines.size(), 40u) << "and says what a newcomer needs";
}

TEST(Readme, EveryLinkOfTheReadmeAndTheDocsResolves)
{
    // [text](target): relative targets only (http(s) and mailto are someone else's), the anchor cut.
    const std::regex link(R"(\]\(([^)\s]+)\))");
    size_t checked = 0;
    for (const fs::path& file : markdownFiles()) {
        const std::string text = test::readFile(file.string());
        for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
            std::string target = (*it)[1];
            if (target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:")
                || target.starts_with("#"))
                continue;
            if (const size_t hash = target.find('#'); hash != std::string::npos) target.resize(hash);
            ++checked;
            EXPECT_TRUE(fs::exists(file.parent_path() / target))
                << fs::relative(file, test::sourceDir()).string() << " links to " << target << ", which is not there";
        }
    }
    EXPECT_GT(checked, 30u);
}

TEST(Readme, EveryDocIsInTheIndex)
{
    const std::string index = test::readFile(test::sourceDir() + "/docs/README.md");
    for (const fs::path& file : markdownFiles()) {
        const std::string name = file.filename().string();
        if (file.parent_path().filename() != "docs" || name == "README.md") continue;
        EXPECT_NE(index.find("](" + name + ")"), std::string::npos) << name << " is missing from docs/README.md";
    }
}

TEST(Readme, ItsCommandLinesUseOptionsTheCliHas)
{
    const std::vector<std::string> commands = readmeCommands();
    ASSERT_GE(commands.size(), 8u);
    std::map<std::string, std::string> helpOf;
    const std::set<std::string> subcommands { "run", "serve", "experiment", "capacity", "agent", "runs", "export",
        "probe", "study", "import", "merge" };
    for (const std::string& command : commands) {
        SCOPED_TRACE(command);
        const std::vector<std::string> w = words(command);
        const std::string sub = w.size() > 1 && subcommands.count(w[1]) ? w[1] : "run";
        if (!helpOf.count(sub)) {
            const auto r = test::runCli({ sub, "--help" });
            ASSERT_EQ(r.exitCode, 0) << sub << ": " << r.err;
            helpOf[sub] = r.out;
        }
        for (const std::string& word : w) {
            if (!word.starts_with("-")) continue;
            // "--slo", "--conn-requests", "-t4" (a short flag and its value), "-R" ...
            std::string flag = word.substr(0, word.find('='));
            if (!flag.starts_with("--") && flag.size() > 2) flag.resize(2);
            EXPECT_NE(helpOf[sub].find(flag), std::string::npos)
                << "'" << flag << "' is not an option of '" << sub << "' (wrkbench-cli " << sub << " --help)";
        }
    }
}
