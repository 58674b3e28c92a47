#pragma once
// Service-level objectives: thresholds a run is judged by (k6's thresholds), so a
// pipeline gets a verdict and an exit code. `--slo p99<250ms`, `errors<0.1%`,
// `rps>5000`, `ttfb_p99<20ms`... are parsed once (parseSlo), evaluated on the
// run's totals when it ends (evaluateSlo), and, for error budgets under
// --slo-abort, checked while it runs (sloCannotBeMet).

#include "common/result.h"
#include "stats/counters.h"
#include "stats/histogram.h"
#include "stats/snapshot.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct Slo
{
    enum class Metric : uint8_t {
        Latency, ///< pNN / mean / max of the latency (corrected in the open model)
        Service, ///< service_…: from the actual send (open model only)
        Connect, ///< connect_…: TCP connects of the connections opened
        TlsHandshake, ///< tls_…: TLS handshakes (https only)
        FirstByte, ///< ttfb_…: first byte of each response, from its send
        Errors, ///< requests without a usable answer (socket, TLS, parse, stream errors)
        Non2xx, ///< responses outside 2xx/3xx
        Rps, ///< requests/s over the measured time
    };
    enum class Stat : uint8_t { Percentile, Mean, Max }; ///< of a time metric
    enum class Op : uint8_t { Less, LessOrEqual, Greater, GreaterOrEqual };

    std::string expr; ///< as written, without spaces: "p99<250ms"
    Metric metric = Metric::Latency;
    Stat stat = Stat::Percentile;
    double percentile = 99; ///< Stat::Percentile: 0 < p <= 100
    Op op = Op::Less;
    double threshold = 0; ///< µs for times, percent for shares, a count, or requests/s
    bool share = false; ///< errors/non2xx: a percentage ("<0.1%") rather than a count ("<10")

    bool isTime() const { return metric <= Metric::FirstByte; }
    /// errors and non-2xx budgets: what --slo-abort watches.
    bool isBudget() const { return metric == Metric::Errors || metric == Metric::Non2xx; }
};

/// Parses one expression. The error is one line naming the expression and the
/// 1-based character where it goes wrong, e.g.
/// "SLO 'p99<25x': at character 7, unknown unit 'x' (use us, ms or s)".
Result<Slo> parseSlo(const std::string& text);

/// What a run measured, as an SLO reads it (null histograms: not measured).
struct SloInputs
{
    const LatencyHistogram* latency = nullptr;
    const LatencyHistogram* service = nullptr;
    const LatencyHistogram* connect = nullptr;
    const LatencyHistogram* tlsHandshake = nullptr;
    const LatencyHistogram* firstByte = nullptr;
    uint64_t requests = 0; ///< responses (any status)
    uint64_t non2xx = 0; ///< responses outside 2xx/3xx
    ErrorCounts errors;
    double durationS = 0;
};

/// The inputs of a run's (or a stretch of a run's) measurements.
SloInputs sloInputsOf(const Measurements& m, double durationS);

struct SloVerdict
{
    std::string expr;
    double value = 0; ///< in `unit`; NaN when there was nothing to measure (then not ok)
    std::string unit; ///< "us", "%", "" (a count) or "req/s"
    bool ok = false;
};

SloVerdict evaluateSlo(const Slo& slo, const SloInputs& inputs);
std::vector<SloVerdict> evaluateSlos(const std::vector<Slo>& slos, const SloInputs& inputs);
bool allSlosMet(const std::vector<SloVerdict>& verdicts);

/// --slo-abort, after at least 5 s of measurement: true when an errors or non-2xx budget is
/// already spent. A count is spent once exceeded; a share is spent once its errors exceed the
/// share of all requests the run will make (plannedRequests, known in the open model), and
/// without a plan (closed loop) once the share so far fails it.
bool sloCannotBeMet(const Slo& slo, const SloInputs& sofar, double plannedRequests);

/// "181.2ms", "0.43%", "12", "5123.4 req/s", or "no data".
std::string formatSloValue(const SloVerdict& verdict);
/// "SLO p99<250ms: ok (181.2ms)", "SLO errors<0.1%: FAILED (0.43%)".
std::string formatSloLine(const SloVerdict& verdict);

} // namespace wb
