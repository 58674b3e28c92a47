#include "experiment/experimentrunner.h"

#include "record/keptscript.h"
#include "record/recordedrun.h"
#include "run/runcontroller.h"
#include "serve/builtinserver.h"
#include "store/sessionstore.h"

#include <chrono>
#include <set>
#include <thread>
#include <tuple>

namespace wb {

namespace {

using Clock = std::chrono::steady_clock;

// Setting up and draining a run costs a little beyond its warm-up and duration
// (pre-run check, the last responses); only for the ETA before the first run ends.
constexpr double RUN_OVERHEAD_S = 0.3;
constexpr auto COOLDOWN_SLICE = std::chrono::milliseconds(50); // how fast a cancel ends the cool-down

std::string defaultName(const ExperimentPlan& plan)
{
    std::string name;
    for (const auto& t : plan.targets)
        name += (name.empty() ? "" : " vs ") + t.name;
    return name;
}

/// A plan with "search" makes a capacity search (plansearch.h), not the runs of a matrix.
const char* const SEARCH_IS_NOT_RUN = "the plan is a capacity search (\"search\"): it is searched, not run as an "
                                      "experiment (wrkbench-cli experiment --db FILE PLAN, or New from plan in the "
                                      "window)";

SessionOpenOptions existingSession()
{
    SessionOpenOptions o;
    o.create = false;
    return o;
}

} // namespace

Result<int64_t> ExperimentRunner::create(SessionStore& store, ExperimentPlan plan, std::vector<std::string>* warnings)
{
    if (plan.search) return Error { SEARCH_IS_NOT_RUN };
    if (plan.name.empty()) plan.name = defaultName(plan);
    int64_t id = 0;
    // One transaction: the targets and the experiment appear together or not at all.
    auto st = store.transaction([&]() -> Status {
        for (auto& t : plan.targets) {
            auto target
                = findOrCreateTarget(store, t.name, t.request, t.tls, t.httpVersion, warnings, "this experiment");
            if (!target) return Error { target.error() };
            t.sessionTargetId = *target;
        }
        auto added = store.experiments().add(plan.name, experimentPlanToJson(plan));
        if (!added) return Error { added.error() };
        id = *added;
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Status ExperimentRunner::checkRunnable(const ExperimentRecord& record)
{
    const std::string which = "experiment " + std::to_string(record.id);
    switch (record.kind) {
    case ExperimentKind::Study:
        return Error { which
            + " is a study of stored runs: there is nothing to run or resume (experiment-report "
              "reports it)" };
    case ExperimentKind::Capacity:
        return Error { which + " is a capacity search: 'wrkbench-cli capacity --db FILE --resume "
            + std::to_string(record.id) + "' goes on with it" };
    case ExperimentKind::Plan:
        break;
    }
    return {};
}

Status ExperimentRunner::checkTargets(const ExperimentPlan& plan)
{
    for (size_t t = 0; t < plan.targets.size(); ++t)
        if (auto st = checkTarget(plan.runConfig(0, t)); !st)
            return Error { "target '" + plan.targets[t].name + "': " + st.error() };
    return {};
}

ExperimentRunner::ExperimentRunner(std::string sessionPath)
    : m_path(std::move(sessionPath))
{ }

ExperimentRunner::~ExperimentRunner() = default;

void ExperimentRunner::cancel()
{
    m_stop.pull(); // atomics only: callable from a signal handler
}

bool ExperimentRunner::coolDown(uint64_t us)
{
    const auto until = Clock::now() + std::chrono::microseconds(us);
    while (Clock::now() < until) {
        if (m_stop.pulled()) return false;
        std::this_thread::sleep_for(std::min<Clock::duration>(COOLDOWN_SLICE, until - Clock::now()));
    }
    return !m_stop.pulled();
}

Result<ExperimentOutcome> ExperimentRunner::run(int64_t experimentId)
{
    auto opened = SessionStore::open(m_path, existingSession());
    if (!opened) return Error { opened.error() };
    SessionStore& store = **opened;
    auto record = store.experiments().get(experimentId);
    if (!record) return Error { record.error() };
    if (Status st = checkRunnable(*record); !st) return Error { st.error() };
    auto parsed = parseExperimentPlan(record->planJson);
    if (!parsed) return Error { "the plan of experiment " + std::to_string(experimentId) + ": " + parsed.error() };
    const ExperimentPlan& plan = *parsed;
    if (plan.search) return Error { SEARCH_IS_NOT_RUN }; // its matrix would ignore the search
    std::vector<int64_t> targetIds;
    for (const auto& t : plan.targets) {
        auto target = store.targets().get(t.sessionTargetId);
        if (!target)
            return Error { "target '" + t.name + "' of experiment " + std::to_string(experimentId)
                + " is no longer in the session" };
        targetIds.push_back(t.sessionTargetId);
    }

    // What is already complete: resume makes only the rest.
    auto runs = store.experiments().runs(experimentId);
    if (!runs) return Error { runs.error() };
    std::set<std::tuple<size_t, size_t, unsigned>> done;
    for (const RunRecord& r : *runs) {
        if (r.status != RunStatus::Completed || r.experiment.cellIndex < 0 || r.experiment.repetition < 0) continue;
        for (size_t t = 0; t < targetIds.size(); ++t)
            if (targetIds[t] == r.targetId)
                done.insert(
                    { static_cast<size_t>(r.experiment.cellIndex), t, static_cast<unsigned>(r.experiment.repetition) });
    }
    std::vector<ScheduledRun> pending;
    ExperimentOutcome outcome;
    outcome.runsTotal = plan.runCount();
    for (const ScheduledRun& p : plan.schedule()) {
        if (done.count({ p.cell, p.target, p.repetition }))
            ++outcome.runsDone;
        else
            pending.push_back(p);
    }
    outcome.runsSkipped = outcome.runsDone;

    if (auto st = store.experiments().begin(experimentId); !st) return Error { st.error() };

    const double plannedRunS = static_cast<double>(plan.warmupUs + plan.durationUs) / 1e6 + RUN_OVERHEAD_S;
    const double cooldownS = static_cast<double>(plan.cooldownUs) / 1e6;
    double measuredRunS = 0; // sum over the runs made by this call
    auto etaS = [&](size_t remaining) {
        if (remaining == 0) return 0.0;
        const double perRun = outcome.runsMade ? measuredRunS / static_cast<double>(outcome.runsMade) : plannedRunS;
        return static_cast<double>(remaining) * perRun + static_cast<double>(remaining - 1) * cooldownS;
    };
    auto progressFor = [&](const ScheduledRun& p, ExperimentProgress::Event event) {
        ExperimentProgress e;
        e.event = event;
        e.cell = p.cell;
        e.cellCount = plan.levels.size();
        e.cellLabel = plan.levels[p.cell].label;
        e.repetition = p.repetition;
        e.repetitions = plan.repetitions;
        e.target = p.target;
        e.targetName = plan.targets[p.target].name;
        e.runsDone = outcome.runsDone;
        e.runsTotal = outcome.runsTotal;
        return e;
    };
    auto fail = [&](const std::string& error) {
        outcome.status = ExperimentStatus::Failed;
        outcome.error = error;
        (void)store.experiments().finish(experimentId, ExperimentStatus::Failed, error);
        return outcome;
    };

    for (size_t i = 0; i < pending.size() && !m_stop.pulled(); ++i) {
        const ScheduledRun& p = pending[i];
        ExperimentProgress starting = progressFor(p, ExperimentProgress::Event::RunStarting);
        starting.etaS = etaS(pending.size() - i);
        if (m_progress) m_progress(starting);

        RunConfig config = plan.runConfig(p.cell, p.target);
        const ExperimentSlot slot { experimentId, static_cast<int>(p.cell), static_cast<int>(p.repetition) };
        const std::string where = "target '" + plan.targets[p.target].name + "' at level " + plan.levels[p.cell].label
            + " (repetition " + std::to_string(p.repetition + 1) + ")";
        const auto startedAt = Clock::now();
        RecordedRunOptions options;
        options.sessionPath = m_path;
        options.createSession = false;
        options.targetId = targetIds[p.target];
        options.experiment = slot;
        // A target's wrk script: what it prints (done()'s report) is kept with each run.
        auto script = KeptScript::prepare(config, options);
        if (!script) return fail(where + ": " + script.error());
        options.scrape = plan.targets[p.target].scrape; // every run carries its target's metrics
        RecordedRun run(config, options, &m_stop);
        if (m_observer) run.addObserver(m_observer);
        const RecordedRunOutcome ran = run.run();
        if (*script) (void)(*script)->finish(ran, &store);
        if (ran.ended == RecordedRunOutcome::Ended::Cancelled) break;
        if (!ran.ran()) {
            ExperimentProgress finished = progressFor(p, ExperimentProgress::Event::RunFinished);
            finished.runId = ran.runId;
            finished.status = RunStatus::Failed;
            finished.message = ran.error;
            if (m_progress) m_progress(finished);
            // Going on would compare a working target with a broken one: stop here, resume later.
            return fail(where + ": " + ran.error);
        }
        ++outcome.runsMade;
        measuredRunS += std::chrono::duration<double>(Clock::now() - startedAt).count();
        if (ran.runId == 0 || !ran.storageWarning.empty()) return fail(where + ": " + ran.storageWarning);
        const RunResult& result = *ran.result;
        // A script's Lua error failed the run (stored so, with what was measured): as a run that
        // did not happen, the experiment stops here, to be resumed once the script is fixed.
        if (!result.failure.empty()) return fail(where + ": the script stopped the run: " + result.failure);
        const bool completed = !result.stoppedEarly;
        if (completed) ++outcome.runsDone;

        ExperimentProgress finished = progressFor(p, ExperimentProgress::Event::RunFinished);
        finished.runId = ran.runId;
        finished.status = completed ? RunStatus::Completed : RunStatus::Stopped;
        finished.requestsPerS = result.requestsPerS();
        finished.p50Us = result.latency.empty() ? 0.0 : static_cast<double>(result.latency.valueAtPercentileUs(50.0));
        finished.p99Us = result.latency.empty() ? 0.0 : static_cast<double>(result.latency.valueAtPercentileUs(99.0));
        finished.errors = result.errors.transportErrors();
        finished.non2xx = result.status.non2xx();
        finished.slo = result.slo;
        finished.etaS = etaS(pending.size() - i - 1);
        if (m_progress) m_progress(finished);

        if (i + 1 < pending.size() && plan.cooldownUs > 0 && !coolDown(plan.cooldownUs)) break;
    }

    outcome.status = outcome.runsDone == outcome.runsTotal ? ExperimentStatus::Completed : ExperimentStatus::Stopped;
    if (auto st = store.experiments().finish(experimentId, outcome.status); !st) return Error { st.error() };
    return outcome;
}

} // namespace wb
