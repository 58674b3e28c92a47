#include "runcommand.h"

#include "agent/client/agentendpoints.h"
#include "cliparse.h"
#include "common/clock.h"
#include "common/jsontext.h"
#include "exitcode.h"
#include "fleet/fleetrunner.h"
#include "http/requestcheck.h"
#include "metricsoption.h"
#include "net/address.h"
#include "parse/placement.h"
#include "parse/quantity.h"
#include "parse/requestmix.h"
#include "parse/stageparse.h"
#include "parse/starttime.h"
#include "progressline.h"
#include "prometheus/exposition/scrapetext.h"
#include "record/recordedrun.h"
#include "report/hdrlog.h"
#include "report/jsonreport.h"
#include "run/clocknote.h"
#include "run/runcontroller.h"
#include "run/runobserver.h"
#include "run/shard.h"
#include "run/stages.h"
#include "script/scriptrun.h"
#include "settings/runsettings.h"
#include "wire/configcodec.h"
#include "wrk/wrktext.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace wb::cli {

namespace {

std::atomic<StopSwitch*> g_runStop { nullptr };

extern "C" void onInterrupt(int)
{
    // First Ctrl-C: stop and report what completed (as wrk does). Second: default action.
    // Before the load starts (name resolution, the pre-run check) the switch remembers it,
    // and the run stops as soon as it begins.
    if (StopSwitch* stop = g_runStop.load()) stop->pull();
    std::signal(SIGINT, SIG_DFL);
}

/// Prints the wrk-style header when the load starts (after the pre-run check).
class HeaderPrinter : public RunObserver
{
public:
    explicit HeaderPrinter(std::ostream& out)
        : m_out(out)
    { }
    void onStarted(const RunConfig& config) override { m_out << formatRunHeader(config) << std::flush; }

private:
    std::ostream& m_out;
};

// --requests FILE: the mix replaces the URL, the method and the body; -H applies to every entry.
Status applyMixArgs(const RunArgs& a, RunConfig& cfg)
{
    if (!a.url.empty())
        return Error { "give either a URL or --requests FILE (its entries carry their URLs), not both" };
    if (a.method != "GET" || !a.body.empty() || !a.bodyFile.empty())
        return Error { "-X, --body and --body-file do not combine with --requests: each entry of the mix has its own" };
    auto order = parseMixOrder(a.mixOrder);
    if (!order) return Error { order.error() };
    auto mix = loadRequestMix(a.requestsPath);
    if (!mix) return Error { mix.error() };
    applyRequestMix(cfg, *mix, *order, a.seed, cfg.request.headers);
    return {};
}

} // namespace

