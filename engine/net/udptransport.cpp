#include "net/udptransport.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103 // linux/udp.h, since Linux 4.18
#endif

namespace wb {

bool UdpTransport::open(const SocketAddress& address, const SocketAddress* source)
{
    close();
    m_fd = ::socket(address.family(), SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP);
    if (m_fd < 0) return false;
    if ((source && ::bind(m_fd, source->get(), source->length) != 0)
        || ::connect(m_fd, address.get(), address.length) != 0) {
        const int err = errno;
        close();
        errno = err;
        return false;
    }
    m_local.length = sizeof m_local.storage;
    ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&m_local.storage), &m_local.length);
    m_gso = true;
    m_errno = 0;
    return true;
}

void UdpTransport::close()
{
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
}

IoStatus UdpTransport::send(std::span<const char> data, size_t segmentBytes, size_t& sent)
{
    sent = 0;
    if (data.empty()) return IoStatus::Ok;
    if (segmentBytes == 0 || segmentBytes > data.size()) segmentBytes = data.size();
    if (m_gso && data.size() > segmentBytes) {
        // One sendmsg for the whole batch: the kernel segments it (GSO).
        iovec iov { const_cast<char*>(data.data()), data.size() };
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(uint16_t))] {};
        msghdr msg {};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        cmsghdr* cm = CMSG_FIRSTHDR(&msg);
        cm->cmsg_level = SOL_UDP;
        cm->cmsg_type = UDP_SEGMENT;
        cm->cmsg_len = CMSG_LEN(sizeof(uint16_t));
        const auto segment = static_cast<uint16_t>(segmentBytes);
        std::memcpy(CMSG_DATA(cm), &segment, sizeof segment);
        for (;;) {
            const ssize_t n = ::sendmsg(m_fd, &msg, 0);
            if (n >= 0) {
                sent = data.size();
                return IoStatus::Ok;
            }
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return IoStatus::WantWrite;
            // No GSO here (an old kernel, a device without it): sendmmsg from now on.
            if (errno == EIO || errno == EINVAL || errno == ENOPROTOOPT || errno == EOPNOTSUPP) {
                m_gso = false;
                break;
            }
            m_errno = errno;
            return IoStatus::Error;
        }
    }
    return sendBatch(data, segmentBytes, sent);
}

IoStatus UdpTransport::sendBatch(std::span<const char> data, size_t segmentBytes, size_t& sent)
{
    while (sent < data.size()) {
        mmsghdr messages[MAX_BATCH] {};
        iovec iovs[MAX_BATCH];
        unsigned count = 0;
        for (size_t at = sent; at < data.size() && count < MAX_BATCH; at += segmentBytes, ++count) {
            iovs[count] = { const_cast<char*>(data.data() + at), std::min(segmentBytes, data.size() - at) };
            messages[count].msg_hdr.msg_iov = &iovs[count];
            messages[count].msg_hdr.msg_iovlen = 1;
        }
        const int n = ::sendmmsg(m_fd, messages, count, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return IoStatus::WantWrite;
            m_errno = errno;
            return IoStatus::Error;
        }
        for (int i = 0; i < n; ++i)
            sent += iovs[i].iov_len;
        if (static_cast<unsigned>(n) < count) return IoStatus::WantWrite;
    }
    return IoStatus::Ok;
}

IoStatus UdpTransport::receive(char* buffer, size_t slotBytes, size_t maxDatagrams, uint32_t* lengths, size_t& received)
{
    received = 0;
    maxDatagrams = std::min(maxDatagrams, MAX_BATCH);
    mmsghdr messages[MAX_BATCH] {};
    iovec iovs[MAX_BATCH];
    for (size_t i = 0; i < maxDatagrams; ++i) {
        iovs[i] = { buffer + i * slotBytes, slotBytes };
        messages[i].msg_hdr.msg_iov = &iovs[i];
        messages[i].msg_hdr.msg_iovlen = 1;
    }
    for (;;) {
        const int n = ::recvmmsg(m_fd, messages, static_cast<unsigned>(maxDatagrams), 0, nullptr);
        if (n >= 0) {
            for (int i = 0; i < n; ++i)
                lengths[i] = messages[i].msg_len;
            received = static_cast<size_t>(n);
            return IoStatus::Ok;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return IoStatus::WantRead;
        m_errno = errno;
        return IoStatus::Error;
    }
}

std::string describeUdpError(int err, const SocketAddress& address)
{
    if (err == ECONNREFUSED) return "nothing listens on UDP " + address.toString() + " (ICMP port unreachable)";
    return "UDP " + address.toString() + ": " + std::strerror(err);
}

} // namespace wb
