#include "agentchannel/agenthttp.h"

#include "common/jsontext.h"
#include "http/fieldtext.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wb {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool isTokenChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::optional<size_t> parseSize(std::string_view text, int base = 10)
{
    text = trimWhitespace(text);
    if (text.empty() || text.size() > 16) return std::nullopt;
    size_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

} // namespace

std::string AgentRequest::header(const std::string& lowerName) const
{
    auto it = headers.find(lowerName);
    return it == headers.end() ? std::string() : it->second;
}

AgentRequestParser::State AgentRequestParser::fail(int status, std::string error)
{
    m_status = status;
    m_error = std::move(error);
    m_state = State::Bad;
    return m_state;
}

AgentRequestParser::State AgentRequestParser::feed(std::string_view bytes)
{
    if (m_state != State::NeedMore) return m_state;
    if (!m_headDone) {
        const size_t scanFrom = m_buffer.size() >= 3 ? m_buffer.size() - 3 : 0;
        m_buffer.append(bytes);
        const size_t headEnd = m_buffer.find("\r\n\r\n", scanFrom);
        if (headEnd == std::string::npos) {
            if (m_buffer.size() > AGENT_MAX_HEAD_BYTES)
                return fail(431, fmt::format("request head over {} bytes", AGENT_MAX_HEAD_BYTES));
            return m_state;
        }
        if (headEnd + 4 > AGENT_MAX_HEAD_BYTES)
            return fail(431, fmt::format("request head over {} bytes", AGENT_MAX_HEAD_BYTES));
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

AgentRequestParser::State AgentRequestParser::parseHead(size_t headEnd)
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
        std::string key = lower(name);
        if (m_request.headers.count(key) && (key == "content-length" || key == "authorization"))
            return fail(400, "duplicate " + key + " header");
        m_request.headers[key] = std::string(value);
        if (m_request.headers.size() > 64) return fail(431, "more than 64 headers");
    }
    if (m_request.headers.count("transfer-encoding")) return fail(411, "send the body with a Content-Length");
    m_bodyBytes = 0;
    if (auto it = m_request.headers.find("content-length"); it != m_request.headers.end()) {
        auto length = parseSize(it->second);
        if (!length) return fail(400, "malformed Content-Length");
        if (*length > AGENT_MAX_BODY_BYTES)
            return fail(413,
                fmt::format("request body of {} bytes is over the limit of {} bytes", *length, AGENT_MAX_BODY_BYTES));
        m_bodyBytes = *length;
    }
    m_headDone = true;
    return m_state;
}

std::string agentResponse(int status, const std::string& body, const std::string& contentType)
{
    std::string out = fmt::format(
        "HTTP/1.1 {} {}\r\nConnection: close\r\nContent-Length: {}\r\n", status, httpReasonPhrase(status), body.size());
    if (!body.empty()) out += "Content-Type: " + contentType + "\r\n";
    if (status == 401) out += "WWW-Authenticate: Bearer\r\n";
    out += "\r\n";
    out += body;
    return out;
}

std::string agentChunkedHead(int status, const std::string& contentType)
{
    return fmt::format("HTTP/1.1 {} {}\r\nConnection: close\r\nContent-Type: {}\r\nTransfer-Encoding: chunked\r\n"
                       "Cache-Control: no-store\r\n\r\n",
        status, httpReasonPhrase(status), contentType);
}

std::string agentChunk(std::string_view data)
{
    return fmt::format("{:x}\r\n", data.size()) + std::string(data) + "\r\n";
}

std::string agentErrorBody(const std::string& error)
{
    return jsonText(nlohmann::json { { "error", error } });
}

bool AgentResponseReader::fail(std::string error)
{
    m_error = std::move(error);
    return false;
}

std::string AgentResponseReader::takeBody()
{
    std::string out;
    out.swap(m_body);
    return out;
}

bool AgentResponseReader::feed(std::string_view bytes)
{
    if (!m_error.empty()) return false;
    if (m_done) return true;
    m_buffer.append(bytes);
    if (!m_headDone) {
        const size_t headEnd = m_buffer.find("\r\n\r\n");
        if (headEnd == std::string::npos) {
            if (m_buffer.size() > AGENT_MAX_HEAD_BYTES) return fail("the answer's head is too long");
            return true;
        }
        std::string_view head(m_buffer.data(), headEnd);
        if (head.substr(0, 9) != "HTTP/1.1 " && head.substr(0, 9) != "HTTP/1.0 ") return fail("not an HTTP answer");
        auto status = parseSize(head.substr(9, 3));
        if (!status || *status < 100 || *status > 599) return fail("not an HTTP status");
        m_status = static_cast<int>(*status);
        size_t lineEnd = head.find("\r\n");
        while (lineEnd != std::string_view::npos) {
            const size_t start = lineEnd + 2;
            lineEnd = head.find("\r\n", start);
            std::string_view line
                = head.substr(start, lineEnd == std::string_view::npos ? std::string_view::npos : lineEnd - start);
            const size_t colon = line.find(':');
            if (colon == std::string_view::npos) return fail("malformed header in the answer");
            const std::string name = lower(line.substr(0, colon));
            const std::string_view value = trimWhitespace(line.substr(colon + 1));
            if (name == "transfer-encoding" && lower(value) == "chunked") m_chunked = true;
            if (name == "content-length") {
                m_length = parseSize(value);
                if (!m_length) return fail("malformed Content-Length in the answer");
            }
        }
        m_headDone = true;
        m_buffer.erase(0, headEnd + 4);
    }
    if (m_chunked) return decodeChunks();
    m_bodyBytes += m_buffer.size();
    m_body += m_buffer;
    m_buffer.clear();
    if (m_length && m_bodyBytes >= *m_length) {
        if (m_bodyBytes > *m_length) return fail("more bytes than the answer's Content-Length");
        m_done = true;
    }
    return true;
}

bool AgentResponseReader::decodeChunks()
{
    size_t pos = 0;
    while (!m_done) {
        const size_t lineEnd = m_buffer.find("\r\n", pos);
        if (lineEnd == std::string::npos) {
            if (m_buffer.size() - pos > 64) return fail("malformed chunk size");
            break;
        }
        std::string_view sizeText(m_buffer.data() + pos, lineEnd - pos);
        if (const size_t semi = sizeText.find(';'); semi != std::string_view::npos) sizeText = sizeText.substr(0, semi);
        auto size = parseSize(sizeText, 16);
        if (!size || *size > 64 * 1024 * 1024) return fail("malformed chunk size");
        if (m_buffer.size() < lineEnd + 2 + *size + 2) break;
        if (m_buffer.compare(lineEnd + 2 + *size, 2, "\r\n") != 0) return fail("malformed chunk");
        if (*size == 0) {
            m_done = true;
        } else {
            m_body.append(m_buffer, lineEnd + 2, *size);
            m_bodyBytes += *size;
        }
        pos = lineEnd + 2 + *size + 2;
    }
    m_buffer.erase(0, pos);
    return true;
}

void AgentResponseReader::closed()
{
    if (m_headDone && !m_chunked && !m_length) m_done = true;
}

} // namespace wb
