#include "hostilesessions.h"

#include "http/url.h"
#include "run/runfold.h"
#include "store/sessionstore.h"

#include <filesystem>
#include <fstream>
#include <sqlite3.h>
#include <unistd.h>

namespace wb::test {

namespace {

// One interval as a run stores it: 500 responses in half a second, latencies around baseUs.
IntervalSnapshot sampleInterval(uint32_t index, uint64_t baseUs)
{
    IntervalSnapshot s;
    s.index = index;
    s.startS = index * 0.5;
    s.endS = (index + 1) * 0.5;
    for (uint64_t i = 0; i < 500; ++i) {
        s.latency.record(baseUs + i);
        s.status.add(i % 50 == 0 ? 503 : 200);
    }
    s.requests = 500;
    s.bytes = 500 * 120;
    s.connections = 10;
    return s;
}

// What the recorder stores for sql's text: the bytes of a trigger name hold an escape.
std::string escapeName()
{
    return "\x1b]0;owned\x07";
}

} // namespace

std::string makeSampleSession(const std::string& path, int runs)
{
    auto opened = SessionStore::open(path);
    if (!opened) return opened.error();
    SessionStore& store = **opened;
    Target target;
    target.name = "NEG";
    target.url = "http://127.0.0.1:9/api";
    auto targetId = store.targets().add(target);
    if (!targetId) return targetId.error();
    for (int r = 0; r < runs; ++r) {
        NewRun run;
        run.targetId = *targetId;
        run.config.request.url = *parseUrl(target.url);
        run.config.threads = 2;
        run.config.connections = 10;
        run.config.intervalUs = 500'000;
        run.config.durationUs = 20'000'000;
        run.tags = { "base" };
        run.startedAtMs = 1'764'653'400'000 + r * 60'000LL;
        auto id = store.runs().begin(run);
        if (!id) return id.error();
        RunFold fold(run.config);
        std::vector<IntervalRecord> records;
        for (uint32_t i = 0; i < 40; ++i) {
            const IntervalSnapshot s = sampleInterval(i, 900 + 50 * static_cast<uint64_t>(r));
            records.push_back(IntervalRecord::of(s, run.startedAtMs + i * 500));
            fold.add(s, records.back());
        }
        if (auto st = store.runs().appendIntervals(*id, records); !st) return st.error();
        RunEnd end;
        end.engineVersion = "test";
        end.measuredS = 20;
        if (auto st = store.runs().finish(*id, FinishedRun::of(fold.finish(end), run.startedAtMs + 20'000)); !st)
            return st.error();
    }
    return {};
}

std::string tamperSession(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        const std::string error = db ? sqlite3_errmsg(db) : "cannot open";
        sqlite3_close(db);
        return error;
    }
    char* message = nullptr;
    std::string error;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) error = message ? message : "failed";
    sqlite3_free(message);
    sqlite3_close(db);
    return error;
}

std::string deadRunSql(int64_t runId)
{
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return "UPDATE runs SET status = 'running', has_totals = 0, owner_pid = 999999999, owner_token = "
           "'another-boot/pid:[1]/1', host_name = '"
        + std::string(host) + "' WHERE id = " + std::to_string(runId) + ";";
}

const std::vector<HostileSchema>& hostileSchemas()
{
    // Each edits the schema the way SQLite lets anyone: plain DDL, or writable_schema for what
    // DDL cannot change in place (a column's type, default, nullability, a constraint).
    static const auto rewrite = [](const std::string& table, const std::string& from, const std::string& to) {
        return "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, '" + from + "', '" + to
            + "') WHERE name = '" + table + "'; PRAGMA writable_schema = OFF;";
    };
    static const std::vector<HostileSchema> cases {
        { "a trigger after insert on runs",
            "CREATE TRIGGER inflate AFTER INSERT ON runs BEGIN "
            "UPDATE runs SET requests_per_s = requests_per_s * 3 WHERE id = NEW.id; END;",
            "holds a trigger 'inflate' that wrkbench did not create" },
        { "a trigger after update that triples req/s and divides latency",
            "CREATE TRIGGER triple AFTER UPDATE OF requests_per_s ON runs BEGIN "
            "UPDATE runs SET requests_per_s = NEW.requests_per_s * 3, latency_p50_us = NEW.latency_p50_us / 3 "
            "WHERE id = NEW.id; END;",
            "holds a trigger 'triple' that wrkbench did not create" },
        { "a trigger before delete that keeps runs",
            "CREATE TRIGGER keep BEFORE DELETE ON runs BEGIN SELECT RAISE(IGNORE); END;",
            "holds a trigger 'keep' that wrkbench did not create" },
        { "a trigger after delete that drops tags",
            "CREATE TRIGGER wipe AFTER DELETE ON runs BEGIN DELETE FROM run_tags; END;",
            "holds a trigger 'wipe' that wrkbench did not create" },
        { "a trigger after update that deletes the other runs",
            "CREATE TRIGGER purge AFTER UPDATE ON runs BEGIN DELETE FROM runs WHERE id <> NEW.id; END;",
            "holds a trigger 'purge' that wrkbench did not create" },
        { "a trigger before update that never ends",
            "CREATE TRIGGER stall BEFORE UPDATE ON runs BEGIN SELECT count(*) FROM (WITH RECURSIVE forever(n) AS "
            "(SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT n FROM forever); END;",
            "holds a trigger 'stall' that wrkbench did not create" },
        { "a trigger on intervals",
            "CREATE TRIGGER skew AFTER INSERT ON intervals BEGIN UPDATE intervals SET requests = requests * 3 "
            "WHERE run_id = NEW.run_id AND idx = NEW.idx; END;",
            "holds a trigger 'skew' that wrkbench did not create" },
        { "a view in place of the runs table", "DROP TABLE runs; CREATE VIEW runs AS SELECT id, name FROM targets;",
            "holds a view 'runs' where wrkbench made a table" },
        { "a recursive view in place of the targets a listing joins",
            "ALTER TABLE targets RENAME TO targets_kept; CREATE VIEW targets AS WITH RECURSIVE forever(n) AS "
            "(SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT targets_kept.* FROM targets_kept, forever;",
            "holds a view 'targets' where wrkbench made a table" },
        { "a recursive view in place of the run tags a listing concatenates",
            "DROP TABLE run_tags; CREATE VIEW run_tags(run_id, tag) AS WITH RECURSIVE forever(n) AS "
            "(SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT runs.id, 'tag' || n FROM runs, forever;",
            "holds a view 'run_tags' where wrkbench made a table" },
        { "another view", "CREATE VIEW summary AS SELECT count(*) FROM runs;",
            "holds a view 'summary' that wrkbench did not create" },
        { "another table", "CREATE TABLE notes (text TEXT);", "holds a table 'notes' that wrkbench did not create" },
        { "another index", "CREATE INDEX runs_by_notes ON runs(notes);",
            "holds an index 'runs_by_notes' that wrkbench did not create" },
        { "a missing index", "DROP INDEX runs_by_status;", "lacks the index 'runs_by_status' that wrkbench makes" },
        { "another column", "ALTER TABLE runs ADD COLUMN extra TEXT;",
            "has a column 'runs.extra' that wrkbench did not create" },
        { "a column of another type", rewrite("runs", "requests_per_s REAL", "requests_per_s TEXT"),
            "declares the column 'runs.requests_per_s' as 'TEXT' where wrkbench declares 'REAL'" },
        { "a column that may be NULL", rewrite("targets", "name TEXT NOT NULL UNIQUE", "name TEXT UNIQUE"),
            "lets the column 'targets.name' be NULL where wrkbench makes it NOT NULL" },
        { "a column with another default",
            rewrite("targets", "method TEXT NOT NULL DEFAULT ''GET''", "method TEXT NOT NULL DEFAULT ''POST''"),
            "gives the column 'targets.method' the default 'POST' where wrkbench gives 'GET'" },
        { "a constraint taken away",
            rewrite("runs",
                "CHECK (status IN (''running'', ''completed'', ''stopped'', ''interrupted'', ''failed'', "
                "''imported''))",
                ""),
            "defines the table 'runs' otherwise than wrkbench (its constraints differ)" },
        { "a virtual table", "CREATE VIRTUAL TABLE notes_search USING fts5(text);",
            "holds a virtual table 'notes_search' that wrkbench did not create" },
        { "a trigger named with terminal escapes",
            "CREATE TRIGGER \"" + escapeName() + "\" AFTER DELETE ON runs BEGIN SELECT 1; END;",
            "holds a trigger '\\x1b]0;owned\\x07' that wrkbench did not create" },
    };
    return cases;
}

std::string refusalOf(const std::string& path, const std::string& phrase)
{
    return "'" + path + "' " + phrase + ": it was not opened (nothing was written)";
}

uint64_t fileDigest(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    uint64_t hash = 14695981039346656037ULL;
    std::vector<char> buffer(1 << 20);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        for (std::streamsize i = 0; i < in.gcount(); ++i)
            hash = (hash ^ static_cast<unsigned char>(buffer[static_cast<size_t>(i)])) * 1099511628211ULL;
    }
    return hash;
}

std::vector<std::string> sideFiles(const std::string& path)
{
    std::vector<std::string> out;
    for (const char* suffix : { "-wal", "-shm", "-journal" })
        if (std::filesystem::exists(path + suffix)) out.push_back(path + suffix);
    return out;
}

} // namespace wb::test
