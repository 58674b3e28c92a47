#pragma once
// The pre-run check of an HTTP/3 run: one QUIC handshake with the target on its
// UDP port, within the connect timeout, before any load. A server that does not
// speak HTTP/3 there is refused with one sentence that says what happened:
// nothing listens on the port (ICMP port unreachable), nothing answers, the
// handshake was refused (certificate, ALPN, the server's TLS alert), or the
// server speaks another QUIC version.

#include "common/result.h"
#include "net/address.h"
#include "run/runconfig.h"

#include <cstdint>
#include <string>

namespace wb {

struct Http3Hello
{
    uint32_t version = 0; ///< the negotiated QUIC version
    std::string alpn; ///< "h3"
    uint64_t maxStreamsBidi = 0; ///< the server's initial_max_streams_bidi
    uint64_t handshakeUs = 0; ///< how long the handshake took
};

/// One handshake with address (SNI and certificate name: the URL's host), waiting at most timeoutMs.
Result<Http3Hello> quicHandshake(const RunConfig& config, const SocketAddress& address, int timeoutMs);

} // namespace wb
