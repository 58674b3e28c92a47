#pragma once
// What the agent answers and how a client reads it, for both of the agent's clients: the
// engine's (OpenSSL, engine/agent/client) and the GUI's (Qt Network, ui/remote/agentcall). One
// owner per rule, so the two never disagree about a pin, a refused token or an error body:
//   - the health document (GET /v1/health): written by the agent, read by the GUI's Test button;
//   - an answer's error text: the agent's {"error":"one sentence"}, or what its status says;
//   - a presented certificate against the pinned fingerprint.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// GET /v1/health: who the agent is and what it allows.
struct AgentHealth
{
    std::string version;
    std::string host;
    bool busy = false; ///< a run is going
    std::vector<std::string> allow; ///< the --allow entries: what it may load
    uint64_t maxDurationS = 0;
    uint64_t maxConnections = 0;
    uint64_t maxThreads = 0;
    double maxRatePerS = 0;
    std::string clock; ///< its clock's synchronisation, as systemClockNote() says it
};

std::string agentHealthJson(const AgentHealth& health);
/// nullopt when body is not an agent's health answer ("agent":"wrkbench" missing, or not JSON).
std::optional<AgentHealth> parseAgentHealth(std::string_view body);

/// Why an answer with this status and body is not a success, in one sentence: the agent's own
/// {"error": ...} when it sent one, "the agent refused the token (401)" for 401, else the status
/// and its reason phrase. "" for 2xx.
std::string agentAnswerError(int status, std::string_view body);

enum class PinCheck {
    Pinned, ///< the presented certificate is the pinned one
    NotPinned, ///< nothing is pinned yet: never trusted silently
    Changed, ///< another certificate than the pinned one
};
/// presented and pinned: lower-case hex SHA-256 (normalizeFingerprint); pinned "" = none.
PinCheck checkPin(const std::string& presented, const std::string& pinned);
/// The sentence for a pin that is not Pinned, naming the agent and both fingerprints.
std::string pinProblem(
    PinCheck check, const std::string& agent, const std::string& presented, const std::string& pinned);

} // namespace wb
