#include "http/requestcheck.h"

#include "http/fieldtext.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

namespace wb {

namespace {

constexpr size_t MAX_HEADER_NAME_BYTES = 256;
constexpr size_t MAX_HEADER_VALUE_BYTES = 64 * 1024;
constexpr size_t MAX_METHOD_BYTES = 32;
constexpr size_t MAX_TARGET_BYTES = 64 * 1024;

/// Short and printable, for error messages: a hostile 64 KiB value must not become the log line.
std::string shown(std::string_view text)
{
    std::string out;
    for (char c : text.substr(0, 40)) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    if (text.size() > 40) out += "...";
    return out;
}

} // namespace

Status checkHeaderName(std::string_view name)
{
    if (name.empty()) return Error { "empty header name" };
    if (name.size() > MAX_HEADER_NAME_BYTES)
        return Error { "header name '" + shown(name) + "' is longer than " + std::to_string(MAX_HEADER_NAME_BYTES)
            + " bytes" };
    if (!std::all_of(name.begin(), name.end(), isTokenChar))
        return Error { "'" + shown(name) + "' is not a valid header name" };
    return {};
}

Status checkHeaderValue(std::string_view value)
{
    if (value.size() > MAX_HEADER_VALUE_BYTES)
        return Error { "header value is longer than " + std::to_string(MAX_HEADER_VALUE_BYTES) + " bytes" };
    for (char c : value) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\r' || c == '\n' || c == '\0') return Error { "value contains CR, LF or NUL" };
        if ((u < 0x20 && c != '\t') || u == 0x7f)
            return Error { "value contains a control character ('" + shown(value) + "')" };
    }
    return {};
}

Status checkMethod(std::string_view method)
{
    if (method.empty()) return Error { "method must not be empty" };
    if (method.size() > MAX_METHOD_BYTES
        || !std::all_of(method.begin(), method.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
        return Error { "invalid method '" + shown(method) + "' (use e.g. GET, POST: upper-case letters only)" };
    return {};
}

Status checkRequestTarget(std::string_view target)
{
    if (target.empty() || target.front() != '/')
        return Error { "request target '" + shown(target) + "' must start with '/'" };
    if (target.size() > MAX_TARGET_BYTES)
        return Error { "request target is longer than " + std::to_string(MAX_TARGET_BYTES) + " bytes" };
    for (char c : target)
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            return Error { "request target '" + shown(target) + "' contains whitespace, a control or non-ASCII byte" };
    return {};
}

Status checkRequestSpec(const RequestSpec& request)
{
    if (auto st = checkMethod(request.method); !st) return st;
    if (auto st = checkRequestTarget(request.url.target); !st) return st;
    const std::string& host = request.url.host;
    if (host.empty() || host.size() > 253 || !std::all_of(host.begin(), host.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c))
                || std::string_view("-._:%").find(c) != std::string_view::npos;
        }))
        return Error { "invalid host '" + shown(host) + "'" };
    for (const Header& h : request.headers) {
        if (auto st = checkHeaderName(h.name); !st) return Error { "invalid header: " + st.error() };
        if (auto st = checkHeaderValue(h.value); !st)
            return Error { "invalid header '" + shown(h.name) + "': " + st.error() };
        if (equalsIgnoreCase(h.name, "transfer-encoding"))
            return Error { "a Transfer-Encoding header is not sent: the body goes as it is, with a Content-Length" };
        if (equalsIgnoreCase(h.name, "content-length")) {
            uint64_t length = 0;
            const auto [end, ec] = std::from_chars(h.value.data(), h.value.data() + h.value.size(), length);
            if (ec != std::errc() || end != h.value.data() + h.value.size() || length != request.body.size())
                return Error { "the Content-Length header '" + shown(h.value) + "' is not the body's "
                    + std::to_string(request.body.size()) + " bytes" };
        }
    }
    if (request.body.size() > MAX_REQUEST_BODY_BYTES)
        return Error { "the body is " + std::to_string(request.body.size()) + " bytes, over the limit of "
            + std::to_string(MAX_REQUEST_BODY_BYTES) };
    return {};
}

} // namespace wb
