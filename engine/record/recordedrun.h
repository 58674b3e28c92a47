#pragma once
// One recorded run: the one sequence every caller makes (the CLI, the GUI's run thread, each run of an experiment, a
// distributed loader): built-in host, session and target, optional probe, prepare (a failure is stored as 'failed'),
// record while running, finish the writes, say what was not stored (docs/ARCHITECTURE.md, "The recorded run").
// Blocking, no Qt: the GUI calls it on a thread of its own.

#include "agent/client/agentendpoint.h"
#include "common/result.h"
#include "fleet/fleetrunner.h"
#include "probe/probe.h"
#include "prometheus/exposition/scraperecord.h"
#include "prometheus/scrape/scraper.h"
#include "run/runresult.h"
#include "run/stopswitch.h"
#include "store/sessionstore.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

class LoadRunner;
class RunObserver;

struct RecordedRunOptions
{
    std::string sessionPath; ///< the session to record into; empty: the run is not stored
    bool createSession = true; ///< create the file when missing (the CLI); false: it must exist (GUI, experiments)
    /// A session that cannot be opened ends the run before any load (the CLI, experiments);
    /// false: the run goes on unrecorded, with a storage warning (the GUI).
    bool requireSession = true;
    int64_t targetId = 0; ///< the session target of the run; 0: found or created by targetName
    std::string targetName; ///< default: the URL as typed
    int64_t profileId = 0;
    std::string profileName;
    std::vector<std::string> tags;
    ExperimentSlot experiment;
    /// One request through the probe before any load (timeouts never stricter than the run's).
    bool probeFirst = false;
    /// A probe made before this run by someone else (the GUI asks a remote loader over Qt Network):
    /// ProbeResult JSON, stored with the run as the pipeline's own probe is. Used without probeFirst.
    std::string probeJson;
    /// Store a failed probe as a 'failed' run (the CLI); the GUI offers "Run anyway" instead.
    bool storeProbeFailure = true;
    /// A stop pulled before the load starts cancels the run: nothing runs, nothing is stored
    /// (the GUI). false: the run still starts and ends at once, reported and stored as
    /// 'stopped' (the CLI, whose Ctrl-C always ends with a report).
    bool cancelBeforeLoad = true;
    /// Measure from this wall-clock instant (µs since the Unix epoch): a common start of several
    /// loaders (RunController::measureFrom). 0: as soon as the warm-up is over.
    int64_t startAtUnixUs = 0;
    /// Called as soon as something is worth saying (a read-only session, a target with
    /// another URL), so a long run can still be stopped; on the calling thread.
    std::function<void(const std::string&)> onWarning;
    /// Called with the probe's result when it passed, before the load; on the calling thread.
    std::function<void(const ProbeResult&)> onProbed;
    /// A configuration whose loaders are distributed (RunConfig::loaders) runs on a fleet of
    /// loaders (engine/fleet) merged into this run; this says how to start them.
    FleetSetup fleet;
    /// On remote loaders: the agents' addresses and credentials (never part of the configuration).
    AgentFleet agents;
    /// The target's own metrics to read while the load runs (--scrape): before the load, every
    /// interval, after. This process scrapes, once for the whole run, however many loaders make the
    /// load. A URL on the built-in host reads this process's built-in server.
    ScrapeSpec scrape;
    /// Each scrape's values as they arrive (the GUI's live view); on the scraper's thread.
    std::function<void(const ScrapeTick&)> onScrape;
    /// What makes the load instead (a loader's paused controller, a merge of stored documents).
    /// Default: a RunController in this process, or the fleet. Given the configuration as it will
    /// run (the built-in host resolved).
    std::function<std::unique_ptr<LoadRunner>(const RunConfig&)> makeRunner;
};

struct RecordedRunOutcome
{
    enum class Ended {
        Ran, ///< the load ran (result is set); completed or stopped early
        Cancelled, ///< stopped before the load started: nothing ran, nothing stored
        ProbeFailed, ///< the pre-run probe failed (error); stored as failed when storeProbeFailure
        PrepareFailed, ///< DNS, connect or TLS failed before any load (error); stored as failed
        SessionFailed, ///< the session could not be opened or the target not found/created (error)
    };
    Ended ended = Ended::Ran;
    std::string error; ///< one sentence: why the run did not start
    std::optional<RunResult> result; ///< Ended::Ran
    int64_t runId = 0; ///< the stored run (also a stored failure); 0 when nothing was stored
    std::string probeJson; ///< the pre-run probe that passed (ProbeResult JSON), or empty
    /// The run happened but was not stored whole (or not at all: a read-only session).
    std::string storageWarning;
    int64_t targetId = 0; ///< the session target used (0 when not stored)
    /// The target's metrics read during the run (RecordedRunOptions::scrape); empty without.
    ScrapeRecord scrape;

    bool ran() const { return ended == Ended::Ran; }
};

/// The id of the target named `name`, created from the request and TLS options when
/// the session has none. A target of that name made with another URL is used as it
/// is, with a warning ("target 'X' was created with URL A; this run uses B"). Works
/// inside or outside a transaction of the caller's.
Result<int64_t> findOrCreateTarget(SessionStore& store, const std::string& name, const RequestSpec& request,
    const TlsOptions& tls, HttpVersion httpVersion, std::vector<std::string>* warnings,
    const std::string& user = "this run");

/// The probe of what config would send: same request and TLS checks; the time limits are
/// the probe's defaults (5 s), or the run's own when those are longer.
ProbeOptions probeOptionsFor(const RunConfig& config);

/// A URL on host "builtin" (and every mix entry's) served by this process's built-in server:
/// the one place that resolves it, started on first use.
Status resolveBuiltinHosts(RunConfig& config);
/// spec with its built-in URLs on this process's built-in server (started on first use).
Result<ScrapeSpec> resolveBuiltinScrape(ScrapeSpec spec);
/// The pre-run check of config's target, as a run makes it (built-in host, DNS, connect, TLS,
/// HTTP/2), with nothing loaded and nothing stored.
Status checkTarget(RunConfig config);

/// What makes the load of config: the one place that chooses. A RunController in this process;
/// or a fleet of loaders (config.loaders) on child processes, a Kubernetes Job or remote agents.
std::unique_ptr<LoadRunner> makeLoadRunner(const RunConfig& config, const RecordedRunOptions& options);

class RecordedRun
{
public:
    /// config may name the built-in host (http://builtin/...): it is started in-process.
    /// stop: pulled to end the run early; default: one of the run's own (stopSwitch()).
    RecordedRun(RunConfig config, RecordedRunOptions options, StopSwitch* stop = nullptr);
    ~RecordedRun();
    RecordedRun(const RecordedRun&) = delete;
    RecordedRun& operator=(const RecordedRun&) = delete;

    /// Attached to the run's controller (not owned; must outlive run()).
    void addObserver(RunObserver* observer) { m_observers.push_back(observer); }
    StopSwitch& stopSwitch() { return *m_stop; }

    /// The whole sequence; blocks until the run is over (or did not start).
    RecordedRunOutcome run();

private:
    RecordedRunOutcome fail(RecordedRunOutcome::Ended how, const std::string& error);

    RunConfig m_config;
    RecordedRunOptions m_options;
    StopSwitch m_ownStop;
    StopSwitch* m_stop;
    std::vector<RunObserver*> m_observers;
    std::unique_ptr<SessionStore> m_store;
    int64_t m_targetId = 0;
    std::string m_probeJson;
};

} // namespace wb
