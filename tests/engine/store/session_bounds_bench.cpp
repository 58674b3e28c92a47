// Not a test: the measurement behind SQL_STEP_BUDGET (store/sqldatabase.h), run by
// bench/session-bounds.sh. It builds a large legitimate session (1,000 runs of 600 intervals by
// default: a lab's year) through the store's own calls, then does what the CLI and the window do
// with it, each on a fresh connection, and prints the most VM steps one statement took:
//
//   session_bounds_bench FILE [RUNS=1000] [INTERVALS=600]    (FILE is built when missing)
//
// Steps are SQLite's own count and do not depend on the machine; times are printed beside them
// for orientation only.

#include "experiment/experimentresults.h"
#include "experiment/study.h"
#include "run/runfold.h"
#include "store/sessionstore.h"
#include "store/sqldatabase.h"
#include "storetestutil.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sqlite3.h>

using namespace wb;
using namespace wb::storetest;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// 900 runs of one target (the worst case for deleting a target with its runs), 100 spread over four.
void build(const std::string& path, int runs, int intervals)
{
    auto opened = SessionStore::open(path);
    if (!opened) throw std::runtime_error(opened.error());
    SessionStore& store = **opened;
    std::vector<int64_t> targets;
    for (int i = 0; i < 5; ++i)
        targets.push_back(addSampleTarget(store, "T" + std::to_string(i)));
    std::vector<StudyRunLink> links;
    for (int r = 0; r < runs; ++r) {
        NewRun run;
        run.targetId = targets[r < runs * 9 / 10 ? 0 : 1 + r % 4];
        run.config = sampleConfig();
        run.config.intervalUs = 1'000'000;
        run.config.durationUs = static_cast<uint64_t>(intervals) * 1'000'000;
        run.tags = { "rep" + std::to_string(r % 5), r % 2 ? "odd" : "even" };
        run.startedAtMs = 1'764'653'400'000 + r * 700'000LL;
        auto id = store.runs().begin(run);
        if (!id) throw std::runtime_error(id.error());
        RunFold fold(run.config);
        std::vector<IntervalRecord> records;
        for (int i = 0; i < intervals; ++i) {
            IntervalSnapshot s = sampleSnapshot(static_cast<uint32_t>(i), 800 + (i * 37 + r) % 400, 200);
            s.startS = i;
            s.endS = i + 1;
            records.push_back(IntervalRecord::of(s, run.startedAtMs + i * 1000));
            fold.add(s, records.back());
        }
        if (auto st = store.runs().appendIntervals(*id, records); !st) throw std::runtime_error(st.error());
        RunEnd end;
        end.engineVersion = "bench";
        end.measuredS = intervals;
        if (auto st = store.runs().finish(*id, FinishedRun::of(fold.finish(end), run.startedAtMs + intervals * 1000));
            !st)
            throw std::runtime_error(st.error());
        if (r < 100) links.push_back({ *id, "", r % 2 ? "odd" : "even" });
        if (r % 100 == 99) std::fprintf(stderr, "built %d runs\n", r + 1);
    }
    StudySpec spec;
    spec.name = "odd vs even";
    const int64_t linked = std::min(runs, 100);
    spec.runs = "1-" + std::to_string(linked);
    for (int64_t i = 1; i <= linked; ++i)
        spec.runIds.push_back(i);
    spec.variantTags = { "odd", "even" };
    if (auto study = createStudy(store, spec); !study) throw std::runtime_error(study.error());
}

std::unique_ptr<SessionStore> openStore(const std::string& path, bool readOnly)
{
    SessionOpenOptions options;
    options.create = false;
    options.readOnly = readOnly;
    auto store = SessionStore::open(path, options);
    if (!store) throw std::runtime_error(store.error());
    return std::move(*store);
}

uint64_t g_heaviest = 0;

// One operation on a fresh store: the heaviest statement it ran, and its wall time.
void measure(const char* what, const std::string& path, bool readOnly, const std::function<void(SessionStore&)>& work)
{
    auto store = openStore(path, readOnly);
    const auto start = Clock::now();
    work(*store);
    const uint64_t steps = store->heaviestStatementSteps();
    g_heaviest = std::max(g_heaviest, steps);
    std::printf("%-46s heaviest statement %13llu steps  (%.2f s)\n", what, static_cast<unsigned long long>(steps),
        secondsSince(start));
}

