#pragma once
// HPACK header blocks (RFC 7541) for a request sent unchanged many times,
// encoded once per request of the run, not once per send.
//
// The static block refers only to the static table and never adds to the
// dynamic one (every other field is a literal "without indexing"), so the same
// bytes are valid on every stream of every connection, whatever the server's
// table holds. The indexed pair uses the dynamic table for a connection that
// sends one request only. Strings are not Huffman-coded (a server then copies
// them as they are).

#include "http/request.h"

#include <cstddef>
#include <string>
#include <vector>

namespace wb {

/// fields: lower-case names, pseudo-header fields first (http/http2fields.h).
std::string encodeStaticHpackBlock(const std::vector<Header>& fields);

/// The same request as two blocks that use the server's dynamic table, for a connection that sends
/// one request again and again: `first` adds each field the static table lacks ("with incremental
/// indexing"), `repeat` names every field by its index (a request of a few bytes). `repeat` is valid
/// on a connection after `first` went out on it, while nothing else entered the table and the
/// table holds `tableBytes` (what `first` adds, RFC 7541 4.1; nothing is evicted below 4,096).
struct HpackIndexedBlocks
{
    std::string first;
    std::string repeat;
    size_t tableBytes = 0;
};
HpackIndexedBlocks encodeIndexedHpackBlocks(const std::vector<Header>& fields);

} // namespace wb
