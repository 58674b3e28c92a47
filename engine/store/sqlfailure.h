#pragma once
// Internal to engine/store: one sentence for an SQLite failure on a session file, naming the
// file, the same whether opening or a later read or write failed.

#include <cstddef>
#include <string>
#include <string_view>

namespace wb {

/// Text from SQLite or from a file (a name, SQL, an error message that quotes them) as it may go
/// into a one-line message for a terminal: line breaks and runs of spacing one space, other
/// control and non-ASCII bytes written \xHH, at most maxBytes of it ("..." after).
std::string printableLine(std::string_view text, size_t maxBytes = 200);

/// "'x.wrkbench' is damaged: ...", "'x.wrkbench' made a query run too long: ...". code is
/// SQLite's (extended) result code, message what SqlError says (made a printableLine: SQLite's
/// messages quote the file, "malformed database schema ... unrecognized token: ...").
std::string describeSqlFailure(const std::string& path, int code, const std::string& message);

} // namespace wb
