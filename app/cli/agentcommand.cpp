#include "agentcommand.h"

#include "agent/server/agentserver.h"
#include "cliparse.h"
#include "exitcode.h"
#include "fleet/localexecutor.h"
#include "parse/quantity.h"
#include "report/units.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <sys/stat.h>

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
    cmd->add_flag("--allow-scripts", a.allowScripts,
        "Accept runs that carry a wrk Lua script (-s): a script can run any command on this machine (default: "
        "refused with 403)");
    cmd->add_option("--max-duration", a.maxDuration, "The longest run it accepts, warm-up included (default 1h)");
    cmd->add_option("--state-dir", a.stateDir,
        "Where its certificate, key, token (mode 0600) and kept runs live (default ~/.wrkbench-agent)");
    cmd->add_option("--head-timeout", a.headTimeout,
        "A connection's request head must arrive within this of its start (default 5s): slow clients are cut");
    cmd->add_option("--handshake-timeout", a.handshakeTimeout,
        "A connection's TLS handshake must be done within this of its start (default 3s)");
    cmd->add_option("--max-clients-per-address", a.perAddress,
        "Connections open at once from one address (default 8; 128 in all): more are refused");
    cmd->add_option(
        "--max-connections", a.maxConnections, "The most connections one run may open from this agent (default 10000)");
    cmd->add_option("--max-threads", a.maxThreads, "The most loader threads one run may use (default 64)");
    cmd->add_option("--max-rate", a.maxRate, "The highest rate one run may ask, rate stages included (default 1M/s)");
    cmd->add_option("--max-start-ahead", a.maxStartAhead,
        "How far ahead a run's common start may be set (default 5m): a later start is refused");
    cmd->add_option("--metrics-listen", a.metricsListen,
        "Each run's loader serves its live figures for Prometheus on ADDR:PORT/metrics (one run at a time, so one "
        "port; the series' run label is the agent's run id)");
}

int agentCommand(const AgentArgs& a)
{
    auto allow = AllowList::parse(a.allow);
    if (!allow) {
        printError(allow.error());
        return EXIT_USAGE;
    }
    auto maxDuration = parseDurationUs(a.maxDuration);
    if (!maxDuration || *maxDuration == 0) {
        printError("--max-duration: " + (maxDuration ? std::string("must be above zero") : maxDuration.error()));
        return EXIT_USAGE;
    }
    auto headTimeout = parseDurationUs(a.headTimeout);
    if (!headTimeout || *headTimeout == 0) {
        printError("--head-timeout: " + (headTimeout ? std::string("must be above zero") : headTimeout.error()));
        return EXIT_USAGE;
    }
    auto handshakeTimeout = parseDurationUs(a.handshakeTimeout);
    if (!handshakeTimeout || *handshakeTimeout == 0) {
        printError("--handshake-timeout: "
            + (handshakeTimeout ? std::string("must be above zero") : handshakeTimeout.error()));
        return EXIT_USAGE;
    }
    auto startAhead = parseDurationUs(a.maxStartAhead);
    if (!startAhead) {
        printError("--max-start-ahead: " + startAhead.error());
        return EXIT_USAGE;
    }
    auto maxRate = parseCount(a.maxRate);
    if (!maxRate || *maxRate == 0) {
        printError("--max-rate: " + (maxRate ? std::string("must be above zero") : maxRate.error()));
        return EXIT_USAGE;
    }
    if (a.perAddress == 0 || a.maxConnections == 0 || a.maxThreads == 0) {
        printError("--max-clients-per-address, --max-connections and --max-threads must be above zero");
        return EXIT_USAGE;
    }
    std::string stateDir = a.stateDir;
    if (stateDir.empty()) {
        const char* home = std::getenv("HOME");
        if (!home || !*home) {
            printError("no HOME: give --state-dir");
            return EXIT_USAGE;
        }
        stateDir = std::string(home) + "/.wrkbench-agent";
    }
    // Everything the agent and its loaders write (runs, streams, results, the token) is the
    // service user's alone, whatever the directory's mode.
    ::umask(077);
    const std::string host = hostName();
    auto credentials = loadOrCreateCredentials(stateDir, host);
    if (!credentials) {
        printError(credentials.error());
        return EXIT_FAILED;
    }
    AgentServerOptions options;
    options.listen = a.listen;
    options.allow = *allow;
    options.allowScripts = a.allowScripts;
    options.limits.maxDurationUs = *maxDuration;
    options.limits.maxConnections = a.maxConnections;
    options.limits.maxThreads = a.maxThreads;
    options.limits.maxRatePerS = static_cast<double>(*maxRate);
    options.limits.maxStartAheadUs = *startAhead;
    options.handshakeDeadlineUs = *handshakeTimeout;
    options.maxConnectionsPerAddress = a.perAddress;
    options.stateDir = stateDir;
    options.loaderBinary = thisExecutable();
    options.metricsListen = a.metricsListen;
    options.hostName = host;
    options.headDeadlineUs = *headTimeout;
    AgentServer server(options, *credentials);
    if (auto st = server.listen(); !st) {
        printError(st.error());
        return EXIT_FAILED;
    }
    // The banner goes to stdout, flushed: scripts and tests read the address and fingerprint.
    std::cout << fmt::format("wrkbench agent {} listening on {} (TLS)\n", WB_VERSION, server.address());
    std::cout << fmt::format("certificate SHA-256 fingerprint: {}\n", displayFingerprint(credentials->fingerprint));
    // The path, never the value: stdout of a service is the journal, readable by more people
    // than the token is meant for.
    std::cout << fmt::format("token: {} in {}/token (mode 0600; copy it to the workstation)\n",
        credentials->tokenCreated ? "new" : "kept", stateDir);
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
    return EXIT_OK;
}

} // namespace wb::cli
