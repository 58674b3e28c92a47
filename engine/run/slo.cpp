#include "run/slo.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>

namespace wb {

namespace {

constexpr double NOT_KNOWN = std::numeric_limits<double>::quiet_NaN();

struct Prefix
{
    const char* name;
    Slo::Metric metric;
};
// Longest first: "tls_handshake_" before "tls_".
constexpr Prefix TIME_PREFIXES[] = {
    { "service_", Slo::Metric::Service },
    { "connect_", Slo::Metric::Connect },
    { "tls_handshake_", Slo::Metric::TlsHandshake },
    { "tls_", Slo::Metric::TlsHandshake },
    { "first_byte_", Slo::Metric::FirstByte },
    { "ttfb_", Slo::Metric::FirstByte },
};

// Reads an expression left to right; an error names the 1-based character where it went wrong.
class SloReader
{
public:
    explicit SloReader(std::string text)
        : m_text(std::move(text))
    { }

    Result<Slo> read()
    {
        Slo slo;
        slo.expr = m_text;
        if (m_text.empty()) return Error { "empty SLO (write e.g. p99<250ms, errors<0.1% or rps>5000)" };
        if (auto st = readMetric(slo); !st) return Error { st.error() };
        if (auto st = readOp(slo); !st) return Error { st.error() };
        const size_t thresholdAt = m_pos;
        if (auto st = readThreshold(slo); !st) return Error { st.error() };
        if (!std::isfinite(slo.threshold)) { // a number of hundreds of digits, times its unit
            m_pos = thresholdAt;
            return fail("the threshold is too large");
        }
        if (m_pos != m_text.size()) return fail("unexpected '" + m_text.substr(m_pos) + "' after the threshold");
        return slo;
    }

private:
    Error fail(const std::string& what) const
    {
        return Error { fmt::format("SLO '{}': at character {}, {}", m_text, m_pos + 1, what) };
    }
    bool take(const char* word)
    {
        const size_t n = std::char_traits<char>::length(word);
        if (m_text.compare(m_pos, n, word) != 0) return false;
        m_pos += n;
        return true;
    }
    // A decimal number ("99.9", "0.1", "5000"); false when there is none at m_pos.
    bool number(double& out)
    {
        const size_t start = m_pos;
        while (
            m_pos < m_text.size() && (std::isdigit(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '.'))
            ++m_pos;
        if (m_pos == start) return false;
        const std::string digits = m_text.substr(start, m_pos - start);
        char* end = nullptr;
        out = std::strtod(digits.c_str(), &end);
        if (end != digits.c_str() + digits.size() || !std::isfinite(out)) {
            m_pos = start;
            return false;
        }
        return true;
    }

    Status readMetric(Slo& slo)
    {
        if (take("errors")) {
            slo.metric = Slo::Metric::Errors;
            return {};
        }
        if (take("non2xx")) {
            slo.metric = Slo::Metric::Non2xx;
            return {};
        }
        if (take("rps")) {
            slo.metric = Slo::Metric::Rps;
            return {};
        }
        slo.metric = Slo::Metric::Latency;
        for (const Prefix& p : TIME_PREFIXES)
            if (take(p.name)) {
                slo.metric = p.metric;
                break;
            }
        if (take("mean") || take("avg")) {
            slo.stat = Slo::Stat::Mean;
            return {};
        }
        if (take("max")) {
            slo.stat = Slo::Stat::Max;
            return {};
        }
        if (m_pos < m_text.size() && m_text[m_pos] == 'p') {
            ++m_pos;
            const size_t at = m_pos;
            if (!number(slo.percentile)) return fail("a percentile must follow 'p' (p50, p99, p99.9)");
            if (slo.percentile <= 0 || slo.percentile > 100) {
                m_pos = at;
                return fail("the percentile must be above 0 and at most 100");
            }
            slo.stat = Slo::Stat::Percentile;
            return {};
        }
        return fail("unknown metric (use pNN, mean or max, optionally prefixed by service_, connect_, tls_ or "
                    "ttfb_; or errors, non2xx, rps)");
    }

    Status readOp(Slo& slo)
    {
        if (take("<="))
            slo.op = Slo::Op::LessOrEqual;
        else if (take(">="))
            slo.op = Slo::Op::GreaterOrEqual;
        else if (take("<"))
            slo.op = Slo::Op::Less;
        else if (take(">"))
            slo.op = Slo::Op::Greater;
        else
            return fail("expected <, <=, > or >=");
        return {};
    }

    Status readThreshold(Slo& slo)
    {
        const size_t at = m_pos;
        if (!number(slo.threshold)) return fail("expected a number");
        const size_t unitAt = m_pos;
        const std::string unit = m_text.substr(m_pos);
        if (slo.isTime()) {
            static constexpr std::pair<const char*, double> UNITS[] = { { "us", 1 }, { "ms", 1e3 }, { "s", 1e6 } };
            for (const auto& [name, factor] : UNITS)
                if (unit == name) {
                    slo.threshold *= factor;
                    m_pos = m_text.size();
                    return {};
                }
            m_pos = unitAt;
            return fail(
                unit.empty() ? "a time needs a unit (us, ms or s)" : "unknown unit '" + unit + "' (use us, ms or s)");
        }
        if (slo.isBudget()) {
            if (unit == "%") {
                slo.share = true;
                ++m_pos;
                if (slo.threshold > 100) {
                    m_pos = at;
                    return fail("a share is at most 100%");
                }
                return {};
            }
            if (!unit.empty()) return fail("unknown unit '" + unit + "' (use a share such as 0.1% or a count)");
            if (slo.threshold != std::floor(slo.threshold)) {
                m_pos = at;
                return fail("a count is a whole number (or write a share such as 0.5%)");
            }
            return {};
        }
        // rps: a plain number, or with k/M as elsewhere (5k)
        if (unit == "k" || unit == "M") {
            slo.threshold *= unit == "k" ? 1e3 : 1e6;
            ++m_pos;
            return {};
        }
        if (!unit.empty()) return fail("unknown unit '" + unit + "' (requests/s: a number, or with k or M)");
        return {};
    }

    std::string m_text;
    size_t m_pos = 0;
};

const LatencyHistogram* histogramOf(const Slo& slo, const SloInputs& in)
{
    switch (slo.metric) {
    case Slo::Metric::Latency:
        return in.latency;
    case Slo::Metric::Service:
        return in.service;
    case Slo::Metric::Connect:
        return in.connect;
    case Slo::Metric::TlsHandshake:
        return in.tlsHandshake;
    case Slo::Metric::FirstByte:
        return in.firstByte;
    default:
        return nullptr;
    }
}

// The value an SLO reads, in its unit (NaN when nothing was measured).
double valueOf(const Slo& slo, const SloInputs& in)
{
    if (slo.isTime()) {
        const LatencyHistogram* h = histogramOf(slo, in);
        if (!h || h->empty()) return NOT_KNOWN;
        switch (slo.stat) {
        case Slo::Stat::Mean:
            return h->meanUs();
        case Slo::Stat::Max:
            return static_cast<double>(h->maxUs());
        case Slo::Stat::Percentile:
            return static_cast<double>(h->valueAtPercentileUs(slo.percentile));
        }
    }
    const auto requests = static_cast<double>(in.requests);
    switch (slo.metric) {
    case Slo::Metric::Errors: {
        const auto errors = static_cast<double>(in.errors.transportErrors());
        if (!slo.share) return errors;
        // Of every attempt: the answered requests and those that got no answer.
        return requests + errors > 0 ? 100.0 * errors / (requests + errors) : NOT_KNOWN;
    }
    case Slo::Metric::Non2xx: {
        const auto non2xx = static_cast<double>(in.non2xx);
        if (!slo.share) return non2xx;
        return requests > 0 ? 100.0 * non2xx / requests : NOT_KNOWN;
    }
    case Slo::Metric::Rps:
        return in.durationS > 0 ? requests / in.durationS : NOT_KNOWN;
    default:
        return NOT_KNOWN;
    }
}

bool holds(Slo::Op op, double value, double threshold)
{
    switch (op) {
    case Slo::Op::Less:
        return value < threshold;
    case Slo::Op::LessOrEqual:
        return value <= threshold;
    case Slo::Op::Greater:
        return value > threshold;
    case Slo::Op::GreaterOrEqual:
        return value >= threshold;
    }
    return false;
}

} // namespace

SloInputs sloInputsOf(const Measurements& m, double durationS)
{
    SloInputs in;
    in.latency = &m.latency;
    in.service = &m.serviceLatency;
    in.connect = &m.connectTime;
    in.tlsHandshake = &m.tlsHandshake;
    in.firstByte = &m.firstByte;
    in.requests = m.requests;
    in.non2xx = m.status.non2xx();
    in.errors = m.errors;
    in.durationS = durationS;
    return in;
}

Result<Slo> parseSlo(const std::string& text)
{
    // Spaces mean nothing ("p99 < 250ms" is "p99<250ms"); the positions in errors are of the text without them.
    std::string compact;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    return SloReader(compact).read();
}

SloVerdict evaluateSlo(const Slo& slo, const SloInputs& inputs)
{
    SloVerdict v;
    v.expr = slo.expr;
    v.value = valueOf(slo, inputs);
    v.unit = slo.isTime() ? "us" : slo.share ? "%" : slo.metric == Slo::Metric::Rps ? "req/s" : "";
    v.ok = !std::isnan(v.value) && holds(slo.op, v.value, slo.threshold);
    return v;
}

std::vector<SloVerdict> evaluateSlos(const std::vector<Slo>& slos, const SloInputs& inputs)
{
    std::vector<SloVerdict> out;
    out.reserve(slos.size());
    for (const Slo& slo : slos)
        out.push_back(evaluateSlo(slo, inputs));
    return out;
}

bool allSlosMet(const std::vector<SloVerdict>& verdicts)
{
    for (const SloVerdict& v : verdicts)
        if (!v.ok) return false;
    return true;
}

bool sloCannotBeMet(const Slo& slo, const SloInputs& sofar, double plannedRequests)
{
    if (!slo.isBudget() || slo.op == Slo::Op::Greater || slo.op == Slo::Op::GreaterOrEqual) return false;
    const double spent
        = static_cast<double>(slo.metric == Slo::Metric::Errors ? sofar.errors.transportErrors() : sofar.non2xx);
    if (!slo.share || plannedRequests <= 0) {
        const double value = valueOf(slo, sofar);
        return !std::isnan(value) && !holds(slo.op, value, slo.threshold);
    }
    // The open model knows how many requests the run will make: the budget is a count.
    return !holds(slo.op, 100.0 * spent / plannedRequests, slo.threshold);
}

std::string formatSloValue(const SloVerdict& v)
{
    if (std::isnan(v.value)) return "no data";
    if (v.unit == "us") {
        if (v.value < 1000) return fmt::format("{:.0f}us", v.value);
        if (v.value < 1e6) return fmt::format("{:.1f}ms", v.value / 1e3);
        return fmt::format("{:.2f}s", v.value / 1e6);
    }
    if (v.unit == "%") return fmt::format("{:.2f}%", v.value);
    if (v.unit == "req/s") return fmt::format("{:.1f} req/s", v.value);
    return fmt::format("{:.0f}", v.value);
}

std::string formatSloLine(const SloVerdict& v)
{
    return fmt::format("SLO {}: {} ({})", v.expr, v.ok ? "ok" : "FAILED", formatSloValue(v));
}

} // namespace wb
