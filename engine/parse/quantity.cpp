#include "parse/quantity.h"

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

std::string durationText(uint64_t us)
{
    if (us == 0) return "0s";
    struct Unit
    {
        uint64_t us;
        const char* suffix;
    };
    static constexpr Unit UNITS[]
        = { { 3'600'000'000, "h" }, { 60'000'000, "m" }, { 1'000'000, "s" }, { 1'000, "ms" } };
    for (const Unit& u : UNITS)
        if (us % u.us == 0) return std::to_string(us / u.us) + u.suffix;
    return std::to_string(us) + "us";
}

namespace {

template<typename Parse> Result<CountRange> parseRange(const std::string& text, Parse parse)
{
    const auto colon = text.find(':');
    auto low = parse(text.substr(0, colon));
    if (!low) return Error { low.error() };
    CountRange range { *low, *low };
    if (colon == std::string::npos) return range;
    auto high = parse(text.substr(colon + 1));
    if (!high) return Error { high.error() };
    range.high = *high;
    if (range.high < range.low) return Error { "'" + text + "': the range ends below where it starts" };
    return range;
}

} // namespace

Result<CountRange> parseCountRange(const std::string& text)
{
    return parseRange(text, parseCount);
}

Result<CountRange> parseDurationRangeUs(const std::string& text)
{
    return parseRange(text, parseDurationUs);
}

} // namespace wb
