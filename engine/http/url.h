#pragma once
// Target URLs: http and https, host names, IPv4 and [IPv6] literals, ports,
// path and query. Parsed once at set-up; the hot path only sees bytes.

#include "common/result.h"

#include <cstdint>
#include <string>

namespace wb {

struct Url
{
    std::string scheme; ///< "http" or "https"
    std::string host; ///< host name or address literal, without IPv6 brackets
    uint16_t port = 0; ///< explicit or the scheme's default
    std::string target; ///< path and query as sent in the request line, at least "/"
    std::string original; ///< the text it was parsed from (reports echo what the user typed, as wrk does)
    bool portGiven = false; ///< the text named the port (a script's wrk.port is nil otherwise)

    bool isTls() const { return scheme == "https"; }
    bool isIpv6Literal() const { return host.find(':') != std::string::npos; }
    bool hasDefaultPort() const { return port == (isTls() ? 443 : 80); }
    /// Same scheme, host and port: one connection pool serves both (a request mix needs one origin).
    bool sameOrigin(const Url& o) const { return scheme == o.scheme && host == o.host && port == o.port; }
    /// Host header value: host, bracketed when IPv6, with the port unless it is the default.
    std::string hostHeader() const;
    /// Canonical form, e.g. "https://[::1]:8443/a?b".
    std::string toString() const;
    /// What the user typed, or the canonical form when the URL was built in code.
    std::string displayText() const { return original.empty() ? toString() : original; }
};

/// Parses an absolute http(s) URL. The error names what is wrong, e.g.
/// "unsupported scheme 'ftp' (use http or https)".
Result<Url> parseUrl(const std::string& text);

} // namespace wb
