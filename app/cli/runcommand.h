#pragma once
// `wrkbench-cli run`: wrk's command line and report on wrkbench's engine.

#include "agent/client/agentendpoint.h"
#include "common/result.h"
#include "fleet/fleetrunner.h"
#include "run/runconfig.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace wb::cli {

/// The run options as typed; converted and checked by runCommand().
struct RunArgs
{
    std::string url;
    /// The load settings given (settings/runsettings.h), as typed, by key; a repeatable one's
    /// values joined by commas. What is not here keeps RunConfig's default.
    std::map<std::string, std::string> settings;
    std::string method = "GET";
    std::vector<std::string> headers;
    std::string body;
    std::string bodyFile;
    bool http2 = false;
    bool http3 = false; ///< --http3: HTTP/3 over QUIC (https:// only)
    bool latency = false;
    bool quiet = false; ///< --quiet: no progress line on a terminal's stderr
    std::string jsonPath;
    std::string hdrLogPath; ///< --hdr-log: an HdrHistogram interval log, written as intervals arrive
    std::string metricsListen; ///< --metrics-listen ADDR:PORT: the live figures for Prometheus
    std::string metricsLinger = "10s"; ///< after the run, serve until the final figures are scraped, at most this
    bool insecure = false;
    std::string caFile;
    std::string script; ///< -s: a wrk Lua script
    std::vector<std::string> scriptArgs; ///< what followed `--`: the script's init(args)
    bool probe = false;
    std::string requestsPath; ///< --requests: a request mix instead of one URL
    std::string mixOrder = "round-robin"; ///< --mix-order
    uint64_t seed = 1; ///< --seed: random and weighted mixes repeat with the same seed
    std::vector<std::string> scrape; ///< --scrape [NAME=]URL: the target's metrics, read every interval
    std::string scrapeMetric; ///< --scrape-metric REGEX: series kept besides the presets'
    std::string dbPath; ///< --db: store the run in this session
    std::string targetName; ///< --target: the session's target (default: named after the URL)
    std::vector<std::string> tags; ///< --tag: tags of the stored run
    // Distributed runs (docs/DISTRIBUTED.md).
    std::string shard; ///< --shard I/N: this process runs loader I's share of N
    std::string startAt; ///< --start-at: measure from this wall-clock time (a common start)
    std::string loaders; ///< --loaders N: run N loaders and merge them (empty: one process, as always)
    std::string on; ///< --on local|kubernetes|agents (default local)
    std::string agents; ///< --on agents HOST:PORT,...: the remote loaders (docs/AGENT.md)
    std::string agentTokenFile; ///< one token for all, or "HOST:PORT TOKEN" lines
    std::string agentFingerprint; ///< pinned SHA-256, comma-separated, one per agent (or one for all)
    std::string agentCacert; ///< or: a CA the agents' certificates chain to
    std::string agentReattach = "30s"; ///< how long a lost agent is retried
    std::string loaderReadyTimeout = "60s"; ///< how long loaders may take to be ready
    // --on kubernetes
    std::string kubectl = "kubectl";
    std::string kubeContext;
    std::string kubeNamespace = "default";
    std::string image; ///< empty: the documented default
    std::string podCpu = "1";
    std::string podMemory = "512Mi";
    unsigned jobTtlSeconds = 600;
    uint16_t podMetricsPort = 0; ///< --pod-metrics-port: each loader pod serves Prometheus metrics there
    std::string execWave = "2s"; ///< --exec-wave: what one wave of 16 kubectl execs may take
    bool keepJob = false;
    bool manifestOnly = false;
};

void addRunCommand(CLI::App& app, RunArgs& args);
/// The flags of where the load is made (--loaders, --on, --agents and the agents' credentials, the
/// Kubernetes Job's, --loader-ready-timeout): `run`'s and `capacity`'s.
void addLoaderOptions(CLI::App& app, RunArgs& args);
/// How a distributed configuration's loaders are started, from those flags (the error names the flag).
Result<std::pair<FleetSetup, AgentFleet>> fleetOf(const RunArgs& args, const RunConfig& config);
/// One option per load setting of the table (settings/runsettings.h), in its order, but those whose
/// key is in skip; what was given lands in `given` as text, by key (a repeatable one's values
/// joined by commas).
void addSettingOptions(
    CLI::App& command, std::map<std::string, std::string>& given, std::span<const std::string_view> skip = {});
/// --scrape and --scrape-metric (the target's own metrics, read beside the load).
void addScrapeOptions(CLI::App& command, std::vector<std::string>& endpoints, std::string& metricRegex);
/// The configuration the arguments ask for, checked (RunConfig::validate() and the request rules);
/// the error names the flag. Reads files the arguments name (--body-file, --requests).
Result<RunConfig> runConfigOf(const RunArgs& args);
int runCommand(const RunArgs& args);

} // namespace wb::cli
