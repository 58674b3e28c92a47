#include "net/address.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <netdb.h>
#include <netinet/in.h>
#include <optional>

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

namespace {

std::mutex g_pinsMutex;
/// host (lower case) -> its addresses, port 0; set before a run, read when it is prepared.
std::map<std::string, std::vector<SocketAddress>> g_pins;

std::string lower(std::string s)
{
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::optional<SocketAddress> literal(const std::string& text, uint16_t port)
{
    SocketAddress a;
    auto* in = reinterpret_cast<sockaddr_in*>(&a.storage);
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&a.storage);
    if (inet_pton(AF_INET, text.c_str(), &in->sin_addr) == 1) {
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        a.length = sizeof *in;
        return a;
    }
    if (inet_pton(AF_INET6, text.c_str(), &in6->sin6_addr) == 1) {
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(port);
        a.length = sizeof *in6;
        return a;
    }
    return std::nullopt;
}

} // namespace

Result<SocketAddress> parseHostAddress(const std::string& text)
{
    auto a = literal(text, 0);
    if (!a) return Error { "'" + text + "' is not an IP address" };
    return *a;
}

Result<std::vector<std::string>> parseSourceList(const std::string& text, size_t limit)
{
    std::vector<std::string> out;
    auto add = [&](const std::string& address) -> Status {
        if (std::find(out.begin(), out.end(), address) != out.end()) return {};
        if (out.size() >= limit) return Error { "at most " + std::to_string(limit) + " source addresses" };
        out.push_back(address);
        return {};
    };
    size_t begin = 0;
    while (begin <= text.size()) {
        size_t end = text.find(',', begin);
        if (end == std::string::npos) end = text.size();
        std::string part = text.substr(begin, end - begin);
        while (!part.empty() && std::isspace(static_cast<unsigned char>(part.front())))
            part.erase(part.begin());
        while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back())))
            part.pop_back();
        if (part.empty()) return Error { "an empty source address in '" + text + "'" };
        if (const size_t dash = part.find('-'); dash != std::string::npos) {
            // An IPv4 range, both ends included.
            in_addr first {}, last {};
            const std::string from = part.substr(0, dash), to = part.substr(dash + 1);
            if (inet_pton(AF_INET, from.c_str(), &first) != 1 || inet_pton(AF_INET, to.c_str(), &last) != 1)
                return Error { "'" + part + "' is not a range of IPv4 addresses (like 127.0.0.2-127.0.0.9)" };
            const uint32_t a = ntohl(first.s_addr), b = ntohl(last.s_addr);
            if (a > b) return Error { "'" + part + "': the range ends before it starts" };
            if (b - a >= limit)
                return Error { "'" + part + "' holds more than " + std::to_string(limit) + " addresses" };
            for (uint32_t v = a;; ++v) {
                in_addr one { htonl(v) };
                char buffer[INET_ADDRSTRLEN] = {};
                inet_ntop(AF_INET, &one, buffer, sizeof buffer);
                if (auto st = add(buffer); !st) return Error { st.error() };
                if (v == b) break;
            }
        } else {
            if (!literal(part, 0)) return Error { "'" + part + "' is not an IP address" };
            if (auto st = add(part); !st) return Error { st.error() };
        }
        begin = end + 1;
    }
    return out;
}

Result<SocketAddress> parseSocketAddress(const std::string& text)
{
    const Error bad { "'" + text + "' is not an address (ip:port or [ipv6]:port)" };
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return bad;
    std::string host = text.substr(0, colon);
    const bool bracketed = host.front() == '[';
    if (bracketed != (host.back() == ']')) return bad;
    if (bracketed) host = host.substr(1, host.size() - 2);
    if (!bracketed && host.find(':') != std::string::npos) return bad; // a bare IPv6 needs its brackets
    unsigned long port = 0;
    for (size_t i = colon + 1; i < text.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) return bad;
        port = port * 10 + static_cast<unsigned long>(text[i] - '0');
        if (port > 65535) return bad;
    }
    auto a = literal(host, static_cast<uint16_t>(port));
    if (!a || (bracketed && a->family() != AF_INET6)) return bad;
    return *a;
}

Status pinHost(const std::string& host, const std::vector<std::string>& addresses)
{
    std::vector<SocketAddress> out;
    for (const std::string& text : addresses) {
        auto a = literal(text, 0);
        if (!a) return Error { "'" + text + "' is not an IP address" };
        out.push_back(*a);
    }
    if (out.empty()) return Error { "no addresses to pin " + host + " to" };
    std::lock_guard lock(g_pinsMutex);
    g_pins[lower(host)] = std::move(out);
    return {};
}

Result<std::vector<SocketAddress>> resolveHost(const std::string& host, uint16_t port)
{
    {
        std::lock_guard lock(g_pinsMutex);
        if (!g_pins.empty()) {
            if (auto it = g_pins.find(lower(host)); it != g_pins.end()) {
                std::vector<SocketAddress> out = it->second;
                for (SocketAddress& a : out)
                    if (a.family() == AF_INET)
                        reinterpret_cast<sockaddr_in*>(&a.storage)->sin_port = htons(port);
                    else
                        reinterpret_cast<sockaddr_in6*>(&a.storage)->sin6_port = htons(port);
                return out;
            }
            if (auto a = literal(host, port)) return std::vector<SocketAddress> { *a };
            return Error { "cannot resolve host '" + host + "': it is not among the pinned hosts" };
        }
    }
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
