#pragma once
// One remote loader (an agent) as the workstation knows it, on the CLI and in the GUI alike: where it listens, the
// token it wants, and how its certificate is trusted (a pinned SHA-256 fingerprint, or a CA file). The secrets live
// here, beside the run, never in a run's configuration or a session file (RunConfig::loaders names agents only).

#include <string>
#include <vector>

namespace wb {

struct AgentEndpoint
{
    std::string name; ///< what the user calls it (the GUI's name, or the address on the CLI)
    std::string address; ///< HOST:PORT, [IPv6]:PORT
    std::string token; ///< the bearer token (docs/AGENT.md)
    std::string fingerprint; ///< SHA-256 of its certificate, 64 hex digits (normalizeFingerprint)
    std::string caFile; ///< or: a PEM CA file its certificate must chain to
    bool operator==(const AgentEndpoint&) const = default;
};

/// The agents of a run on remote loaders (RunConfig::loaders.on == Agents), in the order of
/// loaders.agents, and how long a lost link is retried before that loader is lost.
struct AgentFleet
{
    std::vector<AgentEndpoint> agents;
    uint64_t reattachUs = 30'000'000;
};

} // namespace wb
