#pragma once
// The targets an agent may load (--allow): host names, IP addresses and CIDRs.
// Empty by default, so a fresh agent loads nothing. A name is allowed when it is
// listed, or when every address it resolves to is inside an allowed CIDR.

#include "common/result.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

class AllowList
{
public:
    /// "10.0.0.0/8, api.internal, ::1": the error names the entry that does not read.
    static Result<AllowList> parse(const std::string& text);

    bool empty() const { return m_names.empty() && m_networks.empty(); }
    /// The entries as given, for health and the start-up banner.
    const std::vector<std::string>& entries() const { return m_entries; }
    /// Empty when `host` (a name or an address literal, no brackets) may be loaded; otherwise
    /// why not, in one sentence.
    std::string refusal(const std::string& host) const;
    /// The addresses `host` may be loaded at, from one lookup (an address literal is itself):
    /// the agent hands exactly these to the loader and the probe, which resolve nothing
    /// again, so a name that resolves inside --allow now and elsewhere a moment later (DNS
    /// rebinding) cannot take the load there. The error is refusal()'s sentence.
    Result<std::vector<std::string>> pin(const std::string& host) const;

private:
    struct Network
    {
        int family = 0; ///< AF_INET, AF_INET6
        std::array<uint8_t, 16> address {};
        unsigned prefixBits = 0;
        bool contains(int family, const uint8_t* address) const;
    };
    std::vector<std::string> m_entries;
    std::vector<std::string> m_names; ///< lower case
    std::vector<Network> m_networks;
};

} // namespace wb
