#pragma once
// Lists of run ids as people type them: "1-12,15,20-22" (wrkbench-cli tag --run,
// study --runs). Spaces around the parts are allowed; ids are positive.

#include "common/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// The ids in text, in the order given, each once. The error names the part:
/// "run range '7-3' runs backwards", "'x' is not a run id".
Result<std::vector<int64_t>> parseRunRanges(const std::string& text);

} // namespace wb
