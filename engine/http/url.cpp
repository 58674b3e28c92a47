#include "http/url.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace wb {

static std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

static bool isHostChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

std::string Url::hostHeader() const
{
    std::string h = isIpv6Literal() ? "[" + host + "]" : host;
    if (!hasDefaultPort()) h += ":" + std::to_string(port);
    return h;
}

std::string Url::toString() const
{
    return scheme + "://" + hostHeader() + target;
}

Result<Url> parseUrl(const std::string& text)
{
    const auto quoted = "'" + text + "'";
    if (text.empty()) return Error { "empty URL" };
    for (char c : text)
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F)
            return Error { "invalid URL " + quoted + ": contains whitespace or control characters" };

    Url url;
    url.original = text;
    const auto schemeEnd = text.find("://");
    if (schemeEnd == std::string::npos)
        return Error { "invalid URL " + quoted + ": expected http://host[:port]/path or https://..." };
    url.scheme = lower(text.substr(0, schemeEnd));
    if (url.scheme != "http" && url.scheme != "https")
        return Error { "unsupported scheme '" + url.scheme + "' in " + quoted + " (use http or https)" };

    const auto authorityStart = schemeEnd + 3;
    auto authorityEnd = text.find_first_of("/?#", authorityStart);
    if (authorityEnd == std::string::npos) authorityEnd = text.size();
    std::string authority = text.substr(authorityStart, authorityEnd - authorityStart);
    if (authority.find('@') != std::string::npos)
        return Error { "invalid URL " + quoted + ": user information (user@host) is not supported" };

    std::string portText;
    if (!authority.empty() && authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string::npos) return Error { "invalid URL " + quoted + ": missing ']' after IPv6 address" };
        url.host = authority.substr(1, close - 1);
        const auto rest = authority.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') return Error { "invalid URL " + quoted + ": unexpected text after ']'" };
            portText = rest.substr(1);
            if (portText.empty()) return Error { "invalid URL " + quoted + ": empty port" };
        }
        if (url.host.empty() || url.host.find_first_not_of("0123456789abcdefABCDEF:.%") != std::string::npos
            || url.host.find(':') == std::string::npos)
            return Error { "invalid URL " + quoted + ": '" + url.host + "' is not an IPv6 address" };
    } else {
        const auto colon = authority.rfind(':');
        if (colon != std::string::npos) {
            portText = authority.substr(colon + 1);
            authority.resize(colon);
            if (portText.empty()) return Error { "invalid URL " + quoted + ": empty port" };
        }
        url.host = lower(authority);
        if (url.host.empty()) return Error { "invalid URL " + quoted + ": missing host" };
        if (!std::all_of(url.host.begin(), url.host.end(), isHostChar))
            return Error { "invalid URL " + quoted + ": '" + url.host + "' is not a valid host name" };
    }

    if (portText.empty()) {
        url.port = url.isTls() ? 443 : 80;
    } else {
        unsigned value = 0;
        const auto [ptr, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), value);
        if (ec != std::errc() || ptr != portText.data() + portText.size() || value == 0 || value > 65535)
            return Error { "invalid port '" + portText + "' in " + quoted + " (1-65535)" };
        url.port = static_cast<uint16_t>(value);
        url.portGiven = true;
    }

    // The fragment is never sent; everything from the path on is the request target.
    auto targetEnd = text.find('#', authorityEnd);
    if (targetEnd == std::string::npos) targetEnd = text.size();
    url.target = text.substr(authorityEnd, targetEnd - authorityEnd);
    if (url.target.empty() || url.target.front() != '/') url.target = "/" + url.target;
    return url;
}

} // namespace wb
