#pragma once
// Save As: a consistent, compact copy of the open session in a new file.

#include "store/sessionstore.h"

#include <QString>

namespace wb::ui {

/// Copies the session store holds to path with VACUUM INTO: a snapshot (write-ahead
/// log included) written to a temporary file next to path, renamed over it only once
/// complete, so that a failure (disk full) never costs a file being replaced. Returns
/// why it failed ("Could not write '/x.wrkbench': disk I/O error"), or "" when done.
QString copySession(SessionStore& store, const QString& path);

} // namespace wb::ui
