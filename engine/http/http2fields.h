#pragma once
// The header block of an HTTP/2 request, built once from the same RequestSpec
// as an HTTP/1.1 request (RFC 9113 section 8.2-8.3): pseudo-header fields
// first, names in lower case, Host as :authority, and the HTTP/1.1
// connection-specific fields dropped (a server must treat them as malformed).

#include "http/request.h"

#include <string>
#include <vector>

namespace wb {

struct Http2Fields
{
    std::vector<Header> fields; ///< :method, :scheme, :authority, :path, then the user's fields (lower case)
    std::vector<std::string> dropped; ///< user headers left out (as given), for one warning
};

Http2Fields buildHttp2Fields(const RequestSpec& spec);

/// "-H Connection, -H Upgrade are HTTP/1.1 connection headers; HTTP/2 leaves them out" (empty when none).
std::string droppedFieldsWarning(const Http2Fields& fields);

} // namespace wb
