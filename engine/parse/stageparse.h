#pragma once
// Ramps as typed: "--stages 10s:1000,30s:5000,10s:0" (rates, open model) or
// "--stages 10s:50c,30s:200c" (connections, closed model).

#include "common/result.h"
#include "run/runconfig.h"

#include <string>
#include <vector>

namespace wb {

struct StagePlan
{
    std::vector<Stage> stages;
    bool connections = false; ///< targets are connection counts ("50c")
};

/// Parses a comma-separated list of DURATION:TARGET. Targets are all rates
/// (numbers, SI units allowed) or all connection counts (suffix 'c').
Result<StagePlan> parseStages(const std::string& text);

} // namespace wb
