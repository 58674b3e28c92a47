#pragma once
// The little HTTP/1.1 the agent and its clients speak (docs/AGENT.md): requests read by the
// server side's one reader (http/serverrequest.h: one per connection, a body only with
// Content-Length, at most 1 MiB); answers with Content-Length or, for a stream, chunked, and
// the client's reader of them.

#include "http/reasonphrase.h"
#include "http/serverrequest.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace wb {

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
