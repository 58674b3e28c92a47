#pragma once
// Plain counters a worker keeps for itself and the run controller sums.

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace wb {

/// Whether a response's status is outside 2xx/3xx ("Non-2xx or 3xx responses", as wrk says).
/// Such a response is an answer, counted as a request and by its code; it is never an error
/// kind (StatusCounts::non2xx, EntryStats::non2xx and IntervalRecord::non2xx count them).
constexpr bool isNon2xx(int status)
{
    return status < 200 || status > 399;
}

/// Requests that got no usable answer, by cause. A request counts in at most one field.
struct ErrorCounts
{
    uint64_t connect = 0; ///< connect() failed or the connect timeout expired; no request was sent
    uint64_t read = 0; ///< the peer reset or closed the connection before a response was complete
    uint64_t write = 0; ///< sending the request failed (EPIPE, ECONNRESET, ...)
    uint64_t timeout = 0; ///< no complete response within the request timeout; the connection was replaced
    uint64_t tls = 0; ///< TLS handshake failed (certificate, protocol, alert)
    uint64_t parse = 0; ///< the response was not valid HTTP/1.x (or HTTP/2 framing); the connection was recycled
    uint64_t stream = 0; ///< HTTP/2: the server reset the request's stream (RST_STREAM); the connection goes on

    /// Socket errors in wrk's sense (connect, read, write, timeout).
    uint64_t socketErrors() const { return connect + read + write + timeout; }
    /// All of them: socket, TLS, parse and stream errors.
    uint64_t transportErrors() const { return connect + read + write + timeout + tls + parse + stream; }

    ErrorCounts& operator+=(const ErrorCounts& o)
    {
        connect += o.connect;
        read += o.read;
        write += o.write;
        timeout += o.timeout;
        tls += o.tls;
        parse += o.parse;
        stream += o.stream;
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
    /// Responses outside 2xx/3xx (those under 0, out of range, included).
    uint64_t non2xx() const
    {
        uint64_t sum = 0;
        for (size_t code = 0; code < byCode.size(); ++code)
            if (isNon2xx(static_cast<int>(code))) sum += byCode[code];
        return sum;
    }
    StatusCounts& operator+=(const StatusCounts& o)
    {
        for (size_t i = 0; i < byCode.size(); ++i)
            byCode[i] += o.byCode[i];
        return *this;
    }
};

/// Responses outside 2xx/3xx among counts by code (as intervals and mix entries keep them).
inline uint64_t non2xxOf(const std::vector<std::pair<int, uint64_t>>& codes)
{
    uint64_t sum = 0;
    for (const auto& [code, n] : codes)
        if (isNon2xx(code)) sum += n;
    return sum;
}

} // namespace wb
