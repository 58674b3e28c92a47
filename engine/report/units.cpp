#include "report/units.h"

#include <cctype>
#include <cstdio>
#include <fmt/format.h>
#include <optional>
#include <span>
#include <string_view>

namespace wb {

namespace {

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
