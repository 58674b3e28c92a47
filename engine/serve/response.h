#pragma once
// Private to the target server: what it answers. A Responder is prepared once
// from the options and then only read, by every loop thread at once; it turns a
// parsed request into response bytes appended to an OutQueue. When the answer
// goes out (delays, ordering, partial writes) is the loop's business.

#include "http/reasonphrase.h"
#include "serve/outqueue.h"
#include "serve/requesthead.h"

#include <atomic>
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace wb::serve {

/// A response body: bytes to copy, bytes that outlive every queue, or filler.
struct Body
{
    enum Kind : uint8_t { Copied, External, Filler };
    const char* data = nullptr;
    uint64_t size = 0;
    Kind kind = Copied;

    void appendTo(OutQueue& q, uint64_t offset, uint64_t count) const
    {
        if (kind == Filler)
            q.appendFiller(count);
        else if (kind == External)
            q.appendExternal(data + offset, count);
        else
            q.appendBytes(data + offset, count);
    }
};

enum class Framing : uint8_t { Length, Chunked, None };
enum class ConnectionHeader : uint8_t { None, Close, KeepAlive };

constexpr size_t MAX_HEAD_TEXT = 256;

/// Writes a response head into buf (MAX_HEAD_TEXT bytes); returns its length. extra: whole
/// header lines ("Name: value\r\n") of the normal answer, at most MAX_EXTRA_HEAD bytes.
constexpr size_t MAX_EXTRA_HEAD = 64;
inline size_t formatHead(
    char* buf, int status, Framing framing, uint64_t length, ConnectionHeader connection, std::string_view extra = {})
{
    char* p = buf;
    auto put = [&p](std::string_view s) {
        if (s.empty()) return; // an empty view's data() may be null, which memcpy may not be given
        std::memcpy(p, s.data(), s.size());
        p += s.size();
    };
    put("HTTP/1.1 ");
    p = std::to_chars(p, p + 3, status).ptr;
    put(" ");
    put(httpReasonPhrase(status));
    put("\r\nServer: wrkbench\r\nContent-Type: text/plain\r\n");
    if (framing == Framing::Length) {
        put("Content-Length: ");
        p = std::to_chars(p, p + 20, length).ptr;
        put("\r\n");
    } else if (framing == Framing::Chunked) {
        put("Transfer-Encoding: chunked\r\n");
    }
    if (connection == ConnectionHeader::Close)
        put("Connection: close\r\n");
    else if (connection == ConnectionHeader::KeepAlive)
        put("Connection: keep-alive\r\n");
    put(extra.substr(0, MAX_EXTRA_HEAD));
    put("\r\n");
    return static_cast<size_t>(p - buf);
}

inline void appendHead(
    OutQueue& q, int status, Framing framing, uint64_t length, ConnectionHeader connection, std::string_view extra = {})
{
    char buf[MAX_HEAD_TEXT];
    q.appendBytes(buf, formatHead(buf, status, framing, length, connection, extra));
}

/// Three chunks (fewer for tiny bodies), so that clients really reassemble.
inline void appendChunked(OutQueue& q, const Body& body)
{
    uint64_t chunk = (body.size + 2) / 3;
    for (uint64_t offset = 0; offset < body.size; offset += chunk) {
        uint64_t n = std::min(chunk, body.size - offset);
        char line[24];
        char* end = std::to_chars(line, line + 16, n, 16).ptr;
        *end++ = '\r';
        *end++ = '\n';
        q.appendBytes(line, static_cast<size_t>(end - line));
        body.appendTo(q, offset, n);
        q.appendBytes("\r\n", 2);
    }
    q.appendBytes("0\r\n\r\n", 5);
}

class Responder
{
public:
    Responder() = default;
    Responder(const Responder&) = delete; // m_body may point into m_text
    Responder& operator=(const Responder&) = delete;

    /// Stand in for `count` backends behind one front door (serve --backends): each normal
    /// answer's body is one backend's name ("backend-<i>\n", as serve_hostname answers), chosen
    /// in turn (even) or by weights count, count-1, ..., 1 (skewed). upstreamMs >= 0: every normal
    /// answer says x-envoy-upstream-service-time: upstreamMs. Call before prepare().
    void standIn(unsigned count, bool skewed, int64_t upstreamMs)
    {
        m_names.clear();
        m_pick.clear();
        for (unsigned i = 0; i < count; ++i) {
            m_names.push_back("backend-" + std::to_string(i) + "\n");
            for (unsigned w = 0; w < (skewed ? count - i : 1); ++w)
                m_pick.push_back(i);
        }
        // Weighted turns interleaved (i over the table's rows) rather than in runs of one backend.
        if (skewed) {
            std::vector<unsigned> spread;
            for (unsigned round = 0; spread.size() < m_pick.size(); ++round)
                for (unsigned i = 0; i < count; ++i)
                    if (count - i > round) spread.push_back(i);
            m_pick = std::move(spread);
        }
        m_upstreamValue = upstreamMs >= 0 ? std::to_string(upstreamMs) : "";
        m_extra = upstreamMs >= 0 ? "x-envoy-upstream-service-time: " + m_upstreamValue + "\r\n" : "";
    }
    /// The x-envoy-upstream-service-time value of normal answers ("" when not sent).
    const std::string& upstreamValue() const { return m_upstreamValue; }
    const std::string& extraHead() const { return m_extra; }
    const std::vector<std::string>& standInNames() const { return m_names; }

    /// bodySize >= 0: filler bodies of that size; else text, or "<host name>\n" when empty.
    void prepare(int64_t bodySize, const std::string& text)
    {
        if (bodySize >= 0) {
            m_text.clear();
            m_body = { nullptr, uint64_t(bodySize), Body::Filler };
        } else {
            m_text = text.empty() ? hostNameLine() : text;
            m_body = { m_text.data(), m_text.size(), Body::External };
        }
        char buf[MAX_HEAD_TEXT];
        m_cannedHead.assign(buf, formatHead(buf, 200, Framing::Length, m_body.size, ConnectionHeader::None, m_extra));
        m_canned.clear();
        m_standInCanned.clear();
        for (const std::string& name : m_names) {
            std::string answer(
                buf, formatHead(buf, 200, Framing::Length, name.size(), ConnectionHeader::None, m_extra));
            m_standInCanned.push_back(answer + name);
        }
        if (m_body.size <= COPY_LIMIT) {
            m_canned = m_cannedHead;
            m_canned.append(m_body.kind == Body::Filler ? fillerPattern() : m_body.data, m_body.size);
        }
    }

    /// Appends the answer to r. echo: the request body (Route::Echo). close:
    /// the connection closes after it.
    void compose(OutQueue& q, const RequestHead& r, std::string_view echo, bool close) const
    {
        bool normalBody = r.route == Route::Default || r.route == Route::Delay || r.route == Route::Capacity;
        if (normalBody && !m_names.empty()) { // a stand-in backend answers
            const size_t i = pick();
            if (!close && !r.http10 && !r.head) return q.appendBytes(m_standInCanned[i]);
            const std::string& name = m_names[i];
            appendHead(q, 200, Framing::Length, name.size(),
                close          ? ConnectionHeader::Close
                    : r.http10 ? ConnectionHeader::KeepAlive
                               : ConnectionHeader::None,
                m_extra);
            if (!r.head) q.appendBytes(name.data(), name.size());
            return;
        }
        if (normalBody && !close && !r.http10) { // the benchmark case: copy a prepared answer
            if (r.head || m_canned.empty()) {
                q.appendBytes(m_cannedHead);
                if (!r.head) m_body.appendTo(q, 0, m_body.size);
            } else {
                q.appendBytes(m_canned);
            }
            return;
        }
        static constexpr std::string_view BAD = "Bad Request\n";
        Body body = m_body;
        int status = 200;
        if (r.route == Route::Bytes) {
            body = { nullptr, r.number, Body::Filler };
        } else if (r.route == Route::Echo) {
            body = { echo.data(), echo.size(), Body::Copied };
        } else if (r.route == Route::BadParameter) {
            body = { BAD.data(), BAD.size(), Body::Copied };
            status = 400;
        } else if (r.route == Route::Status) {
            status = r.status;
        }
        bool noBody = status == 204 || status == 304;
        Framing framing = noBody ? Framing::None : r.route == Route::Chunked ? Framing::Chunked : Framing::Length;
        auto connection = close ? ConnectionHeader::Close
            : r.http10          ? ConnectionHeader::KeepAlive
                                : ConnectionHeader::None;
        appendHead(
            q, status, framing, body.size, connection, normalBody ? std::string_view(m_extra) : std::string_view());
        if (noBody || r.head) return;
        if (framing == Framing::Chunked)
            appendChunked(q, body);
        else
            body.appendTo(q, 0, body.size);
    }

    /// The normal body (the text, the host name line, or filler), for HTTP/2 answers; a stand-in
    /// backend's name when standing in.
    Body body() const
    {
        if (m_names.empty()) return m_body;
        const std::string& name = m_names[pick()];
        return { name.data(), name.size(), Body::External };
    }

    /// An error answer after which the connection closes; the body is the reason.
    static void composeError(OutQueue& q, int status)
    {
        std::string_view text = httpReasonPhrase(status);
        appendHead(q, status, Framing::Length, text.size() + 1, ConnectionHeader::Close);
        q.appendBytes(text.data(), text.size());
        q.appendBytes("\n", 1);
    }

private:
    static std::string hostNameLine()
    {
        char name[256] = {};
        if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost\n";
        return std::string(name) + "\n";
    }

    /// The next stand-in backend: one counter for all loop threads (one atomic add per answer,
    /// only while standing in), so the spread is the table's over the whole server.
    size_t pick() const { return m_pick[m_turn.fetch_add(1, std::memory_order_relaxed) % m_pick.size()]; }

    std::vector<std::string> m_names; // stand-in backends' bodies
    std::vector<unsigned> m_pick; // a turn's backend, by turn modulo its size
    std::vector<std::string> m_standInCanned; // each one's whole keep-alive answer
    std::string m_extra; // extra header lines of normal answers
    std::string m_upstreamValue;
    mutable std::atomic<uint64_t> m_turn { 0 };
    std::string m_text;
    Body m_body; // the normal body
    std::string m_canned; // the whole keep-alive 200 answer, when the body is short enough to copy
    std::string m_cannedHead; // its head alone (for HEAD, and for long bodies)
};

} // namespace wb::serve
