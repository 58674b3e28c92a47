#pragma once
// One self-contained HTML file for a comparison of stored runs: what the GUI's Compare tab exports and `wrkbench-cli
// export --run A --run B --html OUT` writes. Self-contained as the experiment report (htmlreport.h): inline style and
// SVG, no script, a Content-Security-Policy that forbids loading anything, every user text escaped. It holds one row
// per run with a verdict against the baseline that respects noise (runcomparison.h: a difference within the runs' own
// variation is never a gain or a loss), charts in each target's colour, and each run's configuration side by side.

#include "experiment/htmlreport.h"
#include "experiment/runcomparison.h"
#include "store/sessiontypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct ComparisonReportOptions : HtmlReportOptions
{
    int64_t baselineId = 0; ///< the run compared against (0 or absent: the first given)
};

/// The report of runs (at least one), from <!DOCTYPE html> to </html>.
std::string formatComparisonHtml(const std::vector<RunData>& runs, const ComparisonReportOptions& options = {});

/// The verdict of runs[run] against the baseline in words, as the report's last column says it:
/// "baseline", "36.66 % fewer req/s; p99 126.0 % higher", "req/s within the runs' own variation
/// (± 12.3 %); p99 within it (± 8.0 %)".
std::string comparisonVerdict(const RunComparison& comparison, size_t run);

} // namespace wb
