#include "store/schema.h"

#include "store/sqldatabase.h"

#include <sqlite3.h>
#include <string>

namespace wb {

namespace {

// The latency statistics of one histogram, as columns with a prefix.
// The columns of one latency summary, each named prefix + suffix.
constexpr const char* LATENCY_SUFFIXES[] = { "min_us", "mean_us", "stdev_us", "max_us", "within_stdev_pct", "p50_us",
    "p75_us", "p90_us", "p99_us", "p99_9_us", "p99_99_us" };

std::string latencyColumns(const std::string& p)
{
    std::string out;
    for (const char* c : LATENCY_SUFFIXES)
        out += "    " + p + c + " REAL,\n";
    return out;
}

std::string errorColumns()
{
    std::string out;
    for (const char* c : { "connect", "read", "write", "timeout", "tls", "parse", "status" })
        out += std::string("    errors_") + c + " INTEGER NOT NULL DEFAULT 0,\n";
    return out;
}

// Version 1: the first schema. Never edit once released; add a step instead.
std::string schemaV1()
{
    return R"sql(
CREATE TABLE targets (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    url TEXT NOT NULL,
    method TEXT NOT NULL DEFAULT 'GET',
    headers TEXT NOT NULL DEFAULT '[]',         -- JSON [{"name":..,"value":..}]
    body BLOB,
    tls_verify INTEGER NOT NULL DEFAULT 1,
    ca_file TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER NOT NULL
);
CREATE TABLE target_tags (
    target_id INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (target_id, tag)
) WITHOUT ROWID;

CREATE TABLE profiles (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    config TEXT NOT NULL,                       -- JSON: the load fields of a run configuration
    notes TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER NOT NULL
);

CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    target_id INTEGER NOT NULL REFERENCES targets(id) ON DELETE RESTRICT,
    profile_id INTEGER REFERENCES profiles(id) ON DELETE SET NULL,
    profile_name TEXT NOT NULL DEFAULT '',     -- snapshot: the profile may be renamed or deleted later
    config TEXT NOT NULL,                       -- JSON: the full run configuration
    status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'stopped', 'interrupted', 'failed', 'imported')),
    created_at_ms INTEGER NOT NULL,
    started_at_ms INTEGER,
    finished_at_ms INTEGER,
    engine_version TEXT NOT NULL DEFAULT '',
    host_name TEXT NOT NULL DEFAULT '',
    cpu_count INTEGER,
    owner_pid INTEGER,                          -- the process writing a 'running' run ...
    owner_token TEXT,                           -- ... "boot id/pid namespace/start time": tells a live owner from a reused pid
    notes TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    command_line TEXT NOT NULL DEFAULT '',
    -- The summary: NULL / 0 until the run has finished (or was recovered or imported).
    has_totals INTEGER NOT NULL DEFAULT 0,
    duration_s REAL,
    requests INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0,
    requests_per_s REAL,
    bytes_per_s REAL,
)sql" + errorColumns()
        + latencyColumns("latency_") + latencyColumns("service_") + R"sql(
    thread_rps_mean REAL,
    thread_rps_stdev REAL,
    thread_rps_max REAL,
    thread_rps_within_stdev_pct REAL,
    target_rate_per_s REAL,
    late_requests INTEGER NOT NULL DEFAULT 0,
    max_lag_us INTEGER NOT NULL DEFAULT 0,
    stopped_early INTEGER NOT NULL DEFAULT 0,
    first_tls_error TEXT NOT NULL DEFAULT '',
    first_connect_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_by_target ON runs(target_id);
CREATE INDEX runs_by_status ON runs(status);
CREATE TABLE run_tags (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;
CREATE INDEX run_tags_by_tag ON run_tags(tag);

CREATE TABLE intervals (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    start_s REAL NOT NULL,                      -- seconds since measurement began
    end_s REAL NOT NULL,
    requests INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
)sql" + errorColumns()
        + R"sql(    connections INTEGER NOT NULL DEFAULT 0,
)sql" + latencyColumns("latency_")
        + latencyColumns("service_") + R"sql(
    target_rate_per_s REAL,
    late_requests INTEGER NOT NULL DEFAULT 0,
    max_lag_us INTEGER NOT NULL DEFAULT 0,
    status_codes TEXT NOT NULL DEFAULT '{}',    -- JSON {"200": count, ...}
    latency_histogram BLOB,                     -- LatencyHistogram::serialize()
    service_histogram BLOB,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;

