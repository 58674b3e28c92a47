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
    bool allowScripts = false; ///< --allow-scripts: accept runs with a wrk Lua script
    std::string maxDuration = "1h";
    std::string stateDir; ///< default: ~/.wrkbench-agent
    std::string headTimeout = "5s"; ///< the request head, from the connection
    std::string handshakeTimeout = "3s"; ///< the TLS handshake, from the connection
    unsigned perAddress = 8; ///< connections open at once from one address
    unsigned maxConnections = 10'000; ///< connections of one run (this agent's share)
    unsigned maxThreads = 64;
    std::string maxRate = "1000000"; ///< requests/s, rate stages included
    std::string maxStartAhead = "5m";
    std::string metricsListen; ///< --metrics-listen ADDR:PORT: each run's loader serves Prometheus metrics there
};

void addAgentCommand(CLI::App& app, AgentArgs& args);
int agentCommand(const AgentArgs& args);

} // namespace wb::cli
