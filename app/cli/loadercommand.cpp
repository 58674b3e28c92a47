#include "loadercommand.h"

#include "cliparse.h"
#include "exitcode.h"
#include "fleet/pausedloader.h"
#include "http/requestcheck.h"
#include "metricsoption.h"
#include "net/address.h"
#include "parse/quantity.h"
#include "record/recordedrun.h"
#include "run/clocknote.h"
#include "run/shard.h"
#include "script/scriptrun.h"
#include "wire/configcodec.h"
#include "wire/loaderstream.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <sys/prctl.h>
#include <unistd.h>

namespace wb::cli {

namespace {

std::atomic<StopSwitch*> g_loaderStop { nullptr };

extern "C" void onLoaderSignal(int)
{
    if (StopSwitch* stop = g_loaderStop.load()) stop->pull();
}

} // namespace

void addLoaderCommand(CLI::App& app, LoaderArgs& a)
{
    CLI::App* cmd = app.add_subcommand("loader",
        "One loader of a distributed run (started by 'run --loaders N'): its share of the run in FILE, JSON Lines "
        "on stdout");
    cmd->add_option("--config", a.configPath, "The whole run's configuration (JSON, as a stored run keeps it)")
        ->required();
    cmd->add_option("--shard", a.shard, "This loader's share: INDEX/COUNT (INDEX may be $JOB_COMPLETION_INDEX)")
        ->required();
    cmd->add_option("--control-dir", a.controlDir, "Directory where the coordinator writes 'start-at' and 'stop'")
        ->required();
    cmd->add_option("--start-timeout", a.startTimeout, "Give up when no start time came within this (default 10m)");
    cmd->add_option("--host", a.host, "Name of this loader in the loaders table (default: the host name)");
    cmd->add_option("--resolve", a.resolve,
        "HOST=ADDR[,ADDR...]: connect to these addresses for HOST and resolve no name (an agent pins what it allowed)");
    cmd->add_option("--metrics-listen", a.metricsListen,
        "Serve this loader's live figures for Prometheus on ADDR:PORT/metrics (as 'run --metrics-listen')");
    cmd->add_option("--metrics-run", a.metricsRun, "--metrics-listen: the run label of the series (default: now, UTC)");
    cmd->add_option("--metrics-linger", a.metricsLinger,
        "--metrics-listen: after the run, serve until the final figures are scraped once, at most this (default 10s)");
}

int loaderCommand(const LoaderArgs& a)
{
    LoaderIdentity identity;
    identity.host = a.host.empty() ? hostName() : a.host;
    identity.clock = systemClockNote();
    auto shard = parseShard(a.shard);
    if (shard) {
        identity.index = shard->index;
        identity.count = shard->count;
    }
    LoaderStreamWriter writer(STDOUT_FILENO, identity);
    auto refuse = [&](const std::string& error) {
        writer.failed(error);
        printError(error);
        return EXIT_USAGE;
    };
    if (!shard) return refuse(shard.error());
    if (!a.resolve.empty()) {
        const size_t eq = a.resolve.find('=');
        if (eq == std::string::npos || eq == 0) return refuse("--resolve must be HOST=ADDR[,ADDR...]");
        std::vector<std::string> addresses;
        std::stringstream list(a.resolve.substr(eq + 1));
        for (std::string address; std::getline(list, address, ',');)
            addresses.push_back(address);
        if (auto st = pinHost(a.resolve.substr(0, eq), addresses); !st) return refuse("--resolve: " + st.error());
    }
    auto timeout = parseDurationUs(a.startTimeout);
    if (!timeout) return refuse("--start-timeout: " + timeout.error());
    std::ifstream in(a.configPath, std::ios::binary);
    if (!in) return refuse("cannot read the run's configuration '" + a.configPath + "'");
    std::ostringstream text;
    text << in.rdbuf();
    auto whole = runConfigFromJson(text.str());
    if (!whole) return refuse("'" + a.configPath + "': " + whole.error());
    if (auto st = whole->normalized().validate(); !st) return refuse(st.error());
    // A configuration file comes from wherever the coordinator is (a pod's ConfigMap, an
    // agent's network): what it makes this loader send is held to the CLI's own rules.
    for (const RequestSpec& request : whole->normalized().requests())
        if (auto st = checkRequestSpec(request); !st) return refuse("'" + a.configPath + "': " + st.error());
    auto share = shareOf(*whole, *shard);
    if (!share) return refuse(share.error());
    writer.setWholeConfig(runConfigToJson(whole->normalized()));
    // A script: request()/response() run in this loader's threads, which are the fleet's
    // threads from `offset` on (setup() and done() ran on the coordinator).
    std::unique_ptr<ScriptRun> script;
    if (!whole->script.empty()) {
        unsigned offset = 0;
        for (unsigned i = 0; i < shard->index; ++i)
            if (auto before = shareOf(*whole, Shard { i, shard->count })) offset += before->threads;
        script = std::make_unique<ScriptRun>(share->normalized(), offset);
        if (Status st = script->check(); !st) return refuse("the script: " + st.error());
    }

    RecordedRunOptions options;
    options.cancelBeforeLoad = false;
    options.onWarning = printWarning;
    options.makeRunner = [&](const RunConfig& config) -> std::unique_ptr<LoadRunner> {
        auto loader = std::make_unique<PausedLoader>(config, writer, a.controlDir, *timeout);
        PausedLoader* l = loader.get();
        if (script) loader->setHooks(script->hooks([l] { l->stop(); }));
        return loader;
    };
    // --metrics-listen: the pod's or the agent's loader, scraped where it runs.
    std::unique_ptr<MetricsServer> metrics;
    auto linger = parseDurationUs(a.metricsLinger);
    if (!linger) return refuse("--metrics-linger: " + linger.error());
    if (!a.metricsListen.empty()) {
        MetricsLabels labels = metricsLabelsOf(
            *whole, std::string(), 0, fmt::format("{}/{} {}", identity.index, identity.count, identity.host));
        if (!a.metricsRun.empty()) labels.run = a.metricsRun;
        auto started = startMetricsServer(a.metricsListen, labels);
        if (!started) return refuse(started.error());
        metrics = std::move(*started);
    }
    RecordedRun run(*share, options);
    run.addObserver(&writer);
    if (metrics) run.addObserver(&metrics->metrics());
    g_loaderStop = &run.stopSwitch();
    std::signal(SIGINT, onLoaderSignal);
    std::signal(SIGTERM, onLoaderSignal);
    // A coordinator or agent that dies takes its loaders with it (each still reports what it
    // measured on its way out): no load keeps running that nobody reads.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    const RecordedRunOutcome out = run.run();
    g_loaderStop = nullptr;
    if (metrics && out.ran() && *linger > 0) metrics->lingerUntilScraped(*linger);
    if (!out.ran()) {
        writer.failed(out.error);
        printError(out.error);
        return EXIT_FAILED;
    }
    return EXIT_OK;
}

} // namespace wb::cli
