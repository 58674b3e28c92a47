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

struct Connection {
    enum class State : uint8_t {
        Idle, ///< no socket (before the first connect, or waiting to reconnect)
        Connecting, ///< non-blocking connect in progress
        Handshaking, ///< TLS handshake in progress
        Active, ///< sending requests and reading responses
    };

    int fd = -1;
    State state = State::Idle;
    bool writeInterest = false; ///< EPOLLOUT is registered (only while a write is blocked)
    uint32_t inFlight = 0; ///< requests written (or being written) whose responses are pending
    size_t writeOffset = 0; ///< bytes of the current request batch already written
    uint64_t batchSentUs = 0; ///< when the current batch was handed to the kernel
    uint64_t stateSinceUs = 0; ///< when Connecting/Handshaking began (connect timeout)
    uint64_t retryAtUs = 0; ///< Idle: when to connect again after a failure
    ResponseParser parser;
    std::unique_ptr<TlsTransport> tls; ///< set for https targets, reused across reconnects

    bool writePending(size_t batchBytes) const { return state == State::Active && writeOffset < batchBytes; }

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
