#pragma once
// The one reader of HTTP/1.x requests on the server side for our control and scrape endpoints (the
// agent's API, --metrics-listen): one request per connection, a body only with Content-Length,
// bounded head and body. Requests come from the network: the parser never trusts a length, a
// header or a byte. (The built-in target server reads pipelined requests on its hot path with its
// own zero-copy scanner, serve/requesthead.h.)

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace wb {

inline constexpr size_t SERVER_MAX_HEAD_BYTES = 16 * 1024;
inline constexpr size_t SERVER_MAX_BODY_BYTES = 1024 * 1024;
inline constexpr size_t SERVER_MAX_FIELDS = 64;

struct ServerRequest
{
    std::string method;
    std::string path; ///< without the query
    std::map<std::string, std::string> query; ///< decoded enough for our keys (no %-escapes needed)
    std::map<std::string, std::string> headers; ///< names in lower case
    std::string body;

    std::string header(const std::string& lowerName) const;
};

/// Reads one request from the bytes received so far.
class ServerRequestParser
{
public:
    enum class State { NeedMore, Done, Bad };
    /// A head longer than maxHeadBytes is refused (431), a body longer than maxBodyBytes too (413).
    explicit ServerRequestParser(
        size_t maxHeadBytes = SERVER_MAX_HEAD_BYTES, size_t maxBodyBytes = SERVER_MAX_BODY_BYTES)
        : m_maxHeadBytes(maxHeadBytes)
        , m_maxBodyBytes(maxBodyBytes)
    { }
    /// Appends bytes; returns Done once the whole request is in, Bad with status() and
    /// error() set when it can never be a valid request (the connection answers and closes).
    State feed(std::string_view bytes);
    State state() const { return m_state; }
    const ServerRequest& request() const { return m_request; }
    int status() const { return m_status; } ///< Bad: 400, 411, 413, 431, 505
    const std::string& error() const { return m_error; }
    /// The head is in (the body may still be coming).
    bool headDone() const { return m_headDone; }

private:
    State fail(int status, std::string error);
    State parseHead(size_t headEnd);

    size_t m_maxHeadBytes;
    size_t m_maxBodyBytes;
    std::string m_buffer;
    ServerRequest m_request;
    State m_state = State::NeedMore;
    bool m_headDone = false;
    size_t m_bodyBytes = 0;
    int m_status = 0;
    std::string m_error;
};

} // namespace wb
