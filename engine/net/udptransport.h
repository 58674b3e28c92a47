#pragma once
// The datagram transport under QUIC (net/transport.h): one connected,
// non-blocking UDP socket per connection, moving datagrams in batches so a
// request does not cost a syscall per packet. Sends use one sendmsg with
// UDP_SEGMENT (GSO: the kernel cuts the buffer into datagrams) where the
// kernel has it, else one sendmmsg; receives use one recvmmsg.

#include "net/address.h"
#include "net/transport.h"

#include <cstdint>
#include <string>

namespace wb {

class UdpTransport final : public DatagramTransport
{
public:
    /// Opens a socket connected to address (a UDP connect sends nothing), from source when it is
    /// given (port 0: the kernel picks one). false: errno set.
    bool open(const SocketAddress& address, const SocketAddress* source = nullptr);
    void close();
    int fd() const { return m_fd; }
    /// The socket's own address (QUIC's path needs both ends).
    const SocketAddress& local() const { return m_local; }

    IoStatus send(std::span<const char> data, size_t segmentBytes, size_t& sent) override;
    IoStatus receive(char* buffer, size_t slotBytes, size_t maxDatagrams, uint32_t* lengths, size_t& received) override;
    /// The errno of the last Error (ECONNREFUSED: an ICMP port unreachable came back).
    int lastErrno() const { return m_errno; }

    /// Sends and receives so far (syscalls), for the benchmark's counts.
    static constexpr size_t MAX_BATCH = 64;

private:
    IoStatus sendBatch(std::span<const char> data, size_t segmentBytes, size_t& sent);
    int m_fd = -1;
    int m_errno = 0;
    SocketAddress m_local;
    bool m_gso = true; ///< cleared for the socket's life when the kernel refuses UDP_SEGMENT
};

/// "nothing listens on UDP 127.0.0.1:9 (ICMP port unreachable)" style text for a UDP errno.
std::string describeUdpError(int err, const SocketAddress& address);

} // namespace wb
