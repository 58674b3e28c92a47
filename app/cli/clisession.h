#pragma once
// What the reading subcommands (runs, export, experiments, experiment-report)
// share: opening a session that must exist, and printing plain text tables.

#include "common/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb {
class SessionStore;
}

namespace wb::cli {

/// Opens a session that must exist: writable when it can be (so that runs of
/// dead processes are marked interrupted), never created by a reading command.
Result<std::unique_ptr<SessionStore>> openExistingSession(const std::string& path);

/// "2026-11-30 11:57:06" in local time; "-" for no time.
std::string localTime(int64_t msSinceEpoch);

/// Columns padded to their widest cell, two spaces apart; a column is
/// right-aligned where rightAligned says so (numbers), else left-aligned.
std::string textTable(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& rightAligned);

} // namespace wb::cli
