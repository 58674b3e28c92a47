#pragma once
// The little HTTP/1.1 the agent and its clients speak (docs/AGENT.md): one
// request per connection, a body only with Content-Length, at most 1 MiB;
// answers with Content-Length or, for a stream, chunked. Requests come from
// the network: the parser never trusts a length, a header or a byte.

#include "http/reasonphrase.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace wb {

inline constexpr size_t AGENT_MAX_HEAD_BYTES = 16 * 1024;
inline constexpr size_t AGENT_MAX_BODY_BYTES = 1024 * 1024;

struct AgentRequest
{
    std::string method;
    std::string path; ///< without the query
    std::map<std::string, std::string> query; ///< decoded enough for our keys (no %-escapes needed)
    std::map<std::string, std::string> headers; ///< names in lower case
    std::string body;

    std::string header(const std::string& lowerName) const;
};

/// Reads one request from the bytes received so far.
class AgentRequestParser
{
public:
    enum class State { NeedMore, Done, Bad };
    /// Appends bytes; returns Done once the whole request is in, Bad with status() and
    /// error() set when it can never be a valid request (the connection answers and closes).
    State feed(std::string_view bytes);
    State state() const { return m_state; }
    const AgentRequest& request() const { return m_request; }
    int status() const { return m_status; } ///< Bad: 400, 411, 413, 431, 505
    const std::string& error() const { return m_error; }
    /// The head is in (the body may still be coming).
    bool headDone() const { return m_headDone; }

private:
    State fail(int status, std::string error);
    State parseHead(size_t headEnd);

    std::string m_buffer;
    AgentRequest m_request;
    State m_state = State::NeedMore;
    bool m_headDone = false;
    size_t m_bodyBytes = 0;
    int m_status = 0;
    std::string m_error;
};

/// A whole answer with a JSON (or empty) body; Connection: close.
std::string agentResponse(int status, const std::string& body, const std::string& contentType = "application/json");
/// The head of a chunked answer; then agentChunk() for each piece and agentChunk("") to end.
std::string agentChunkedHead(int status, const std::string& contentType);
std::string agentChunk(std::string_view data);
/// {"error":"..."} with the text escaped.
std::string agentErrorBody(const std::string& error);

/// Reads an answer on the client's side: the head, then the body by Content-Length,
/// chunked, or until the connection closes.
class AgentResponseReader
{
public:
    /// Appends bytes; decoded body bytes go to body() (and are taken with takeBody()).
    /// Returns false when the answer is malformed (error() says why).
    bool feed(std::string_view bytes);
    /// The connection closed: the answer is complete when it had no length.
    void closed();
    bool headDone() const { return m_headDone; }
    bool done() const { return m_done; }
    int status() const { return m_status; }
    const std::string& error() const { return m_error; }
    std::string& body() { return m_body; }
    std::string takeBody();

private:
    bool fail(std::string error);
    bool decodeChunks();

    std::string m_buffer;
    std::string m_body;
    bool m_headDone = false;
    bool m_done = false;
    bool m_chunked = false;
    std::optional<size_t> m_length;
    size_t m_bodyBytes = 0;
    int m_status = 0;
    std::string m_error;
};

} // namespace wb
