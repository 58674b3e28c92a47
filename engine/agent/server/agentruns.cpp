#include "agent/server/agentruns.h"

#include "common/clock.h"
#include "fleet/controlfiles.h"
#include "fleet/subprocess.h"
#include "report/jsonreport.h"
#include "run/runfold.h"
#include "run/shard.h"
#include "wire/configcodec.h"
#include "wire/loaderread.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace fs = std::filesystem;

namespace {

/// How long a loader may wait paused for its start time (the workstation's common start
/// comes within seconds of every loader being ready).
constexpr const char* LOADER_START_TIMEOUT = "2m";
constexpr uint64_t LOADER_START_TIMEOUT_US = 120'000'000;
/// What a loader's end line says near its start (wire/loaderstream.cpp).
constexpr std::string_view FINISHED_EVENT = "\"event\":\"finished\"";

int64_t wallNowS()
{
    return wallClockNowMs() / 1000;
}

int64_t fileTimeS(const fs::path& path)
{
    struct stat info
    { };
    return ::stat(path.c_str(), &info) == 0 ? static_cast<int64_t>(info.st_mtime) : wallNowS();
}

} // namespace

struct AgentRuns::Run
{
    std::string id;
    std::string dir;
    std::string controlDir;
    std::string streamPath;
    StreamingProcess process;
    int streamFd = -1; ///< the kept stream, appended to
    uint64_t bytes = 0;
    bool ended = false;
    bool hasResult = false;
    bool fetched = false;
    int64_t endedAtS = 0;
    int64_t fetchedAtS = 0;
    uint64_t launchedAtUs = 0;
};

AgentRuns::AgentRuns(AgentRunsOptions options)
    : m_options(std::move(options))
{
    std::error_code ec;
    fs::create_directories(m_options.dir, ec);
    // Runs kept from before a restart: ended (their loaders ended with the old agent), still
    // fetchable until their time is up.
    for (const auto& entry : fs::directory_iterator(m_options.dir, ec)) {
        const fs::path stream = entry.path() / "stream.jsonl";
        if (!entry.is_directory() || !fs::exists(stream)) continue;
        auto run = std::make_shared<Run>();
        run->id = entry.path().filename().string();
        run->dir = entry.path().string();
        run->streamPath = stream.string();
        run->bytes = fs::file_size(stream, ec);
        run->ended = true;
        run->endedAtS = fileTimeS(stream);
        run->hasResult = fs::exists(entry.path() / "result.json");
        run->fetched = fs::exists(entry.path() / "fetched");
        if (run->fetched) run->fetchedAtS = fileTimeS(entry.path() / "fetched");
        m_runs[run->id] = run;
    }
    sweep();
}

AgentRuns::~AgentRuns()
{
    shutdown();
}

void AgentRuns::shutdown()
{
    std::vector<std::pair<std::shared_ptr<Run>, std::thread>> pumps;
    {
        std::lock_guard lock(m_mutex);
        for (auto& [id, run] : m_runs)
            if (!run->ended && run->process.pid > 0) ::kill(run->process.pid, SIGTERM);
        pumps.swap(m_pumps);
    }
    for (auto& [run, thread] : pumps)
        if (thread.joinable()) thread.join();
}

bool AgentRuns::busy()
{
    std::lock_guard lock(m_mutex);
    for (auto& [id, run] : m_runs)
        if (!run->ended) return true;
    return false;
}

