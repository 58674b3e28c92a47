#include "record/recordedrun.h"

#include "agent/client/agentexecutor.h"
#include "agent/client/agentprobe.h"
#include "probe/altsvc.h"
#include "run/runcontroller.h"
#include "serve/builtinserver.h"
#include "store/sessionrecorder.h"

#include <algorithm>

namespace wb {

Result<int64_t> findOrCreateTarget(SessionStore& store, const std::string& name, const RequestSpec& request,
    const TlsOptions& tls, HttpVersion httpVersion, std::vector<std::string>* warnings, const std::string& user)
{
    const std::string url = request.url.displayText();
    auto existing = store.targets().byName(name);
    if (!existing) return Error { existing.error() };
    if (existing->has_value()) {
        if ((*existing)->url != url && warnings)
            warnings->push_back(
                "target '" + name + "' was created with URL " + (*existing)->url + "; " + user + " uses " + url);
        return (*existing)->id;
    }
    Target target;
    target.name = name;
    target.url = url;
    target.method = request.method;
    target.headers = request.headers;
    target.body = request.body;
    target.tls = tls;
    target.httpVersion = httpVersion;
    return store.targets().ensure(target); // another process may have created it meanwhile
}

ProbeOptions probeOptionsFor(const RunConfig& config)
{
    ProbeOptions options;
    options.request = config.request;
    options.tls = config.tls;
    options.allowHttp2 = config.http2(); // the probe speaks what the run will
    // Never stricter than the run: a target the run waits 10 s for must not fail its probe at 5 s.
    options.timeoutUs = std::max(options.timeoutUs, config.timeoutUs);
    options.connectTimeoutUs = std::max(options.connectTimeoutUs, config.connectTimeoutUs);
    return options;
}

Status resolveBuiltinHosts(RunConfig& config)
{
    auto url = resolveBuiltinUrl(config.request.url);
    if (!url) return Error { url.error() };
    config.request.url = *url;
    for (MixRequest& entry : config.mix.entries) { // a mix goes to one origin: the same server
        auto resolved = resolveBuiltinUrl(entry.request.url);
        if (!resolved) return Error { resolved.error() };
        entry.request.url = *resolved;
    }
    return {};
}

Result<ScrapeSpec> resolveBuiltinScrape(ScrapeSpec spec)
{
    for (ScrapeEndpoint& e : spec.endpoints) {
        auto url = parseUrl(e.url);
        if (!url) return Error { "scrape '" + e.name + "': " + url.error() };
        if (!isBuiltinUrl(*url)) continue;
        auto resolved = resolveBuiltinUrl(*url);
        if (!resolved) return Error { "scrape '" + e.name + "': " + resolved.error() };
        e.url = resolved->toString();
    }
    return spec;
}

Status checkTarget(RunConfig config)
{
    if (auto st = resolveBuiltinHosts(config); !st) return st;
    config.loaders = {}; // the target is checked from here, whoever loads it
    RunController controller(config);
    return controller.prepare();
}

std::unique_ptr<LoadRunner> makeLoadRunner(const RunConfig& config, const RecordedRunOptions& options)
{
    if (!config.loaders.distributed()) {
        auto controller = std::make_unique<RunController>(config);
        controller->measureFrom(options.startAtUnixUs);
        return controller;
    }
    FleetSetup fleet = options.fleet;
    std::unique_ptr<LoaderExecutor> executor;
    switch (config.loaders.on) {
    case LoaderPlacement::On::Local:
        executor = makeLocalExecutor(fleet);
        break;
    case LoaderPlacement::On::Kubernetes:
        executor = makeKubeExecutor(config, fleet);
        break;
    case LoaderPlacement::On::Agents:
        executor = std::make_unique<AgentExecutor>(options.agents.agents, options.agents.reattachUs);
        break;
    }
    return std::make_unique<FleetRunner>(config, std::move(fleet), std::move(executor));
}

RecordedRun::RecordedRun(RunConfig config, RecordedRunOptions options, StopSwitch* stop)
    : m_config(std::move(config))
    , m_options(std::move(options))
    , m_stop(stop ? stop : &m_ownStop)
{ }

RecordedRun::~RecordedRun() = default;

RecordedRunOutcome RecordedRun::fail(RecordedRunOutcome::Ended how, const std::string& error)
{
    RecordedRunOutcome out;
    out.ended = how;
    out.error = error;
    out.probeJson = m_probeJson;
    out.targetId = m_targetId;
    const bool store = how == RecordedRunOutcome::Ended::PrepareFailed
        || (how == RecordedRunOutcome::Ended::ProbeFailed && m_options.storeProbeFailure);
    if (store && m_store && !m_store->isReadOnly()) {
        // Stored like every run: the history shows the attempt and why it failed.
        NewRun run;
        run.targetId = m_targetId;
        run.profileId = m_options.profileId;
        run.profileName = m_options.profileName;
        run.config = m_config;
        run.startedAtMs = wallClockNowMs();
        run.tags = m_options.tags;
        run.experiment = m_options.experiment;
        run.probeJson = m_probeJson;
        const std::string reason = how == RecordedRunOutcome::Ended::ProbeFailed ? "probe: " + error : error;
        if (auto id = m_store->runs().addFailed(run, reason)) out.runId = *id; // the error is reported either way
    }
    return out;
}

RecordedRunOutcome RecordedRun::run()
{
    using Ended = RecordedRunOutcome::Ended;
    auto warn = [&](const std::string& message) {
        if (m_options.onWarning) m_options.onWarning(message);
    };
    std::string storageWarning;

    // The session first: a run that cannot be kept should not be made (unless the caller says so).
    if (!m_options.sessionPath.empty()) {
        for (const auto& tag : m_options.tags)
            if (auto st = validateTag(tag); !st) return fail(Ended::SessionFailed, st.error());
        SessionOpenOptions open;
        open.create = m_options.createSession;
        auto store = SessionStore::open(m_options.sessionPath, open);
        if (!store) {
            if (m_options.requireSession) return fail(Ended::SessionFailed, store.error());
            storageWarning = store.error();
            warn(storageWarning);
        } else if ((*store)->isReadOnly()) {
            // Said now, so that a long run can be stopped; the outcome says it again.
            warn("'" + m_options.sessionPath + "' is read-only: this run will not be stored");
            storageWarning = "the run was not stored: '" + m_options.sessionPath + "' is read-only";
            m_store = std::move(*store);
        } else {
            m_store = std::move(*store);
            m_targetId = m_options.targetId;
            if (m_targetId == 0) {
                const std::string name
                    = m_options.targetName.empty() ? m_config.request.url.displayText() : m_options.targetName;
                std::vector<std::string> warnings;
                auto id = findOrCreateTarget(
                    *m_store, name, m_config.request, m_config.tls, m_config.httpVersion, &warnings);
                if (!id) return fail(Ended::SessionFailed, id.error());
                m_targetId = *id;
                for (const auto& w : warnings)
                    warn(w);
            }
        }
    }

    // The built-in host is this process's own server, started on first use.
    RunConfig config = m_config;
    if (auto st = resolveBuiltinHosts(config); !st) return fail(Ended::PrepareFailed, st.error());

    const bool cancellable = m_options.cancelBeforeLoad;
    auto cancelled = [&] { return cancellable && m_stop->pulled(); };
    if (cancelled()) return fail(Ended::Cancelled, {});
    if (m_options.probeFirst) {
        // One real request before any load: a target that does not answer is
        // reported with the probe's precise reason.
        ProbeOptions probeOptions = probeOptionsFor(config);
        if (cancellable) probeOptions.cancel = &m_stop->flag();
        // With remote loaders, the question is asked from where the load comes from.
        const bool onAgents = config.loaders.on == LoaderPlacement::On::Agents && !m_options.agents.agents.empty();
        auto probed = onAgents ? probeOnAgent(m_options.agents.agents.front(), probeOptions) : probe(probeOptions);
        if (cancelled()) return fail(Ended::Cancelled, {});
        if (!probed) return fail(Ended::ProbeFailed, probed.error());
        m_probeJson = probed->toJsonText();
        if (m_options.onProbed) m_options.onProbed(*probed);
        // The probe speaks TCP; its Alt-Svc says where the server answers HTTP/3.
        if (config.http3())
            if (std::string w = http3AltSvcWarning(probed->headers, config.request.url.port); !w.empty()) warn(w);
    } else {
        m_probeJson = m_options.probeJson;
    }

    std::unique_ptr<LoadRunner> runner
        = m_options.makeRunner ? m_options.makeRunner(config) : makeLoadRunner(config, m_options);
    m_stop->attach(*runner);
    struct Detach // whatever happens below, a pull must not reach a destroyed runner
    {
        StopSwitch& stop;
        ~Detach() { stop.detach(); }
    } detach { *m_stop };

    const Status prepared = runner->prepare();
    if (cancelled()) return fail(Ended::Cancelled, {});
    if (!prepared) return fail(Ended::PrepareFailed, prepared.error());
    for (const std::string& w : runner->warnings())
        warn(w);

    // The target's metrics: read once before the load (an endpoint that does not answer is said
    // now), then on the scraper's own thread every interval.
    std::unique_ptr<Scraper> scraper;
    if (m_options.scrape.enabled()) {
        auto spec = resolveBuiltinScrape(m_options.scrape);
        if (!spec) return fail(Ended::PrepareFailed, spec.error());
        if (auto st = spec->validate(); !st) return fail(Ended::PrepareFailed, st.error());
        ScraperOptions scraping;
        scraping.intervalUs = config.intervalUs;
        scraping.onTick = m_options.onScrape;
        scraper = std::make_unique<Scraper>(*spec, scraping);
        for (const std::string& w : scraper->start())
            warn(w);
        if (cancelled()) return fail(Ended::Cancelled, {});
    }

    std::unique_ptr<SessionRecorder> recorder;
    if (m_store && !m_store->isReadOnly()) {
        RecordingOptions recording;
        recording.targetId = m_targetId;
        recording.profileId = m_options.profileId;
        recording.profileName = m_options.profileName;
        recording.tags = m_options.tags;
        recording.experiment = m_options.experiment;
        recording.probeJson = m_probeJson;
        recorder = std::make_unique<SessionRecorder>(std::move(m_store), recording);
        runner->addObserver(recorder.get());
    }
    for (RunObserver* o : m_observers)
        runner->addObserver(o);

    RecordedRunOutcome out;
    out.result = runner->run();
    out.probeJson = m_probeJson;
    out.targetId = m_targetId;
    out.storageWarning = storageWarning;
    if (scraper) {
        out.scrape = scraper->finish();
        // The stored URLs are the ones the user gave (the built-in host as typed).
        for (size_t i = 0; i < out.scrape.endpoints.size() && i < m_options.scrape.endpoints.size(); ++i)
            out.scrape.endpoints[i].url = m_options.scrape.endpoints[i].url;
        for (const std::string& w : scraper->takeWarnings())
            warn(w);
        if (recorder) recorder->addScrape(out.scrape);
    }
    if (recorder) {
        recorder->finish();
        out.runId = recorder->runId();
        if (out.runId == 0 || recorder->droppedWrites() > 0)
            out.storageWarning = (out.runId ? "run " + std::to_string(out.runId) + " was not stored completely: "
                                            : std::string("the run was not stored: "))
                + recorder->lastError();
    }
    return out;
}

} // namespace wb
