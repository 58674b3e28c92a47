#pragma once
// Internal to engine/store: one sentence for an SQLite failure on a session file, naming the
// file, the same whether opening or a later read or write failed.

#include <string>

namespace wb {

/// "'x.wrkbench' is damaged: ...", "'x.wrkbench' made a query run too long: ...". code is
/// SQLite's (extended) result code, message what SqlError says.
std::string describeSqlFailure(const std::string& path, int code, const std::string& message);

} // namespace wb
