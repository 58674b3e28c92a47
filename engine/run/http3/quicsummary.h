#pragma once
// What an HTTP/3 run learnt about QUIC, for the report, the JSON and the store:
// an end-of-run fact (RunEnd::quic), mergeable over loaders. Connection ends are
// counted by what happened, since a QUIC connection can end in ways a TCP one
// cannot (an idle timeout, a stateless reset, a CONNECTION_CLOSE with a code).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace wb {

struct QuicSummary
{
    /// How connections ended, in the order of QUIC_END_NAMES (engine/quic's QuicEnd without None).
    static constexpr size_t END_KINDS = 8;
    uint32_t version = 0; ///< the negotiated QUIC version (1 = RFC 9000); 0 = no handshake completed
    std::string alpn; ///< the protocol selected by ALPN ("h3")
    uint64_t handshakes = 0; ///< QUIC handshakes completed (each 1-RTT: 0-RTT is not offered)
    uint64_t zeroRttHandshakes = 0; ///< handshakes that sent requests as 0-RTT (none yet)
    /// Packets carrying our requests' STREAM frames that ngtcp2 declared lost (and whose frames
    /// it sent again); ngtcp2 0.12 counts no other loss per connection.
    uint64_t lostPackets = 0;
    uint64_t probeTimeouts = 0; ///< QUIC probe timeouts (PTO) that fired: the sender heard no ack in time
    std::array<uint64_t, END_KINDS> ends {}; ///< connections that ended, by kind (a run's last ones are not ended)
    std::string firstEnd; ///< the first connection end that was not graceful, in one sentence

    bool empty() const { return handshakes == 0 && version == 0 && firstEnd.empty() && totalEnds() == 0; }
    uint64_t totalEnds() const
    {
        uint64_t n = 0;
        for (uint64_t e : ends)
            n += e;
        return n;
    }
    /// Another loader's (or worker's) facts of the same run: counts summed, the first end kept.
    void merge(const QuicSummary& o)
    {
        if (version == 0) version = o.version;
        if (alpn.empty()) alpn = o.alpn;
        handshakes += o.handshakes;
        zeroRttHandshakes += o.zeroRttHandshakes;
        lostPackets += o.lostPackets;
        probeTimeouts += o.probeTimeouts;
        for (size_t i = 0; i < END_KINDS; ++i)
            ends[i] += o.ends[i];
        if (firstEnd.empty()) firstEnd = o.firstEnd;
    }
    bool operator==(const QuicSummary&) const = default;
};

/// The names of QuicSummary::ends, as the JSON and the store write them.
constexpr std::array<const char*, QuicSummary::END_KINDS> QUIC_END_NAMES = { "handshake_failed", "handshake_timeout",
    "unreachable", "version_negotiation", "idle_timeout", "peer_closed", "stateless_reset", "protocol_error" };

/// "QUIC v1" / "QUIC 0x709a50c4" for a version number.
std::string quicVersionName(uint32_t version);

} // namespace wb
