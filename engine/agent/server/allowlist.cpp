#include "agent/server/allowlist.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace wb {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

/// An address literal: its family and bytes.
bool parseAddress(const std::string& text, int& family, uint8_t* bytes)
{
    if (::inet_pton(AF_INET, text.c_str(), bytes) == 1) {
        family = AF_INET;
        return true;
    }
    if (::inet_pton(AF_INET6, text.c_str(), bytes) == 1) {
        family = AF_INET6;
        return true;
    }
    return false;
}

bool validHostName(const std::string& name)
{
    if (name.empty() || name.size() > 253) return false;
    return std::all_of(
        name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '.' || c == '_'; });
}

} // namespace

bool AllowList::Network::contains(int otherFamily, const uint8_t* other) const
{
    if (otherFamily != family) return false;
    unsigned bits = prefixBits;
    for (size_t i = 0; bits > 0; ++i, bits = bits >= 8 ? bits - 8 : 0) {
        const uint8_t mask = bits >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - bits));
        if ((address[i] & mask) != (other[i] & mask)) return false;
    }
    return true;
}

Result<AllowList> AllowList::parse(const std::string& text)
{
    AllowList list;
    std::string entry;
    auto take = [&]() -> Status {
        const auto first = entry.find_first_not_of(" \t");
        if (first == std::string::npos) return {};
        const std::string e = entry.substr(first, entry.find_last_not_of(" \t") - first + 1);
        Network net;
        const size_t slash = e.find('/');
        const std::string addressText = e.substr(0, slash);
        if (parseAddress(addressText, net.family, net.address.data())) {
            const unsigned maxBits = net.family == AF_INET ? 32 : 128;
            net.prefixBits = maxBits;
            if (slash != std::string::npos) {
                const std::string bits = e.substr(slash + 1);
                if (bits.empty() || bits.size() > 3 || !std::all_of(bits.begin(), bits.end(), ::isdigit)
                    || std::stoul(bits) > maxBits)
                    return Error { fmt::format("--allow: '{}' has no prefix length of 0 to {}", e, maxBits) };
                net.prefixBits = static_cast<unsigned>(std::stoul(bits));
            }
            list.m_networks.push_back(net);
        } else if (slash == std::string::npos && validHostName(e)) {
            list.m_names.push_back(lower(e));
        } else {
            return Error { fmt::format("--allow: '{}' is neither a host name, an IP address nor a CIDR", e) };
        }
        list.m_entries.push_back(e);
        return {};
    };
    for (char c : text + ",") {
        if (c == ',') {
            if (auto st = take(); !st) return Error { st.error() };
            entry.clear();
        } else {
            entry += c;
        }
    }
    return list;
}

std::string AllowList::refusal(const std::string& host) const
{
    // A listed name is allowed whatever it resolves to; pin() still has to resolve it.
    if (!empty() && std::find(m_names.begin(), m_names.end(), lower(host)) != m_names.end()) return {};
    auto pinned = pin(host);
    return pinned ? std::string() : pinned.error();
}

Result<std::vector<std::string>> AllowList::pin(const std::string& host) const
{
    if (empty())
        return Error { fmt::format(
            "target {} is not allowed: this agent allows no targets (start it with --allow)", host) };
    const std::string name = lower(host);
    const bool listed = std::find(m_names.begin(), m_names.end(), name) != m_names.end();
    auto inside = [&](int family, const uint8_t* bytes) {
        return std::any_of(
            m_networks.begin(), m_networks.end(), [&](const Network& n) { return n.contains(family, bytes); });
    };
    int family = 0;
    uint8_t bytes[16] {};
    if (parseAddress(host, family, bytes)) {
        if (listed || inside(family, bytes)) return std::vector<std::string> { host };
        return Error { fmt::format(
            "target {} is not allowed by this agent's --allow {}", host, fmt::join(m_entries, ",")) };
    }
    addrinfo hints {};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (::getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found)
        return Error { listed
                ? fmt::format("target {} is allowed but does not resolve here", host)
                : fmt::format(
                    "target {} is not allowed: it is not listed in --allow and does not resolve here", host) };
    bool all = true;
    std::vector<std::string> addresses;
    for (addrinfo* ai = found; ai; ai = ai->ai_next) {
        char text[INET6_ADDRSTRLEN] = {};
        const void* raw = nullptr;
        if (ai->ai_family == AF_INET)
            raw = &reinterpret_cast<const sockaddr_in*>(ai->ai_addr)->sin_addr;
        else if (ai->ai_family == AF_INET6)
            raw = &reinterpret_cast<const sockaddr_in6*>(ai->ai_addr)->sin6_addr;
        else
            continue;
        all = all && inside(ai->ai_family, static_cast<const uint8_t*>(raw));
        ::inet_ntop(ai->ai_family, raw, text, sizeof text);
        if (std::find(addresses.begin(), addresses.end(), text) == addresses.end()) addresses.emplace_back(text);
    }
    ::freeaddrinfo(found);
    if (addresses.empty()) return Error { fmt::format("target {} is not allowed: it resolves to no IP address", host) };
    if (listed || all) return addresses;
    return Error { fmt::format(
        "target {} is not allowed: it resolves outside this agent's --allow {}", host, fmt::join(m_entries, ",")) };
}

} // namespace wb
