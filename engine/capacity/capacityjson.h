#pragma once
// A capacity search's result as JSON (`capacity --json`): the one writer of that format.
//   {"capacity": {"rate_per_s", "lower_rps", "upper_rps", "limited_by", "first_failed_slo",
//                 "trials": [{"rate", "duration_s", "passed", "run_id", "slo": [...]}]}}
// Several targets: {"targets": [{"url", "capacity": {...}}], "ratio", "ratio_low", "ratio_high"},
// the ratios of each target after the first to the first (a list, one per target after it, when
// there are more than two; a number for two). A value not known is null.

#include "capacity/capacitycompare.h"
#include "capacity/capacitysearch.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace wb {

/// The "capacity" object of one search.
nlohmann::ordered_json capacityToJson(const CapacityResult& result);

struct CapacityTarget
{
    std::string url;
    CapacityResult result;
};

/// The whole document: one target's {"capacity": ...}, or several targets with their ratios.
nlohmann::ordered_json capacityDocument(const std::vector<CapacityTarget>& targets);

} // namespace wb
