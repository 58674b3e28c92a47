#include "run/protocoldriver.h"

#include "net/tlstransport.h"
#include "run/http1/http1session.h"
#include "run/http2/http2framesession.h"
#include "run/http2/http2hello.h"
#include "run/http2/http2session.h"
#include "run/http3/http3hello.h"
#include "run/http3/http3session.h"
#include "run/requestsource.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace wb {

namespace {

class Http1Driver final : public ProtocolDriver
{
public:
    const char* name() const override { return "HTTP/1.1"; }
    const char* alpn() const override { return Http1Session::ALPN; }
    // A server that selects no protocol speaks HTTP/1.1 all the same (ALPN is optional for it).
    bool requiresAlpn() const override { return false; }

    std::unique_ptr<SessionPool> makePool(const RunConfig& config, bool closedLoop, const RequestSource& source,
        ResponseObserver* observer, size_t sessions) const override
    {
        // --pipeline, or the depth a script's first request() string asks for when it was left at 1.
        const uint32_t depth = config.pipeline > 1 ? config.pipeline : std::max<uint32_t>(1, source.pipelineDepth());
        Http1Requests requests = Http1Requests::build(source.table(), depth, closedLoop, source.buildsPerSend());
        requests.observer = observer;
        return std::make_unique<Http1SessionPool>(std::move(requests), sessions);
    }
};

constexpr ProtocolErrorKind HTTP2_ERROR_KINDS[] = {
    { &ErrorCounts::stream, "stream", "the server reset the request's stream (RST_STREAM); the connection goes on" },
};

class Http2Driver final : public ProtocolDriver
{
public:
    const char* name() const override { return "HTTP/2"; }
    const char* alpn() const override { return Http2Session::ALPN; }
    // --http2 offers h2 alone and requires it: a run never falls back to HTTP/1.1 silently.
    bool requiresAlpn() const override { return true; }
    std::vector<std::string> preflightAlpn() const override { return { Http2Session::ALPN, Http1Session::ALPN }; }

    std::vector<std::string> requestWarnings(const std::vector<RequestSpec>& requests) const override
    {
        // Once per distinct warning: a mix's entries often share their headers.
        std::vector<std::string> out;
        for (const RequestSpec& request : requests)
            if (auto dropped = droppedFieldsWarning(buildHttp2Fields(request));
                !dropped.empty() && std::find(out.begin(), out.end(), dropped) == out.end())
                out.push_back(dropped);
        return out;
    }

    Status preflight(
        const RunConfig& config, const PreflightLink& link, std::vector<std::string>& warnings) const override
    {
        auto hello = exchangeHttp2Settings(config, link.fd, link.tls, link.timeoutMs);
        if (!hello) return Error { hello.error() };
        if (hello->maxConcurrentStreams < config.streams)
            warnings.push_back("the server allows " + std::to_string(hello->maxConcurrentStreams)
                + " concurrent streams per connection: using that many instead of " + std::to_string(config.streams));
        return {};
    }

    std::span<const ProtocolErrorKind> errorKinds() const override { return HTTP2_ERROR_KINDS; }

    std::unique_ptr<SessionPool> makePool(const RunConfig& config, bool, const RequestSource& source,
        ResponseObserver* observer, size_t sessions) const override
    {
        // Our own framing layer; libnghttp2's session stays as the reference the tests and
        // bench/vs-h2load.sh compare it with (WB_HTTP2_SESSION=nghttp2).
        if (const char* impl = std::getenv("WB_HTTP2_SESSION"); impl && std::string_view(impl) == "nghttp2")
            return std::make_unique<Http2SessionPool>(config, source.table(), observer, sessions);
        return std::make_unique<Http2FrameSessionPool>(config, source.table(), observer, sessions);
    }
};

constexpr ProtocolErrorKind HTTP3_ERROR_KINDS[] = {
    { &ErrorCounts::stream, "stream", "the server reset the request's stream (RESET_STREAM); the connection goes on" },
};

// HTTP/3 over QUIC: UDP datagrams, TLS 1.3 inside QUIC's handshake (GnuTLS through ngtcp2, not
// the run's OpenSSL), the QUIC library's timers driven by the worker.
class Http3Driver final : public ProtocolDriver
{
public:
    const char* name() const override { return "HTTP/3"; }
    const char* alpn() const override { return QuicConnection::ALPN; }
    bool requiresAlpn() const override { return true; } // QUIC's TLS refuses the handshake without it
    TransportKind transport() const override { return TransportKind::Datagram; }

    std::vector<std::string> requestWarnings(const std::vector<RequestSpec>& requests) const override
    {
        std::vector<std::string> out;
        for (const RequestSpec& request : requests)
            if (auto dropped = droppedFieldsWarning(buildHttp2Fields(request)); !dropped.empty()) {
                // The same connection-specific fields as HTTP/2 (RFC 9114 4.2), named for HTTP/3.
                for (size_t at = dropped.find("HTTP/2"); at != std::string::npos; at = dropped.find("HTTP/2", at))
                    dropped.replace(at, 6, "HTTP/3");
                if (const size_t at = dropped.find("RFC 9113 8.2.2"); at != std::string::npos)
                    dropped.replace(at, 14, "RFC 9114 4.2");
                if (std::find(out.begin(), out.end(), dropped) == out.end()) out.push_back(dropped);
            }
        return out;
    }

    Status preflightDatagram(const RunConfig& config, const SocketAddress& address, int timeoutMs,
        std::vector<std::string>& warnings) const override
    {
        auto hello = quicHandshake(config, address, timeoutMs);
        if (!hello) return Error { hello.error() };
        if (hello->maxStreamsBidi < config.streams)
            warnings.push_back("the server allows " + std::to_string(hello->maxStreamsBidi)
                + " concurrent streams per connection: using that many instead of " + std::to_string(config.streams));
        return {};
    }

    std::span<const ProtocolErrorKind> errorKinds() const override { return HTTP3_ERROR_KINDS; }

    std::unique_ptr<SessionPool> makePool(const RunConfig& config, bool, const RequestSource& source,
        ResponseObserver* observer, size_t sessions) const override
    {
        return std::make_unique<Http3SessionPool>(config, source.table(), observer, sessions);
    }
};

} // namespace

const ProtocolDriver& protocolDriverFor(HttpVersion version)
{
    static const Http1Driver http1;
    static const Http2Driver http2;
    static const Http3Driver http3;
    switch (version) {
    case HttpVersion::Http3:
        return http3;
    case HttpVersion::Http2:
        return http2;
    case HttpVersion::Http1:
        break;
    }
    return http1;
}

} // namespace wb
