#include "probe/altsvc.h"

#include <algorithm>
#include <cctype>

namespace wb {

namespace {
bool sameName(const std::string& a, const char* b)
{
    return std::equal(a.begin(), a.end(), b, b + std::char_traits<char>::length(b),
        [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) == y; });
}

std::string trim(const std::string& s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}
} // namespace

std::vector<std::string> http3AltSvc(const std::vector<Header>& responseHeaders)
{
    std::vector<std::string> out;
    for (const Header& h : responseHeaders) {
        if (!sameName(h.name, "alt-svc")) continue;
        // alt-value *( "," alt-value ); alt-value = protocol-id "=" quoted-authority *( ";" param )
        size_t at = 0;
        while (at < h.value.size()) {
            const size_t comma = h.value.find(',', at);
            const std::string item
                = trim(h.value.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
            at = comma == std::string::npos ? h.value.size() : comma + 1;
            const size_t eq = item.find('=');
            if (eq == std::string::npos || trim(item.substr(0, eq)) != "h3") continue;
            std::string authority = trim(
                item.substr(eq + 1, item.find(';') == std::string::npos ? std::string::npos : item.find(';') - eq - 1));
            if (authority.size() >= 2 && authority.front() == '"' && authority.back() == '"')
                authority = authority.substr(1, authority.size() - 2);
            if (!authority.empty() && std::find(out.begin(), out.end(), authority) == out.end())
                out.push_back(authority);
        }
    }
    return out;
}

std::string http3AltSvcWarning(const std::vector<Header>& responseHeaders, uint16_t port)
{
    const std::vector<std::string> advertised = http3AltSvc(responseHeaders);
    if (advertised.empty()) return {};
    const std::string mine = ":" + std::to_string(port);
    std::string list;
    for (const std::string& a : advertised) {
        // ":8443" is this host; "host:8443" names another authority, which a run does not follow.
        if (a == mine) return {};
        list += (list.empty() ? "" : ", ") + a;
    }
    return "the server advertises HTTP/3 on " + list + " (Alt-Svc), not on port " + std::to_string(port);
}

} // namespace wb
