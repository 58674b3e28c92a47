#pragma once
// The workstation's side of the agent API (docs/AGENT.md), for the CLI and the
// recorded run: one TLS connection per request, the agent's certificate
// checked against the pinned fingerprint (or a CA file) before a byte is sent,
// the token as a bearer header. Blocking with deadlines; streams can be given up.

#include "agent/client/agentendpoint.h"
#include "common/result.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

using SSL_CTX = struct ssl_ctx_st;

namespace wb {

class TlsChannel;

/// "host:port", "[v6]:port" -> host and port; the error names the address.
Result<std::pair<std::string, uint16_t>> splitAgentAddress(const std::string& address);

class AgentClient
{
public:
    explicit AgentClient(AgentEndpoint endpoint);
    ~AgentClient();

    struct Reply
    {
        int status = 0;
        std::string body;
        /// The agent's {"error": ...}, or the status line's meaning.
        std::string errorText() const;
    };
    /// One request, its whole answer. An error only when there is no answer (TLS, pin, link).
    Result<Reply> call(const std::string& method, const std::string& path, const std::string& body, uint64_t timeoutUs);

    enum class StreamEnd { Complete, LinkLost, Refused, Stopped };
    /// GET path as a stream: decoded body bytes go to onBytes as they come. Returns how it
    /// ended; `detail` says why when it did not complete.
    StreamEnd stream(const std::string& path, const std::atomic<bool>& stop,
        const std::function<void(std::string_view)>& onBytes, std::string& detail);

    const AgentEndpoint& endpoint() const { return m_endpoint; }

private:
    Result<std::unique_ptr<TlsChannel>> open(uint64_t deadlineUs);
    std::string requestHead(const std::string& method, const std::string& path, size_t bodyBytes) const;

    AgentEndpoint m_endpoint;
    std::shared_ptr<SSL_CTX> m_tls;
    std::string m_tlsError;
};

} // namespace wb