Result<RunConfig> runConfigOf(const RunArgs& a)
{
    RunConfig cfg;
    for (const auto& text : a.headers) {
        auto header = parseHeader(text);
        if (!header) return Error { header.error() };
        cfg.request.headers.push_back(*header);
    }
    if (!a.requestsPath.empty()) {
        if (auto st = applyMixArgs(a, cfg); !st) return Error { st.error() };
    } else if (a.url.empty()) {
        return Error { "a URL is required (or --requests FILE)" };
    } else {
        auto url = parseUrl(a.url);
        if (!url) return Error { url.error() };
        cfg.request.url = *url;
        cfg.request.method = a.method;
    }
    if (!a.body.empty() && !a.bodyFile.empty()) return Error { "use either --body or --body-file, not both" };
    if (a.requestsPath.empty()) cfg.request.body = a.body;
    if (!a.bodyFile.empty()) {
        std::ifstream in(a.bodyFile, std::ios::binary);
        if (!in) return Error { "cannot read body file '" + a.bodyFile + "'" };
        std::ostringstream content;
        content << in.rdbuf();
        cfg.request.body = content.str();
    }

    // The load settings, each read by its own entry of the table (the window and plans read the
    // same), named by its flag in errors.
    std::vector<std::pair<const RunSetting*, std::string>> given;
    for (const auto& [key, text] : a.settings) {
        const RunSetting* setting = findRunSetting(key);
        if (!setting) continue;
        const bool applies = setting->appliesTo == AppliesTo::Any
            || (setting->appliesTo == AppliesTo::Http1 && !a.http2 && !a.http3)
            || (setting->appliesTo == AppliesTo::Http2 && a.http2)
            || (setting->appliesTo == AppliesTo::Multiplexed && (a.http2 || a.http3));
        if (!applies) {
            // --pipeline 1 and -m 1 are the defaults: saying them says nothing.
            if (setting->key == "pipeline" || setting->key == "streams") {
                RunConfig probe;
                if (setting->read(probe, text).ok() && setting->isDefault(probe)) continue;
            }
            const char* needs = setting->appliesTo == AppliesTo::Http1 ? "HTTP/1.1 (not --http2 or --http3)"
                : setting->appliesTo == AppliesTo::Http2               ? "HTTP/2 (--http2)"
                                                                       : "HTTP/2 (--http2) or HTTP/3 (--http3)";
            std::string hint;
            if (setting->key == "streams") hint = "; for HTTP/1.1, --pipeline keeps several requests in flight";
            if (setting->key == "pipeline") hint = "; over HTTP/2 and HTTP/3, --streams keeps several in flight";
            return Error { flagName(*setting) + " needs " + needs + hint };
        }
        given.emplace_back(setting, text);
    }
    if (auto st = readRunSettings(cfg, given, flagName); !st) return Error { st.error() };
    if (a.settings.count("max_backends") && !cfg.backendFrom.enabled())
        return Error { "--max-backends needs --backend-from" };
    if (a.settings.count("stages") && a.settings.count("rate") && !cfg.stagesAreConnections)
        return Error { "use either -R/--rate or rate stages, not both" };
    if (a.http2 && a.http3) return Error { "choose one of --http2 and --http3" };
    cfg.httpVersion = a.http3 ? HttpVersion::Http3 : a.http2 ? HttpVersion::Http2 : HttpVersion::Http1;
    cfg.tls.verifyPeer = !a.insecure;
    cfg.tls.caFile = a.caFile;
    if (!a.on.empty() && a.on != "local" && a.on != "kubernetes" && a.on != "agents")
        return Error { "--on '" + a.on + "': use local, kubernetes or agents HOST:PORT,..." };
    unsigned loaders = 0; // not given: one process, as always
    if (!a.loaders.empty()) {
        auto n = parseCount(a.loaders);
        if (!n) return Error { "--loaders: " + n.error() };
        if (*n < 1 || *n > 10000) return Error { "--loaders " + a.loaders + ": use 1 to 10000 loaders" };
        loaders = static_cast<unsigned>(*n);
    }
    cfg.loaders.count = std::max(loaders, 1u);
    cfg.loaders.on = a.on == "kubernetes" ? LoaderPlacement::On::Kubernetes : LoaderPlacement::On::Local;
    if (a.on == "agents" || !a.agents.empty()) {
        auto placement = parseLoaderPlacement("remote " + a.agents);
        if (!placement) return Error { "--on agents: name them, HOST:PORT[,HOST:PORT...]" };
        if (loaders > 0 && loaders != placement->count)
            return Error { fmt::format(
                "--loaders {} with {} agents: agents make one loader each", loaders, placement->count) };
        cfg.loaders = *placement;
    }
    cfg.loaders.kubeContext = a.kubeContext;
    cfg.loaders.kubeNamespace = a.kubeNamespace;
    cfg.loaders.image = a.image;
    cfg.loaders.podCpu = a.podCpu;
    cfg.loaders.podMemory = a.podMemory;
    cfg = cfg.normalized(); // the report's "Running 50s test" already shows the stage total
    if (auto st = cfg.validate(); !st) return Error { st.error() };
    // The rules an agent holds a configuration from the network to (http/requestcheck.h).
    for (const RequestSpec& request : cfg.requests())
        if (auto st = checkRequestSpec(request); !st) return Error { st.error() };
    return cfg;
}

