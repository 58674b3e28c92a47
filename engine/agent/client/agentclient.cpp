#include "agent/client/agentclient.h"

#include "agent/channel/agentanswer.h"
#include "agent/channel/agentcredentials.h"
#include "agent/channel/agenthttp.h"
#include "agent/channel/tlschannel.h"
#include "common/clock.h"

#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nlohmann/json.hpp>

namespace wb {

Result<std::pair<std::string, uint16_t>> splitAgentAddress(const std::string& address)
{
    const size_t colon = address.rfind(':');
    if (colon == std::string::npos || colon == 0) return Error { fmt::format("agent '{}' must be HOST:PORT", address) };
    std::string host = address.substr(0, colon);
    if (host.front() == '[') {
        if (host.back() != ']') return Error { fmt::format("agent '{}': unclosed '['", address) };
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string::npos) {
        return Error { fmt::format("agent '{}': write an IPv6 address in brackets, [::1]:7450", address) };
    }
    const std::string portText = address.substr(colon + 1);
    char* end = nullptr;
    const unsigned long port = std::strtoul(portText.c_str(), &end, 10);
    if (portText.empty() || *end != '\0' || port == 0 || port > 65535)
        return Error { fmt::format("agent '{}': '{}' is not a port", address, portText) };
    return std::pair { host, static_cast<uint16_t>(port) };
}

std::string AgentClient::Reply::errorText() const
{
    return agentAnswerError(status, body);
}

AgentClient::AgentClient(AgentEndpoint endpoint)
    : m_endpoint(std::move(endpoint))
{
    auto tls = makeAgentClientContext(m_endpoint.caFile);
    if (tls)
        m_tls = *tls;
    else
        m_tlsError = tls.error();
}

AgentClient::~AgentClient() = default;

Result<std::unique_ptr<TlsChannel>> AgentClient::open(uint64_t deadlineUs)
{
    if (!m_tls) return Error { m_tlsError };
    if (m_endpoint.fingerprint.empty() && m_endpoint.caFile.empty())
        return Error { fmt::format("agent {}: no pinned fingerprint and no CA: an agent is never trusted silently "
                                   "(--agent-fingerprint or --agent-cacert)",
            m_endpoint.name) };
    auto hostPort = splitAgentAddress(m_endpoint.address);
    if (!hostPort) return Error { hostPort.error() };
    // With a CA, the chain alone is not enough: the certificate must name the agent's host
    // (any certificate that CA signed would otherwise receive the token).
    auto channel = TlsChannel::connect(m_tls.get(), hostPort->first, hostPort->second, deadlineUs,
        m_endpoint.caFile.empty() ? std::string() : hostPort->first);
    if (!channel) return Error { fmt::format("agent {}: {}", m_endpoint.name, channel.error()) };
    if (!m_endpoint.fingerprint.empty()) {
        const std::string seen = (*channel)->peerFingerprint();
        if (const PinCheck pin = checkPin(seen, m_endpoint.fingerprint); pin != PinCheck::Pinned)
            return Error { pinProblem(pin, m_endpoint.name, seen, m_endpoint.fingerprint) };
    }
    return channel;
}

std::string AgentClient::requestHead(const std::string& method, const std::string& path, size_t bodyBytes) const
{
    std::string head = fmt::format("{} {} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nConnection: close\r\n",
        method, path, m_endpoint.address, m_endpoint.token);
    if (bodyBytes > 0 || method == "POST")
        head += fmt::format("Content-Type: application/json\r\nContent-Length: {}\r\n", bodyBytes);
    return head + "\r\n";
}

Result<AgentClient::Reply> AgentClient::call(
    const std::string& method, const std::string& path, const std::string& body, uint64_t timeoutUs)
{
    const uint64_t deadline = monotonicNowUs() + timeoutUs;
    auto channel = open(deadline);
    if (!channel) return Error { channel.error() };
    if (auto st = (*channel)->writeAll(requestHead(method, path, body.size()) + body, deadline); !st)
        return Error { fmt::format("agent {}: {}", m_endpoint.name, st.error()) };
    AgentResponseReader reader;
    char buffer[16384];
    while (!reader.done()) {
        const long n = (*channel)->read(buffer, sizeof buffer, deadline);
        if (n == TlsChannel::TIMED_OUT)
            return Error { fmt::format("agent {} did not answer {} {} in time", m_endpoint.name, method, path) };
        if (n == TlsChannel::FAILED) return Error { fmt::format("agent {}: {}", m_endpoint.name, (*channel)->error()) };
        if (n == 0) {
            reader.closed();
            if (!reader.done())
                return Error { fmt::format("agent {} closed the connection before its answer", m_endpoint.name) };
            break;
        }
        if (!reader.feed(std::string_view(buffer, static_cast<size_t>(n))))
            return Error { fmt::format("agent {}: {}", m_endpoint.name, reader.error()) };
    }
    return Reply { reader.status(), reader.takeBody() };
}

AgentClient::StreamEnd AgentClient::stream(const std::string& path, const std::atomic<bool>& stop,
    const std::function<void(std::string_view)>& onBytes, std::string& detail)
{
    auto channel = open(monotonicNowUs() + 10'000'000);
    if (!channel) {
        detail = channel.error();
        return StreamEnd::LinkLost;
    }
    if (auto st = (*channel)->writeAll(requestHead("GET", path, 0), monotonicNowUs() + 10'000'000); !st) {
        detail = st.error();
        return StreamEnd::LinkLost;
    }
    AgentResponseReader reader;
    char buffer[65536];
    while (!reader.done()) {
        if (stop.load()) return StreamEnd::Stopped;
        // Short reads: a stop is seen within 250 ms; a dead link is found by TCP keep-alive
        // or the agent's close, never by a silence (a paused loader says nothing for long).
        const long n = (*channel)->read(buffer, sizeof buffer, monotonicNowUs() + 250'000);
        if (n == TlsChannel::TIMED_OUT) continue;
        if (n == TlsChannel::FAILED || n == 0) {
            detail = n == 0 ? "the connection closed mid-stream" : (*channel)->error();
            return StreamEnd::LinkLost;
        }
        if (!reader.feed(std::string_view(buffer, static_cast<size_t>(n)))) {
            detail = reader.error();
            return StreamEnd::LinkLost;
        }
        if (reader.headDone() && reader.status() != 200) {
            while (!reader.done()) { // the error body is short
                const long more = (*channel)->read(buffer, sizeof buffer, monotonicNowUs() + 5'000'000);
                if (more <= 0) break;
                reader.feed(std::string_view(buffer, static_cast<size_t>(more)));
            }
            detail = Reply { reader.status(), reader.takeBody() }.errorText();
            return StreamEnd::Refused;
        }
        if (!reader.body().empty()) onBytes(reader.takeBody());
    }
    return StreamEnd::Complete;
}

} // namespace wb
