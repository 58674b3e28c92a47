#pragma once
// Field-wise equality of session records, so that reloading the session after
// an unrelated change neither emits signals nor resets views.

#include "settings/runsettings.h"
#include "store/sessiontypes.h"

namespace wb::ui {

bool sameTarget(const Target& a, const Target& b);
bool sameProfile(const LoadProfile& a, const LoadProfile& b);
/// What the runs table shows of a run.
bool sameRun(const RunRecord& a, const RunRecord& b);

} // namespace wb::ui
