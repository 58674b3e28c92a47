#include "net/socket.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

int openTcpSocket(int family)
{
    const int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
    if (fd < 0) return -1;
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

bool bindSource(int fd, const SocketAddress& source)
{
    const int one = 1;
    ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    return ::bind(fd, source.get(), source.length) == 0;
}

IoStatus startConnect(int fd, const SocketAddress& address)
{
    if (::connect(fd, address.get(), address.length) == 0) return IoStatus::Ok;
    return errno == EINPROGRESS ? IoStatus::WantWrite : IoStatus::Error;
}

int connectResult(int fd)
{
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) return errno;
    return err;
}

std::string describeConnectError(int err, const SocketAddress& address)
{
    switch (err) {
    case ECONNREFUSED:
        return "connection refused by " + address.toString();
    case ETIMEDOUT:
        return "connection to " + address.toString() + " timed out";
    case ENETUNREACH:
    case EHOSTUNREACH:
        return address.toString() + " is unreachable";
    case EADDRNOTAVAIL:
        return "cannot connect to " + address.toString() + ": out of local ports or address not available";
    case EMFILE:
    case ENFILE:
        return "cannot open a socket: too many open files";
    default:
        return "cannot connect to " + address.toString() + ": " + std::strerror(err);
    }
}

Result<int> connectWithTimeout(const SocketAddress& address, int timeoutMs, const SocketAddress* source)
{
    const int fd = openTcpSocket(address.family());
    if (fd < 0) return Error { describeConnectError(errno, address) };
    if (source && !bindSource(fd, *source)) {
        const int err = errno;
        ::close(fd);
        return Error { describeConnectError(err, address) };
    }
    IoStatus st = startConnect(fd, address);
    if (st == IoStatus::Error) {
        const int err = errno;
        ::close(fd);
        return Error { describeConnectError(err, address) };
    }
    if (st == IoStatus::WantWrite) {
        pollfd p { fd, POLLOUT, 0 };
        const int rc = ::poll(&p, 1, timeoutMs);
        const int err = rc == 0 ? ETIMEDOUT : rc < 0 ? errno : connectResult(fd);
        if (err) {
            ::close(fd);
            return Error { describeConnectError(err, address) };
        }
    }
    return fd;
}

IoStatus plainRead(int fd, char* buffer, size_t length, size_t& bytesRead)
{
    const ssize_t n = ::read(fd, buffer, length);
    if (n > 0) {
        bytesRead = static_cast<size_t>(n);
        return IoStatus::Ok;
    }
    bytesRead = 0;
    if (n == 0) return IoStatus::Closed;
    return (errno == EAGAIN || errno == EINTR) ? IoStatus::WantRead : IoStatus::Error;
}

IoStatus plainWrite(int fd, const char* data, size_t length, size_t& bytesWritten)
{
    // write(2) rather than send(MSG_NOSIGNAL): the shorter path through the kernel;
    // SIGPIPE is ignored by RunController::prepare().
    const ssize_t n = ::write(fd, data, length);
    if (n >= 0) {
        bytesWritten = static_cast<size_t>(n);
        return IoStatus::Ok;
    }
    bytesWritten = 0;
    return (errno == EAGAIN || errno == EINTR) ? IoStatus::WantWrite : IoStatus::Error;
}

} // namespace wb
