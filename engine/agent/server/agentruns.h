#pragma once
// The runs an agent holds: one loader at a time (`wrkbench-cli loader` as a
// child process, paused until the workstation's start time), its stream kept
// in the state directory as it is written, so a workstation whose link dropped
// re-attaches and reads on from the byte it had. A run is kept until its whole
// stream or its result was fetched (then a grace period), or 24 h after it ended.

#include "common/result.h"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace wb {

struct AgentRunsOptions
{
    std::string dir; ///< where runs are kept (state dir/runs)
    std::string loaderBinary; ///< the wrkbench-cli that runs loaders
    uint64_t maxDurationUs = 3'600'000'000; ///< a run is stopped this long after its start at the latest
    uint64_t keepUnfetchedUs = 24ull * 3600 * 1'000'000;
    uint64_t keepFetchedUs = 10ull * 60 * 1'000'000;
    /// Each loader serves its live figures for Prometheus here (`loader --metrics-listen`); "": none.
    std::string metricsListen;
};

class AgentRuns
{
public:
    explicit AgentRuns(AgentRunsOptions options);
    ~AgentRuns();

    enum class StartError { None, Busy, Failed };
    /// Starts a paused loader with this share of configJson, and loaderArgs added to its
    /// command line (the pinned addresses). Busy while another run is active.
    Result<std::string> start(const std::string& configJson, unsigned index, unsigned count,
        const std::vector<std::string>& loaderArgs, StartError& why);
    /// Writes the control file `name` (start-at, stop) of a running run.
    Status tell(const std::string& id, const std::string& name, const std::string& content);

    struct Snapshot
    {
        std::string id;
        bool ended = false;
        bool hasResult = false;
        uint64_t bytes = 0;
    };
    std::optional<Snapshot> find(const std::string& id);
    std::vector<Snapshot> list();
    bool busy();

    /// Waits until run `id`'s stream has more than `offset` bytes or it ended, up to waitUs;
    /// then returns what is there from offset (possibly nothing) and whether the stream is over.
    struct Piece
    {
        std::string bytes;
        bool over = false;
    };
    Result<Piece> read(const std::string& id, uint64_t offset, uint64_t waitUs);
    /// The loader's --json document, once it finished with one.
    Result<std::string> result(const std::string& id);
    /// The whole stream or the result went to a workstation: keep it only a grace period more.
    void markFetched(const std::string& id);
    /// Drops runs whose time is up.
    void sweep();
    /// Ends every loader (the agent is shutting down).
    void shutdown();

private:
    struct Run;
    void pump(std::shared_ptr<Run> run);
    std::shared_ptr<Run> get(const std::string& id);

    AgentRunsOptions m_options;
    std::mutex m_mutex;
    std::condition_variable m_grew;
    std::map<std::string, std::shared_ptr<Run>> m_runs;
    std::vector<std::pair<std::shared_ptr<Run>, std::thread>> m_pumps; ///< one per run with a loader
    unsigned m_sequence = 0;
};

} // namespace wb
