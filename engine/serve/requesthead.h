#pragma once
// Private to the target server: finding and parsing one HTTP/1.x request head
// (request line + header fields). Only what the server acts on is kept: the
// route, framing (Content-Length), keep-alive and Expect: 100-continue.

#include "http/fieldtext.h"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace wb::serve {

enum class Route : uint8_t {
    Default, ///< the normal body
    Status, ///< /status/NNN
    Close, ///< /close: answer, then close
    Chunked, ///< /chunked: the normal body, chunked
    Bytes, ///< /bytes/N: N filler bytes
    Echo, ///< /echo: the request body
    Silent, ///< /silent: never answer
    Delay, ///< /delay/MS: the normal body, MS later
    BadParameter, ///< a known path with an invalid number: 400, connection kept
    Metrics, ///< /metrics: the server's own counters in the Prometheus text format (HTTP/1.1)
    Capacity, ///< /capacity/N: the normal body, admitted at N requests/s (beyond it a 503)
};

constexpr uint64_t MAX_BYTES = 64ull * 1024 * 1024; ///< /bytes/N limit
constexpr uint64_t MAX_DELAY_MS = 10 * 60 * 1000; ///< /delay/MS limit
constexpr uint64_t MAX_CAPACITY_PER_S = 100'000'000; ///< /capacity/N limit

struct RequestHead
{
    Route route = Route::Default;
    int status = 200; ///< Route::Status
    uint64_t number = 0; ///< bytes for Route::Bytes, milliseconds for Route::Delay
    uint64_t contentLength = 0;
    bool head = false; ///< method HEAD: no body in the answer
    bool http10 = false;
    bool keepAlive = true; ///< after version defaults and Connection
    bool expectContinue = false;
};

/// Offset just past the blank line ending the head in data[0, size), or 0 when
/// it is not complete. Lines may end in CRLF or LF. The scan starts at `from`
/// (an earlier scan saw no end before it).
inline size_t findHeadEnd(const char* data, size_t size, size_t from)
{
    const char* end = data + size;
    const char* p = data + from;
    while (p < end) {
        p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        if (!p) return 0;
        const char* q = p + 1;
        if (q < end && *q == '\r') ++q;
        if (q >= end) return 0;
        if (*q == '\n') return static_cast<size_t>(q + 1 - data);
        p = q;
    }
    return 0;
}

namespace detail {

inline bool equalsNoCase(std::string_view a, std::string_view lowerB)
{
    if (a.size() != lowerB.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != lowerB[i]) return false;
    }
    return true;
}

inline bool parseNumber(std::string_view s, uint64_t max, uint64_t& out)
{
    if (s.empty() || s.size() > 19) return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && out <= max;
}

inline std::string_view nextLine(std::string_view& rest)
{
    size_t eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

inline void parseRoute(std::string_view target, RequestHead& r)
{
    // Absolute form (as sent to proxies): keep only the path.
    if (size_t scheme = target.find("://"); scheme != std::string_view::npos && target.front() != '/') {
        size_t slash = target.find('/', scheme + 3);
        target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
    }
    target = target.substr(0, target.find_first_of("?#"));

    auto numberAfter = [&](std::string_view prefix, uint64_t max, Route route) {
        if (target.substr(0, prefix.size()) != prefix) return false;
        r.route = parseNumber(target.substr(prefix.size()), max, r.number) ? route : Route::BadParameter;
        return true;
    };
    if (target == "/close")
        r.route = Route::Close;
    else if (target == "/chunked")
        r.route = Route::Chunked;
    else if (target == "/echo")
        r.route = Route::Echo;
    else if (target == "/silent")
        r.route = Route::Silent;
    else if (target == "/metrics")
        r.route = Route::Metrics;
    else if (numberAfter("/bytes/", MAX_BYTES, Route::Bytes) || numberAfter("/delay/", MAX_DELAY_MS, Route::Delay))
        return;
    else if (numberAfter("/capacity/", MAX_CAPACITY_PER_S, Route::Capacity)) {
        if (r.route == Route::Capacity && r.number == 0) r.route = Route::BadParameter;
    } else if (numberAfter("/status/", 599, Route::Status)) {
        // 1xx are interim answers, not something a request can end with.
        if (r.route == Route::Status && r.number < 200) r.route = Route::BadParameter;
        r.status = static_cast<int>(r.number);
    }
}

} // namespace detail

/// Parses a complete head (as delimited by findHeadEnd). Returns 0, or the
/// status of the error answer after which the connection closes: 400 for a
/// malformed request, 411 for a chunked (or otherwise transfer-coded) body,
/// 505 for an HTTP major version other than 1.
inline int parseRequestHead(std::string_view head, RequestHead& r)
{
    using namespace detail;
    std::string_view rest = head;
    std::string_view line = nextLine(rest);
    size_t sp1 = line.find(' ');
    size_t sp2 = line.rfind(' ');
    if (sp1 == std::string_view::npos || sp1 == 0 || sp2 == sp1) return 400;
    std::string_view method = line.substr(0, sp1);
    std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string_view version = line.substr(sp2 + 1);
    for (char c : method) {
        if (!isTokenChar(c)) return 400;
    }
    if (target.empty() || target.find_first_of(" \t") != std::string_view::npos) return 400;
    if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' || version[5] < '0'
        || version[5] > '9' || version[7] < '0' || version[7] > '9')
        return 400;
    if (version[5] != '1') return 505;
    r.http10 = version[7] == '0';
    r.head = method == "HEAD";

    bool haveLength = false;
    bool transferCoded = false;
    bool close = false;
    bool keepAlive = false;
    while (!rest.empty()) {
        line = nextLine(rest);
        if (line.empty()) break;
        if (line.front() == ' ' || line.front() == '\t') return 400; // obsolete line folding
        size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0) return 400;
        std::string_view name = line.substr(0, colon);
        for (char c : name) {
            if (!isTokenChar(c)) return 400;
        }
        std::string_view value = trimWhitespace(line.substr(colon + 1));
        if (equalsNoCase(name, "content-length")) {
            uint64_t length = 0;
            if (!parseNumber(value, uint64_t(1) << 62, length) || (haveLength && length != r.contentLength)) return 400;
            r.contentLength = length;
            haveLength = true;
        } else if (equalsNoCase(name, "transfer-encoding")) {
            transferCoded = true;
        } else if (equalsNoCase(name, "connection")) {
            while (!value.empty()) {
                size_t comma = value.find(',');
                std::string_view token = trimWhitespace(value.substr(0, comma));
                close = close || equalsNoCase(token, "close");
                keepAlive = keepAlive || equalsNoCase(token, "keep-alive");
                value.remove_prefix(comma == std::string_view::npos ? value.size() : comma + 1);
            }
        } else if (equalsNoCase(name, "expect")) {
            r.expectContinue = !r.http10 && equalsNoCase(value, "100-continue");
        }
    }
    if (transferCoded) return 411;
    r.keepAlive = !close && (!r.http10 || keepAlive);
    parseRoute(target, r);
    return 0;
}

} // namespace wb::serve
