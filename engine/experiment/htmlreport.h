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

namespace wb {

struct HtmlReportOptions
{
    std::string sessionName; ///< the session file's name, for the header ("" = not shown)
    int64_t generatedAtMs = 0; ///< when the report was written (0 = not shown)
};

/// The whole report, from <!DOCTYPE html> to </html>.
std::string formatHtmlReport(const ExperimentResults& results, const HtmlReportOptions& options = {});

/// The colour of the i-th series of a report chart (a fixed, colour-blind-friendly cycle).
const char* reportSeriesColor(size_t i);

} // namespace wb