// A statement on its own connection, as SessionStore::open's check runs them. The integrity
// check is bounded by the file's size, not by the budget (sessionopen.cpp): it is not counted.
void measureSql(const char* what, const std::string& uri, int flags, const std::string& sql, bool budgeted = true)
{
    SqlDatabase db = SqlDatabase::open(uri, flags);
    if (!budgeted) db.setBudgets(UINT64_MAX);
    const auto start = Clock::now();
    db.exec(sql);
    if (budgeted) g_heaviest = std::max(g_heaviest, db.heaviestStatementSteps());
    std::printf("%-46s heaviest statement %13llu steps  (%.2f s)\n", what,
        static_cast<unsigned long long>(db.heaviestStatementSteps()), secondsSince(start));
}

template<typename T> void check(const Result<T>& r)
{
    if (!r) throw std::runtime_error(r.error());
}

void check(const Status& st)
{
    if (!st) throw std::runtime_error(st.error());
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: session_bounds_bench FILE [RUNS=1000] [INTERVALS=600]\n");
        return 2;
    }
    const std::string path = argv[1];
    const int runs = argc > 2 ? std::atoi(argv[2]) : 1000;
    const int intervals = argc > 3 ? std::atoi(argv[3]) : 600;
    try {
        if (!std::filesystem::exists(path)) {
            const auto start = Clock::now();
            build(path, runs, intervals);
            std::fprintf(stderr, "built '%s' in %.0f s\n", path.c_str(), secondsSince(start));
        }
        std::printf("session '%s': %.0f MB\n", path.c_str(), std::filesystem::file_size(path) / 1e6);
        measureSql("open: PRAGMA quick_check (not budgeted)", "file:" + path + "?mode=ro&immutable=1",
            SQLITE_OPEN_READONLY, "PRAGMA quick_check(1)", false);
        measure("open read-only (schema check)", path, true, [](SessionStore&) {});
        measure("runs: runs().list()", path, true, [](SessionStore& s) { check(s.runs().list()); });
        measure("runs --tag odd --target T0", path, true,
            [](SessionStore& s) { check(s.runs().list(filterOf("T0", { "odd" }))); });
        measure("export: runs().load() of every run", path, true, [&](SessionStore& s) {
            for (int64_t id = 1; id <= runs; ++id)
                check(s.runs().load(id));
        });
        measure("experiments: loadExperimentResults()", path, true, [](SessionStore& s) {
            const auto experiments = s.experiments().all();
            check(experiments);
            for (const ExperimentRecord& e : *experiments)
                check(loadExperimentResults(s, e.id));
        });
        measure("window: targets().all(), profiles().all()", path, true, [](SessionStore& s) {
            check(s.targets().all());
            check(s.profiles().all());
        });
        measureSql("save as: VACUUM INTO", "file:" + path + "?mode=ro&immutable=1", SQLITE_OPEN_READONLY,
            "VACUUM INTO '" + path + ".vacuum'");
        std::filesystem::remove(path + ".vacuum");

        // What writers do, on a copy.
        const std::string copy = path + ".copy";
        std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
        measure("recover a dead run (fold its intervals)", copy, false, [](SessionStore& s) {
            sqlite3_exec(s.nativeHandle(),
                "UPDATE runs SET status = 'running', has_totals = 0, owner_pid = 999999999, "
                "owner_token = 'another-boot/x/1' WHERE id = 7",
                nullptr, nullptr, nullptr);
            check(s.recoverDeadRuns());
        });
        measure("delete a run", copy, false, [](SessionStore& s) { check(s.runs().remove(8)); });
        measure("delete the study", copy, false, [](SessionStore& s) {
            const auto experiments = s.experiments().all();
            check(experiments);
            for (const ExperimentRecord& e : *experiments)
                check(s.experiments().remove(e.id, true));
        });
        measure("delete the target of 900 runs, with them", copy, false, [](SessionStore& s) {
            auto target = s.targets().byName("T0");
            check(target);
            check(s.targets().remove((*target)->id, true));
        });
        std::filesystem::remove(copy);
        std::filesystem::remove(copy + "-wal");
        std::filesystem::remove(copy + "-shm");
        std::printf("heaviest budgeted statement: %llu steps; the budget (SQL_STEP_BUDGET) is %llu, %.0fx that\n",
            static_cast<unsigned long long>(g_heaviest), static_cast<unsigned long long>(SQL_STEP_BUDGET),
            static_cast<double>(SQL_STEP_BUDGET) / static_cast<double>(std::max<uint64_t>(g_heaviest, 1)));
        std::printf("SQLite heap high-water mark: %.1f MB (the bound, SQL_HEAP_LIMIT_BYTES, is %.0f MB)\n",
            static_cast<double>(sqlite3_memory_highwater(0)) / 1e6, static_cast<double>(SQL_HEAP_LIMIT_BYTES) / 1e6);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "session_bounds_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
