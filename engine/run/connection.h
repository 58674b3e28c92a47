#pragma once
// One client connection slot of a worker. The slot lives for the whole run;
// its socket is replaced when the server closes it, on errors and timeouts.
// Transport is plain TCP or TLS (TlsTransport); the protocol above it is the
// slot's ClientSession (owned by the worker, reset with every new socket).

#include "net/iostatus.h"
#include "net/tlstransport.h"
#include "run/clientsession.h"
#include "run/mixpicker.h"

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

    int fd = -1;
    State state = State::Idle;
    bool writeInterest = false; ///< EPOLLOUT is registered (only while a write is blocked)
    bool closeAfterResponse = false; ///< a connection ramp is going down: close when idle
    uint64_t stateSinceUs = 0; ///< when Connecting/Handshaking began (connect timeout)
    uint64_t retryAtUs = 0; ///< Idle: when to connect again after a failure (0 = not waiting)
    uint64_t nextSequence = 0; ///< open model: this connection's next request number
    uint64_t nextDueUs = 0; ///< open model: when that request is due (UINT64_MAX = plan over)
    ClientSession* session = nullptr; ///< the protocol on this slot (the worker's, lives as long)
    MixPicker picker; ///< which request of a mix goes next (always 0 without one); kept across reconnects
    std::unique_ptr<TlsTransport> tls; ///< set for https targets, reused across reconnects

    bool writePending() const { return state == State::Active && session->hasOutput(); }

    IoStatus read(char* buffer, size_t length, size_t& n)
    {
        return tls ? tls->read(buffer, length, n) : plainReadFd(buffer, length, n);
    }
    IoStatus write(const char* data, size_t length, size_t& n)
    {
        return tls ? tls->write(data, length, n) : plainWriteFd(data, length, n);
    }
    bool hasBufferedInput() const { return tls && tls->hasPendingInput(); }

    /// Closes the socket (and TLS state, keeping the TLS session for resumption); resets the session.
    void close();

private:
    IoStatus plainReadFd(char* buffer, size_t length, size_t& n);
    IoStatus plainWriteFd(const char* data, size_t length, size_t& n);
};

} // namespace wb
