#pragma once
// Machine-readable run result (`--json FILE`).

#include "run/runresult.h"

#include <string>

namespace wb {

/// The JSON document, pretty-printed with two-space indentation.
std::string formatJsonReport(const RunResult& result);

/// One interval as the report's "intervals" hold it, on one line (a loader streams these).
std::string formatIntervalJson(const IntervalRecord& interval, const RunConfig& config);

} // namespace wb
