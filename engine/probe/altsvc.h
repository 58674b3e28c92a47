#pragma once
// Alt-Svc (RFC 7838) as far as HTTP/3 needs it: where a server says it answers h3.
// The probe speaks TCP (libcurl without HTTP/3); a server's Alt-Svc is how an
// --http3 run learns that h3 is somewhere else than the URL's port.

#include "http/request.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// The authorities an Alt-Svc header advertises for h3 (":8443", "alt.example:443"), in order;
/// empty when none does (or "clear").
std::vector<std::string> http3AltSvc(const std::vector<Header>& responseHeaders);

/// For a run speaking HTTP/3 on port: one sentence when the server advertises h3 only on other
/// ports ("the server advertises HTTP/3 on :8443 (Alt-Svc), not on port 443"); "" when it
/// advertises this port, or nothing.
std::string http3AltSvcWarning(const std::vector<Header>& responseHeaders, uint16_t port);

} // namespace wb
