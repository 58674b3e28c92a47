// Every JSON the project writes or reads goes through common/jsontext.h: a dump() without an
// error handler threw on a scraped label that was not UTF-8 and aborted the CLI after its run,
// and a parse without a depth bound let a nested document overflow whatever walked it. This
// reads the sources of engine/, ui/ and app/ and names any other call.

#include "testsupport.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <regex>

using namespace wb;
namespace fs = std::filesystem;

TEST(JsonSources, OnlyTheJsonDoorDumpsOrParses)
{
    const fs::path root = test::sourceDir();
    ASSERT_TRUE(fs::exists(root / "engine" / "common" / "jsontext.h")) << root;
    // x.dump(...), and Json::parse / json::parse / ordered_json::parse / WireJson::parse (any
    // spelling of a JSON type before ::parse).
    const std::regex call(R"(\.dump\s*\(|\b\w*[Jj]son\s*::\s*parse\s*\()");
    std::vector<std::string> found;
    size_t files = 0;
    for (const char* dir : { "engine", "ui", "app" })
        for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
            if (entry.path() == root / "engine" / "common" / "jsontext.h") continue;
            ++files;
            const std::vector<std::string> lines = test::splitLines(test::readFile(entry.path().string()));
            for (size_t i = 0; i < lines.size(); ++i) {
                const std::string& line = lines[i];
                const size_t comment = line.find("//");
                if (std::regex_search(comment == std::string::npos ? line : line.substr(0, comment), call))
                    found.push_back(
                        fs::relative(entry.path(), root).string() + ":" + std::to_string(i + 1) + ": " + line);
            }
        }
    EXPECT_GT(files, 100u) << "the sources were read";
    std::string list;
    for (const std::string& f : found)
        list += f + "\n";
    EXPECT_TRUE(found.empty()) << "use jsonText / parseJsonText (common/jsontext.h) instead of:\n" << list;
}
