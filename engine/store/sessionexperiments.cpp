// ExperimentRepository: experiments (A-vs-B studies). The store keeps the plan as JSON
// and the experiment's life (planned, running, stopped...); the runs are
// ordinary runs that carry the experiment, cell and repetition they fill.

#include "store/runowner.h"
#include "store/sessionstore.h"
#include "store/sqldatabase.h"

#include <sqlite3.h>

namespace wb {

namespace {

constexpr char EXPERIMENT_COLUMNS[]
    = "id, name, plan, status, created_at_ms, started_at_ms, finished_at_ms, host_name, error, notes, kind";

std::string noExperiment(int64_t id)
{
    return "no experiment with id " + std::to_string(id);
}

} // namespace

ExperimentRecord ExperimentRepository::readExperiment(int64_t id)
{
    SqlStatement& q
        = m_store.m_db->prepare(std::string("SELECT ") + EXPERIMENT_COLUMNS + " FROM experiments WHERE id = ?");
    q.bind(id);
    if (!q.step()) throw SqlError(SQLITE_NOTFOUND, noExperiment(id));
    ExperimentRecord e;
    e.id = q.int64(0);
    e.name = q.text(1);
    e.planJson = q.text(2);
    e.status = experimentStatusFromName(q.text(3)).value_or(ExperimentStatus::Interrupted);
    e.createdAtMs = q.int64(4);
    e.startedAtMs = q.int64(5);
    e.finishedAtMs = q.int64(6);
    e.hostName = q.text(7);
    e.error = q.text(8);
    e.notes = q.text(9);
    const std::string kind = q.text(10);
    e.kind = kind == experimentKindName(ExperimentKind::Study) ? ExperimentKind::Study
        : kind == experimentKindName(ExperimentKind::Capacity) ? ExperimentKind::Capacity
                                                               : ExperimentKind::Plan;
    q.reset();
    return e;
}

Result<int64_t> ExperimentRepository::add(
    const std::string& name, const std::string& planJson, const std::string& notes, ExperimentKind kind)
{
    if (planJson.empty()) return Error { "an experiment needs a plan" };
    if (kind == ExperimentKind::Study) return Error { "a study is added with its runs (addStudy)" };
    int64_t id = 0;
    auto st = m_store.transaction([&]() -> Status {
        m_store.m_db
            ->prepare(
                "INSERT INTO experiments (name, plan, status, created_at_ms, notes, kind) VALUES (?, ?, ?, ?, ?, ?)")
            .bind(name)
            .bind(planJson)
            .bind(experimentStatusName(ExperimentStatus::Planned))
            .bind(wallClockNowMs())
            .bind(notes)
            .bind(experimentKindName(kind))
            .run();
        id = m_store.m_db->lastInsertId();
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Result<std::vector<ExperimentRecord>> ExperimentRepository::all()
{
    std::vector<ExperimentRecord> out;
    auto st = m_store.guarded([&] {
        std::vector<int64_t> ids;
        SqlStatement& q = m_store.m_db->prepare("SELECT id FROM experiments ORDER BY id");
        while (q.step())
            ids.push_back(q.int64(0));
        for (int64_t id : ids)
            out.push_back(readExperiment(id));
    });
    if (!st) return Error { st.error() };
    return out;
}

Result<ExperimentRecord> ExperimentRepository::get(int64_t id)
{
    ExperimentRecord out;
    auto st = m_store.guarded([&] {
        SqlStatement& q = m_store.m_db->prepare("SELECT 1 FROM experiments WHERE id = ?");
        q.bind(id);
        const bool exists = q.step();
        q.reset();
        if (exists) out = readExperiment(id);
    });
    if (!st) return Error { st.error() };
    if (out.id == 0) return Error { noExperiment(id) + " in '" + m_store.m_path + "'" };
    return out;
}

Status ExperimentRepository::begin(int64_t id)
{
    const RunOwner me = RunOwner::current();
    return m_store.transaction([&]() -> Status {
        SqlStatement& q
            = m_store.m_db->prepare("SELECT status, host_name, owner_pid, owner_token FROM experiments WHERE id = ?");
        q.bind(id);
        if (!q.step()) return Error { noExperiment(id) };
        const RunOwner owner { q.text(1), static_cast<pid_t>(q.int64(2)), q.text(3) };
        const bool running = q.text(0) == experimentStatusName(ExperimentStatus::Running);
        q.reset();
        // Two processes running one experiment would fill the same cells twice.
        if (running && ownerState(owner) == OwnerState::Alive)
            return Error { "experiment " + std::to_string(id) + " is already being run by process "
                + std::to_string(owner.pid) + (owner.hostName.empty() ? "" : " on " + owner.hostName) };
        m_store.m_db
            ->prepare("UPDATE experiments SET status = ?, started_at_ms = ?, finished_at_ms = NULL, host_name = ?, "
                      "owner_pid = ?, owner_token = ?, error = '' WHERE id = ?")
            .bind(experimentStatusName(ExperimentStatus::Running))
            .bind(wallClockNowMs())
            .bind(me.hostName)
            .bind(static_cast<int64_t>(me.pid))
            .bind(me.token)
            .bind(id)
            .run();
        return {};
    });
}

Status ExperimentRepository::finish(int64_t id, ExperimentStatus status, const std::string& error)
{
    return m_store.transaction([&]() -> Status {
        m_store.m_db
            ->prepare("UPDATE experiments SET status = ?, finished_at_ms = ?, owner_pid = NULL, owner_token = NULL, "
                      "error = ? WHERE id = ?")
            .bind(experimentStatusName(status))
            .bind(wallClockNowMs())
            .bind(error)
            .bind(id)
            .run();
        if (m_store.m_db->changes() == 0) return Error { noExperiment(id) };
        return {};
    });
}

Result<int64_t> ExperimentRepository::addStudy(
    const std::string& name, const std::string& definitionJson, const std::vector<StudyRunLink>& runs)
{
    if (definitionJson.empty()) return Error { "a study needs its definition" };
    int64_t id = 0;
    auto st = m_store.transaction([&]() -> Status {
        const int64_t now = wallClockNowMs();
        // Nothing is run: the study is complete when it is made.
        m_store.m_db
            ->prepare("INSERT INTO experiments (name, plan, status, created_at_ms, started_at_ms, finished_at_ms, "
                      "host_name, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            .bind(name)
            .bind(definitionJson)
            .bind(experimentStatusName(ExperimentStatus::Completed))
            .bind(now)
            .bind(now)
            .bind(now)
            .bind(RunOwner::current().hostName)
            .bind(experimentKindName(ExperimentKind::Study))
            .run();
        id = m_store.m_db->lastInsertId();
        for (const StudyRunLink& link : runs)
            m_store.m_db
                ->prepare("INSERT INTO study_runs (experiment_id, run_id, group_name, variant) VALUES (?, ?, ?, ?)")
                .bind(id)
                .bind(link.runId)
                .bind(link.group)
                .bind(link.variant)
                .run();
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Result<std::vector<StudyRunLink>> ExperimentRepository::studyLinks(int64_t id)
{
    std::vector<StudyRunLink> out;
    auto st = m_store.guarded([&] {
        SqlStatement& q = m_store.m_db->prepare(
            "SELECT run_id, group_name, variant FROM study_runs WHERE experiment_id = ? ORDER BY run_id");
        q.bind(id);
        while (q.step())
            out.push_back(StudyRunLink { q.int64(0), q.text(1), q.text(2) });
    });
    if (!st) return Error { st.error() };
    return out;
}

Status ExperimentRepository::addCapacityTrial(int64_t experimentId, const CapacityTrialRow& t)
{
    return m_store.transaction([&]() -> Status {
        SqlStatement& next = m_store.m_db->prepare("SELECT count(*) FROM capacity_trials WHERE experiment_id = ?");
        next.bind(experimentId);
        next.step();
        const int64_t seq = next.int64(0);
        next.reset();
        SqlStatement& q
            = m_store.m_db->prepare("INSERT INTO capacity_trials (experiment_id, seq, target, run_id, rate_per_s, "
                                    "duration_us, final, passed, loader_limited, loader_reason, failed_slo, slo, "
                                    "elapsed_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        q.bind(experimentId)
            .bind(seq)
            .bind(static_cast<int64_t>(t.target))
            .bindOrNull(t.runId)
            .bind(t.ratePerS)
            .bind(static_cast<int64_t>(t.durationUs))
            .bind(static_cast<int64_t>(t.final))
            .bind(static_cast<int64_t>(t.passed))
            .bind(static_cast<int64_t>(t.loaderLimited))
            .bind(t.loaderReason)
            .bind(t.failedSlo)
            .bind(t.sloJson)
            .bind(t.elapsedS)
            .run();
        return {};
    });
}

Result<std::vector<CapacityTrialRow>> ExperimentRepository::capacityTrials(int64_t experimentId)
{
    std::vector<CapacityTrialRow> out;
    auto st = m_store.guarded([&] {
        SqlStatement& q = m_store.m_db->prepare(
            "SELECT target, run_id, rate_per_s, duration_us, final, passed, loader_limited, loader_reason, failed_slo, "
            "slo, elapsed_s FROM capacity_trials WHERE experiment_id = ? ORDER BY seq");
        q.bind(experimentId);
        while (q.step()) {
            CapacityTrialRow t;
            t.target = static_cast<int>(q.int64(0));
            t.runId = q.int64(1);
            t.ratePerS = q.real(2);
            t.durationUs = static_cast<uint64_t>(std::max<int64_t>(0, q.int64(3)));
            t.final = q.int64(4) != 0;
            t.passed = q.int64(5) != 0;
            t.loaderLimited = q.int64(6) != 0;
            t.loaderReason = q.text(7);
            t.failedSlo = q.text(8);
            t.sloJson = q.text(9);
            t.elapsedS = q.real(10);
            out.push_back(std::move(t));
        }
    });
    if (!st) return Error { st.error() };
    return out;
}

Result<std::vector<RunRecord>> ExperimentRepository::runs(int64_t id)
{
    std::vector<RunRecord> out;
    auto st = m_store.guarded([&] {
        out = m_store.queryRuns(
            " WHERE r.experiment_id = ? OR r.id IN (SELECT run_id FROM study_runs WHERE experiment_id = ?)",
            { std::to_string(id), std::to_string(id) });
    });
    if (!st) return Error { st.error() };
    return out;
}

Status ExperimentRepository::remove(int64_t id, bool withRuns)
{
    return m_store.transaction([&]() -> Status {
        if (withRuns) m_store.deleteRunsWhere("experiment_id", id);
        m_store.m_db->prepare("DELETE FROM experiments WHERE id = ?").bind(id).run();
        if (m_store.m_db->changes() == 0) return Error { noExperiment(id) };
        return {};
    });
}

// An experiment left 'running' by a process that no longer exists (on this
// host) is 'interrupted': it can be resumed. Its run in progress is recovered
// by recoverDeadRuns() like any other run.
void ExperimentRepository::recoverDead()
{
    for (int64_t id : SessionStore::deadOwnedRows(*m_store.m_db, "experiments"))
        m_store.m_db
            ->prepare("UPDATE experiments SET status = 'interrupted', owner_pid = NULL, owner_token = NULL "
                      "WHERE id = ? AND status = 'running'")
            .bind(id)
            .run();
}

} // namespace wb
