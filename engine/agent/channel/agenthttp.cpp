#include "agent/channel/agenthttp.h"

#include "common/jsontext.h"
#include "http/fieldtext.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wb {

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
            if (m_buffer.size() > SERVER_MAX_HEAD_BYTES) return fail("the answer's head is too long");
            return true;
        }
        std::string_view head(m_buffer.data(), headEnd);
        if (head.substr(0, 9) != "HTTP/1.1 " && head.substr(0, 9) != "HTTP/1.0 ") return fail("not an HTTP answer");
        auto status = parseFieldSize(head.substr(9, 3));
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
            const std::string name = lowerFieldName(line.substr(0, colon));
            const std::string_view value = trimWhitespace(line.substr(colon + 1));
            if (name == "transfer-encoding" && lowerFieldName(value) == "chunked") m_chunked = true;
            if (name == "content-length") {
                m_length = parseFieldSize(value);
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
        auto size = parseFieldSize(sizeText, 16);
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