CREATE TABLE histograms (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('latency', 'service')),
    data BLOB NOT NULL,                         -- LatencyHistogram::serialize()
    PRIMARY KEY (run_id, kind)
) WITHOUT ROWID;

CREATE TABLE status_counts (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    code INTEGER NOT NULL,                      -- 0 = outside 100..599
    count INTEGER NOT NULL,
    PRIMARY KEY (run_id, code)
) WITHOUT ROWID;

-- Imported runs: the percentiles wrk printed (there is no histogram to recompute them from).
CREATE TABLE percentiles (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('distribution', 'spectrum')),
    seq INTEGER NOT NULL,
    percentile REAL NOT NULL,                   -- 0..100
    value_us REAL NOT NULL,
    total_count INTEGER,
    PRIMARY KEY (run_id, kind, seq)
) WITHOUT ROWID;
)sql";
}

// Version 2: A-vs-B experiments (engine/experiment), and the probe that preceded a run. An experiment keeps its
// plan as JSON; its runs are ordinary runs that point back at it, with the
// cell of the load matrix and the repetition they fill (NULL for other runs).
// Deleting an experiment leaves its runs (ON DELETE SET NULL) unless the caller
// deletes them first. Never edit once released; add a step instead.
std::string schemaV2()
{
    return R"sql(
CREATE TABLE experiments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    plan TEXT NOT NULL,                         -- JSON: the plan (docs/EXPERIMENTS.md)
    status TEXT NOT NULL CHECK (status IN ('planned', 'running', 'completed', 'stopped', 'interrupted', 'failed')),
    created_at_ms INTEGER NOT NULL,
    started_at_ms INTEGER,
    finished_at_ms INTEGER,
    host_name TEXT NOT NULL DEFAULT '',
    owner_pid INTEGER,                          -- the process running it (as for runs) ...
    owner_token TEXT,                           -- ... so that a dead one's experiment becomes 'interrupted'
    error TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT ''
);
ALTER TABLE runs ADD COLUMN experiment_id INTEGER REFERENCES experiments(id) ON DELETE SET NULL;
ALTER TABLE runs ADD COLUMN cell_index INTEGER;  -- 0-based, into the plan's load levels
ALTER TABLE runs ADD COLUMN repetition INTEGER;  -- 0-based
CREATE INDEX runs_by_experiment ON runs(experiment_id, cell_index, repetition);
-- The probe (engine/probe, one request timed phase by phase) made just before the run, as
-- ProbeResult JSON; NULL when none was made.
ALTER TABLE runs ADD COLUMN probe TEXT;
)sql";
}

// Version 3: the open model's send lag (send time minus due time: the generator's own
// scheduling error) kept with the run's totals, so a stored run can say when it was a
// noticeable part of the latency. NULL for closed-loop and imported runs.
std::string schemaV3()
{
    std::string out;
    for (const char* c : LATENCY_SUFFIXES)
        out += std::string("ALTER TABLE runs ADD COLUMN send_lag_") + c + " REAL;\n";
    return out;
}

// Version 4: each interval is stored whole (stats/intervalrecord.h), so that the
// intervals of several loaders can be merged exactly: its wall-clock start and its
// send lag (summary and histogram). NULL/0 in intervals written before.
std::string schemaV4()
{
    std::string out = "ALTER TABLE intervals ADD COLUMN start_unix_ms INTEGER NOT NULL DEFAULT 0;\n";
    for (const char* c : LATENCY_SUFFIXES)
        out += std::string("ALTER TABLE intervals ADD COLUMN send_lag_") + c + " REAL;\n";
    out += "ALTER TABLE intervals ADD COLUMN send_lag_histogram BLOB;\n";
    return out;
}