namespace {

// The run's JSON with its target metrics beside the result ("scrape", metrics/scraperecord.h).
std::string withScrape(const std::string& reportJson, const ScrapeRecord& scrape)
{
    if (scrape.empty()) return reportJson;
    auto report = parseJsonTextOrDiscarded<nlohmann::ordered_json>(reportJson);
    if (!report.is_object()) return reportJson; // our own writer's text: cannot happen
    report["scrape"] = nlohmann::ordered_json(scrapeRecordToJson(scrape));
    return jsonText(report, 2);
}

bool writeJson(const std::string& path, const std::string& json)
{
    if (path == "-") {
        std::cout << json << std::endl;
        return true;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << json << '\n';
    out.close();
    if (!out) {
        printError("cannot write JSON report to '" + path + "'");
        return false;
    }
    return true;
}

} // namespace

void addScrapeOptions(CLI::App& command, std::vector<std::string>& endpoints, std::string& metricRegex)
{
    command
        .add_option("--scrape", endpoints,
            "Read the target's own metrics (Prometheus text or OpenMetrics) before, every interval and after the "
            "run: [NAME=]URL (repeatable; http://builtin/metrics is the built-in server's; docs/METRICS.md)")
        ->allow_extra_args(false);
    command.add_option("--scrape-metric", metricRegex,
        "--scrape: keep the series whose metric name matches this regular expression (whole name), besides the "
        "presets' (node_exporter CPU, Envoy, nginx-prometheus-exporter, the built-in server)");
}

void addSettingOptions(CLI::App& run, std::map<std::string, std::string>& given, std::span<const std::string_view> skip)
{
    for (const RunSetting& s : runSettings()) {
        if (s.flags.empty() || std::find(skip.begin(), skip.end(), s.key) != skip.end()) continue;
        const std::string key(s.key);
        std::string help(s.help);
        if (const std::string def = s.defaultText(); !def.empty() && !s.flag) help += " (default " + def + ")";
        if (s.flag) {
            run.add_flag_callback(
                std::string(s.flags), [&given, key] { given[key] = "true"; }, help);
        } else if (s.repeatable) {
            run.add_option_function<std::vector<std::string>>(
                   std::string(s.flags),
                   [&given, key](const std::vector<std::string>& values) {
                       std::string& joined = given[key];
                       for (const std::string& v : values)
                           joined += (joined.empty() ? "" : ",") + v;
                   },
                   help)
                ->allow_extra_args(false);
        } else {
            run.add_option_function<std::string>(
                std::string(s.flags), [&given, key](const std::string& v) { given[key] = v; }, help);
        }
    }
}

Result<std::pair<FleetSetup, AgentFleet>> fleetOf(const RunArgs& a, const RunConfig& cfg)
{
    FleetSetup setup;
    setup.kubectl = a.kubectl;
    setup.jobTtlSeconds = a.jobTtlSeconds;
    setup.keepJob = a.keepJob;
    setup.podMetricsPort = a.podMetricsPort;
    const auto wave = parseDurationUs(a.execWave);
    if (!wave || *wave == 0 || *wave > 600'000'000)
        return Error { "--exec-wave: "
            + (wave ? std::string("give a duration above 0 and at most 10m") : wave.error()) };
    setup.execWaveUs = *wave;
    setup.keepIntervals = !a.jsonPath.empty();
    auto readyTimeout = parseDurationUs(a.loaderReadyTimeout);
    if (!readyTimeout) return Error { "--loader-ready-timeout: " + readyTimeout.error() };
    setup.readyTimeoutUs = *readyTimeout;
    AgentFleet agentFleet;
    if (cfg.loaders.on == LoaderPlacement::On::Agents) {
        auto agents = agentEndpoints(cfg.loaders.agents, a.agentTokenFile, a.agentFingerprint, a.agentCacert);
        if (!agents) return Error { agents.error() };
        agentFleet.agents = *agents;
        auto reattach = parseDurationUs(a.agentReattach);
        if (!reattach) return Error { "--agent-reattach: " + reattach.error() };
        agentFleet.reattachUs = *reattach;
    }
    setup.onLoaderText = [](unsigned loader, const std::string& line) {
        printWarning("loader " + std::to_string(loader) + ": " + line);
    };
    return std::pair { std::move(setup), std::move(agentFleet) };
}

void addLoaderOptions(CLI::App& app, RunArgs& a)
{
    app.add_option("--loaders", a.loaders,
        "Spread the run over N loaders (each with its share of the connections and rate), merged into one run");
    app.add_option("--on", a.on,
        "Where --loaders run: local (child processes, the default) or kubernetes (an Indexed Job, see "
        "docs/DISTRIBUTED.md)");
    app.add_option("--agents", a.agents,
        "--on agents: the remote loaders, HOST:PORT[,HOST:PORT...] ('--on agents LIST' says the same; docs/AGENT.md)");
    app.add_option("--agent-token-file", a.agentTokenFile,
        "--on agents: the agents' token: one line for all, or one 'HOST:PORT TOKEN' line per agent");
    app.add_option("--agent-fingerprint", a.agentFingerprint,
        "--on agents: the SHA-256 fingerprint of each agent's certificate (hex, colons optional; comma-separated, in "
        "the order of the agents)");
    app.add_option("--agent-cacert", a.agentCacert, "--on agents: a CA file the agents' certificates chain to");
    app.add_option("--agent-reattach", a.agentReattach,
        "--on agents: how long a lost link to an agent is retried before its loader is lost (default 30s)");
    app.add_option("--kubectl", a.kubectl, "--on kubernetes: the kubectl to use (default: kubectl in PATH)");
    app.add_option("--context", a.kubeContext, "--on kubernetes: kubectl context (default: the current one)");
    app.add_option("--namespace", a.kubeNamespace, "--on kubernetes: namespace of the Job (default: default)");
    app.add_option("--image", a.image, "--on kubernetes: the loader image (default: wrkbench-cli:VERSION)");
    app.add_option("--pod-cpu", a.podCpu, "--on kubernetes: CPU request and limit of each loader pod (default 1)");
    app.add_option(
        "--pod-memory", a.podMemory, "--on kubernetes: memory request and limit of each pod (default 512Mi)");
    app.add_option("--pod-metrics-port", a.podMetricsPort,
        "--on kubernetes: each loader pod serves its live figures for Prometheus on this port (named 'metrics', "
        "with the prometheus.io scrape annotations; docs/DISTRIBUTED.md has a PodMonitor)");
    app.add_option("--exec-wave", a.execWave,
        "--on kubernetes: what one wave of 16 'kubectl exec's telling the pods the common start may take (default "
        "2s: the start is set 1s plus one wave per 16 pods ahead); raise it where exec through the API server is slow");
    app.add_option("--job-ttl", a.jobTtlSeconds, "--on kubernetes: ttlSecondsAfterFinished of the Job (default 600)");
    app.add_flag("--keep", a.keepJob, "--on kubernetes: keep the Job after the run (it still expires after --job-ttl)");
    app.add_option("--loader-ready-timeout", a.loaderReadyTimeout,
        "How long loaders may take to start and reach the target (default 60s)");
}

void addRunCommand(CLI::App& app, RunArgs& a)
{
    CLI::App* run = app.add_subcommand("run", "Run a load test (the default: wrk's command lines work as they are)");
    run->add_option("url", a.url, "Target URL (http:// or https://); not with --requests");
    addSettingOptions(*run, a.settings);
    run->add_option("-H,--header", a.headers, "Add header to request, \"Name: value\" (repeatable)")
        ->allow_extra_args(false); // one value per -H: the URL after it is the URL
    run->add_option("-X,--method", a.method, "HTTP method (default GET)");
    run->add_option("--body", a.body, "Request body");
    run->add_option("--body-file", a.bodyFile, "Read the request body from a file");
    run->add_flag("--latency", a.latency, "Print latency statistics (percentile distribution)");
    run->add_flag(
        "--http2,--h2", a.http2, "Speak HTTP/2: h2 by ALPN over https (required), h2c with prior knowledge over http");
    run->add_flag(
        "--http3,--h3", a.http3, "Speak HTTP/3 over QUIC (UDP, TLS 1.3 inside QUIC): https:// URLs only, h3 by ALPN");
    run->add_flag("--quiet,-q", a.quiet,
        "No progress line: on a terminal, stderr otherwise shows elapsed time, req/s, p50/p99, errors and non-2xx "
        "of the last interval while the run goes (never when stderr is a file or a pipe)");
    run->add_option("--json", a.jsonPath, "Write the result as JSON to FILE ('-' for stdout)");
    run->add_option("--hdr-log", a.hdrLogPath,
        "Write an HdrHistogram interval log to FILE as the intervals arrive (HistogramLogWriter's format; "
        "tags latency, service, connect, tls_handshake, ttfb)");
    run->add_option("--metrics-listen", a.metricsListen,
        "Serve the running run's figures for Prometheus on ADDR:PORT/metrics (e.g. 127.0.0.1:9464): requests and "
        "errors, in-flight requests, connections, the latency histogram, the loader's own cost");
    run->add_option("--metrics-linger", a.metricsLinger,
        "--metrics-listen: after the run, keep serving until its final figures have been scraped once, at most "
        "this long (default 10s; 0 = stop at once)");
    run->add_flag("-k,--insecure", a.insecure, "Do not verify the server certificate");
    run->add_option("--cacert", a.caFile, "Trust the CA certificates in this PEM file");
    run->add_option("-s,--script", a.script, "wrk Lua script (arguments after `--` go to its init(args))");
    run->add_flag("--probe", a.probe,
        "Probe the target with one request first (phases, TLS; see 'probe'); stored with the run by --db");
    run->add_option("--requests", a.requestsPath,
        "Send a request mix from FILE instead of one URL: METHOD URL lines with headers and @body lines "
        "(vegeta's format), or JSON Lines with weights");
    run->add_option(
        "--mix-order", a.mixOrder, "How each connection walks the mix: round-robin (default), random or weighted");
    run->add_option("--seed", a.seed, "Seed of the random and weighted mix orders (default 1: runs repeat)");
    run->add_option("--shard", a.shard,
        "Run loader I's share of a run spread over N loaders: I/N (I may be $JOB_COMPLETION_INDEX); merge the "
        "loaders' --json results with 'merge'");
    run->add_option("--start-at", a.startAt,
        "Connect and warm up before this wall-clock time, measure from it: unix seconds (1764653400.5), RFC 3339 "
        "(2026-12-02T05:30:00Z) or +DURATION from now");
    addLoaderOptions(*run, a);
    run->add_flag("--manifest-only", a.manifestOnly, "--on kubernetes: print the Job's YAML and apply nothing");
    addScrapeOptions(*run, a.scrape, a.scrapeMetric);
    CLI::Option* db = run->add_option("--db", a.dbPath, "Store the run in this session file (created when missing)");
    run->add_option("--target", a.targetName, "Session target of the run (default: named after the URL)")->needs(db);
    run->add_option("--tag", a.tags, "Tag the stored run (repeatable)")->needs(db)->allow_extra_args(false);
}

namespace {

/// What a run needs before any load, read from the command line and checked: every problem
/// found here is a usage error (2), said before anything is sent.
struct PreparedRun
{
    RunConfig config; ///< the whole run (a fleet's, or this process's)
    RunConfig share; ///< what this process loads: config, or a --shard's share of it
    std::unique_ptr<ScriptRun> script; ///< -s
    ScrapeSpec scrape;
    FleetSetup fleet;
    AgentFleet agents;
    std::optional<LoaderIdentity> identity; ///< a loader of a fleet (--shard)
    int64_t startAtUs = 0; ///< --start-at (0: now)
    std::unique_ptr<HdrLogWriter> hdrLog;
    std::unique_ptr<MetricsServer> metrics;
    uint64_t lingerUs = 0; ///< --metrics-linger
};

/// The run's settings, its script, what it scrapes and where its loaders run.
Result<PreparedRun> readRun(const RunArgs& a)
{
    PreparedRun p;
    auto cfg = runConfigOf(a);
    if (!cfg) return Error { cfg.error() };
    p.config = std::move(*cfg);
    // -s: the script's text goes with the run; a syntax error is one line before any load.
    if (!a.script.empty()) {
        auto spec = readScriptFile(a.script, a.scriptArgs);
        if (!spec) return Error { spec.error() };
        p.config.script = std::move(*spec);
        p.script = std::make_unique<ScriptRun>(p.config.normalized());
        if (Status st = p.script->check(); !st) return Error { st.error() };
    }
    // Numbers that do not fit together are found before anything runs.
    if (auto st = p.config.normalized().validate(); !st) return Error { st.error() };
    auto scrape = scrapeSpecOf(a.scrape, a.scrapeMetric);
    if (!scrape) return Error { scrape.error() };
    p.scrape = std::move(*scrape);
    if (p.scrape.enabled() && !a.shard.empty())
        return Error { "--scrape goes with the run that coordinates the loaders (--loaders), not with a --shard" };
    // A loader run by hand (--shard, --start-at), or a fleet of them (--loaders, --on: RunConfig::loaders).
    if (p.config.loaders.distributed() && (!a.shard.empty() || !a.startAt.empty()))
        return Error { "--loaders runs every loader itself: it does not combine with --shard or --start-at" };
    auto fleet = fleetOf(a, p.config);
    if (!fleet) return Error { fleet.error() };
    p.fleet = std::move(fleet->first);
    p.agents = std::move(fleet->second);
    p.share = p.config;
    return p;
}

/// --manifest-only: the Kubernetes Job that would run the loaders, on stdout.
int printManifest(PreparedRun& p)
{
    if (p.config.loaders.on != LoaderPlacement::On::Kubernetes) {
        printError("--manifest-only goes with --on kubernetes");
        return EXIT_USAGE;
    }
    KubeOptions kube = kubeOptionsOf(p.config.loaders, p.fleet);
    kube.jobName = newJobName();
    if (p.script) // the pods' configuration carries what setup() gave each thread
        if (auto prepared = p.script->prepareRun(p.config); !prepared) {
            printError(prepared.error());
            return EXIT_USAGE;
        }
    auto manifest = kubeManifestYaml(kube, runConfigToJson(p.config.normalized()), p.config.loaders.count);
    if (!manifest) {
        printError(manifest.error());
        return EXIT_USAGE;
    }
    std::cout << *manifest;
    return EXIT_OK;
}

/// When and which share this process loads (--start-at, --shard), and the outputs that must be
/// writable or bindable before any load (--hdr-log, --metrics-listen).
Status prepareOutputs(const RunArgs& a, PreparedRun& p)
{
    if (!a.startAt.empty()) {
        const int64_t now = wallClockNowUs();
        auto at = parseStartTimeUs(a.startAt, now);
        if (!at) return Error { "--start-at: " + at.error() };
        if (auto st = checkStartNotPast(*at, now); !st) return Error { "--start-at: " + st.error() };
        p.startAtUs = *at;
    }
    if (!a.shard.empty()) {
        auto shard = parseShard(a.shard);
        if (!shard) return Error { "--shard: " + shard.error() };
        auto share = shareOf(p.config, *shard);
        if (!share) return Error { share.error() };
        p.share = *share;
        p.identity = LoaderIdentity { shard->index, shard->count, hostName(), systemClockNote(), p.startAtUs,
            runConfigToJson(p.config.normalized()) };
    }
    if (!a.hdrLogPath.empty()) {
        auto opened = HdrLogWriter::open(a.hdrLogPath);
        if (!opened) return Error { opened.error() };
        p.hdrLog = std::move(*opened);
    }
    // Listening before any load, so a scraper sees the whole run.
    auto linger = parseDurationUs(a.metricsLinger);
    if (!linger) return Error { "--metrics-linger: " + linger.error() };
    p.lingerUs = *linger;
    if (!a.metricsListen.empty()) {
        const std::string loader
            = p.identity ? fmt::format("{}/{} {}", p.identity->index, p.identity->count, hostName()) : hostName();
        auto started
            = startMetricsServer(a.metricsListen, metricsLabelsOf(p.config, a.targetName, p.startAtUs, loader));
        if (!started) return Error { started.error() };
        p.metrics = std::move(*started);
    }
    return {};
}

/// The report after the run, in wrk's order (the text, the script's done(), the JSON, where it
/// was stored), and the exit status a pipeline acts on.
int reportRun(const RunArgs& a, PreparedRun& p, const RecordedRunOutcome& out, std::ostream& text)
{
    using Ended = RecordedRunOutcome::Ended;
    switch (out.ended) {
    case Ended::Ran:
        break;
    case Ended::ProbeFailed:
        printError("probe: " + out.error);
        return EXIT_FAILED;
    case Ended::Cancelled: // not with cancelBeforeLoad = false
    case Ended::PrepareFailed:
    case Ended::SessionFailed:
        printError(out.error);
        return EXIT_FAILED;
    }
    const RunResult& result = *out.result;
    ProgressLine::erase();
    text << formatRunReport(result, TextReportOptions { a.latency }) << formatScrapeText(out.scrape) << std::flush;
    // A scraper whose last scrape came before the end gets the final figures (a pod that exits
    // at once would leave them unscraped).
    if (p.metrics && p.lingerUs > 0) p.metrics->lingerUntilScraped(p.lingerUs);
    // A Lua error stopped the run: what was measured is reported above, and stored as 'failed'
    // with the error (RunResult::failure). A fleet's loaders ran the script: the fold carries
    // the first loader's error.
    const std::string scriptError = !p.script ? std::string()
        : p.config.loaders.distributed()      ? result.failure
                                              : p.script->error();
    if (!scriptError.empty()) printError("the script stopped the run: " + scriptError);
    // Or the run could not go on (no local port left to connect from): it says why.
    const std::string runError = scriptError.empty() ? result.failure : std::string();
    if (!runError.empty()) printError("the run stopped: " + runError);
    // done() after the report, as wrk prints it. The run is already stored: an error in done()
    // is said, and the rest (the JSON, where it was stored) still happens.
    bool doneOk = true;
    if (p.script && scriptError.empty()) {
        std::cout << std::flush;
        if (Status st = p.script->done(result); !st) {
            printError(st.error());
            doneOk = false;
        }
    }
    const bool jsonOk = a.jsonPath.empty()
        || writeJson(a.jsonPath,
            p.identity ? formatLoaderDocument(result, *p.identity) : withScrape(formatJsonReport(result), out.scrape));
    const bool hdrLogOk = !p.hdrLog || p.hdrLog->error().empty();
    if (!hdrLogOk) printError(p.hdrLog->error());
    int stored = EXIT_OK;
    if (!out.storageWarning.empty()) {
        printWarning(out.storageWarning);
        stored = EXIT_NOT_STORED;
    } else if (out.runId) {
        text << "Stored as run " << out.runId << " in '" << a.dbPath << "'" << std::endl;
    }
    if (!jsonOk || !hdrLogOk || !scriptError.empty() || !runError.empty() || !doneOk) return EXIT_FAILED;
    // Every loader died or was lost: what was measured is reported and stored, but the run did
    // not happen as asked, and a pipeline must not read it as a success. (Some lost among
    // several is a partial run, flagged per loader in the report.)
    const auto endedEarly = [](const LoaderSummary& l) { return l.state != "completed" && l.state != "stopped"; };
    if (!result.loaders.empty() && std::all_of(result.loaders.begin(), result.loaders.end(), endedEarly)) {
        printError(result.loaders.size() == 1 ? "the run's only loader ended early: " + result.loaders[0].state
                                              : "every loader of the run ended early");
        return EXIT_FAILED;
    }
    // A failed SLO is the verdict a pipeline acts on: it wins over a storage warning (3).
    if (!allSlosMet(result.slo)) return EXIT_SLO_FAILED;
    return stored;
}

} // namespace

int runCommand(const RunArgs& a)
{
    auto prepared = readRun(a);
    if (!prepared) {
        printError(prepared.error());
        return EXIT_USAGE;
    }
    PreparedRun& p = *prepared;
    if (a.manifestOnly) return printManifest(p);
    if (Status st = prepareOutputs(a, p); !st) {
        printError(st.error());
        return EXIT_USAGE;
    }
    // With the JSON on stdout, the text report goes to stderr so stdout stays parseable.
    std::ostream& text = a.jsonPath == "-" ? std::cerr : std::cout;
    RecordedRunOptions options;
    options.startAtUnixUs = p.startAtUs;
    options.fleet = p.fleet;
    options.agents = p.agents;
    options.sessionPath = a.dbPath;
    options.targetName = a.targetName;
    options.tags = a.tags;
    options.scrape = p.scrape;
    options.probeFirst = a.probe; // --probe: one request through libcurl first, kept with the run
    options.cancelBeforeLoad = false; // Ctrl-C during the set-up still ends with a report
    options.onWarning = printWarning;
    options.onProbed = [&text](const ProbeResult& probed) {
        text << fmt::format("Probe: {} in {:.2f}ms (first byte {:.2f}ms) from {}\n", probed.statusLine,
            static_cast<double>(probed.totalUs) / 1000.0, static_cast<double>(probed.firstByteUs) / 1000.0,
            probed.remoteIp);
    };
    if (p.script) {
        // In this process: the script's hooks on the controller. A fleet: setup() runs here for
        // each of its threads and what it gave them goes with the configuration to the loaders.
        auto makeRunner = p.script->prepareRun(p.share, p.startAtUs);
        if (!makeRunner) {
            printError(makeRunner.error());
            return EXIT_USAGE;
        }
        if (*makeRunner) options.makeRunner = *makeRunner;
    }
    RecordedRun run(p.share, options);
    HeaderPrinter header(text);
    run.addObserver(&header);
    // A loader of a fleet (--shard) is watched by its coordinator, not a person.
    ProgressLine progress(!a.quiet && !p.identity);
    run.addObserver(&progress);
    if (p.hdrLog) run.addObserver(p.hdrLog.get());
    if (p.metrics) run.addObserver(&p.metrics->metrics());

    // From here on the first Ctrl-C ends the run with a report, as in wrk (a second one kills).
    g_runStop = &run.stopSwitch();
    std::signal(SIGINT, onInterrupt);
    const RecordedRunOutcome out = run.run();
    std::signal(SIGINT, SIG_DFL);
    g_runStop = nullptr;
    return reportRun(a, p, out, text);
}

} // namespace wb::cli
