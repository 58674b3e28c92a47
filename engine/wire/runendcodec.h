#pragma once
// The end-of-run record on the wire (run/runfold.h's RunEnd): what a loader says when it finishes, beside the intervals
// it already sent, merged with the other loaders' ends into the whole run's. A mix's per-entry stats carry their
// latency histograms (HdrHistogram V2 base64 plus exact totals), so the merge is exact. In short:
//   {"engine_version":"0.1.0","protocol":"h2c","measured_s":10.0,"stopped_early":false,"first_tls_error":"",...,
//    "interval_requests":N,"entries":[{"requests":..,"histograms":{"latency":".."},"histogram_totals":{..}}],
//    "loaders":[{"index":0,..}],"quic":{..} (HTTP/3 only),"connections":{..} (when not empty)}

#include "common/result.h"
#include "run/runfold.h"
#include "wire/wirejson.h"

#include <string_view>

namespace wb {

/// intervalRequests: the requests its intervals hold, so a reader can check that it has them all.
WireJson runEndToJson(const RunEnd& end, uint64_t intervalRequests);
/// The inverse (throws WireError; see wireGuarded). intervalRequests gets the check value
/// (UINT64_MAX when the writer gave none).
RunEnd runEndFromJson(const WireJson& j, uint64_t* intervalRequests = nullptr);
Result<RunEnd> parseRunEndJson(std::string_view text);

/// HTTP/3's QUIC facts (run/http3/quicsummary.h), and back: in the end record, the --json report
/// and the store's runs.quic column.
WireJson quicSummaryToJson(const QuicSummary& q);
QuicSummary quicSummaryFromJson(const WireJson& j);

/// What the connections met (run/connectionfacts.h), and back: in the end record, the --json
/// report and the store's runs.connection_facts column.
///   {"first_parse_error":"..","hpack_table_kept":N,"churn_closes":N} (each only when set)
WireJson connectionFactsToJson(const ConnectionFacts& f);
ConnectionFacts connectionFactsFromJson(const WireJson& j);

/// A loader's row of the loaders table, and back.
WireJson loaderSummaryToJson(const LoaderSummary& l);
LoaderSummary loaderSummaryFromJson(const WireJson& j);

} // namespace wb
