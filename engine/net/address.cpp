#include "net/address.h"

#include <arpa/inet.h>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>

namespace wb {

std::string SocketAddress::toString() const
{
    char host[INET6_ADDRSTRLEN] = {};
    if (family() == AF_INET) {
        const auto* in = reinterpret_cast<const sockaddr_in*>(&storage);
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
        return std::string(host) + ":" + std::to_string(ntohs(in->sin_port));
    }
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&storage);
    inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
    return "[" + std::string(host) + "]:" + std::to_string(ntohs(in6->sin6_port));
}

Result<std::vector<SocketAddress>> resolveHost(const std::string& host, uint16_t port)
{
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG;
    addrinfo* list = nullptr;
    const auto service = std::to_string(port);
    int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
    if (rc == EAI_NONAME || rc == EAI_ADDRFAMILY) {
        // AI_ADDRCONFIG hides ::1 on hosts whose only IPv6 address is loopback.
        hints.ai_flags = AI_NUMERICSERV;
        rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
    }
    if (rc != 0) return Error { "cannot resolve host '" + host + "': " + gai_strerror(rc) };
    std::vector<SocketAddress> out;
    for (auto* ai = list; ai; ai = ai->ai_next) {
        SocketAddress a;
        std::memcpy(&a.storage, ai->ai_addr, ai->ai_addrlen);
        a.length = ai->ai_addrlen;
        out.push_back(a);
    }
    freeaddrinfo(list);
    if (out.empty()) return Error { "cannot resolve host '" + host + "': no addresses" };
    return out;
}

} // namespace wb
