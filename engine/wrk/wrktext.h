#pragma once
// The text report, line for line as wrk prints it, so existing habits and log
// parsers keep working. Extra lines (TLS/parse errors, status codes, the
// p99.9/p99.99 rows) follow wrk's indentation and only appear when relevant.

#include "run/runresult.h"

#include <string>

namespace wb {

struct TextReportOptions
{
    bool latencyDistribution = false; ///< wrk's --latency block
};

/// "HTTP/1.1", or "HTTP/2 (h2c), 10 streams per connection" ("h2 by ALPN" over TLS).
/// `spoken`: what a stored run recorded ("h2", "h2c", "http/1.1"); empty = the config's protocol.
std::string protocolDescription(const RunConfig& config, const std::string& spoken = {});
/// HTTP/3: one line of what QUIC did ("QUIC v1, ALPN h3, 12 handshakes (1-RTT); 3 packets of requests
/// lost, 5 probe timeouts; ended: idle_timeout 2"), for views that show a stored run; "" when empty.
std::string quicDescription(const QuicSummary& quic);
/// "Each connection reopened after 100 requests or 30.00s (churn)", or "Connections kept open".
std::string churnDescription(const RunConfig& config);
/// "Running 2m test @ http://host/" and the threads/connections line.
std::string formatRunHeader(const RunConfig& config);
/// "38574 of 38574 responses could not be parsed: <why the first one failed>" when parse
/// failures outnumber the responses; "" otherwise.
std::string parseFailureWarning(uint64_t parseFailures, uint64_t responses, const ConnectionFacts& facts);
/// HTTP/2: the server kept HPACK's default table on some connections (what it costs); one line.
std::string hpackTableNote(const ConnectionFacts& facts, uint32_t headerTableBytes);
/// "412 (13.73/s), 400 closed by churn": the connections a run opened, which is what a balancer placed.
std::string connectionsOpenedText(uint64_t opened, double durationS, const ConnectionFacts& facts);
/// Everything after the header: thread stats, totals, errors, rates.
std::string formatRunReport(const RunResult& result, const TextReportOptions& options);

} // namespace wb
