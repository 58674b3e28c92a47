#include "agentcommand.h"

#include "agent/agentserver.h"
#include "cliparse.h"
#include "fleet/localexecutor.h"
#include "parse/quantity.h"
#include "report/units.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>

namespace wb::cli {

namespace {

std::atomic<AgentServer*> g_agent { nullptr };

extern "C" void onAgentSignal(int)
{
    if (AgentServer* agent = g_agent.load()) agent->stop();
}

} // namespace

void addAgentCommand(CLI::App& app, AgentArgs& a)
{
    CLI::App* cmd = app.add_subcommand("agent",
        "Run as a remote loader for workstations (HTTPS + token; docs/AGENT.md): 'run --on agents HOST:PORT' and the "
        "GUI's remote loaders drive it");
    cmd->add_option("--listen", a.listen, "ADDR:PORT to listen on (default 127.0.0.1:7450; [::1]:7450 for IPv6)");
    cmd->add_option("--allow", a.allow,
        "Targets it may load: comma-separated hosts, IP addresses and CIDRs (default: none, it loads nothing)");
    cmd->add_option("--max-duration", a.maxDuration, "The longest run it accepts, warm-up included (default 1h)");
    cmd->add_option("--state-dir", a.stateDir,
        "Where its certificate, key, token (mode 0600) and kept runs live (default ~/.wrkbench-agent)");
    cmd->add_option("--head-timeout", a.headTimeout,
        "A connection's TLS handshake and request head must arrive within this (default 10s): slow clients are cut");
}

int agentCommand(const AgentArgs& a)
{
    auto allow = AllowList::parse(a.allow);
    if (!allow) {
        printError(allow.error());
        return 2;
    }
    auto maxDuration = parseDurationUs(a.maxDuration);
    if (!maxDuration || *maxDuration == 0) {
        printError("--max-duration: " + (maxDuration ? std::string("must be above zero") : maxDuration.error()));
        return 2;
    }
    auto headTimeout = parseDurationUs(a.headTimeout);
    if (!headTimeout || *headTimeout == 0) {
        printError("--head-timeout: " + (headTimeout ? std::string("must be above zero") : headTimeout.error()));
        return 2;
    }
    std::string stateDir = a.stateDir;
    if (stateDir.empty()) {
        const char* home = std::getenv("HOME");
        if (!home || !*home) {
            printError("no HOME: give --state-dir");
            return 2;
        }
        stateDir = std::string(home) + "/.wrkbench-agent";
    }
    const std::string host = hostName();
    auto credentials = loadOrCreateCredentials(stateDir, host);
    if (!credentials) {
        printError(credentials.error());
        return 1;
    }
    AgentServerOptions options;
    options.listen = a.listen;
    options.allow = *allow;
    options.maxDurationUs = *maxDuration;
    options.stateDir = stateDir;
    options.loaderBinary = thisExecutable();
    options.hostName = host;
    options.headDeadlineUs = *headTimeout;
    AgentServer server(options, *credentials);
    if (auto st = server.listen(); !st) {
        printError(st.error());
        return 1;
    }
    // The banner goes to stdout, flushed: scripts and tests read the address and fingerprint.
    std::cout << fmt::format("wrkbench agent {} listening on {} (TLS)\n", WB_VERSION, server.address());
    std::cout << fmt::format("certificate SHA-256 fingerprint: {}\n", displayFingerprint(credentials->fingerprint));
    if (credentials->tokenCreated)
        std::cout << fmt::format("new token (shown once, kept in {}/token): {}\n", stateDir, credentials->token);
    else
        std::cout << fmt::format("token: in {}/token\n", stateDir);
    if (allow->empty())
        std::cout << "allowed targets: none (start it with --allow HOSTS,CIDRS: until then it loads nothing)\n";
    else
        std::cout << fmt::format("allowed targets: {}\n", fmt::join(allow->entries(), ", "));
    std::cout << fmt::format(
        "max duration: {}; one run at a time\n", formatTimeS(static_cast<double>(*maxDuration) / 1e6))
              << std::flush;
    g_agent = &server;
    std::signal(SIGINT, onAgentSignal);
    std::signal(SIGTERM, onAgentSignal);
    std::signal(SIGPIPE, SIG_IGN);
    server.serve();
    g_agent = nullptr;
    std::cerr << "wrkbench agent: stopped\n";
    return 0;
}

} // namespace wb::cli
