#pragma once
// Plain counters a worker keeps for itself and the run controller sums.

#include <array>
#include <cstddef>
#include <cstdint>

namespace wb {

/// Failed attempts by cause. A request counts in at most one field.
struct ErrorCounts
{
    uint64_t connect = 0; ///< connect() failed or the connect timeout expired; no request was sent
    uint64_t read = 0; ///< the peer reset or closed the connection before a response was complete
    uint64_t write = 0; ///< sending the request failed (EPIPE, ECONNRESET, ...)
    uint64_t timeout = 0; ///< no complete response within the request timeout; the connection was replaced
    uint64_t tls = 0; ///< TLS handshake failed (certificate, protocol, alert)
    uint64_t parse = 0; ///< the response was not valid HTTP/1.x (or HTTP/2 framing); the connection was recycled
    uint64_t stream = 0; ///< HTTP/2: the server reset the request's stream (RST_STREAM); the connection goes on
    uint64_t status = 0; ///< complete responses with a status outside 2xx/3xx (also counted as requests)

    /// Socket errors in wrk's sense (connect, read, write, timeout).
    uint64_t socketErrors() const { return connect + read + write + timeout; }
    /// Requests that got no usable answer: socket, TLS, parse and stream errors, i.e. everything
    /// but the non-2xx/3xx responses (which are answers, counted in `status`).
    uint64_t transportErrors() const { return connect + read + write + timeout + tls + parse + stream; }
    /// Everything that went wrong, non-2xx/3xx responses included.
    uint64_t total() const { return transportErrors() + status; }

    ErrorCounts& operator+=(const ErrorCounts& o)
    {
        connect += o.connect;
        read += o.read;
        write += o.write;
        timeout += o.timeout;
        tls += o.tls;
        parse += o.parse;
        stream += o.stream;
        status += o.status;
        return *this;
    }
    bool operator==(const ErrorCounts&) const = default;
};

/// Responses by status code. Codes outside 100..599 are counted under 0.
struct StatusCounts
{
    static constexpr int MAX_CODE = 599;
    std::array<uint64_t, MAX_CODE + 1> byCode {};

    void add(int code) { ++byCode[(code >= 100 && code <= MAX_CODE) ? code : 0]; }
    uint64_t total() const
    {
        uint64_t sum = 0;
        for (uint64_t n : byCode)
            sum += n;
        return sum;
    }
    StatusCounts& operator+=(const StatusCounts& o)
    {
        for (size_t i = 0; i < byCode.size(); ++i)
            byCode[i] += o.byCode[i];
        return *this;
    }
};

} // namespace wb
