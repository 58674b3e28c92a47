#pragma once
// The workstation's credentials for `run --on agents` (docs/AGENT.md): the
// token file (one token for all, or a "HOST:PORT TOKEN" line per agent) and
// the pinned fingerprints (one per agent, in order, or one for all) or a CA.
// Without a fingerprint or a CA nothing is trusted.

#include "agent/client/agentendpoint.h"
#include "common/result.h"

#include <string>
#include <vector>

namespace wb {

/// Reads tokenFile (it must not be readable by others) and pairs everything with addresses.
Result<std::vector<AgentEndpoint>> agentEndpoints(const std::vector<std::string>& addresses,
    const std::string& tokenFile, const std::string& fingerprints, const std::string& caFile);

} // namespace wb
