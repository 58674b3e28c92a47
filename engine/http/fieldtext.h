#pragma once
// The two text rules of HTTP fields every reader of them needs: names compare without regard to
// ASCII case, and values lose the optional whitespace (SP, HTAB) around them (RFC 9110 5.1, 5.5).
// One copy for the probe, the request checks, the built-in server, the agent's framing and the
// script's raw requests.

#include <algorithm>
#include <string_view>

namespace wb {

inline bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; };
    return a.size() == b.size()
        && std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

/// Without the SP and HTAB at either end.
inline std::string_view trimWhitespace(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace wb
