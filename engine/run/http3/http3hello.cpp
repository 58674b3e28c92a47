#include "run/http3/http3hello.h"

#include "common/clock.h"
#include "net/udptransport.h"
#include "quic/quicconnection.h"

#include <algorithm>
#include <poll.h>
#include <vector>

namespace wb {

namespace {

// No request is made: streams do not matter to the check.
class NoStreams final : public QuicStreamEvents
{
public:
    void onStatus(void*, int) override { }
    void onField(void*, std::string_view, std::string_view) override { }
    void onBody(void*, const uint8_t*, size_t) override { }
    void onResponseEnd(void*) override { }
    void onStreamClose(void*, uint64_t) override { }
    void onGoaway(int64_t) override { }
    std::string_view bodyOf(void*) override { return {}; }
};

constexpr size_t HELLO_SLOT_BYTES = 2048;
constexpr size_t HELLO_SLOTS = 16;

} // namespace

Result<Http3Hello> quicHandshake(const RunConfig& config, const SocketAddress& address, int timeoutMs)
{
    auto tls = QuicTlsContext::create(config.tls.verifyPeer, config.tls.caFile);
    if (!tls) return Error { tls.error() };
    UdpTransport udp;
    if (!udp.open(address)) return Error { describeUdpError(errno, address) };
    NoStreams events;
    QuicConnection quic(events);
    const uint64_t startUs = monotonicNowUs();
    const uint64_t deadlineUs = startUs + static_cast<uint64_t>(timeoutMs) * 1000;
    QuicOptions options;
    options.handshakeTimeoutUs = static_cast<uint64_t>(timeoutMs) * 1000;
    const SocketAddress& local = udp.local();
    if (auto st = quic.open(
            **tls, config.request.url.host, local.get(), local.length, address.get(), address.length, startUs, options);
        !st)
        return Error { st.error() };

    std::vector<char> buffer(std::max(HELLO_SLOTS * HELLO_SLOT_BYTES, size_t { 64 * 1024 }));
    uint32_t lengths[HELLO_SLOTS];
    for (;;) {
        uint64_t now = monotonicNowUs();
        // What QUIC has to send (the Initial first, then acknowledgements and retransmissions).
        for (;;) {
            size_t segmentBytes = 0;
            const size_t n = quic.write(reinterpret_cast<uint8_t*>(buffer.data()), buffer.size(), segmentBytes, now);
            if (n == 0) break;
            size_t sent = 0;
            if (udp.send({ buffer.data(), n }, segmentBytes, sent) == IoStatus::Error)
                quic.onUnreachable(describeUdpError(udp.lastErrno(), address));
            if (quic.ended()) break;
        }
        if (quic.ended()) break;
        if (quic.handshakeDone()) {
            const QuicFacts facts = quic.facts();
            // The check is over: the server lets the connection go now, not at its idle timeout.
            if (const size_t n = quic.writeClose(reinterpret_cast<uint8_t*>(buffer.data()), buffer.size(), now)) {
                size_t sent = 0;
                udp.send({ buffer.data(), n }, n, sent);
            }
            return Http3Hello { facts.version, facts.alpn, facts.streamsBidiLimit, now - startUs };
        }
        now = monotonicNowUs();
        if (now >= deadlineUs) break;
        const uint64_t wakeUs = std::min(deadlineUs, quic.expiryUs());
        pollfd p { udp.fd(), POLLIN, 0 };
        const int waitMs = wakeUs > now ? static_cast<int>((wakeUs - now + 999) / 1000) : 0;
        if (::poll(&p, 1, waitMs) > 0) {
            size_t received = 0;
            const IoStatus st = udp.receive(buffer.data(), HELLO_SLOT_BYTES, HELLO_SLOTS, lengths, received);
            if (st == IoStatus::Error) {
                quic.onUnreachable(describeUdpError(udp.lastErrno(), address));
                break;
            }
            for (size_t i = 0; i < received && !quic.ended(); ++i)
                quic.receive(reinterpret_cast<const uint8_t*>(buffer.data() + i * HELLO_SLOT_BYTES), lengths[i],
                    monotonicNowUs());
        } else if (monotonicNowUs() >= quic.expiryUs()) {
            quic.onExpiry(monotonicNowUs());
        }
        if (quic.ended()) break;
    }
    const QuicEndInfo& end = quic.end();
    switch (end.kind) {
    case QuicEnd::Unreachable:
        return Error { end.reason + ": the server does not speak HTTP/3 there" };
    case QuicEnd::None:
    case QuicEnd::HandshakeTimeout:
        return Error { "no QUIC handshake with " + address.toString() + " within " + std::to_string(timeoutMs)
            + " ms: nothing answers HTTP/3 on that UDP port (or a firewall drops it)" };
    case QuicEnd::VersionNegotiation:
        return Error { address.toString() + ": " + end.reason };
    default:
        return Error { "QUIC handshake with " + address.toString() + " failed: " + end.reason };
    }
}

} // namespace wb