// Version 5: HTTP/2. A request whose stream the server reset is an error of its own
// (errors_stream, 0 before); a run keeps the protocol it spoke ('http/1.1', 'h2', 'h2c';
// '' when unknown: imported runs and runs stored before), its reconnects (GOAWAY) and the
// server's stream limit when it was lower than asked; a target says which HTTP version to speak.
std::string schemaV5()
{
    return R"sql(
ALTER TABLE runs ADD COLUMN errors_stream INTEGER NOT NULL DEFAULT 0;
ALTER TABLE intervals ADD COLUMN errors_stream INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN protocol TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN reconnects INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN stream_limit INTEGER NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN http_version TEXT NOT NULL DEFAULT 'http/1.1';
)sql";
}

// The columns of one connection phase summary (PhaseSummary), each named prefix + suffix.
constexpr const char* PHASE_SUFFIXES[] = { "mean_us", "p50_us", "p90_us", "p99_us", "max_us" };

// Version 6: where the time goes under load, and the run's verdict. A run keeps a summary of
// its TCP connects, TLS handshakes and times to first byte (count NOT NULL DEFAULT 0, the
// rest NULL before), and their histograms; each interval keeps the three histograms (so
// loaders merge exactly). The SLOs a run was judged by, with their values and verdicts, as
// JSON (runs.slo, '[]' when none). The histograms table takes the new kinds: SQLite cannot
// change a CHECK constraint, so the table is rebuilt with its rows.
std::string schemaV6()
{
    std::string out;
    for (const char* phase : { "connect_", "tls_handshake_", "first_byte_" }) {
        out += std::string("ALTER TABLE runs ADD COLUMN ") + phase + "count INTEGER NOT NULL DEFAULT 0;\n";
        for (const char* c : PHASE_SUFFIXES)
            out += std::string("ALTER TABLE runs ADD COLUMN ") + phase + c + " REAL;\n";
        out += std::string("ALTER TABLE intervals ADD COLUMN ") + phase + "histogram BLOB;\n";
    }
    out += R"sql(
ALTER TABLE runs ADD COLUMN slo TEXT NOT NULL DEFAULT '[]';  -- JSON [{"expr", "value", "ok"}]
CREATE TABLE histograms_v6 (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('latency', 'service', 'connect', 'tls_handshake', 'first_byte')),
    data BLOB NOT NULL,                         -- LatencyHistogram::serialize()
    PRIMARY KEY (run_id, kind)
) WITHOUT ROWID;
INSERT INTO histograms_v6 (run_id, kind, data) SELECT run_id, kind, data FROM histograms;
DROP TABLE histograms;
ALTER TABLE histograms_v6 RENAME TO histograms;
)sql";
    return out;
}

// Version 7: request mixes. What each entry of a run's mix got (the mix itself is in the
// run's configuration JSON, entry i at index i): its responses, errors by kind, status codes
// and latency histogram (NULL beyond the first 1,024 entries, see EntryStats). A target may
// name a mix file to send instead of its one request (request_mix, '' for none) and its order.
// A run stopped by --slo-abort keeps the budget that was spent (slo_aborted_by, '' otherwise).
std::string schemaV7()
{
    return R"sql(
CREATE TABLE run_entries (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,                       -- 0-based, the mix's order
    label TEXT NOT NULL DEFAULT '',             -- "GET /path", as the reports show it
    requests INTEGER NOT NULL DEFAULT 0,
)sql" + errorColumns()
        + R"sql(    errors_stream INTEGER NOT NULL DEFAULT 0,
    status_codes TEXT NOT NULL DEFAULT '{}',    -- JSON {"200": count, ...}
    latency_histogram BLOB,                     -- LatencyHistogram::serialize()
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
ALTER TABLE targets ADD COLUMN request_mix TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN slo_aborted_by TEXT NOT NULL DEFAULT '';  -- --slo-abort: the budget spent
ALTER TABLE targets ADD COLUMN mix_order TEXT NOT NULL DEFAULT 'round-robin';
)sql";
}

