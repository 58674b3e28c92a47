#pragma once
// What the Run button starts: a target and a load profile, turned into the
// engine's RunConfig.

#include "store/sessiontypes.h"

#include <QMetaType>
#include <QString>

namespace wb::ui {

struct RunPlan
{
    Target target;
    LoadProfile profile; ///< id > 0: stored in the session; <= 0: a preset or unsaved edits
    QString sessionPath; ///< where the run is recorded
};

/// The engine configuration: the profile's load with the target's request and
/// TLS options. The URL of a built-in target (host "builtin") is pointed at
/// builtinPort. The error names the field ("URL: unsupported scheme 'ftp'").
Result<RunConfig> runConfigFor(const Target& target, const RunConfig& load, uint16_t builtinPort = 0);

} // namespace wb::ui
