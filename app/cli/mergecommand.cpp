#include "mergecommand.h"

#include "cliparse.h"
#include "exitcode.h"
#include "fleet/documentmerge.h"
#include "record/recordedrun.h"
#include "report/jsonreport.h"
#include "wrk/wrktext.h"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

namespace wb::cli {

void addMergeCommand(CLI::App& app, MergeArgs& a)
{
    CLI::App* cmd = app.add_subcommand("merge",
        "Merge loaders' results (run --shard I/N --json FILE) into one run: counts summed, histograms added exactly");
    cmd->add_option("files", a.files, "The loaders' --json results (or their saved streams)")->required();
    CLI::Option* db = cmd->add_option("--db", a.dbPath, "Store the merged run in this session file");
    cmd->add_option("--target", a.targetName, "Session target of the run (default: named after the URL)")->needs(db);
    cmd->add_option("--tag", a.tags, "Tag the stored run (repeatable)")->needs(db)->allow_extra_args(false);
    cmd->add_option("--json", a.jsonPath, "Write the merged result as JSON to FILE ('-' for stdout)");
    cmd->add_flag("--latency", a.latency, "Print latency statistics (percentile distribution)");
}

int mergeCommand(const MergeArgs& a)
{
    std::vector<LoaderDocument> documents;
    for (const std::string& path : a.files) {
        auto d = readLoaderFile(path);
        if (!d) {
            printError(d.error());
            return EXIT_USAGE;
        }
        documents.push_back(std::move(*d));
    }
    auto whole = DocumentMerge::checkTogether(documents);
    if (!whole) {
        printError(whole.error());
        return EXIT_USAGE;
    }
    std::ostream& text = a.jsonPath == "-" ? std::cerr : std::cout;
    RecordedRunOptions options;
    options.sessionPath = a.dbPath;
    options.targetName = a.targetName;
    options.tags = a.tags;
    options.cancelBeforeLoad = false;
    options.onWarning = printWarning;
    options.makeRunner = [&](const RunConfig&) -> std::unique_ptr<LoadRunner> {
        return std::make_unique<DocumentMerge>(std::move(documents));
    };
    RecordedRun run(*whole, options);
    const RecordedRunOutcome out = run.run();
    if (!out.ran()) {
        printError(out.error);
        return EXIT_FAILED;
    }
    const RunResult& result = *out.result;
    text << "Merged " << result.loaders.size() << " loaders\n" << formatRunHeader(result.config);
    text << formatRunReport(result, TextReportOptions { a.latency }) << std::flush;
    if (!a.jsonPath.empty()) {
        const std::string json = formatJsonReport(result);
        if (a.jsonPath == "-") {
            std::cout << json << std::flush;
        } else {
            std::ofstream f(a.jsonPath, std::ios::binary | std::ios::trunc);
            f << json;
            if (!f) {
                printError("cannot write JSON report to '" + a.jsonPath + "'");
                return EXIT_FAILED;
            }
        }
    }
    if (!out.storageWarning.empty()) {
        printWarning(out.storageWarning);
        return EXIT_NOT_STORED;
    }
    if (out.runId) text << "Stored as run " << out.runId << " in '" << a.dbPath << "'" << std::endl;
    return EXIT_OK;
}

} // namespace wb::cli
