#pragma once
// Stores wrk and wrk2 reports found in old logs (parseWrkLog()) as 'imported' runs.

#include "store/sessionstore.h"
#include "wrk/wrklog.h"

#include <string>
#include <vector>

namespace wb {

struct ImportOptions
{
    std::string targetName; ///< every report's target; empty = a target named after the report's URL
    std::vector<std::string> tags; ///< put on every imported run
    std::vector<std::string> reportTags; ///< one more tag per report, by index ("" = none): --tag-headings
    std::string sourceName; ///< the log file, recorded with the line numbers of each report
};

/// What the report says, as a run: configuration, totals, printed percentiles.
ImportedRun importedRunOf(const WrkLogReport& report, const std::string& sourceName);

/// Stores every report as an imported run, all in one transaction (so either
/// every report of a log is stored or none is). Targets are created on first use.
/// Returns the new run ids in report order.
Result<std::vector<int64_t>> importWrkReports(
    SessionStore& store, const std::vector<WrkLogReport>& reports, const ImportOptions& options);

} // namespace wb
