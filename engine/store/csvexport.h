#pragma once
// Stored runs as CSV: a header row, RFC 4180 quoting (fields with a comma,
// quote or line break are quoted, quotes doubled), one record per line ("\n").
// Times are seconds, latencies milliseconds, timestamps ISO 8601 UTC; an
// unknown value is an empty field. Every table but `runs` starts with run_id,
// so several runs can go into one file side by side.

#include "common/text.h" // csvField: one field, valid UTF-8, quoted when it must be
#include "store/sessiontypes.h"

#include <string>
#include <vector>

namespace wb {

/// Fields joined with ',' and a line end.
std::string csvRow(const std::vector<std::string>& fields);
/// Shortest decimal that reads back as the same double; "" for NaN.
std::string csvNumber(double value);
/// "2024-05-01T12:03:04.250Z"; "" for 0 (unknown).
std::string isoTimestamp(int64_t msSinceEpoch);

/// The run list: id, target, tags, started, status, threads, connections,
/// duration_s, requests_per_s, p50_ms, p99_ms, errors.
std::string runsCsv(const std::vector<RunRecord>& runs);
/// One row per run with every stored summary field.
std::string summaryCsv(const std::vector<RunData>& runs);
/// One row per interval: every field of the interval feed.
std::string seriesCsv(const std::vector<RunData>& runs);
/// The full percentile spectrum: one row per histogram bucket (engine runs:
/// kind latency and service), or the percentiles wrk printed (imported runs:
/// kind distribution and spectrum).
std::string percentilesCsv(const std::vector<RunData>& runs);
/// Responses by status code.
std::string statusCsv(const std::vector<RunData>& runs);
/// --backend-from: one row per run and backend (folded from its intervals): requests, share,
/// non-2xx, latency p50/p90/p99/max, first and last seen.
std::string backendsCsv(const std::vector<RunData>& runs);
/// --upstream-time: per run, the three distributions side by side (kind latency, upstream,
/// front_door: count, p50/p90/p99, mean) and the responses that stated no upstream time.
std::string upstreamCsv(const std::vector<RunData>& runs);

} // namespace wb
