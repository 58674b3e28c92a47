#pragma once
// The pre-run probe asked from where the load comes from: POST /v1/probe on an
// agent (docs/AGENT.md), whose answer is the probe result as PROBE.md shows it.

#include "agent/client/agentendpoint.h"
#include "common/result.h"
#include "probe/probe.h"

#include <string>

namespace wb {

/// The probe's request as the agent's API takes it.
std::string agentProbeBody(const ProbeOptions& options);
/// Probes options.request from the agent; the error names the agent.
Result<ProbeResult> probeOnAgent(const AgentEndpoint& agent, const ProbeOptions& options);

} // namespace wb
