#pragma once
// One client connection slot of a worker. The slot lives for the whole run;
// its socket is replaced when the server closes it, on errors and timeouts.
// Its transport is a StreamTransport (net/transport.h): plain TCP, or TLS over
// it; or, for a datagram driver (HTTP/3), a UDP socket under the session's QUIC; the protocol above it is the slot's
// ClientSession (owned by the worker's session pool, reset with every new socket). What the slot sends next is the
// worker's RequestSource's business, not the slot's.

#include "net/iostatus.h"
#include "net/tlstransport.h"
#include "net/transport.h"
#include "net/udptransport.h"
#include "run/clientsession.h"

#include <cstdint>
#include <memory>

namespace wb {

struct Connection
{
    enum class State : uint8_t {
        Idle, ///< no socket (before the first connect, waiting to reconnect, or parked by a ramp)
        Connecting, ///< non-blocking connect in progress
        Handshaking, ///< TLS handshake in progress
        Active, ///< sending requests and reading responses
    };

    TcpTransport tcp; ///< the socket (-1 when Idle); the transport itself for plain http
    UdpTransport udp; ///< a datagram driver's socket instead (HTTP/3); -1 when Idle or unused
    State state = State::Idle;
    bool writeInterest = false; ///< EPOLLOUT is registered (only while a write is blocked)
    /// Close when idle: a connection ramp is going down (the slot stays closed), or churn retires
    /// the connection (a new one takes its place).
    bool closeAfterResponse = false;
    /// Open model: requests came due while a write was blocked (none goes out behind one);
    /// they go, and the next due time is armed, once the write is out.
    bool dueBehindWrite = false;
    uint64_t stateSinceUs = 0; ///< when Connecting/Handshaking began (connect timeout)
    uint64_t retryAtUs = 0; ///< Idle: when to connect again after a failure (0 = not waiting)
    uint64_t nextSequence = 0; ///< open model: this connection's next request number
    uint64_t nextDueUs = 0; ///< open model: when that request is due (UINT64_MAX = plan over)
    /// Closed model, a source that delays (wrk's delay()): when the next batch goes out; 0 when
    /// the connection is not waiting. A new socket starts without one (close() clears it).
    uint64_t delayedUntilUs = 0;
    /// Datagram sessions: the session timer armed in the worker's heap (UINT64_MAX = none).
    uint64_t timerUs = UINT64_MAX;
    /// Churn (--conn-requests): requests this connection may still send (UINT32_MAX: no limit).
    uint32_t requestsLeft = UINT32_MAX;
    /// Churn (--conn-lifetime): when this connection is retired (UINT64_MAX: never).
    uint64_t retireAtUs = UINT64_MAX;
    /// Connections this slot has opened: churn's draws and the source address turn with it.
    uint32_t opened = 0;
    ClientSession* session = nullptr; ///< the protocol on this slot (the worker's, lives as long)
    std::unique_ptr<TlsTransport> tls; ///< set for https targets, reused across reconnects

    int fd() const { return tcp.fd() >= 0 ? tcp.fd() : udp.fd(); }
    bool writePending() const { return state == State::Active && session->hasOutput(); }

    /// What the session's bytes travel on: TLS when there is one, else the socket itself.
    StreamTransport& transport() { return tls ? static_cast<StreamTransport&>(*tls) : tcp; }
    const StreamTransport& transport() const { return tls ? static_cast<const StreamTransport&>(*tls) : tcp; }

    /// Closes the socket (and TLS state, keeping the TLS session for resumption); resets the session.
    void close();
};

} // namespace wb
