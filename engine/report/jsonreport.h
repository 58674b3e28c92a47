#pragma once
// Machine-readable run result (`--json FILE`).

#include "run/runresult.h"

#include <string>

namespace wb {

/// The JSON document, pretty-printed with two-space indentation.
std::string formatJsonReport(const RunResult& result);

} // namespace wb
