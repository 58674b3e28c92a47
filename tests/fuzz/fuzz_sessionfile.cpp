// libFuzzer target for session files from someone else (docs/SESSIONS.md): a session file made
// from the input, opened the way wrkbench-cli opens one. The input patches a valid session, built
// once through the store (a target, tagged runs with intervals, a run of a dead process, a study):
// each patch is a 3-byte offset (big-endian, modulo the file's size), a length byte and that many
// bytes written there. So most inputs keep SQLite's header and reach the schema check, the
// integrity check and the store's reads with a page, a cell, a record or a schema entry changed.
// Checked, besides never crashing, hanging or leaking:
//   - opened read-only (runs, export: a listing and one run read whole), the file is never
//     written and no -wal/-shm is left next to it, whatever it holds;
//   - opened for writing (run --db), a file refused for its schema is left as it was;
//   - every error is one printable line that names the file.
// A violation traps. Seeds: corpus/sessionfile (made by corpus/sessionfile/make-seeds.sh).

#include "http/url.h"
#include "run/runresult.h"
#include "store/sessionstore.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sqlite3.h>
#include <string>
#include <unistd.h>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeAll(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool hasSideFiles(const std::string& path)
{
    for (const char* suffix : { "-wal", "-shm", "-journal" })
        if (std::filesystem::exists(path + suffix)) return true;
    return false;
}

void removeSideFiles(const std::string& path)
{
    for (const char* suffix : { "-wal", "-shm", "-journal" })
        std::filesystem::remove(path + suffix);
}

struct Workspace
{
    std::string dir;
    std::string path; ///< where each input's file goes
    std::string base; ///< the valid session's bytes
};

void checkError(const Workspace& w, const std::string& error)
{
    for (const char c : error) // one line, nothing for a terminal to act on (the path is ours: ASCII)
        check(c >= 0x20 && c < 0x7f);
    check(error.find("'" + w.path + "'") != std::string::npos);
}

// The valid session every input patches, made through the store as wrkbench makes one.
std::string makeBase(const std::string& path)
{
    {
        auto opened = wb::SessionStore::open(path);
        check(opened.ok());
        wb::SessionStore& store = **opened;
        wb::Target target;
        target.name = "NEG";
        target.url = "http://127.0.0.1:9/api";
        target.tags = { "lab" };
        auto targetId = store.targets().add(target);
        check(targetId.ok());
        std::vector<wb::StudyRunLink> links;
        for (int r = 0; r < 3; ++r) {
            wb::NewRun run;
            run.targetId = *targetId;
            run.config.request.url = *wb::parseUrl(target.url);
            run.config.intervalUs = 1'000'000;
            run.tags = { r % 2 ? "b" : "a" };
            auto id = store.runs().begin(run);
            check(id.ok());
            std::vector<wb::IntervalRecord> records;
            for (uint32_t i = 0; i < 6; ++i) {
                wb::IntervalSnapshot s;
                s.index = i;
                s.startS = i;
                s.endS = i + 1;
                for (uint64_t v = 0; v < 50; ++v)
                    s.latency.record(800 + 7 * v + r);
                s.status.add(200);
                s.requests = 50;
                records.push_back(wb::IntervalRecord::of(s, 1'764'653'400'000 + i * 1000));
            }
            check(store.runs().appendIntervals(*id, records).ok());
            if (r < 2) {
                wb::RunResult result;
                result.config = run.config;
                result.durationS = 6;
                result.requests = 300;
                check(store.runs().finish(*id, wb::FinishedRun::of(result, 1'764'653'406'000)).ok());
                links.push_back({ *id, "", r % 2 ? "b" : "a" });
            }
        }
        check(store.experiments().addStudy("a vs b", R"({"kind": "study"})", links).ok());
    }
    // The third run left 'running' by a process that is gone (another boot): readers see it
    // interrupted through a private copy, writers recover it in the file.
    sqlite3* db = nullptr;
    check(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const std::string dead = "UPDATE runs SET owner_pid = 999999999, owner_token = 'another-boot/pid:[1]/1', "
                             "host_name = '"
        + std::string(host) + "' WHERE id = 3";
    check(sqlite3_exec(db, dead.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    check(!hasSideFiles(path));
    return readAll(path);
}

Workspace& workspace()
{
    static Workspace w = [] {
        Workspace made;
        // In memory where there is a tmpfs: the writer's commits and checkpoints sync the file.
        std::string pattern
            = std::string(std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp") + "/fuzz-sessionfile-XXXXXX";
        check(::mkdtemp(pattern.data()) != nullptr);
        made.dir = pattern;
        made.path = made.dir + "/s.wrkbench";
        made.base = makeBase(made.dir + "/base.wrkbench");
        return made;
    }();
    // Registered after w is made, so it runs before w goes away.
    static const bool cleaned = std::atexit([] { std::filesystem::remove_all(workspace().dir); }) == 0;
    (void)cleaned;
    return w;
}

std::string patched(const std::string& base, const uint8_t* data, size_t size)
{
    std::string bytes = base;
    size_t i = 0;
    while (i + 4 <= size) {
        const size_t offset = ((size_t { data[i] } << 16) | (size_t { data[i + 1] } << 8) | data[i + 2]) % bytes.size();
        size_t length = data[i + 3];
        i += 4;
        length = std::min({ length, size - i, bytes.size() - offset });
        bytes.replace(offset, length, reinterpret_cast<const char*>(data + i), length);
        i += length;
    }
    return bytes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Workspace& w = workspace();
    const std::string bytes = patched(w.base, data, size);

    // wrkbench-cli runs / export: read-only, never a byte written.
    removeSideFiles(w.path);
    writeAll(w.path, bytes);
    {
        wb::SessionOpenOptions options;
        options.create = false;
        options.readOnly = true;
        auto store = wb::SessionStore::open(w.path, options);
        if (!store) {
            checkError(w, store.error());
        } else {
            auto runs = (*store)->runs().list();
            if (!runs)
                checkError(w, runs.error());
            else if (!runs->empty())
                if (auto run = (*store)->runs().load(runs->back().id); !run) checkError(w, run.error());
            if (auto experiments = (*store)->experiments().all(); !experiments) checkError(w, experiments.error());
            if (auto targets = (*store)->targets().all(); !targets) checkError(w, targets.error());
        }
    }
    check(readAll(w.path) == bytes);
    check(!hasSideFiles(w.path));

    // wrkbench-cli run --db: opened for writing (migrated, recovered), then a run's notes written.
    {
        auto store = wb::SessionStore::open(w.path, wb::SessionOpenOptions { false, false });
        if (!store) {
            checkError(w, store.error());
            if (store.error().ends_with("(nothing was written)")) check(readAll(w.path) == bytes);
        } else if (auto runs = (*store)->runs().list(); runs && !runs->empty()) {
            if (auto st = (*store)->runs().setNotes(runs->front().id, "fuzzed"); !st) checkError(w, st.error());
        }
    }
    return 0;
}
