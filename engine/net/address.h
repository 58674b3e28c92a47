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

/// Parses a numeric address with its port, as toString() writes it ("127.0.0.2:8080",
/// "[::1]:8080"). Error: "'x' is not an address (ip:port or [ipv6]:port)".
Result<SocketAddress> parseSocketAddress(const std::string& text);

/// A numeric host address without a port ("127.0.0.2", "::1"), port 0: a source to bind to.
Result<SocketAddress> parseHostAddress(const std::string& text);
/// --source's list: addresses and IPv4 ranges, comma-separated ("127.0.0.2-127.0.0.9,10.0.0.7"),
/// each address once, in order, at most `limit` of them. The error names the part that is not one.
Result<std::vector<std::string>> parseSourceList(const std::string& text, size_t limit = 4096);

/// Resolves host (name or literal) for TCP. Error: "cannot resolve host 'x': <reason>".
/// A pinned host (pinHost) is answered from its pins, without asking DNS.
Result<std::vector<SocketAddress>> resolveHost(const std::string& host, uint16_t port);

/// Pins host, for the rest of this process, to numeric addresses someone else resolved and
/// checked: a loader started by an agent (`loader --resolve`) connects exactly where the
/// agent's --allow check said, never where a second lookup (a rebound name) would point.
/// Once anything is pinned, a name that is not pinned does not resolve at all. The error
/// names an entry that is not an address.
Status pinHost(const std::string& host, const std::vector<std::string>& addresses);

} // namespace wb
