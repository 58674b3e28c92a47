#pragma once
// The transport under a session: what a connection's bytes travel on (docs/ARCHITECTURE.md, "The protocol seam").
// Stream transports (TCP, TLS over TCP) move a byte stream through non-blocking calls that say, like wrk's `struct
// sock`, whether they made progress, would block, or ended (IoStatus). Datagram transports (UDP under QUIC) move whole
// datagrams and have timers of their own; as ngtcp2_conn is both the transport and the stream layer, those timers are
// the session's (ClientSession::nextTimerUs/onTimer), and the worker's epoll loop wakes for the earliest of them. One
// connected UDP socket per connection keeps epoll, generations and reconnects per connection, as for TCP.

#include "net/iostatus.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace wb {

enum class TransportKind : uint8_t {
    Stream, ///< TCP or TLS: a byte stream, no timers of its own
    Datagram, ///< UDP: datagrams, timers driven through the session (QUIC)
};

/// A non-blocking byte stream on a connected socket.
class StreamTransport
{
public:
    virtual IoStatus read(char* buffer, size_t length, size_t& bytesRead) = 0;
    virtual IoStatus write(const char* data, size_t length, size_t& bytesWritten) = 0;
    /// Bytes already taken from the socket but not yet returned by read() (TLS records): the
    /// socket may be empty while more is there to read, so edge-triggered epoll would miss them.
    virtual bool hasPendingInput() const { return false; }
    /// The protocol the peer selected by ALPN ("h2"); empty when there is no such choice.
    virtual std::string_view negotiatedProtocol() const { return {}; }

protected:
    ~StreamTransport() = default; // owned as the concrete type, never deleted through this
};

/// Plain TCP: read(2) and write(2) on the socket. Holds the socket of its connection.
class TcpTransport final : public StreamTransport
{
public:
    int fd() const { return m_fd; }
    void setFd(int fd) { m_fd = fd; }
    IoStatus read(char* buffer, size_t length, size_t& bytesRead) override;
    IoStatus write(const char* data, size_t length, size_t& bytesWritten) override;

private:
    int m_fd = -1;
};

/// The socket side of a datagram transport (see above): one connected, non-blocking UDP
/// socket per connection (net/udptransport.h). An HTTP/3 session sends what its QUIC library
/// produced and is handed what arrives; each call moves whole datagrams in one batch.
class DatagramTransport
{
public:
    /// Sends datagrams of segmentBytes each (the last may be shorter), concatenated in data (a
    /// GSO batch); sent: how many bytes went (whole datagrams only). WantWrite: the socket
    /// buffer is full.
    virtual IoStatus send(std::span<const char> data, size_t segmentBytes, size_t& sent) = 0;
    /// Receives up to maxDatagrams datagrams, datagram i into buffer + i * slotBytes with its
    /// length in lengths[i]. WantRead: none was there.
    virtual IoStatus receive(char* buffer, size_t slotBytes, size_t maxDatagrams, uint32_t* lengths, size_t& received)
        = 0;

protected:
    ~DatagramTransport() = default;
};

} // namespace wb
