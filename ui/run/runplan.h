#pragma once
// What the Run button starts: a target and a load profile, turned into the
// engine's RunConfig (and, for the probe, into ProbeOptions).

#include "probe/probe.h"
#include "store/sessiontypes.h"

#include <QMetaType>
#include <QString>
#include <string>

namespace wb::ui {

struct RunPlan
{
    Target target;
    LoadProfile profile; ///< id > 0: stored in the session; <= 0: a preset or unsaved edits
    QString sessionPath; ///< where the run is recorded
    /// Send one probe request (wb::probe) before any load; when it fails the run
    /// ends at once with RunOutcome::probeFailed and nothing is stored. The Run
    /// button sets it; "Run anyway" after a failed probe does not.
    bool probeFirst = false;
    /// ProbeResult::toJsonText() of the pre-run probe, filled in by the run thread
    /// when the probe passed; it travels with the plan to where the run is
    /// recorded and comes back in RunOutcome::probeJson. Empty when no probe ran.
    std::string probeJson;
};

/// The engine configuration: the profile's load with the target's request and
/// TLS options. The URL of a built-in target (host "builtin") is pointed at
/// builtinPort. The error names the field ("URL: unsupported scheme 'ftp'").
Result<RunConfig> runConfigFor(const Target& target, const RunConfig& load, uint16_t builtinPort = 0);

/// The probe of what config would send: same request and TLS checks; the time
/// limits are the probe's defaults (5 s), or the run's own when those are longer.
ProbeOptions probeOptionsFor(const RunConfig& config);
/// The probe of a target on its own (the Probe button). A built-in target is
/// pointed at builtinPort, as for a run.
Result<ProbeOptions> probeOptionsFor(const Target& target, uint16_t builtinPort = 0);

} // namespace wb::ui
