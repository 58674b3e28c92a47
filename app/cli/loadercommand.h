#pragma once
// `wrkbench-cli loader`: one loader of a distributed run, as executors start it
// (a child process, a pod of an Indexed Job). It reads the whole run's
// configuration from a file (nothing lost to quoting), takes its share, prepares,
// says "ready" and waits for its start time in its control directory, then
// streams its intervals and its result as JSON Lines on stdout.

#include <string>

namespace CLI {
class App;
}

namespace wb::cli {

struct LoaderArgs
{
    std::string configPath; ///< the whole run (runConfigToJson)
    std::string shard; ///< I/N; I may be $JOB_COMPLETION_INDEX
    std::string controlDir; ///< where start-at and stop appear
    std::string startTimeout = "10m";
    std::string host; ///< default: the host name (a pod's name)
    /// HOST=ADDR[,ADDR...]: the target's addresses, resolved and checked by an agent; the
    /// loader then resolves nothing itself (net/address.h pinHost).
    std::string resolve;
    std::string metricsListen; ///< --metrics-listen ADDR:PORT: this loader's live figures for Prometheus
    std::string metricsRun; ///< the run label of its series (a Kubernetes Job's name); default: its start
    std::string metricsLinger = "10s"; ///< after its share, serve until scraped once, at most this
};

void addLoaderCommand(CLI::App& app, LoaderArgs& args);
int loaderCommand(const LoaderArgs& args);

} // namespace wb::cli
