#pragma once
// Small text builders several libraries' reports share: a list joined with a separator, one number
// printed with a printf format, and a number with its thousands grouped.

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// items with separator between them: {"a", "b"} -> "a, b".
inline std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ")
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += separator;
        out += items[i];
    }
    return out;
}

/// v printed with format, a printf format with one double conversion ("%.2f", "%.3g ms").
inline std::string printedNumber(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

/// "12,345" (thousands grouped, no decimals); "-" for NaN.
inline std::string groupedNumber(double value)
{
    if (std::isnan(value)) return "-";
    const std::string digits = printedNumber("%.0f", std::fabs(value));
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (value < 0 && digits != "0" ? "-" : "") + out;
}

} // namespace wb