using MigrationStep = std::string (*)();

// Version 8: studies (engine/experiment/study.h): an experiment is of kind 'plan' (the runner makes
// its runs, which point back at it) or 'study' (stored runs gathered after the fact, nothing run).
// A study's runs stay ordinary runs, linked in study_runs with the group and variant each was
// given, so its report shows the cells as they were made even when tags change later; a run can
// be in several studies. Deleting a study leaves its runs; deleting a run takes it out of its studies.
std::string schemaV8()
{
    return R"sql(
ALTER TABLE experiments ADD COLUMN kind TEXT NOT NULL DEFAULT 'plan' CHECK (kind IN ('plan', 'study'));
CREATE TABLE study_runs (
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    group_name TEXT NOT NULL DEFAULT '',        -- '' when the study has no groups
    variant TEXT NOT NULL,                      -- a target name or a variant tag
    PRIMARY KEY (experiment_id, run_id)
) WITHOUT ROWID;
CREATE INDEX study_runs_by_run ON study_runs(run_id);
)sql";
}

// Version 9: a run made by several loaders (engine/fleet) keeps one row per loader: where it ran,
// its share, what it measured, when it started relative to the run, its clock and how it ended.
std::string schemaV9()
{
    return R"sql(
CREATE TABLE loaders (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,                       -- the loader's shard index
    host TEXT NOT NULL DEFAULT '',              -- host name, pod name or agent address
    connections INTEGER NOT NULL DEFAULT 0,     -- its share
    requests INTEGER NOT NULL DEFAULT 0,
    errors INTEGER NOT NULL DEFAULT 0,          -- transport errors
    rps REAL NOT NULL DEFAULT 0,
    start_offset_ms REAL NOT NULL DEFAULT 0,    -- its measurement start minus the run's
    clock TEXT NOT NULL DEFAULT '',             -- its wall clock's NTP state
    state TEXT NOT NULL DEFAULT '',             -- completed, stopped, died: ...
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
)sql";
}

// Version 10: behind the front door (--backend-from, --upstream-time). Each interval keeps the
// backends that answered in it, as the wire's list (wire/intervalcodec backendsToJson: name,
// counts, first/last seen, the latency histogram), so a run's breakdown, its evenness and its
// appeared/vanished events fold from its intervals as every other figure does; the responses
// that named none; and the two sides of the upstream split with the responses that stated none.
std::string schemaV10()
{
    return R"sql(
ALTER TABLE intervals ADD COLUMN backends TEXT NOT NULL DEFAULT '';  -- JSON list; '' without --backend-from
ALTER TABLE intervals ADD COLUMN unnamed_responses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE intervals ADD COLUMN upstream_histogram BLOB;
ALTER TABLE intervals ADD COLUMN front_door_histogram BLOB;
ALTER TABLE intervals ADD COLUMN upstream_missing INTEGER NOT NULL DEFAULT 0;
)sql";
}

// Version 11: the loader's honesty. Each interval keeps what the loader itself cost in it (its
// workers' CPU and run-queue wait, its process, its machine: the wire's loader_cost object,
// wire/intervalcodec loaderCostToJson) and the requests in flight at its end; a run keeps its
// total (runs.loader_cost, what the comparability check reads) and each loader of a distributed
// run its own (loaders.loader_cost). '' = not measured (imported runs, runs stored before).
std::string schemaV11()
{
    return R"sql(
ALTER TABLE intervals ADD COLUMN in_flight INTEGER NOT NULL DEFAULT 0;
ALTER TABLE intervals ADD COLUMN loader_cost TEXT NOT NULL DEFAULT '';  -- JSON object; '' when not measured
ALTER TABLE runs ADD COLUMN loader_cost TEXT NOT NULL DEFAULT '';
ALTER TABLE loaders ADD COLUMN loader_cost TEXT NOT NULL DEFAULT '';
)sql";
}

