#pragma once
// Behind the front door, for people and programs: the per-backend breakdown
// (--backend-from) and the upstream / front-door split (--upstream-time) of a run,
// as text lines of the report and as the JSON report's `backends`,
// `upstream_time_us` and `front_door_us`. Percentiles do not add, so the split
// is shown as three distributions side by side, with the mean split (which does).

#include "run/runresult.h"
#include "wire/wirejson.h"

#include <string>

namespace wb {

/// The text lines (nothing when the run asked for neither).
void appendBehindTheFrontDoor(std::string& out, const RunResult& result);

/// More distinct backends came than --max-backends keeps ("" when not).
std::string backendOverflowWarning(const RunResult& result);

/// {"source","count","requests","unnamed","max_share","min_share","max_min_ratio","cv",
///  "chi_square","degrees_of_freedom","p_value","list":[{"name","requests","share",
///  "latency_us":{..},"non2xx","first_seen_s","last_seen_s"}],"events":[{"kind","name","at_s"}]}
WireJson backendsReportJson(const RunResult& result);
/// {"p50","p90","p99","max","mean","count"} of a split side.
WireJson splitSideJson(const LatencyHistogram& h);

} // namespace wb
