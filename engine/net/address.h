#pragma once
// Name resolution, done once before a run (never on the hot path).

#include "common/result.h"

#include <cstdint>
#include <string>
#include <sys/socket.h>
#include <vector>

namespace wb {

struct SocketAddress
{
    sockaddr_storage storage {};
    socklen_t length = 0;

    int family() const { return storage.ss_family; }
    const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
    /// "127.0.0.1:8080" or "[::1]:8080".
    std::string toString() const;
};

/// Resolves host (name or literal) for TCP. Error: "cannot resolve host 'x': <reason>".
Result<std::vector<SocketAddress>> resolveHost(const std::string& host, uint16_t port);

} // namespace wb
