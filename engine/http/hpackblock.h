#pragma once
// An HPACK header block (RFC 7541) for a request sent unchanged many times.
//
// The block refers only to the static table and never adds to the dynamic
// one (every other field is a literal "without indexing"), so the same bytes
// are valid on every stream of every connection, whatever the server's table
// holds: a request block is encoded once per request of the run, not once per
// send. Strings are not Huffman-coded (a server then copies them as they are).

#include "http/request.h"

#include <string>
#include <vector>

namespace wb {

/// fields: lower-case names, pseudo-header fields first (http/http2fields.h).
std::string encodeStaticHpackBlock(const std::vector<Header>& fields);

} // namespace wb
