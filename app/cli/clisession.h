#pragma once
// What the subcommands on a stored session (runs, export, experiments,
// experiment-report, study, tag) share: opening a session that must exist, and
// printing plain text tables.

#include "common/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb {
class SessionStore;
}

namespace wb::cli {

/// Opens a session that must exist, read-only: a command that only reads never writes a byte
/// of the file (an older schema or a run of a dead process is upgraded in a private copy).
Result<std::unique_ptr<SessionStore>> openSessionToRead(const std::string& path);
/// Opens a session that must exist, to write to it (study, tag): migrated and recovered first.
Result<std::unique_ptr<SessionStore>> openSessionToChange(const std::string& path);

/// "2026-11-30 11:57:06" in local time; "-" for no time.
std::string localTime(int64_t msSinceEpoch);

/// Columns padded to their widest cell, two spaces apart; a column is
/// right-aligned where rightAligned says so (numbers), else left-aligned.
std::string textTable(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& rightAligned);

} // namespace wb::cli