// Version 12: wrk scripts from the GUI. A target may name a wrk Lua script (script, '' for none)
// read at each run, as a request mix file is, and the arguments its init(args) gets (script_args,
// a JSON list of strings). A run keeps what its script printed (script_output: done()'s report and
// whatever setup/init printed on the coordinator), next to the script's text in its configuration.
std::string schemaV12()
{
    return R"sql(
ALTER TABLE targets ADD COLUMN script TEXT NOT NULL DEFAULT '';
ALTER TABLE targets ADD COLUMN script_args TEXT NOT NULL DEFAULT '[]';
ALTER TABLE runs ADD COLUMN script_output BLOB;
)sql";
}

// Version 13 (HTTP/3): what QUIC did in a run (run/http3/quicsummary.h: version, ALPN,
// handshakes, packets lost, probe timeouts, how connections ended), as the wire's object
// (wire/runendcodec quicSummaryToJson). One step of its own, so it renumbers cleanly at a merge.
std::string schemaV13()
{
    return R"sql(
ALTER TABLE runs ADD COLUMN quic TEXT NOT NULL DEFAULT '';  -- JSON object; '' for other protocols
)sql";
}

// Version 14: the target's own metrics (--scrape, engine/prometheus/exposition). A run keeps the endpoints it
// read (how many scrapes, how many failed, the first warnings) and the series derived from them,
// one row per point: a counter's rate, a gauge's value, a histogram's quantile, a preset's share,
// at the wall-clock end of its window. A target keeps the endpoints its runs scrape (the GUI's
// Metrics field) as scrapeSpecToJson.
std::string schemaV14()
{
    return R"sql(
CREATE TABLE scrape_endpoints (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,                       -- the endpoint's index in the run's --scrape list
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    scrapes INTEGER NOT NULL DEFAULT 0,         -- attempts, failed ones included
    failures INTEGER NOT NULL DEFAULT 0,
    warnings TEXT NOT NULL DEFAULT '[]',        -- JSON list of sentences, each naming the endpoint
    metric TEXT NOT NULL DEFAULT '',            -- the run's --scrape-metric
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE scrape_samples (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    endpoint INTEGER NOT NULL,                  -- scrape_endpoints.idx
    series TEXT NOT NULL,                       -- name{label="value",...}
    kind TEXT NOT NULL CHECK (kind IN ('rate', 'value', 'p50', 'p90', 'p99', 'mean', 'percent')),
    at_unix_ms INTEGER NOT NULL,                -- the end of the window
    value REAL NOT NULL
);
CREATE INDEX scrape_samples_by_run ON scrape_samples(run_id, endpoint, series, kind, at_unix_ms);
ALTER TABLE targets ADD COLUMN scrape TEXT NOT NULL DEFAULT '';  -- JSON: endpoints and filter; '' none
)sql";
}

// Version 15: what a run's connections met (run/connectionfacts.h: why the first response could
// not be parsed, servers that kept HPACK's default table), as the wire's object
// (wire/runendcodec connectionFactsToJson).
std::string schemaV15()
{
    return R"sql(
ALTER TABLE runs ADD COLUMN connection_facts TEXT NOT NULL DEFAULT '';  -- JSON object; '' when empty
)sql";
}

// Version 16: each interval's thread Req/Sec samples (wrk's Thread Stats: every worker's 100 ms
// samples taken in the interval, as the wire's "thread_rps" array), so a run recovered from its
// intervals keeps the runs' thread_rps_* figures a finished run has.
std::string schemaV16()
{
    return R"sql(
ALTER TABLE intervals ADD COLUMN thread_rps TEXT NOT NULL DEFAULT '';  -- JSON array; '' when none
)sql";
}

