#pragma once
// Non-blocking TCP client sockets.

#include "common/result.h"
#include "net/address.h"
#include "net/iostatus.h"

#include <cstddef>

namespace wb {

/// A non-blocking, close-on-exec TCP socket with Nagle off; -1 on failure (errno set).
int openTcpSocket(int family);
/// Binds fd to source (port 0) before its connect, leaving the port to connect() (which can then
/// reuse a port towards other destinations: IP_BIND_ADDRESS_NO_PORT). false: errno set.
bool bindSource(int fd, const SocketAddress& source);
/// Starts a connect: Ok when already connected, WantWrite while in progress, Error otherwise (errno set).
IoStatus startConnect(int fd, const SocketAddress& address);
/// The result of a finished non-blocking connect (SO_ERROR): 0 or an errno value.
int connectResult(int fd);
/// A blocking connect with a time limit, for the pre-run check. Error names the address,
/// e.g. "connection refused by 127.0.0.1:9".
/// From source when one is given (--source).
Result<int> connectWithTimeout(const SocketAddress& address, int timeoutMs, const SocketAddress* source = nullptr);
/// "connection refused by 127.0.0.1:9" style text for a connect errno.
std::string describeConnectError(int err, const SocketAddress& address);

/// Plain-TCP transport: one read()/write() each, mapping EAGAIN and EOF.
IoStatus plainRead(int fd, char* buffer, size_t length, size_t& bytesRead);
IoStatus plainWrite(int fd, const char* data, size_t length, size_t& bytesWritten);

} // namespace wb
