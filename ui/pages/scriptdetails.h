#pragma once
// A run's wrk script in its details (the "Script" tab): the file it was read from and its
// arguments, what it printed (done()'s report, kept with the run), and the text that ran, as the
// run's configuration stored it (the file may have changed since).

#include "store/sessiontypes.h"

#include <QWidget>

namespace wb::ui {

/// The tab's widget for run `r` (which has a script). Object names: "scriptOutputView" and
/// "scriptTextView" for the two read-only boxes.
QWidget* makeScriptDetails(const RunRecord& r, QWidget* parent);

} // namespace wb::ui
