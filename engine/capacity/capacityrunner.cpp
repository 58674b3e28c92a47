#include "capacity/capacityrunner.h"

#include "capacity/trialjudge.h"
#include "record/keptscript.h"
#include "record/recordedrun.h"
#include "run/stopswitch.h"
#include "store/sessionstore.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <thread>

namespace wb {

namespace {

/// Probes of the target at rest: their median is the latency the target is waited back to.
constexpr unsigned REST_PROBES = 5;
/// Between trials, at most this many probes (100 ms apart) wait for the target to answer within
/// SETTLED_FACTOR times its rest latency (or 1 ms more) twice in a row.
constexpr unsigned SETTLE_PROBES_MAX = 30;
constexpr double SETTLED_FACTOR = 2;
/// A trial's default warm-up: this share of its length, at most 5 s.
constexpr double WARMUP_SHARE = 0.2;
constexpr uint64_t WARMUP_MAX_US = 5'000'000;

double nowS()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string labelOf(size_t i)
{
    return i < 26 ? std::string(1, static_cast<char>('A' + i)) : std::to_string(i + 1);
}

Result<double> restLatencyUs(const ProbeOptions& probe)
{
    auto probes = probeRepeated(probe, REST_PROBES);
    if (!probes) return Error { probes.error() };
    std::vector<double> us;
    for (const ProbeResult& p : *probes)
        us.push_back(static_cast<double>(p.totalUs));
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}

/// What the settling probes of a target send (its configuration, built-in names resolved).
Status setProbe(CapacityRunTarget& t)
{
    RunConfig resolved = t.config;
    if (Status st = resolveBuiltinHosts(resolved); !st) return st;
    t.probe = probeOptionsFor(resolved);
    t.probe.allowHttp2 = resolved.httpVersion == HttpVersion::Http2;
    return {};
}

/// Waits until the target answers about as fast as at rest. Returns whether it did within the
/// probes allowed (false too when stopped meanwhile).
bool settle(const CapacityRunTarget& t, const std::atomic<bool>& stopped)
{
    unsigned inARow = 0;
    for (unsigned i = 0; i < SETTLE_PROBES_MAX && !stopped.load(); ++i) {
        auto p = probe(t.probe);
        const bool fast = p
            && static_cast<double>(p->totalUs) <= std::max(SETTLED_FACTOR * t.restLatencyUs, t.restLatencyUs + 1000);
        inARow = fast ? inARow + 1 : 0;
        if (inARow >= 2) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

} // namespace

CapacityRunner::CapacityRunner(CapacityRunner&& other) noexcept
{
    *this = std::move(other);
}

CapacityRunner& CapacityRunner::operator=(CapacityRunner&& other) noexcept
{
    m_targets = std::move(other.m_targets);
    m_options = std::move(other.m_options);
    m_scrape = std::move(other.m_scrape);
    m_store = other.m_store;
    m_dbPath = std::move(other.m_dbPath);
    m_tags = std::move(other.m_tags);
    m_fleet = std::move(other.m_fleet);
    m_agents = std::move(other.m_agents);
    m_searchId = other.m_searchId;
    m_trialsMade = other.m_trialsMade;
    m_stopped = other.m_stopped.load();
    m_trialStop = other.m_trialStop.load();
    return *this;
}

CapacityRunner::~CapacityRunner() = default;

Result<CapacityRunner> CapacityRunner::start(std::vector<std::pair<std::string, RunConfig>> targets,
    CapacityOptions options, ScrapeSpec scrape, bool warmupGiven)
{
    if (Status st = options.validate(); !st) return Error { st.error() };
    if (targets.empty()) return Error { "no target to search" };
    CapacityRunner r;
    r.m_options = options;
    r.m_scrape = std::move(scrape);
    for (size_t i = 0; i < targets.size(); ++i) {
        CapacityRunTarget t;
        t.label = labelOf(i);
        t.url = std::move(targets[i].first);
        t.config = std::move(targets[i].second);
        if (t.config.slos.empty())
            return Error { "give at least one SLO (e.g. p99<50ms, errors<0.1%): the capacity is the most load that "
                           "keeps them" };
        if (!warmupGiven)
            t.config.warmupUs = std::min<uint64_t>(
                WARMUP_MAX_US, static_cast<uint64_t>(static_cast<double>(options.trialUs) * WARMUP_SHARE));
        // The target at rest: what a request takes before any load, the latency each trial waits back to.
        if (Status st = setProbe(t); !st) return Error { t.url + ": " + st.error() };
        auto rest = restLatencyUs(t.probe);
        if (!rest) return Error { t.url + ": probe: " + rest.error() };
        t.restLatencyUs = *rest;
        CapacityOptions own = options;
        if (own.fromPerS <= 0) own.fromPerS = suggestedFromPerS(t.config.connections, t.restLatencyUs, options);
        t.search = CapacitySearch(own);
        r.m_targets.push_back(std::move(t));
    }
    return r;
}

Result<CapacityRunner> CapacityRunner::stored(SessionStore& store, std::string dbPath, int64_t searchId)
{
    const std::string which = fmt::format("search {} in '{}'", searchId, dbPath);
    auto record = store.experiments().get(searchId);
    if (!record) return Error { record.error() };
    if (record->kind != ExperimentKind::Capacity)
        return Error { fmt::format("experiment {} in '{}' is a {}, not a capacity search", searchId, dbPath,
            experimentKindName(record->kind)) };
    auto definition = capacityDefinitionFromJson(record->planJson);
    if (!definition) return Error { which + ": " + definition.error() };
    auto trials = store.experiments().capacityTrials(searchId);
    if (!trials) return Error { which + ": " + trials.error() };
    std::vector<CapacitySearch> searches = definition->searches();
    if (Status st = replayCapacityTrials(searches, *trials); !st) return Error { which + ": " + st.error() };
    CapacityRunner r;
    r.m_options = definition->options;
    r.m_scrape = definition->scrape;
    r.m_store = &store;
    r.m_dbPath = std::move(dbPath);
    r.m_searchId = searchId;
    for (size_t i = 0; i < definition->targets.size(); ++i) {
        CapacityTargetDefinition& d = definition->targets[i];
        CapacityRunTarget t;
        t.url = d.url;
        t.label = d.label;
        t.config = std::move(d.config);
        t.restLatencyUs = d.restLatencyUs;
        t.sessionTargetId = d.sessionTargetId;
        t.search = std::move(searches[i]);
        r.m_targets.push_back(std::move(t));
    }
    for (const CapacityTrialRow& row : *trials) {
        if (row.target < 0 || static_cast<size_t>(row.target) >= r.m_targets.size())
            return Error { which + ": a trial of target " + std::to_string(row.target) + ", which the search has not" };
        CapacityTrialFigures seen { NAN, NAN, NAN, NAN, {} };
        if (auto run = store.runs().record(row.runId); run && run->hasTotals) {
            const RunTotals& totals = run->totals;
            auto scraped = store.runs().scrapeOf(row.runId);
            seen = capacityTrialFigures(totals.latency.p50Us, totals.latency.p99Us, totals.requests,
                totals.errors.transportErrors(), totals.non2xx,
                scraped ? capacityTrialMetrics(
                    *scraped, run->startedAtMs + static_cast<int64_t>(run->config.warmupUs / 1000))
                        : std::vector<std::pair<std::string, double>> {});
        }
        r.m_targets[static_cast<size_t>(row.target)].seen.push_back(seen);
    }
    r.m_trialsMade = static_cast<unsigned>(trials->size());
    return r;
}

Result<CapacityRunner> CapacityRunner::resume(SessionStore& store, std::string dbPath, int64_t searchId)
{
    auto r = stored(store, std::move(dbPath), searchId);
    if (!r) return r;
    for (CapacityRunTarget& t : r->m_targets)
        if (Status st = setProbe(t); !st) return Error { t.url + ": " + st.error() };
    return r;
}

Result<CapacityReport> storedCapacityReport(SessionStore& store, int64_t searchId)
{
    auto r = CapacityRunner::stored(store, {}, searchId);
    if (!r) return Error { r.error() };
    for (CapacityRunTarget& t : r->m_targets)
        if (t.search.next()) t.search.stop(); // one not over: its bracket as measured (an ended one keeps its end)
    return r->report();
}

Result<std::vector<int64_t>> capacitySearchTargets(SessionStore& store, int64_t searchId)
{
    auto runs = store.experiments().runs(searchId);
    if (!runs) return Error { runs.error() };
    auto trials = store.experiments().capacityTrials(searchId);
    if (!trials) return Error { trials.error() };
    std::map<int64_t, int64_t> targetOfRun;
    for (const RunRecord& run : *runs)
        targetOfRun[run.id] = run.targetId;
    std::vector<int64_t> out;
    for (const CapacityTrialRow& row : *trials) {
        const auto it = targetOfRun.find(row.runId);
        if (row.target < 0 || row.target > 1024 || it == targetOfRun.end()) continue; // a hostile index stays small
        if (out.size() <= static_cast<size_t>(row.target)) out.resize(static_cast<size_t>(row.target) + 1, 0);
        if (out[static_cast<size_t>(row.target)] == 0) out[static_cast<size_t>(row.target)] = it->second;
    }
    return out;
}

Result<std::vector<StoredCapacity>> latestCapacities(SessionStore& store, const std::vector<int64_t>& targetIds)
{
    auto experiments = store.experiments().all();
    if (!experiments) return Error { experiments.error() };
    std::map<int64_t, StoredCapacity> found;
    const auto wanted = [&](int64_t id) {
        return id > 0 && !found.count(id) && std::find(targetIds.begin(), targetIds.end(), id) != targetIds.end();
    };
    for (auto e = experiments->rbegin(); e != experiments->rend() && found.size() < targetIds.size(); ++e) {
        if (e->kind != ExperimentKind::Capacity) continue;
        auto targetOfIndex = capacitySearchTargets(store, e->id);
        if (!targetOfIndex) continue; // an unreadable search says nothing of its targets
        if (std::none_of(targetOfIndex->begin(), targetOfIndex->end(), wanted)) continue;
        auto report = storedCapacityReport(store, e->id);
        if (!report) continue;
        for (size_t index = 0; index < targetOfIndex->size() && index < report->targets.size(); ++index) {
            const int64_t targetId = (*targetOfIndex)[index];
            if (!wanted(targetId)) continue;
            StoredCapacity c;
            c.targetId = targetId;
            c.searchId = e->id;
            c.searchName = e->name;
            c.status = e->status;
            c.slos = report->slos;
            c.target = report->targets[index];
            found.emplace(targetId, std::move(c));
        }
    }
    std::vector<StoredCapacity> out;
    for (int64_t id : targetIds)
        if (auto it = found.find(id); it != found.end()) {
            out.push_back(std::move(it->second));
            found.erase(it);
        }
    return out;
}

CapacityDefinition CapacityRunner::definition() const
{
    CapacityDefinition d;
    d.options = m_options;
    d.scrape = m_scrape;
    for (const CapacityRunTarget& t : m_targets)
        d.targets.push_back(
            { t.label, t.url, t.config, t.restLatencyUs, t.search.options().fromPerS, t.sessionTargetId });
    return d;
}

Status CapacityRunner::storeIn(SessionStore& store, std::string dbPath, std::vector<std::string> tags, std::string name)
{
    if (name.empty()) {
        name = "capacity";
        for (const CapacityRunTarget& t : m_targets)
            name += (t.label == "A" ? " " : " vs ") + t.url;
    }
    auto id = store.experiments().add(name, capacityDefinitionToJson(definition()), {}, ExperimentKind::Capacity);
    if (!id) return Error { dbPath + ": " + id.error() };
    m_store = &store;
    m_dbPath = std::move(dbPath);
    m_tags = std::move(tags);
    m_searchId = *id;
    return {};
}

bool CapacityRunner::searching()
{
    // next() hands out the same trial until it is recorded: asking changes nothing.
    return std::any_of(
        m_targets.begin(), m_targets.end(), [](CapacityRunTarget& t) { return t.search.next().has_value(); });
}

void CapacityRunner::stop()
{
    m_stopped = true;
    if (StopSwitch* trial = m_trialStop.load()) trial->pull();
}

Status CapacityRunner::run(const CapacityRunEvents& events)
{
    const bool searchingNow = searching();
    if (m_store && searchingNow)
        if (Status st = m_store->experiments().begin(m_searchId); !st) return st;
    std::string fatal;
    bool first = true; // the first trial of this process: nothing of ours loaded the target before it
    // Each step gives every target still searching one trial, in turn, so drift hits them alike.
    for (bool any = true; any && fatal.empty() && !m_stopped;) {
        any = false;
        for (CapacityRunTarget& t : m_targets) {
            if (m_stopped || !fatal.empty()) break;
            auto trial = t.search.next();
            if (!trial) continue;
            any = true;
            const double started = nowS();
            const bool settled = first || settle(t, m_stopped);
            first = false;
            if (m_stopped) break;
            RunConfig cfg = t.config;
            cfg.ratePerS = trial->ratePerS;
            cfg.durationUs = trial->durationUs;
            cfg.responses = 0; // a trial lasts its length: its rate is judged over all of it
            RecordedRunOptions ro;
            ro.sessionPath = m_store ? m_dbPath : std::string();
            ro.tags = m_tags;
            ro.targetId = t.sessionTargetId;
            ro.cancelBeforeLoad = false;
            if (events.warning) ro.onWarning = events.warning;
            ro.scrape = m_scrape;
            ro.fleet = m_fleet;
            ro.agents = m_agents;
            const int targetIndex = static_cast<int>(&t - m_targets.data());
            if (m_store) ro.experiment = { m_searchId, targetIndex, static_cast<int>(m_trialsMade) };
            // A wrk script: each trial runs it as any run does; what it prints is kept with the trial.
            auto script = KeptScript::prepare(cfg, ro);
            if (!script) {
                fatal = t.url + ": " + script.error();
                break;
            }
            RecordedRun run(cfg, ro);
            if (events.observer) run.addObserver(events.observer);
            if (events.starting) events.starting(t, *trial, m_trialsMade + 1);
            m_trialStop = &run.stopSwitch();
            if (m_stopped) run.stopSwitch().pull();
            const RecordedRunOutcome out = run.run();
            m_trialStop = nullptr;
            if (*script)
                if (Status st = (*script)->finish(out, m_store); !st && events.warning)
                    events.warning("what the script printed was not stored: " + st.error());
            if (!out.ran()) {
                fatal = t.url + ": " + out.error;
                break;
            }
            const RunResult& result = *out.result;
            if (!out.storageWarning.empty() && events.warning) events.warning(out.storageWarning);
            // A Lua error stopped the trial: it judges nothing, and the search cannot go on.
            if (!result.failure.empty()) {
                fatal = t.url + ": the trial stopped: " + result.failure;
                break;
            }
            if (m_stopped || result.stoppedEarly) break; // a trial cut short judges nothing
            TrialOutcome outcome = judgeTrial(result, t.restLatencyUs);
            outcome.runId = out.runId;
            outcome.elapsedS = nowS() - started;
            t.seen.push_back(capacityTrialFigures(static_cast<double>(result.latency.valueAtPercentileUs(50)),
                static_cast<double>(result.latency.valueAtPercentileUs(99)), result.requests,
                result.errors.transportErrors(), result.status.non2xx(),
                capacityTrialMetrics(out.scrape, result.measureStartUnixMs)));
            ++m_trialsMade;
            t.search.record(outcome);
            if (m_store)
                if (Status st = m_store->experiments().addCapacityTrial(
                        m_searchId, capacityTrialRow(targetIndex, *trial, outcome));
                    !st)
                    fatal = m_dbPath + ": the trial could not be stored: " + st.error();
            if (events.judged) events.judged(t, *trial, outcome, m_trialsMade, settled);
        }
    }
    for (CapacityRunTarget& t : m_targets)
        t.search.stop(); // a search ended by stop() or an error says its bracket as it is
    if (m_store && searchingNow) {
        const ExperimentStatus status = !fatal.empty() ? ExperimentStatus::Failed
            : m_stopped                                ? ExperimentStatus::Stopped
                                                       : ExperimentStatus::Completed;
        if (Status st = m_store->experiments().finish(m_searchId, status, fatal); !st && events.warning)
            events.warning(st.error());
    }
    if (!fatal.empty()) return Error { fatal };
    return {};
}

std::vector<CapacityTarget> CapacityRunner::results() const
{
    std::vector<CapacityTarget> out;
    for (const CapacityRunTarget& t : m_targets)
        out.push_back({ t.url, t.search.result() });
    return out;
}

CapacityReport CapacityRunner::report() const
{
    CapacityReport report;
    report.slos = m_targets.empty() ? std::vector<Slo> {} : m_targets[0].config.slos;
    report.threads = m_targets.empty() ? 0 : m_targets[0].config.threads;
    report.connections = m_targets.empty() ? 0 : m_targets[0].config.connections;
    report.options = m_options;
    for (const CapacityRunTarget& t : m_targets)
        report.targets.push_back({ t.label, t.url, t.restLatencyUs, t.search.result(), t.seen });
    return report;
}

} // namespace wb