Result<std::string> AgentRuns::start(const std::string& configJson, unsigned index, unsigned count,
    const std::vector<std::string>& loaderArgs, StartError& why)
{
    why = StartError::Failed;
    std::lock_guard lock(m_mutex);
    for (auto& [id, run] : m_runs)
        if (!run->ended) {
            why = StartError::Busy;
            return Error { fmt::format("busy: run {} is active (one run at a time)", id) };
        }
    auto run = std::make_shared<Run>();
    run->id = fmt::format("r-{}-{}", wallClockNowMs(), ++m_sequence);
    run->dir = m_options.dir + "/" + run->id;
    run->controlDir = run->dir + "/control";
    run->streamPath = run->dir + "/stream.jsonl";
    std::error_code ec;
    fs::create_directories(run->controlDir, ec);
    if (ec) return Error { fmt::format("cannot create '{}': {}", run->controlDir, ec.message()) };
    if (auto st = writeControlFile(run->dir, "config.json", configJson); !st) return Error { st.error() };
    run->streamFd = ::open(run->streamPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (run->streamFd < 0) return Error { fmt::format("cannot write '{}': {}", run->streamPath, std::strerror(errno)) };
    std::vector<std::string> command { m_options.loaderBinary, "loader", "--config", run->dir + "/config.json",
        "--shard", fmt::format("{}/{}", index, count), "--control-dir", run->controlDir, "--start-timeout",
        LOADER_START_TIMEOUT };
    command.insert(command.end(), loaderArgs.begin(), loaderArgs.end());
    if (!m_options.metricsListen.empty()) {
        // One run at a time, so one port: the series' run label tells the runs apart.
        for (const std::string& arg :
            { std::string("--metrics-listen"), m_options.metricsListen, std::string("--metrics-run"), run->id })
            command.push_back(arg);
    }
    auto process = startStreaming(command);
    if (!process) {
        ::close(run->streamFd);
        fs::remove_all(run->dir, ec);
        return Error { "cannot start the loader: " + process.error() };
    }
    run->process = *process;
    run->launchedAtUs = monotonicNowUs();
    m_runs[run->id] = run;
    // Pumps of ended runs have set `ended` as their last locked step: they exit at once.
    for (auto it = m_pumps.begin(); it != m_pumps.end();)
        if (it->first->ended) {
            it->second.join();
            it = m_pumps.erase(it);
        } else {
            ++it;
        }
    m_pumps.emplace_back(run, std::thread([this, run] { pump(run); }));
    why = StartError::None;
    return run->id;
}

void AgentRuns::pump(std::shared_ptr<Run> run)
{
    // The latest a loader may still run: its start, its longest run, and a margin to report.
    const uint64_t stopAtUs = run->launchedAtUs + LOADER_START_TIMEOUT_US + m_options.maxDurationUs + 30'000'000;
    bool stopSent = false;
    std::string line;
    std::string finishedLine;
    char buffer[65536];
    for (;;) {
        pollfd p { run->process.fd, POLLIN, 0 };
        const int n = ::poll(&p, 1, 250);
        if (n < 0 && errno != EINTR) break;
        const uint64_t now = monotonicNowUs();
        if (now > stopAtUs && !stopSent) {
            writeControlFile(run->controlDir, STOP_FILE, "max-duration");
            stopSent = true;
        }
        if (now > stopAtUs + 60'000'000) ::kill(run->process.pid, SIGKILL);
        if (n <= 0) continue;
        const ssize_t got = ::read(run->process.fd, buffer, sizeof buffer);
        if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (got <= 0) break;
        // Keep every byte first, then tell the readers: what a reader is told is on disk.
        for (ssize_t done = 0; done < got;) {
            const ssize_t w = ::write(run->streamFd, buffer + done, static_cast<size_t>(got - done));
            if (w <= 0) break;
            done += w;
        }
        line.append(buffer, static_cast<size_t>(got));
        for (size_t nl; (nl = line.find('\n')) != std::string::npos; line.erase(0, nl + 1))
            if (line.substr(0, std::min<size_t>(nl, 64)).find(FINISHED_EVENT) != std::string::npos)
                finishedLine = line.substr(0, nl);
        if (line.size() > (64u << 20)) line.clear(); // no newline for 64 MB: not a stream line
        std::lock_guard lock(m_mutex);
        run->bytes += static_cast<uint64_t>(got);
        m_grew.notify_all();
    }
    endStreaming(run->process);
    ::fsync(run->streamFd);
    bool hasResult = false;
    if (!finishedLine.empty()) {
        // The loader's result is its stream folded as any run is (run/runfold.h), written as the
        // --json document a loader run by hand writes: what `merge` and the workstation read.
        if (auto doc = readLoaderFile(run->streamPath); doc && doc->complete)
            if (auto whole = runConfigFromJson(doc->identity.wholeConfigJson))
                if (auto share = shareOf(whole->normalized(), Shard { doc->identity.index, doc->identity.count })) {
                    RunFold fold(*share);
                    for (IntervalRecord& i : doc->intervals)
                        fold.add(std::move(i));
                    hasResult = writeControlFile(
                        run->dir, "result.json", formatLoaderDocument(fold.finish(doc->end), doc->identity))
                                    .ok();
                }
    }
    ::close(run->streamFd);
    std::lock_guard lock(m_mutex);
    run->streamFd = -1;
    run->hasResult = hasResult;
    run->ended = true;
    run->endedAtS = wallNowS();
    m_grew.notify_all();
}

std::shared_ptr<AgentRuns::Run> AgentRuns::get(const std::string& id)
{
    auto it = m_runs.find(id); // ids from the network are only looked up, never made into paths
    return it == m_runs.end() ? nullptr : it->second;
}

Status AgentRuns::tell(const std::string& id, const std::string& name, const std::string& content)
{
    std::lock_guard lock(m_mutex);
    auto run = get(id);
    if (!run) return Error { fmt::format("no run {}", id) };
    if (run->ended) return Error { fmt::format("run {} has ended", id) };
    return writeControlFile(run->controlDir, name, content);
}

std::optional<AgentRuns::Snapshot> AgentRuns::find(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    auto run = get(id);
    if (!run) return std::nullopt;
    return Snapshot { run->id, run->ended, run->hasResult, run->bytes };
}

std::vector<AgentRuns::Snapshot> AgentRuns::list()
{
    std::lock_guard lock(m_mutex);
    std::vector<Snapshot> out;
    for (auto& [id, run] : m_runs)
        out.push_back(Snapshot { run->id, run->ended, run->hasResult, run->bytes });
    return out;
}

Result<AgentRuns::Piece> AgentRuns::read(const std::string& id, uint64_t offset, uint64_t waitUs)
{
    std::unique_lock lock(m_mutex);
    auto run = get(id);
    if (!run) return Error { fmt::format("no run {}", id) };
    m_grew.wait_for(lock, std::chrono::microseconds(waitUs), [&] { return run->bytes > offset || run->ended; });
    Piece piece;
    const uint64_t bytes = run->bytes;
    if (offset > bytes) return Error { fmt::format("offset {} is past the stream's {} bytes", offset, bytes) };
    const bool ended = run->ended;
    const std::string path = run->streamPath;
    lock.unlock();
    const uint64_t size = std::min<uint64_t>(bytes - offset, 256 * 1024);
    if (size > 0) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return Error { "the run's stream is gone" };
        piece.bytes.resize(size);
        const ssize_t got = ::pread(fd, piece.bytes.data(), size, static_cast<off_t>(offset));
        ::close(fd);
        piece.bytes.resize(got > 0 ? static_cast<size_t>(got) : 0);
    }
    piece.over = ended && offset + piece.bytes.size() == bytes;
    return piece;
}

