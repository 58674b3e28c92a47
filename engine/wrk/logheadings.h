#pragma once
// The heading each wrk report of a log sits under, for `wrkbench-cli import
// --tag-headings`: pasted notes split their runs by headings ("# 4-node
// cluster", "## NEG") or by the file they were pasted from ("10-nodes.md",
// "results/c100.txt"), and these become tags that studies group by.

#include "wrk/wrklog.h"

#include <string>
#include <vector>

namespace wb {

/// For each report (in order), the nearest heading-like line above its first
/// line: a Markdown heading's text, or the name of a .md/.txt file without its
/// folder and extension. "" where there is none. The text is a valid tag (no
/// commas, no control characters, at most 100 characters).
std::vector<std::string> reportHeadings(const std::string& text, const std::vector<WrkLogReport>& reports);

/// The heading a line is, or "" when it is not heading-like.
std::string headingOf(const std::string& line);

} // namespace wb
