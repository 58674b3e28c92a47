#include "http/serverrequest.h"

#include "http/fieldtext.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <optional>

namespace wb {

std::string ServerRequest::header(const std::string& lowerName) const
{
    auto it = headers.find(lowerName);
    return it == headers.end() ? std::string() : it->second;
}

ServerRequestParser::State ServerRequestParser::fail(int status, std::string error)
{
    m_status = status;
    m_error = std::move(error);
    m_state = State::Bad;
    return m_state;
}

ServerRequestParser::State ServerRequestParser::feed(std::string_view bytes)
{
    if (m_state != State::NeedMore) return m_state;
    if (!m_headDone) {
        const size_t scanFrom = m_buffer.size() >= 3 ? m_buffer.size() - 3 : 0;
        m_buffer.append(bytes);
        const size_t headEnd = m_buffer.find("\r\n\r\n", scanFrom);
        if (headEnd == std::string::npos) {
            if (m_buffer.size() > m_maxHeadBytes)
                return fail(431, fmt::format("request head over {} bytes", m_maxHeadBytes));
            return m_state;
        }
        if (headEnd + 4 > m_maxHeadBytes) return fail(431, fmt::format("request head over {} bytes", m_maxHeadBytes));
        if (parseHead(headEnd) == State::Bad) return m_state;
        m_request.body = m_buffer.substr(headEnd + 4);
        m_buffer.clear();
        m_buffer.shrink_to_fit();
    } else {
        m_request.body.append(bytes);
    }
    // One request per connection: bytes after it are never read, however TCP cut them.
    if (m_request.body.size() >= m_bodyBytes) {
        m_request.body.resize(m_bodyBytes);
        m_state = State::Done;
    }
    return m_state;
}

ServerRequestParser::State ServerRequestParser::parseHead(size_t headEnd)
{
    std::string_view head(m_buffer.data(), headEnd);
    size_t lineEnd = head.find("\r\n");
    std::string_view line = head.substr(0, lineEnd);
    const size_t sp1 = line.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == std::string_view::npos || sp2 == std::string_view::npos
        || line.find(' ', sp2 + 1) != std::string_view::npos)
        return fail(400, "malformed request line");
    const std::string_view method = line.substr(0, sp1);
    const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const std::string_view version = line.substr(sp2 + 1);
    if (method.empty() || !std::all_of(method.begin(), method.end(), isTokenChar)) return fail(400, "malformed method");
    if (target.empty() || target.front() != '/') return fail(400, "the request target must be a path");
    for (char c : target)
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            return fail(400, "bad byte in the request target");
    if (version != "HTTP/1.1" && version != "HTTP/1.0") return fail(505, "HTTP/1.1 only");
    m_request.method = std::string(method);
    const size_t q = target.find('?');
    m_request.path = std::string(target.substr(0, q));
    if (q != std::string_view::npos) {
        std::string_view query = target.substr(q + 1);
        while (!query.empty()) {
            const size_t amp = query.find('&');
            const std::string_view pair = query.substr(0, amp);
            const size_t eq = pair.find('=');
            m_request.query[std::string(pair.substr(0, eq))]
                = eq == std::string_view::npos ? std::string() : std::string(pair.substr(eq + 1));
            if (amp == std::string_view::npos) break;
            query.remove_prefix(amp + 1);
        }
    }
    while (lineEnd != std::string_view::npos && lineEnd < head.size()) {
        const size_t start = lineEnd + 2;
        lineEnd = head.find("\r\n", start);
        line = head.substr(start, lineEnd == std::string_view::npos ? std::string_view::npos : lineEnd - start);
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0) return fail(400, "malformed header line");
        const std::string_view name = line.substr(0, colon);
        if (!std::all_of(name.begin(), name.end(), isTokenChar)) return fail(400, "malformed header name");
        const std::string_view value = trimWhitespace(line.substr(colon + 1));
        for (char c : value)
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
                return fail(400, "bad byte in a header value");
        std::string key = lowerFieldName(name);
        if (m_request.headers.count(key) && (key == "content-length" || key == "authorization"))
            return fail(400, "duplicate " + key + " header");
        m_request.headers[key] = std::string(value);
        if (m_request.headers.size() > SERVER_MAX_FIELDS)
            return fail(431, fmt::format("more than {} headers", SERVER_MAX_FIELDS));
    }
    if (m_request.headers.count("transfer-encoding")) return fail(411, "send the body with a Content-Length");
    m_bodyBytes = 0;
    if (auto it = m_request.headers.find("content-length"); it != m_request.headers.end()) {
        auto length = parseFieldSize(it->second);
        if (!length) return fail(400, "malformed Content-Length");
        if (*length > m_maxBodyBytes)
            return fail(
                413, fmt::format("request body of {} bytes is over the limit of {} bytes", *length, m_maxBodyBytes));
        m_bodyBytes = *length;
    }
    m_headDone = true;
    return m_state;
}

} // namespace wb
