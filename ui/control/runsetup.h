#pragma once
// What the Run button starts: a target and a load profile, turned into the
// engine's RunConfig (and, for the Probe button, into ProbeOptions).

#include "agent/client/agentendpoint.h"
#include "probe/probe.h"
#include "store/sessiontypes.h"

#include <QMetaType>
#include <QString>
#include <string>

namespace wb::ui {

struct RunSetup
{
    Target target;
    LoadProfile profile; ///< id > 0: stored in the session; <= 0: a preset or unsaved edits
    QString sessionPath; ///< where the run is recorded
    /// Send one probe request (wb::probe) before any load; when it fails the run
    /// ends at once with RunOutcome::probeFailed and nothing is stored. The Run
    /// button sets it; "Run anyway" after a failed probe does not. The probe that
    /// passed comes back in RunOutcome::probeJson.
    bool probeFirst = false;
    /// A run on remote loaders (profile Loaders "remote vm1, vm2"): their endpoints, looked up in
    /// the registry (RemoteLoaderRegistry::endpoints) when the run is started, for FleetSetup::agents.
    std::vector<AgentEndpoint> agents;
    /// The probe that passed before the run, made elsewhere (asked from the first remote loader):
    /// stored with the run as a probe of the engine's own would be. "" when none.
    std::string probeJson;
};

/// The engine configuration: the profile's load with the target's request and
/// TLS options. A built-in target (host "builtin") keeps its URL: the engine's
/// recorded run (record/recordedrun.h) starts the built-in server. The error names the field
/// ("URL: unsupported scheme 'ftp'").
Result<RunConfig> runConfigFor(const Target& target, const RunConfig& load);

/// The probe of a target on its own (the Probe button), built-in targets
/// pointed at the built-in server (started now if needed). A scripted target's probe sends
/// what a run sends first: the script's setup(), init() and request() run once for it
/// (scriptFirstRequest; `cancel`, may be null, stops them).
Result<ProbeOptions> probeOptionsFor(const Target& target, const std::atomic<bool>* cancel = nullptr);

} // namespace wb::ui
