// RunRepository: reading runs (the list with filters, one run with everything).

#include "store/sessionrows.h"
#include "store/sessionstore.h"
#include "store/sqldatabase.h"
#include "wire/configcodec.h"

#include <sqlite3.h>

namespace wb {

namespace {

const std::string& runSelect()
{
    static const std::string sql
        = "SELECT r.id, r.target_id, t.name, r.profile_id, r.profile_name, r.config, r.status, r.created_at_ms, "
          "r.started_at_ms, r.finished_at_ms, r.engine_version, r.host_name, r.cpu_count, r.notes, r.error, "
          "r.source, r.command_line, r.has_totals, r.experiment_id, r.cell_index, r.repetition, r.probe, "
          "r.script_output, "
          "(SELECT group_concat(tag, ',') FROM run_tags WHERE run_id = r.id), "
        + joinColumns(totalsColumns(), "r.") + " FROM runs r JOIN targets t ON t.id = r.target_id";
    return sql;
}

RunRecord readRun(const SqlStatement& q)
{
    RunRecord r;
    int c = 0;
    r.id = q.int64(c++);
    r.targetId = q.int64(c++);
    r.targetName = q.text(c++);
    r.profileId = q.int64(c++);
    r.profileName = q.text(c++);
    r.configJson = q.text(c++);
    if (auto config = runConfigFromJson(r.configJson)) r.config = *config;
    r.url = r.config.request.url.displayText();
    r.status = runStatusFromName(q.text(c++)).value_or(RunStatus::Interrupted);
    r.createdAtMs = q.int64(c++);
    r.startedAtMs = q.int64(c++);
    r.finishedAtMs = q.int64(c++);
    r.engineVersion = q.text(c++);
    r.hostName = q.text(c++);
    r.cpuCount = static_cast<unsigned>(q.int64(c++));
    r.notes = q.text(c++);
    r.error = q.text(c++);
    r.source = q.text(c++);
    r.commandLine = q.text(c++);
    r.hasTotals = q.int64(c++) != 0;
    r.experiment.experimentId = q.int64(c++);
    r.experiment.cellIndex = q.isNull(c) ? -1 : static_cast<int>(q.int64(c));
    ++c;
    r.experiment.repetition = q.isNull(c) ? -1 : static_cast<int>(q.int64(c));
    ++c;
    r.probeJson = q.isNull(c) ? std::string() : q.text(c);
    ++c;
    r.scriptOutput = q.isNull(c) ? std::string() : q.blob(c);
    ++c;
    r.tags = splitTags(q.text(c++));
    r.totals = readTotals(q, c);
    return r;
}

} // namespace

std::vector<RunRecord> SessionStore::queryRuns(const std::string& where, const std::vector<std::string>& params)
{
    std::vector<RunRecord> out;
    SqlStatement& q = m_db->prepare(runSelect() + where + " ORDER BY r.id");
    for (const auto& p : params)
        q.bind(p);
    while (q.step())
        out.push_back(readRun(q));
    return out;
}

Result<std::vector<RunRecord>> RunRepository::list(const RunFilter& filter)
{
    std::string where;
    std::vector<std::string> params;
    auto add = [&](const std::string& condition) { where += (where.empty() ? " WHERE " : " AND ") + condition; };
    if (!filter.targetName.empty()) {
        add("t.name = ?");
        params.push_back(filter.targetName);
    }
    for (const auto& tag : filter.tags) {
        add("(EXISTS (SELECT 1 FROM run_tags WHERE run_id = r.id AND tag = ?) "
            "OR EXISTS (SELECT 1 FROM target_tags WHERE target_id = r.target_id AND tag = ?))");
        params.push_back(tag);
        params.push_back(tag);
    }
    if (filter.status) {
        add("r.status = ?");
        params.push_back(runStatusName(*filter.status));
    }
    if (filter.experimentId) {
        add("r.experiment_id = ?");
        params.push_back(std::to_string(filter.experimentId));
    }
    std::vector<RunRecord> out;
    if (auto st = m_store.guarded([&] { out = m_store.queryRuns(where, params); }); !st) return Error { st.error() };
    return out;
}

Result<RunRecord> RunRepository::record(int64_t id)
{
    std::vector<RunRecord> found;
    if (auto st = m_store.guarded([&] { found = m_store.queryRuns(" WHERE r.id = ?", { std::to_string(id) }); }); !st)
        return Error { st.error() };
    if (found.empty()) return Error { "no run with id " + std::to_string(id) + " in '" + m_store.m_path + "'" };
    return std::move(found.front());
}

Result<RunData> RunRepository::load(int64_t id)
{
    auto summary = record(id);
    if (!summary) return Error { summary.error() };
    RunData data;
    data.run = std::move(*summary);
    auto st = m_store.guarded([&] {
        SqlStatement& iq = m_store.m_db->prepare(
            "SELECT " + joinColumns(intervalColumns()) + " FROM intervals WHERE run_id = ? ORDER BY idx");
        iq.bind(id);
        while (iq.step()) {
            int column = 0;
            data.intervals.push_back(readInterval(iq, column));
        }
        SqlStatement& sq
            = m_store.m_db->prepare("SELECT code, count FROM status_counts WHERE run_id = ? ORDER BY code");
        sq.bind(id);
        while (sq.step())
            data.statusCodes.emplace_back(static_cast<int>(sq.int64(0)), sq.uint64(1));
        SqlStatement& hq = m_store.m_db->prepare("SELECT kind, data FROM histograms WHERE run_id = ?");
        hq.bind(id);
        while (hq.step()) {
            LatencyHistogram h;
            if (!h.deserialize(hq.blob(1)))
                throw SqlError(SQLITE_CORRUPT,
                    "the " + hq.text(0) + " histogram of run " + std::to_string(id) + " is not a valid encoding");
            const std::string kind = hq.text(0);
            if (kind == "service")
                data.serviceLatency = h;
            else if (kind == "connect")
                data.connect = h;
            else if (kind == "tls_handshake")
                data.tlsHandshake = h;
            else if (kind == "first_byte")
                data.firstByte = h;
            else
                data.latency = h;
        }
        SqlStatement& eq = m_store.m_db->prepare(
            "SELECT " + joinColumns(entryColumns()) + " FROM run_entries WHERE run_id = ? ORDER BY idx");
        eq.bind(id);
        while (eq.step()) {
            int column = 0;
            size_t index = 0;
            EntryStats e = readEntry(eq, column, index);
            if (index >= 65536) continue; // not ours
            if (data.entries.size() <= index) data.entries.resize(index + 1);
            data.entries[index] = std::move(e);
        }
        SqlStatement& lq
            = m_store.m_db->prepare("SELECT idx, host, connections, requests, errors, rps, start_offset_ms, clock, "
                                    "state, loader_cost FROM loaders WHERE run_id = ? ORDER BY idx");
        lq.bind(id);
        while (lq.step())
            data.loaders.push_back(
                { static_cast<unsigned>(lq.int64(0)), lq.text(1), static_cast<unsigned>(lq.int64(2)), lq.uint64(3),
                    lq.uint64(4), lq.real(5), lq.real(6), lq.text(7), lq.text(8), loaderCostOfText(lq.text(9)) });
        SqlStatement& pq = m_store.m_db->prepare(
            "SELECT kind, percentile, value_us, total_count FROM percentiles WHERE run_id = ? ORDER BY kind, seq");
        pq.bind(id);
        while (pq.step()) {
            PercentileRow row { pq.real(1), pq.real(2), pq.uint64(3) };
            (pq.text(0) == "spectrum" ? data.spectrum : data.latencyDistribution).push_back(row);
        }
    });
    if (!st) return Error { st.error() };
    auto scrape = scrapeOf(id);
    if (!scrape) return Error { scrape.error() };
    data.scrape = std::move(*scrape);
    return data;
}

} // namespace wb