// Version 17: capacity searches (engine/capacity/capacityrecord.h) are experiments of kind
// 'capacity'. SQLite cannot change a CHECK in place, so experiments is rebuilt with the same
// columns (migrateSchemaTo turns foreign keys off around it: dropping the old table would
// otherwise null runs.experiment_id and empty study_runs). A search keeps its definition (the
// options, each target's configuration and rest latency) as its plan, and every trial it made,
// in order, with the verdict the search was told: enough to replay the search and go on.
std::string schemaV17()
{
    return R"sql(
CREATE TABLE experiments_v17 (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    plan TEXT NOT NULL,                         -- JSON: the plan, the study or the search's definition
    status TEXT NOT NULL CHECK (status IN ('planned', 'running', 'completed', 'stopped', 'interrupted', 'failed')),
    created_at_ms INTEGER NOT NULL,
    started_at_ms INTEGER,
    finished_at_ms INTEGER,
    host_name TEXT NOT NULL DEFAULT '',
    owner_pid INTEGER,
    owner_token TEXT,
    error TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT 'plan' CHECK (kind IN ('plan', 'study', 'capacity'))
);
INSERT INTO experiments_v17 (id, name, plan, status, created_at_ms, started_at_ms, finished_at_ms, host_name,
    owner_pid, owner_token, error, notes, kind)
SELECT id, name, plan, status, created_at_ms, started_at_ms, finished_at_ms, host_name, owner_pid, owner_token,
    error, notes, kind FROM experiments;
DROP TABLE experiments;
ALTER TABLE experiments_v17 RENAME TO experiments;
CREATE TABLE capacity_trials (
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,                       -- 0-based, in the order the trials were made
    target INTEGER NOT NULL,                    -- index into the definition's targets
    run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    rate_per_s REAL NOT NULL,
    duration_us INTEGER NOT NULL,
    final INTEGER NOT NULL,                     -- 1: a final-length trial
    passed INTEGER NOT NULL,
    loader_limited INTEGER NOT NULL,
    loader_reason TEXT NOT NULL DEFAULT '',
    failed_slo TEXT NOT NULL DEFAULT '',
    slo TEXT NOT NULL DEFAULT '[]',             -- JSON: the verdicts, as runs.slo
    elapsed_s REAL NOT NULL,
    PRIMARY KEY (experiment_id, seq)
) WITHOUT ROWID;
)sql";
}

// MIGRATIONS[n] takes a file from version n to n + 1.
constexpr MigrationStep MIGRATIONS[] = { schemaV1, schemaV2, schemaV3, schemaV4, schemaV5, schemaV6, schemaV7, schemaV8,
    schemaV9, schemaV10, schemaV11, schemaV12, schemaV13, schemaV14, schemaV15, schemaV16, schemaV17 };
static_assert(std::size(MIGRATIONS) == SCHEMA_VERSION, "one migration step per schema version");

} // namespace

void migrateSchemaTo(SqlDatabase& db, int toVersion)
{
    // A step that rebuilds a table drops the old one, which with foreign keys on would act on
    // the rows that point at it. They are off for the migration (a pragma a transaction cannot
    // change), the links checked before the commit, and on again after it, whatever happened.
    const bool foreignKeys = db.queryInt("PRAGMA foreign_keys") != 0;
    if (foreignKeys) db.exec("PRAGMA foreign_keys = OFF");
    struct Restore
    {
        SqlDatabase& db;
        bool on;
        ~Restore()
        {
            try {
                if (on) db.exec("PRAGMA foreign_keys = ON");
            } catch (const SqlError&) { // the connection is failing already; its caller hears of it
            }
        }
    } restore { db, foreignKeys };
    SqlTransaction tx(db);
    int version = static_cast<int>(db.queryInt("PRAGMA user_version"));
    if (version >= toVersion) return; // another process got there first
    for (; version < toVersion; ++version)
        db.exec(MIGRATIONS[version]());
    db.exec("PRAGMA application_id = " + std::to_string(SESSION_APPLICATION_ID));
    db.exec("PRAGMA user_version = " + std::to_string(toVersion));
    if (foreignKeys && db.queryInt("SELECT count(*) FROM pragma_foreign_key_check") != 0)
        throw SqlError(SQLITE_CONSTRAINT_FOREIGNKEY,
            "the migration to schema " + std::to_string(toVersion) + " broke a link between rows");
    tx.commit();
}

void migrateSchema(SqlDatabase& db)
{
    migrateSchemaTo(db, SCHEMA_VERSION);
}

} // namespace wb
