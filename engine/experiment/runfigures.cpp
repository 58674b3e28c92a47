#include "experiment/runfigures.h"

#include <limits>

namespace wb {

namespace {

constexpr double NOT_KNOWN = std::numeric_limits<double>::quiet_NaN();

double known(const RunRecord& r, double value)
{
    return r.hasTotals ? value : NOT_KNOWN;
}

template<double RunTotals::*Field> double total(const RunRecord& r)
{
    return known(r, r.totals.*Field);
}

template<uint64_t RunTotals::*Field> double totalCount(const RunRecord& r)
{
    return known(r, static_cast<double>(r.totals.*Field));
}

template<double LatencySummary::*Field> double latency(const RunRecord& r)
{
    return known(r, r.totals.latency.*Field);
}

template<double LatencySummary::*Field> double service(const RunRecord& r)
{
    return known(r, r.totals.serviceLatency.*Field);
}

template<PhaseSummary RunTotals::*Phase, double PhaseSummary::*Field> double phase(const RunRecord& r)
{
    const PhaseSummary& s = r.totals.*Phase;
    return s.count ? known(r, s.*Field) : NOT_KNOWN;
}

template<PhaseSummary RunTotals::*Phase> double phaseCount(const RunRecord& r)
{
    const PhaseSummary& s = r.totals.*Phase;
    return s.count ? static_cast<double>(s.count) : NOT_KNOWN;
}

using G = FigureGroup;
using L = LatencySummary;
using T = RunTotals;

} // namespace

const std::vector<RunFigure>& runFigures()
{
    static const std::vector<RunFigure> figures {
        { "rps", "Requests/s", G::Throughput, "req_per_s", Better::Higher, total<&T::requestsPerS> },
        { "transfer", "Transfer/s", G::Throughput, "bytes_per_s", Better::Higher, total<&T::bytesPerS> },
        { "requests", "Requests", G::Throughput, "", Better::Neither, totalCount<&T::requests> },
        { "duration", "Measured (s)", G::Throughput, "s", Better::Neither, total<&T::durationS> },
        // wrk's "Req/Sec" row (what the studies print as "8.78k +/- 4.38k").
        { "thread_rps", "Req/s per thread (avg)", G::Throughput, "req_per_s", Better::Neither,
            [](const RunRecord& r) { return known(r, r.totals.threadRate.mean); } },
        { "thread_rps_stdev", "Req/s per thread (stdev)", G::Throughput, "req_per_s", Better::Neither,
            [](const RunRecord& r) { return known(r, r.totals.threadRate.stdev); } },

        { "avg", "Average", G::Latency, "us", Better::Lower, latency<&L::meanUs> },
        { "stdev", "Stdev", G::Latency, "us", Better::Lower, latency<&L::stdevUs> },
        { "p50", "p50", G::Latency, "us", Better::Lower, latency<&L::p50Us> },
        { "p75", "p75", G::Latency, "us", Better::Lower, latency<&L::p75Us> },
        { "p90", "p90", G::Latency, "us", Better::Lower, latency<&L::p90Us> },
        { "p99", "p99", G::Latency, "us", Better::Lower, latency<&L::p99Us> },
        { "p99_9", "p99.9", G::Latency, "us", Better::Lower, latency<&L::p999Us> },
        { "p99_99", "p99.99", G::Latency, "us", Better::Lower, latency<&L::p9999Us> },
        { "max", "Max", G::Latency, "us", Better::Lower, latency<&L::maxUs> },

        { "service_avg", "Average", G::Service, "us", Better::Lower, service<&L::meanUs> },
        { "service_p50", "p50", G::Service, "us", Better::Lower, service<&L::p50Us> },
        { "service_p90", "p90", G::Service, "us", Better::Lower, service<&L::p90Us> },
        { "service_p99", "p99", G::Service, "us", Better::Lower, service<&L::p99Us> },
        { "service_p99_9", "p99.9", G::Service, "us", Better::Lower, service<&L::p999Us> },
        { "service_p99_99", "p99.99", G::Service, "us", Better::Lower, service<&L::p9999Us> },
        { "service_max", "Max", G::Service, "us", Better::Lower, service<&L::maxUs> },
        { "target_rate", "Requested rate (req/s)", G::Service, "req_per_s", Better::Neither,
            total<&T::targetRatePerS> },
        { "late", "Requests sent > 1 ms late", G::Service, "", Better::Lower, totalCount<&T::lateRequests> },

        { "connect_p50", "Connect p50", G::Phases, "us", Better::Lower, phase<&T::connect, &PhaseSummary::p50Us> },
        { "connect_p99", "Connect p99", G::Phases, "us", Better::Lower, phase<&T::connect, &PhaseSummary::p99Us> },
        { "connect_count", "Connect count", G::Phases, "", Better::Neither, phaseCount<&T::connect> },
        { "tls_handshake_p50", "TLS handshake p50", G::Phases, "us", Better::Lower,
            phase<&T::tlsHandshake, &PhaseSummary::p50Us> },
        { "tls_handshake_p99", "TLS handshake p99", G::Phases, "us", Better::Lower,
            phase<&T::tlsHandshake, &PhaseSummary::p99Us> },
        { "tls_handshake_count", "TLS handshake count", G::Phases, "", Better::Neither, phaseCount<&T::tlsHandshake> },
        { "first_byte_p50", "First byte p50", G::Phases, "us", Better::Lower,
            phase<&T::firstByte, &PhaseSummary::p50Us> },
        { "first_byte_p99", "First byte p99", G::Phases, "us", Better::Lower,
            phase<&T::firstByte, &PhaseSummary::p99Us> },
        { "first_byte_count", "First byte count", G::Phases, "", Better::Neither, phaseCount<&T::firstByte> },

        { "socket_errors", "Socket errors (connect, read, write, timeout)", G::Errors, "", Better::Lower,
            [](const RunRecord& r) { return known(r, static_cast<double>(r.totals.errors.socketErrors())); } },
        { "tls_parse_errors", "TLS, parse and stream errors", G::Errors, "", Better::Lower,
            [](const RunRecord& r) {
                const ErrorCounts& e = r.totals.errors;
                return known(r, static_cast<double>(e.tls + e.parse + e.stream));
            } },
        { "non2xx", "Non-2xx/3xx responses", G::Errors, "", Better::Lower, totalCount<&T::non2xx> },
    };
    return figures;
}

const RunFigure* runFigure(std::string_view key)
{
    for (const RunFigure& f : runFigures())
        if (key == f.key) return &f;
    return nullptr;
}

} // namespace wb
