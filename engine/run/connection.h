#pragma once
// One client connection slot of a worker. The slot lives for the whole run;
// its socket is replaced when the server closes it, on errors and timeouts.
// Transport is plain TCP or TLS (TlsTransport); everything above it is shared.

#include "http/responseparser.h"
#include "net/iostatus.h"
#include "net/tlstransport.h"

#include <cstdint>
#include <memory>

namespace wb {

/// Due and send times of one request in flight.
struct InFlightRequest
{
    uint64_t dueUs = 0; ///< when the schedule wanted it sent (closed loop: = sentUs)
    uint64_t sentUs = 0; ///< when it was handed to the kernel
};

struct Connection
{
    enum class State : uint8_t {
        Idle, ///< no socket (before the first connect, waiting to reconnect, or parked by a ramp)
        Connecting, ///< non-blocking connect in progress
        Handshaking, ///< TLS handshake in progress
        Active, ///< sending requests and reading responses
    };

    int fd = -1;
    State state = State::Idle;
    bool writeInterest = false; ///< EPOLLOUT is registered (only while a write is blocked)
    bool closeAfterResponse = false; ///< a connection ramp is going down: close when idle
    uint32_t inFlight = 0; ///< requests written (or being written) whose responses are pending
    uint32_t ringHead = 0; ///< oldest in-flight request in the worker's ring slice
    size_t writeOffset = 0; ///< bytes of the current write already sent
    size_t writeTarget = 0; ///< bytes of the current write (one batch or the due requests)
    uint64_t stateSinceUs = 0; ///< when Connecting/Handshaking began (connect timeout)
    uint64_t retryAtUs = 0; ///< Idle: when to connect again after a failure (0 = not waiting)
    uint64_t nextSequence = 0; ///< open model: this connection's next request number
    uint64_t nextDueUs = 0; ///< open model: when that request is due (UINT64_MAX = plan over)
    ResponseParser parser;
    std::unique_ptr<TlsTransport> tls; ///< set for https targets, reused across reconnects

    bool writePending() const { return state == State::Active && writeOffset < writeTarget; }

    IoStatus read(char* buffer, size_t length, size_t& n)
    {
        return tls ? tls->read(buffer, length, n) : plainReadFd(buffer, length, n);
    }
    IoStatus write(const char* data, size_t length, size_t& n)
    {
        return tls ? tls->write(data, length, n) : plainWriteFd(data, length, n);
    }
    bool hasBufferedInput() const { return tls && tls->hasPendingInput(); }

    /// Closes the socket (and TLS state, keeping the session for resumption).
    void close();

private:
    IoStatus plainReadFd(char* buffer, size_t length, size_t& n);
    IoStatus plainWriteFd(const char* data, size_t length, size_t& n);
};

} // namespace wb
