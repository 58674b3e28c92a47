#include "http/request.h"

#include "http/requestcheck.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace wb {

static bool equalsIgnoreCase(const std::string& a, const char* b)
{
    const size_t n = std::strlen(b);
    if (a.size() != n) return false;
    for (size_t i = 0; i < n; ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

static std::string trim(const std::string& s)
{
    const auto begin = s.find_first_not_of(" \t");
    if (begin == std::string::npos) return {};
    const auto end = s.find_last_not_of(" \t");
    return s.substr(begin, end - begin + 1);
}

Result<Header> parseHeader(const std::string& text)
{
    // The rules themselves live in requestcheck: a configuration from the network is held to
    // exactly what -H is.
    const auto quoted = "'" + text + "'";
    const auto colon = text.find(':');
    if (colon == std::string::npos) return Error { "invalid header " + quoted + " (expected 'Name: value')" };
    Header h { text.substr(0, colon), trim(text.substr(colon + 1)) };
    if (h.name.empty()) return Error { "invalid header " + quoted + ": empty name" };
    if (auto st = checkHeaderName(h.name); !st) return Error { "invalid header " + quoted + ": " + st.error() };
    if (auto st = checkHeaderValue(h.value); !st) return Error { "invalid header " + quoted + ": " + st.error() };
    return h;
}

std::string buildRequest(const RequestSpec& spec)
{
    auto given = [&](const char* name) {
        return std::any_of(
            spec.headers.begin(), spec.headers.end(), [&](const Header& h) { return equalsIgnoreCase(h.name, name); });
    };
    std::string out;
    out.reserve(128 + spec.body.size());
    out += spec.method;
    out += ' ';
    out += spec.url.target;
    out += " HTTP/1.1\r\n";
    if (!given("Host")) out += "Host: " + spec.url.hostHeader() + "\r\n";
    for (const auto& h : spec.headers)
        out += h.name + ": " + h.value + "\r\n";
    if (!spec.body.empty() && !given("Content-Length") && !given("Transfer-Encoding"))
        out += "Content-Length: " + std::to_string(spec.body.size()) + "\r\n";
    out += "\r\n";
    out += spec.body;
    return out;
}

} // namespace wb