Result<std::string> AgentRuns::result(const std::string& id)
{
    std::string dir;
    {
        std::lock_guard lock(m_mutex);
        auto run = get(id);
        if (!run) return Error { fmt::format("no run {}", id) };
        if (!run->ended) return Error { "running" };
        if (!run->hasResult) return Error { "ended without a result" };
        dir = run->dir;
    }
    auto text = readControlFile(dir, "result.json");
    if (!text) return Error { "the result is gone" };
    return *text;
}

void AgentRuns::markFetched(const std::string& id)
{
    std::lock_guard lock(m_mutex);
    auto run = get(id);
    if (!run || !run->ended || run->fetched) return;
    run->fetched = true;
    run->fetchedAtS = wallNowS();
    writeControlFile(run->dir, "fetched", "");
}

void AgentRuns::sweep()
{
    std::lock_guard lock(m_mutex);
    const int64_t now = wallNowS();
    for (auto it = m_runs.begin(); it != m_runs.end();) {
        const Run& run = *it->second;
        const bool due = run.ended
            && ((run.fetched && now - run.fetchedAtS > static_cast<int64_t>(m_options.keepFetchedUs / 1'000'000))
                || now - run.endedAtS > static_cast<int64_t>(m_options.keepUnfetchedUs / 1'000'000));
        if (due) {
            std::error_code ec;
            fs::remove_all(run.dir, ec);
            it = m_runs.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace wb
