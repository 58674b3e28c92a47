// RunRepository: writing runs (begin, intervals, finish, failed, imported), editing them;
// SessionStore: turning runs of dead processes into 'interrupted' runs.

#include "run/runcontroller.h"
#include "run/runfold.h"
#include "store/runowner.h"
#include "store/sessionrows.h"
#include "store/sessionstore.h"
#include "store/sqldatabase.h"
#include "wire/configcodec.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

Status validateTags(const std::vector<std::string>& tags)
{
    for (const auto& tag : tags)
        if (auto st = validateTag(tag); !st) return st;
    return {};
}

} // namespace

int64_t RunRepository::insertRun(const NewRun& run, const char* status)
{
    const RunOwner owner = RunOwner::current();
    const bool running = std::string(status) == "running";
    SqlStatement& q = m_store.m_db->prepare(
        "INSERT INTO runs (target_id, profile_id, profile_name, config, status, created_at_ms, started_at_ms, "
        "engine_version, host_name, cpu_count, owner_pid, owner_token, notes, experiment_id, cell_index, repetition, "
        "probe) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q.bind(run.targetId).bindOrNull(run.profileId).bind(run.profileName).bind(runConfigToJson(run.config));
    q.bind(status).bind(wallClockNowMs()).bindOrNull(run.startedAtMs).bind(engineVersion());
    q.bind(owner.hostName).bind(localCpuCount());
    if (running)
        q.bind(static_cast<int64_t>(owner.pid)).bind(owner.token);
    else
        q.bindNull().bindNull();
    q.bind(run.notes).bindOrNull(run.experiment.experimentId);
    const bool inExperiment = run.experiment.experimentId != 0;
    if (inExperiment && run.experiment.cellIndex >= 0)
        q.bind(run.experiment.cellIndex);
    else
        q.bindNull();
    if (inExperiment && run.experiment.repetition >= 0)
        q.bind(run.experiment.repetition);
    else
        q.bindNull();
    if (run.probeJson.empty())
        q.bindNull();
    else
        q.bind(run.probeJson);
    q.run();
    const int64_t id = m_store.m_db->lastInsertId();
    m_store.writeTags("run_tags", "run_id", id, run.tags);
    return id;
}

Result<int64_t> RunRepository::begin(const NewRun& run)
{
    if (auto st = validateTags(run.tags); !st) return Error { st.error() };
    int64_t id = 0;
    auto st = m_store.transaction([&]() -> Status {
        id = insertRun(run, "running");
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Status RunRepository::appendIntervals(int64_t runId, const std::vector<IntervalRecord>& intervals)
{
    return m_store.transaction([&]() -> Status {
        const auto& columns = intervalColumns();
        SqlStatement& q = m_store.m_db->prepare("INSERT OR REPLACE INTO intervals (run_id, " + joinColumns(columns)
            + ") VALUES (?, " + placeholders(columns.size()) + ")");
        for (const IntervalRecord& r : intervals) {
            q.reset();
            q.bind(runId);
            bindInterval(q, r);
            q.run();
        }
        return {};
    });
}

void RunRepository::writeTotals(int64_t runId, const RunTotals& totals)
{
    const auto& columns = totalsColumns();
    SqlStatement& q = m_store.m_db->prepare("UPDATE runs SET has_totals = 1, (" + joinColumns(columns) + ") = ("
        + placeholders(columns.size()) + ") WHERE id = ?");
    bindTotals(q, totals);
    q.bind(runId).run();
}

void RunRepository::writeHistogram(int64_t runId, const char* kind, const std::string& blob)
{
    if (blob.empty()) return;
    m_store.m_db->prepare("INSERT OR REPLACE INTO histograms (run_id, kind, data) VALUES (?, ?, ?)")
        .bind(runId)
        .bind(kind)
        .bindBlob(blob)
        .run();
}

void RunRepository::writeStatusCodes(int64_t runId, const std::vector<std::pair<int, uint64_t>>& codes)
{
    m_store.m_db->prepare("DELETE FROM status_counts WHERE run_id = ?").bind(runId).run();
    SqlStatement& q = m_store.m_db->prepare("INSERT INTO status_counts (run_id, code, count) VALUES (?, ?, ?)");
    for (const auto& [code, count] : codes) {
        q.reset();
        q.bind(runId).bind(code).bind(count).run();
    }
}

bool RunRepository::writeFinish(int64_t runId, const FinishedRun& f)
{
    m_store.m_db
        ->prepare("UPDATE runs SET status = ?, finished_at_ms = ?, owner_pid = NULL, owner_token = NULL WHERE id = ?")
        .bind(runStatusName(f.status))
        .bindOrNull(f.finishedAtMs)
        .bind(runId)
        .run();
    if (m_store.m_db->changes() == 0) return false;
    if (!f.error.empty())
        m_store.m_db->prepare("UPDATE runs SET error = ? WHERE id = ?").bind(f.error).bind(runId).run();
    writeTotals(runId, f.totals);
    writeHistogram(runId, "latency", f.latencyHistogram);
    writeHistogram(runId, "service", f.serviceHistogram);
    writeHistogram(runId, "connect", f.connectHistogram);
    writeHistogram(runId, "tls_handshake", f.tlsHandshakeHistogram);
    writeHistogram(runId, "first_byte", f.firstByteHistogram);
    writeStatusCodes(runId, f.statusCodes);
    writeEntries(runId, f);
    writeLoaders(runId, f.loaders);
    return true;
}

void RunRepository::writeEntries(int64_t runId, const FinishedRun& f)
{
    if (f.entries.empty()) return;
    const auto& columns = entryColumns();
    SqlStatement& q = m_store.m_db->prepare("INSERT OR REPLACE INTO run_entries (run_id, " + joinColumns(columns)
        + ") VALUES (?, " + placeholders(columns.size()) + ")");
    for (size_t i = 0; i < f.entries.size(); ++i) {
        q.reset();
        q.bind(runId);
        bindEntry(q, i, i < f.entryLabels.size() ? f.entryLabels[i] : std::string(), f.entries[i]);
        q.run();
    }
}

void RunRepository::writeLoaders(int64_t runId, const std::vector<LoaderSummary>& loaders)
{
    SqlStatement& q = m_store.m_db->prepare(
        "INSERT OR REPLACE INTO loaders (run_id, idx, host, connections, requests, errors, rps, "
        "start_offset_ms, clock, state, loader_cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const LoaderSummary& l : loaders) {
        q.reset();
        q.bind(runId)
            .bind(static_cast<int64_t>(l.index))
            .bind(l.host)
            .bind(static_cast<int64_t>(l.connections))
            .bind(static_cast<int64_t>(l.requests))
            .bind(static_cast<int64_t>(l.errors))
            .bind(l.requestsPerS)
            .bind(l.startOffsetMs)
            .bind(l.clock)
            .bind(l.state)
            .bind(loaderCostText(l.cost));
        q.run();
    }
}

Status RunRepository::finish(int64_t runId, const FinishedRun& f)
{
    return m_store.transaction([&]() -> Status {
        if (!writeFinish(runId, f)) return Error { "no run with id " + std::to_string(runId) };
        return {};
    });
}

Result<int64_t> RunRepository::addFailed(const NewRun& run, const std::string& error)
{
    if (auto st = validateTags(run.tags); !st) return Error { st.error() };
    int64_t id = 0;
    auto st = m_store.transaction([&]() -> Status {
        id = insertRun(run, "failed");
        m_store.m_db->prepare("UPDATE runs SET error = ?, finished_at_ms = ? WHERE id = ?")
            .bind(error)
            .bind(wallClockNowMs())
            .bind(id)
            .run();
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Result<int64_t> RunRepository::addImported(const ImportedRun& run)
{
    if (auto st = validateTags(run.tags); !st) return Error { st.error() };
    int64_t id = 0;
    auto st = m_store.transaction([&]() -> Status {
        NewRun base;
        base.targetId = run.targetId;
        base.config = run.config;
        base.tags = run.tags;
        id = insertRun(base, "imported");
        // Where the load ran is unknown: the importing host is not it.
        m_store.m_db
            ->prepare("UPDATE runs SET engine_version = ?, host_name = '', cpu_count = NULL, source = ?, "
                      "command_line = ? WHERE id = ?")
            .bind(run.engineVersion)
            .bind(run.source)
            .bind(run.commandLine)
            .bind(id)
            .run();
        writeTotals(id, run.totals);
        SqlStatement& q = m_store.m_db->prepare(
            "INSERT INTO percentiles (run_id, kind, seq, percentile, value_us, total_count) VALUES (?, ?, ?, ?, ?, ?)");
        for (const auto& [kind, rows] :
            { std::pair { "distribution", &run.latencyDistribution }, std::pair { "spectrum", &run.spectrum } }) {
            int seq = 0;
            for (const PercentileRow& row : *rows) {
                q.reset();
                q.bind(id).bind(kind).bind(seq++).bind(row.percentile).bind(row.valueUs);
                if (std::string(kind) == "spectrum")
                    q.bind(row.totalCount);
                else
                    q.bindNull();
                q.run();
            }
        }
        return {};
    });
    if (!st) return Error { st.error() };
    return id;
}

Status RunRepository::setNotes(int64_t id, const std::string& notes)
{
    return m_store.transaction([&]() -> Status {
        m_store.m_db->prepare("UPDATE runs SET notes = ? WHERE id = ?").bind(notes).bind(id).run();
        if (m_store.m_db->changes() == 0) return Error { "no run with id " + std::to_string(id) };
        return {};
    });
}

Status RunRepository::setScriptOutput(int64_t id, const std::string& output)
{
    return m_store.transaction([&]() -> Status {
        m_store.m_db->prepare("UPDATE runs SET script_output = ? WHERE id = ?").bindBlob(output).bind(id).run();
        if (m_store.m_db->changes() == 0) return Error { "no run with id " + std::to_string(id) };
        return {};
    });
}

Status RunRepository::setTags(int64_t id, const std::vector<std::string>& tags)
{
    if (auto st = validateTags(tags); !st) return st;
    return m_store.transaction([&]() -> Status {
        SqlStatement& q = m_store.m_db->prepare("SELECT 1 FROM runs WHERE id = ?");
        q.bind(id);
        if (!q.step()) return Error { "no run with id " + std::to_string(id) };
        q.reset();
        m_store.writeTags("run_tags", "run_id", id, tags);
        return {};
    });
}

Status RunRepository::changeTags(
    const std::vector<int64_t>& ids, const std::vector<std::string>& add, const std::vector<std::string>& remove)
{
    if (auto st = validateTags(add); !st) return st;
    if (auto st = validateTags(remove); !st) return st;
    return m_store.transaction([&]() -> Status {
        SqlStatement& q = m_store.m_db->prepare("SELECT 1 FROM runs WHERE id = ?");
        for (int64_t id : ids) {
            q.reset();
            q.bind(id);
            if (!q.step()) return Error { "no run with id " + std::to_string(id) };
        }
        q.reset();
        for (int64_t id : ids) {
            std::vector<std::string> tags = m_store.readTags("run_tags", "run_id", id);
            std::erase_if(
                tags, [&](const std::string& t) { return std::find(remove.begin(), remove.end(), t) != remove.end(); });
            for (const auto& t : add)
                if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
            m_store.writeTags("run_tags", "run_id", id, tags);
        }
        return {};
    });
}

Status RunRepository::remove(int64_t id)
{
    return m_store.transaction([&]() -> Status {
        // Never under its recorder: the rest of the run would fail to land.
        if (m_store.recordingRunOf("id", id) != 0)
            return Error { "run #" + std::to_string(id) + " is being recorded right now" };
        m_store.m_db->prepare("DELETE FROM runs WHERE id = ?").bind(id).run();
        if (m_store.m_db->changes() == 0) return Error { "no run with id " + std::to_string(id) };
        return {};
    });
}

void SessionStore::deleteRunsWhere(const char* column, int64_t value)
{
    // One statement per run: each run's cascade (its intervals, histograms, ...) is its own
    // statement's work, so deleting a target of a thousand runs stays far within SQL_STEP_BUDGET.
    std::vector<int64_t> ids;
    SqlStatement& q = m_db->prepare(std::string("SELECT id FROM runs WHERE ") + column + " = ?");
    q.bind(value);
    while (q.step())
        ids.push_back(q.int64(0));
    SqlStatement& del = m_db->prepare("DELETE FROM runs WHERE id = ?");
    for (int64_t id : ids) {
        del.reset();
        del.bind(id).run();
    }
}

int64_t SessionStore::recordingRunOf(const char* column, int64_t value)
{
    SqlStatement& q = m_db->prepare(
        std::string("SELECT id FROM runs WHERE status = 'running' AND ") + column + " = ? ORDER BY id LIMIT 1");
    q.bind(value);
    const int64_t id = q.step() ? q.int64(0) : 0;
    q.reset();
    return id;
}

std::vector<int64_t> SessionStore::deadOwnedRows(SqlDatabase& db, const char* table)
{
    struct Candidate
    {
        int64_t id;
        RunOwner owner;
    };
    std::vector<Candidate> candidates;
    SqlStatement& q = db.prepare(
        std::string("SELECT id, host_name, owner_pid, owner_token FROM ") + table + " WHERE status = 'running'");
    while (q.step())
        candidates.push_back({ q.int64(0), RunOwner { q.text(1), static_cast<pid_t>(q.int64(2)), q.text(3) } });
    std::vector<int64_t> dead;
    for (const Candidate& c : candidates)
        if (ownerState(c.owner) == OwnerState::Dead) dead.push_back(c.id);
    return dead;
}

bool SessionStore::hasDeadOwners(SqlDatabase& db)
{
    return !deadOwnedRows(db, "runs").empty() || !deadOwnedRows(db, "experiments").empty();
}

Result<std::vector<int64_t>> SessionStore::recoverDeadRuns()
{
    if (auto st = checkWritable(); !st) return Error { st.error() };
    std::vector<int64_t> recovered;
    auto st = guarded([&] {
        for (int64_t id : deadOwnedRows(*m_db, "runs"))
            if (m_runs.recover(id)) recovered.push_back(id);
        m_experiments.recoverDead();
    });
    if (!st) return Error { st.error() };
    return recovered;
}

// Rebuilds the summary of a run whose process died from the intervals it wrote
// (histograms merged, counts summed), and marks it interrupted. False when
// another process recovered it first.
bool RunRepository::recover(int64_t runId)
{
    SqlTransaction tx(*m_store.m_db);
    SqlStatement& run
        = m_store.m_db->prepare("SELECT started_at_ms, config FROM runs WHERE id = ? AND status = 'running'");
    run.bind(runId);
    if (!run.step()) return false;
    const int64_t startedAtMs = run.int64(0);
    const auto config = runConfigFromJson(run.text(1));
    run.reset();

    // The same fold as a finished run's (run/runfold.h): the intervals it wrote, and an end that
    // says only what a dead process still can (it stopped early; the protocol its configuration
    // asked for). The intervals carry every measurement, the threads' Req/Sec samples included;
    // what only a finished run knows (per-entry stats, first errors) died with it.
    RunFold fold(config ? *config : RunConfig {}, false);
    SqlStatement& q
        = m_store.m_db->prepare("SELECT " + joinColumns(intervalColumns()) + " FROM intervals WHERE run_id = ?");
    q.bind(runId);
    while (q.step()) {
        int column = 0;
        fold.add(readInterval(q, column));
    }
    RunEnd end;
    end.stoppedEarly = true;
    FinishedRun f = FinishedRun::of(fold.finish(end), 0);
    f.status = RunStatus::Interrupted;
    const RunTotals& t = f.totals;
    // The run ended, at the latest, when its last interval did.
    const uint64_t warmupUs = config ? config->warmupUs : 0;
    if (startedAtMs)
        f.finishedAtMs = startedAtMs + static_cast<int64_t>(warmupUs / 1000) + std::llround(t.durationS * 1000);
    writeFinish(runId, f);
    tx.commit();
    return true;
}

} // namespace wb
