#pragma once
// `wrkbench-cli agent`: the remote-loader agent on a loader VM (docs/AGENT.md).
// TLS with its own certificate, a bearer token, only --allow'ed targets, one
// run at a time up to --max-duration; every request logged on stderr.

#include <string>

namespace CLI {
class App;
}

namespace wb::cli {

struct AgentArgs
{
    std::string listen = "127.0.0.1:7450";
    std::string allow;
    std::string maxDuration = "1h";
    std::string stateDir; ///< default: ~/.wrkbench-agent
    std::string headTimeout = "10s"; ///< TLS handshake and request head, from the connection
};

void addAgentCommand(CLI::App& app, AgentArgs& args);
int agentCommand(const AgentArgs& args);

} // namespace wb::cli
