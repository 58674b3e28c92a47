#pragma once
// The interval record on the wire: one object per interval, as the --json report's "intervals", a loader's stream and
// an agent's stream carry it. Every counter, error kind and status code, the latency summaries for people, and every
// histogram (HdrHistogram V2 base64 plus exact totals) for mergers, so a reader gets back the IntervalRecord that was
// written, bucket for bucket. In short:
//   {"t_s":1.0,"start_s":0,"start_unix_ms":..,"requests":..,"rps":..,"errors_by_kind":{..},"status_codes":{"200":..},
//    "latency_us":{"p50":..},"loader_cost":{..},"thread_rps":[..],["target_rps","send_lag_us",..: open model],
//    "histograms":{"latency":"HISTF.."},"histogram_totals":{..}}

#include "common/result.h"
#include "run/runconfig.h"
#include "stats/counters.h"
#include "stats/intervalrecord.h"
#include "wire/wirejson.h"

#include <string>
#include <string_view>

namespace wb {

/// An interval of a run of `config` (it says which histograms the run has).
WireJson intervalToJson(const IntervalRecord& interval, const RunConfig& config);
/// The same as one line of text.
std::string formatIntervalJson(const IntervalRecord& interval, const RunConfig& config);
/// The inverse (throws WireError naming what is wrong; see wireGuarded).
IntervalRecord intervalFromJson(const WireJson& j);
/// The same from text; the error names what is wrong.
Result<IntervalRecord> parseIntervalJson(std::string_view text);

/// The backends of an interval as [{"name","requests","non2xx","first_seen_s","last_seen_s",
/// "latency_us",histograms}], and back (bounded: at most 4097 of them).
WireJson backendsToJson(const std::vector<BackendRecord>& backends);
std::vector<BackendRecord> backendsFromJson(const WireJson& list);
/// The loader's own cost (stats/loadercost.h) as {"worker_wall_us":..,"worker_cpu_us":..,...}, the
/// sums that merge, plus the shares in percent for people ("worker_busy_pct", ...; not read back).
/// The reader refuses a part larger than its whole (busy or steal above the machine's time).
WireJson loaderCostToJson(const LoaderCost& cost);
LoaderCost loaderCostFromJson(const WireJson& j);
/// Thread Req/Sec samples (IntervalRecord::threadRateSamples) from a JSON array of numbers, each
/// finite and not negative, at most MAX_THREAD_RATE_SAMPLES of them; `name` is the key, for errors.
inline constexpr size_t MAX_THREAD_RATE_SAMPLES = 10'000'000;
std::vector<double> threadRateSamplesFromJson(const WireJson& j, const char* name);
/// Error kinds as {"connect":..,"read":..,...}, and back.
WireJson errorCountsToJson(const ErrorCounts& errors);
ErrorCounts errorCountsFromJson(const WireJson& j);
/// Status counts as {"200":n,...} (non-zero only), and back.
WireJson statusCountsToJson(const std::vector<std::pair<int, uint64_t>>& codes);
std::vector<std::pair<int, uint64_t>> statusCountsFromJson(const WireJson& j);

} // namespace wb
