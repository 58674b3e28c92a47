#pragma once
// A capacity search made: its targets probed at rest, each step one trial per target in turn (so
// drift hits them alike), each trial an ordinary RecordedRun at the trial's rate and length, the
// target waited back to its rest latency between trials (so one overload does not poison the
// next), every trial judged (trialjudge.h) and, with a session, stored as a run linked to the
// search (capacityrecord.h). The CLI's `capacity` and the window's "Find capacity…" make their
// searches here and only show them.
//
//   auto runner = CapacityRunner::start({{url, config}}, options, scrape, warmupGiven);
//   runner->storeIn(store, dbPath, tags);     // optional: an experiment of kind capacity
//   Status st = runner->run(events);          // events.judged(...) after each trial
//   CapacityReport report = runner->report(); // capacitySummaryText(), capacityHtml(), ...

#include "agent/client/agentendpoint.h"
#include "capacity/capacityjson.h"
#include "capacity/capacityrecord.h"
#include "capacity/capacityreport.h"
#include "capacity/capacitysearch.h"
#include "common/result.h"
#include "fleet/fleetrunner.h"
#include "probe/probe.h"
#include "prometheus/exposition/scraperecord.h"
#include "run/runconfig.h"

#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

class RunObserver;
class SessionStore;
class StopSwitch;

/// One target of a search: what it is, how it answered at rest, its search and what each trial showed.
struct CapacityRunTarget
{
    std::string label; ///< "A", "B"...
    std::string url;
    RunConfig config;
    double restLatencyUs = 0; ///< the median of a few probes before any load
    CapacitySearch search { CapacityOptions {} };
    std::vector<CapacityTrialFigures> seen; ///< by trial, beside the search's records
    ProbeOptions probe; ///< what the settling probes send (built-in names resolved)
    int64_t sessionTargetId = 0; ///< the session target whose runs the trials are; 0: by the URL
};

struct CapacityRunEvents
{
    /// Before a trial; `number` counts from 1 over the whole search (a resumed one's too).
    std::function<void(const CapacityRunTarget&, const CapacityTrial&, unsigned number)> starting;
    /// After a trial, judged and recorded; `settled`: the target was back at its rest latency before it.
    std::function<void(
        const CapacityRunTarget&, const CapacityTrial&, const TrialOutcome&, unsigned number, bool settled)>
        judged;
    std::function<void(const std::string&)> warning;
    RunObserver* observer = nullptr; ///< each trial's phases and intervals (a progress line, a live chart)
};

class CapacityRunner
{
public:
    /// A new search of `targets` (URL and configuration, the first the baseline), each probed at
    /// rest now: the first trial's rate derives from it unless options.fromPerS is set. Unless
    /// `warmupGiven`, each trial warms up for a fifth of a trial (5 s at most). The options are
    /// checked here; an error names what is wrong (a probe's names its URL).
    static Result<CapacityRunner> start(std::vector<std::pair<std::string, RunConfig>> targets, CapacityOptions options,
        ScrapeSpec scrape, bool warmupGiven);
    /// The search stored as experiment `searchId` in `store`, replayed to where it stopped (its own
    /// targets, options and scrape; each trial's figures from its stored run). Trials go on being
    /// stored there, through `dbPath` for the runs.
    static Result<CapacityRunner> resume(SessionStore& store, std::string dbPath, int64_t searchId);

    CapacityRunner(CapacityRunner&&) noexcept;
    CapacityRunner& operator=(CapacityRunner&&) noexcept;
    ~CapacityRunner();

    /// Stores a new search in `store` (opened on `dbPath`): an experiment of kind capacity, named
    /// `name` (default: after its targets); each trial is then a run linked to it, tagged `tags`.
    Status storeIn(SessionStore& store, std::string dbPath, std::vector<std::string> tags = {}, std::string name = {});
    /// The trials of target `index` are runs of this session target (the window's), not of one
    /// found or created by the URL. Before storeIn().
    void setSessionTarget(size_t index, int64_t targetId) { m_targets.at(index).sessionTargetId = targetId; }
    /// How the trials' loaders start when the targets' configurations are distributed (--loaders,
    /// --on): every trial is then a distributed run, judged by its merged result and loader cost.
    void setFleet(FleetSetup fleet, AgentFleet agents)
    {
        m_fleet = std::move(fleet);
        m_agents = std::move(agents);
    }
    int64_t searchId() const { return m_searchId; } ///< 0: not stored

    /// Whether a trial is left to make (a stored search that ended has none: it only says its result).
    bool searching();
    /// Makes trials until every target's search is over, stop() is called or a trial cannot run;
    /// then a stored search is marked completed, stopped or failed. The error: what could not run
    /// or be stored (the result still says what was measured).
    Status run(const CapacityRunEvents& events);
    /// From any thread or a signal handler: the trial running stops, and the search with it.
    void stop();
    bool stopped() const { return m_stopped.load(); }

    const std::vector<CapacityRunTarget>& targets() const { return m_targets; }
    const CapacityOptions& options() const { return m_options; }
    unsigned trialsMade() const { return m_trialsMade; }
    /// Each target's result so far (final once run() returned), the first the baseline.
    std::vector<CapacityTarget> results() const;
    /// What the text, Markdown, CSV and HTML reports show.
    CapacityReport report() const;
    /// The definition a search is stored with (capacityrecord.h).
    CapacityDefinition definition() const;

private:
    CapacityRunner() = default;
    /// resume() without the probes: what the session holds (storedCapacityReport()).
    static Result<CapacityRunner> stored(SessionStore& store, std::string dbPath, int64_t searchId);
    friend Result<CapacityReport> storedCapacityReport(SessionStore& store, int64_t searchId);

    std::vector<CapacityRunTarget> m_targets;
    CapacityOptions m_options;
    ScrapeSpec m_scrape;
    SessionStore* m_store = nullptr;
    std::string m_dbPath;
    std::vector<std::string> m_tags;
    FleetSetup m_fleet;
    AgentFleet m_agents;
    int64_t m_searchId = 0;
    unsigned m_trialsMade = 0;
    std::atomic<bool> m_stopped { false };
    std::atomic<StopSwitch*> m_trialStop { nullptr };
};

/// What the stored search `searchId` found so far, for a display: replayed from the session alone
/// (nothing probed, nothing started), each search's bracket as measured.
Result<CapacityReport> storedCapacityReport(SessionStore& store, int64_t searchId);

/// The session target each of a stored search's targets was tried on (its trials' runs), by the
/// search's target index; 0 where no trial's run is left.
Result<std::vector<int64_t>> capacitySearchTargets(SessionStore& store, int64_t searchId);

/// A session target's capacity as the latest search that tried it found.
struct StoredCapacity
{
    int64_t targetId = 0;
    int64_t searchId = 0;
    std::string searchName;
    ExperimentStatus status = ExperimentStatus::Planned;
    std::vector<Slo> slos; ///< what its trials were judged by
    CapacityReportTarget target; ///< its result in that search
};

/// For each of targetIds (in that order) that a capacity search tried, the latest such search's
/// result for it (a search over several targets gives each its own); targets never searched are
/// left out. A search whose trials' runs are all deleted names no target.
Result<std::vector<StoredCapacity>> latestCapacities(SessionStore& store, const std::vector<int64_t>& targetIds);

} // namespace wb
