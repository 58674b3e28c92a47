#pragma once
// The text rules of HTTP fields every reader of them needs: names compare without regard to ASCII
// case, values lose the optional whitespace (SP, HTAB) around them (RFC 9110 5.1, 5.5), and a
// length is digits and nothing else.
// One copy for the probe, the request checks, the built-in server, the agent's framing and the
// script's raw requests.

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace wb {

/// RFC 9110 tchar: a character of a token (a method, a field name). NUL is none.
inline bool isTokenChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

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

/// A field name as the readers keep it: ASCII lower case.
inline std::string lowerFieldName(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
        [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; });
    return out;
}

/// A length in a field (Content-Length, a chunk size in `base` 16): digits only, at most 16 of
/// them, whitespace around allowed; nothing otherwise.
inline std::optional<size_t> parseFieldSize(std::string_view text, int base = 10)
{
    text = trimWhitespace(text);
    if (text.empty() || text.size() > 16) return std::nullopt;
    size_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

} // namespace wb
