#pragma once
// One self-contained HTML file for an experiment or a study: the results table with
// a warning row wherever the runs of a level differ in more than the variant, the
// charts as inline SVG (requests/s per level, latency per level, latency against
// throughput), the setup and the method, and every run with its configuration.
//
// It opens offline in any browser: the style is inline, there is no script, no font,
// no image file, and a Content-Security-Policy forbids loading anything, so even a
// browser that would fetch something finds nothing to fetch. Every text that came from
// a user (names, tags, URLs, notes, command lines) is escaped.

#include "experiment/experimentresults.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct HtmlReportOptions
{
    std::string sessionName; ///< the session file's name, for the header ("" = not shown)
    int64_t generatedAtMs = 0; ///< when the report was written (0 = not shown)
};

/// The whole report, from <!DOCTYPE html> to </html>.
std::string formatHtmlReport(const ExperimentResults& results, const HtmlReportOptions& options = {});

/// The colour of the i-th series of a report chart: the window's palette in order (report/palette.h).
std::string reportSeriesColor(size_t i);

/// What every report of this kind begins and ends with: the head (the inline style, the
/// Content-Security-Policy that forbids loading anything) and the footer. comparisonhtml.h too.
std::string htmlReportHead(const std::string& title);
std::string htmlReportFoot(const HtmlReportOptions& options);
/// Latency cells of one column in milliseconds with the digits its smallest value needs ("0.059",
/// "1.140"): the unit goes in the header, never beside the numbers.
int msDecimalsFor(const std::vector<double>& us);
std::string msText(double us, int decimals);

} // namespace wb
