#include "report/units.h"

#include <cctype>
#include <cstdio>
#include <fmt/format.h>
#include <optional>
#include <span>
#include <string_view>

namespace wb {

namespace {

struct Suffix
{
    std::string_view name; // matched case-insensitively, as wrk does
    uint64_t scale;
};

constexpr Suffix COUNT_SUFFIXES[] = {
    { "", 1 },
    { "k", 1'000 },
    { "m", 1'000'000 },
    { "g", 1'000'000'000 },
    { "t", 1'000'000'000'000 },
};

constexpr Suffix DURATION_SUFFIXES[] = {
    { "", 1'000'000 }, // a bare number is seconds, as in wrk
    { "us", 1 },
    { "ms", 1'000 },
    { "s", 1'000'000 },
    { "m", 60'000'000 },
    { "h", 3'600'000'000 },
};

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

enum class ParseFailure { Syntax, Overflow };

struct Scaled
{
    uint64_t value = 0;
    std::optional<ParseFailure> failure;
};

// Parses "<digits>[.<digits>]<suffix>" and multiplies by the suffix's scale in
// integer arithmetic, so "1.5M" is exactly 1500000 and "0.1s" exactly 100000 us
// (binary floating point would make both depend on rounding). The result must
// be a whole number of the base unit; no sign, exponent or spaces.
template<size_t N> Scaled parseScaled(std::string_view text, const Suffix (&suffixes)[N])
{
    Scaled out;
    out.failure = ParseFailure::Syntax;

    size_t pos = 0;
    uint64_t whole = 0;
    bool overflow = false;
    const size_t wholeStart = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        const auto digit = static_cast<uint64_t>(text[pos] - '0');
        if (__builtin_mul_overflow(whole, 10u, &whole) || __builtin_add_overflow(whole, digit, &whole)) overflow = true;
        ++pos;
    }
    if (pos == wholeStart) return out;

    std::string_view fraction;
    if (pos < text.size() && text[pos] == '.') {
        const size_t fractionStart = ++pos;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
            ++pos;
        fraction = text.substr(fractionStart, pos - fractionStart);
        if (fraction.empty()) return out;
    }

    const std::string_view suffixText = text.substr(pos);
    const Suffix* suffix = nullptr;
    for (const Suffix& s : suffixes) {
        if (equalsIgnoreCase(suffixText, s.name)) suffix = &s;
    }
    if (!suffix) return out;

    // Trailing zeros change nothing; without them the fraction must turn into
    // a whole number of base units once scaled.
    while (!fraction.empty() && fraction.back() == '0')
        fraction.remove_suffix(1);
    constexpr size_t MAX_FRACTION_DIGITS = 18; // 10^18 still fits in uint64_t
    if (fraction.size() > MAX_FRACTION_DIGITS) return out;
    uint64_t fractionValue = 0;
    uint64_t fractionDenominator = 1;
    for (char c : fraction) {
        fractionValue = fractionValue * 10 + static_cast<uint64_t>(c - '0');
        fractionDenominator *= 10;
    }
    uint64_t fractionScaled = 0;
    if (__builtin_mul_overflow(fractionValue, suffix->scale, &fractionScaled)) return out;
    if (fractionScaled % fractionDenominator != 0) return out;

    uint64_t value = 0;
    if (overflow || __builtin_mul_overflow(whole, suffix->scale, &value)
        || __builtin_add_overflow(value, fractionScaled / fractionDenominator, &value)) {
        out.failure = ParseFailure::Overflow;
        return out;
    }
    out.value = value;
    out.failure.reset();
    return out;
}

struct UnitScale
{
    int scale;
    const char* base;
    // Only the units before the last one are reachable, as in wrk: the loop
    // that walks them stops while a next unit still exists, so time in
    // seconds never reaches "h" and byte counts never reach "P".
    std::span<const char* const> units;
};

constexpr const char* TIME_US_UNITS[] = { "ms", "s" };
constexpr const char* TIME_S_UNITS[] = { "m", "h" };
constexpr const char* BINARY_UNITS[] = { "K", "M", "G", "T", "P" };
constexpr const char* METRIC_UNITS[] = { "k", "M", "G", "T", "P" };
constexpr UnitScale TIME_US { 1000, "us", TIME_US_UNITS };
constexpr UnitScale TIME_S { 60, "s", TIME_S_UNITS };
constexpr UnitScale BINARY { 1024, "", BINARY_UNITS };
constexpr UnitScale METRIC { 1000, "", METRIC_UNITS };

// wrk switches to the next unit from 0.85 of its scale, so 900 us prints
// as "0.90ms" rather than "900.00us". The threshold is computed in double
// (870.4 is not exact, and 0.85 * 1024 must switch exactly where wrk does)
// and the value divided in long double, both as in wrk, so the last digit
// rounds the same.
std::string formatUnits(long double n, const UnitScale& units, int precision)
{
    const long double threshold = units.scale * 0.85;
    const char* unit = units.base;
    for (size_t i = 0; i + 1 < units.units.size() && n >= threshold; ++i) {
        n /= units.scale;
        unit = units.units[i];
    }
    // snprintf rather than fmt: fmt 9.1 loses a digit when a long double
    // rounds up to the next power of ten ("{:.2f}" of 0.999L gives "1.0").
    char digits[64];
    const int length = std::snprintf(digits, sizeof digits, "%.*Lf", precision, n);
    if (length < 0 || static_cast<size_t>(length) >= sizeof digits) return fmt::format("{:.{}e}{}", n, precision, unit);
    return std::string(digits, static_cast<size_t>(length)) + unit;
}

} // namespace

Result<uint64_t> parseCount(const std::string& text)
{
    const Scaled parsed = parseScaled(text, COUNT_SUFFIXES);
    if (!parsed.failure) return parsed.value;
    if (*parsed.failure == ParseFailure::Overflow)
        return Error { fmt::format("invalid number '{}' (too large)", text) };
    return Error { fmt::format("invalid number '{}' (use e.g. 100, 10k, 1.5M)", text) };
}

Result<uint64_t> parseDurationUs(const std::string& text)
{
    const Scaled parsed = parseScaled(text, DURATION_SUFFIXES);
    if (!parsed.failure) return parsed.value;
    if (*parsed.failure == ParseFailure::Overflow)
        return Error { fmt::format("invalid duration '{}' (too long)", text) };
    return Error { fmt::format("invalid duration '{}' (use e.g. 30s, 2m, 500ms)", text) };
}

std::string formatBinary(double n)
{
    return formatUnits(n, BINARY, 2);
}

std::string formatMetric(double n)
{
    return formatUnits(n, METRIC, 2);
}

std::string formatTimeUs(double us)
{
    // From one second on, wrk continues in the seconds scale (s, then m).
    if (us >= 1'000'000.0) return formatUnits(static_cast<long double>(us) / 1'000'000.0L, TIME_S, 2);
    return formatUnits(us, TIME_US, 2);
}

std::string formatTimeS(double s)
{
    return formatUnits(s, TIME_S, 0);
}

} // namespace wb
