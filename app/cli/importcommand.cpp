// `wrkbench-cli import`: wrk and wrk2 reports from old logs into a session.

#include "cliparse.h"
#include "exitcode.h"
#include "import/wrkimport.h"
#include "sessioncommands.h"
#include "store/sessionstore.h"
#include "wrk/logheadings.h"
#include "wrk/wrklog.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace wb::cli {

namespace {

std::string plural(size_t n, const char* word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// "run 4" or "runs 4-11" (ids of one import are consecutive), "runs 4, 9" otherwise.
std::string runIds(const std::vector<int64_t>& ids)
{
    if (ids.size() == 1) return "run " + std::to_string(ids.front());
    bool consecutive = true;
    for (size_t i = 1; i < ids.size(); ++i)
        consecutive = consecutive && ids[i] == ids[i - 1] + 1;
    if (consecutive) return "runs " + std::to_string(ids.front()) + "-" + std::to_string(ids.back());
    std::string out = "runs ";
    for (size_t i = 0; i < ids.size(); ++i)
        out += (i ? ", " : "") + std::to_string(ids[i]);
    return out;
}

// "tagged by heading: '4 nodes' x4, '10 nodes' x4" (in order of first appearance), or that none was found.
std::string headingSummary(const std::vector<std::string>& tags)
{
    std::vector<std::pair<std::string, size_t>> counts;
    size_t untagged = 0;
    for (const auto& t : tags) {
        if (t.empty()) {
            ++untagged;
            continue;
        }
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == t; });
        if (it == counts.end())
            counts.emplace_back(t, 1);
        else
            ++it->second;
    }
    if (counts.empty()) return "no headings found to tag by";
    std::string out = "tagged by heading: ";
    for (size_t i = 0; i < counts.size(); ++i)
        out += (i ? ", '" : "'") + counts[i].first + "' x" + std::to_string(counts[i].second);
    if (untagged) out += ", " + plural(untagged, "report") + " under no heading";
    return out;
}

bool readWholeFile(const std::string& path, std::string& out)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream content;
    content << in.rdbuf();
    out = content.str();
    return !in.bad();
}

} // namespace

void addImportCommand(CLI::App& app, ImportArgs& a)
{
    CLI::App* cmd = app.add_subcommand("import", "Import the wrk and wrk2 reports found in log files into a session");
    cmd->add_option("--db", a.dbPath, "Session file (created when missing)")->required();
    cmd->add_option("--target", a.target, "Target of every imported run (default: named after each report's URL)");
    cmd->add_option("--tag", a.tags, "Tag every imported run (repeatable)")->allow_extra_args(false);
    cmd->add_flag("--tag-headings", a.tagHeadings,
        "Tag each report with the nearest heading above it (a Markdown '#' heading, or a line naming a .md/.txt "
        "file)");
    cmd->add_option("logfile", a.files, "Text files holding wrk or wrk2 output (other text around it is fine)")
        ->required();
}

int importCommand(const ImportArgs& a)
{
    for (const auto& tag : a.tags)
        if (auto st = validateTag(tag); !st) {
            printError(st.error());
            return EXIT_USAGE;
        }
    auto store = SessionStore::open(a.dbPath);
    if (!store) {
        printError(store.error());
        return EXIT_FAILED;
    }
    int rc = 0;
    for (const std::string& file : a.files) {
        std::string text;
        if (!readWholeFile(file, text)) {
            printError("cannot read '" + file + "'");
            rc = 1;
            continue;
        }
        const WrkLogParseResult parsed = parseWrkLog(text);
        for (const WrkLogSkip& skip : parsed.skipped)
            std::cout << file << ":" << skip.line << ": report skipped: " << skip.reason << "\n";
        ImportOptions options;
        options.targetName = a.target;
        options.tags = a.tags;
        options.sourceName = file;
        if (a.tagHeadings) options.reportTags = reportHeadings(text, parsed.reports);
        std::string line = file + ": ";
        if (parsed.reports.empty()) {
            line += "no reports found";
        } else {
            auto ids = importWrkReports(**store, parsed.reports, options);
            if (!ids) {
                std::cout << std::flush;
                printError("'" + file + "': nothing imported: " + ids.error());
                rc = 1;
                continue;
            }
            line += plural(parsed.reports.size(), "report") + " found, stored as " + runIds(*ids);
        }
        if (!parsed.skipped.empty()) line += "; " + std::to_string(parsed.skipped.size()) + " skipped";
        if (a.tagHeadings && !parsed.reports.empty()) line += "; " + headingSummary(options.reportTags);
        std::cout << line << std::endl;
    }
    return rc;
}

} // namespace wb::cli
