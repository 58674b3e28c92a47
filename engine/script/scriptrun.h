#pragma once
// A run with a wrk script, as wrk runs it: check() for syntax errors before any load, hooks() for the controller,
// done() after the run (docs/CLI.md, "wrk scripts"). One state for setup and done, one per worker thread, as wrk. The
// cost rules are wrk's: without request() the thread's request is built once from wrk.method/path/headers/body and no
// Lua runs per request; response() is called only when defined, and only then are headers and bodies kept.

#include "common/result.h"
#include "net/address.h"
#include "run/loadrunner.h"
#include "run/runconfig.h"
#include "run/runhooks.h"
#include "run/runresult.h"
#include "script/luastate.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

namespace wb {

class ScriptWorker;

/// What setup() and the workers' states share about one thread (wrk's `thread`).
struct ScriptThread
{
    unsigned index = 0;
    LuaState* state = nullptr; ///< the worker's state (get/set reach it)
    std::string addr; ///< thread.addr as "ip:port" (as wrk.lookup() gives them)
    SocketAddress address; ///< where the thread's connections go: the checked address, or setup()'s
    /// The worker has read `address` (after setup() and init()): setting thread.addr is then an error.
    bool addressTaken = false;
    bool addrSet = false; ///< setup() set thread.addr
    std::vector<std::string> setNames; ///< what thread:set() named, in order (ScriptRun::seedThreads())
    /// thread:stop() was called while the thread ran (the worker stops sending; see RequestSource::stopped()).
    std::atomic<bool> stopped { false };
};

class ScriptRun
{
public:
    explicit ScriptRun(RunConfig config);
    /// A loader's side of a distributed run: `share` is its part of the run, whose
    /// script.threadSetup gives every thread of the fleet what the coordinator's setup() gave
    /// it; this loader's threads are those from `threadOffset` on. setup() and done() do not
    /// run here, and what the script prints goes to stderr (stdout is the loader's stream).
    ScriptRun(RunConfig share, unsigned threadOffset);
    ~ScriptRun();

    /// What the script prints is kept in `sink` instead of going to stdout (the GUI, an
    /// experiment). Before check().
    void captureOutput(ScriptOutput* sink) { m_capture = sink; }
    /// Every state of this run stops the script once `stopped()` gives a reason
    /// (LuaState::interruptWhen). Before check().
    void interruptWhen(std::function<std::string()> stopped) { m_interrupt = std::move(stopped); }
    /// Loads the script into the setup state and checks what the run allows: one line.
    Status check();
    /// How a RecordedRun runs `config` (this script's run, after check()): in this process, a
    /// runner with the script's hooks on its controller; distributed, setup() runs here for each
    /// thread of the fleet (seedThreads() into config.script.threadSetup) and the loaders run
    /// the rest, so the default runner (null) does.
    using MakeRunner = std::function<std::unique_ptr<LoadRunner>(const RunConfig&)>;
    /// `startAtUnixUs`: a loader started by hand (--start-at) measures from then.
    Result<MakeRunner> prepareRun(RunConfig& config, int64_t startAtUnixUs = 0);
    /// The hooks that make each worker's state and source; `stop` ends the run early (a Lua
    /// error; thread:stop() stops that thread alone, as wrk's).
    RunHooks hooks(std::function<void()> stop);
    /// The first Lua error of the run (message and traceback), empty when none.
    std::string error() const;
    /// The coordinator's side of a distributed run: setup(thread) once for each thread of the
    /// fleet (`threadsPerLoader`, loader 0 first), each thread's result as a Lua chunk for
    /// ScriptSpec::threadSetup. done()'s thread:get() then reads what setup() set.
    Result<std::vector<std::string>> seedThreads(const std::vector<unsigned>& threadsPerLoader);
    /// The first request the run's first thread sends: its setup(thread), init(args) and first
    /// request() (or the request wrk.path, wrk.headers... built), after check(). With several
    /// requests in request()'s string (pipelined), the first of them.
    Result<RequestSpec> firstRequest();
    /// Whether the script defines done().
    bool hasDone() const;
    /// Calls done(summary, latency, requests); what it prints goes to stdout as under wrk.
    Status done(const RunResult& result);

    // For the workers.
    void fail(const std::string& message);
    const RunConfig& config() const { return m_config; }
    /// Whether worker `index` of this process is thread 0 of the whole run (wrk's thread 1).
    bool isFleetThreadZero(unsigned index) const;
    /// Requests in the first request() string (thread 0's, or this loader's first thread's): the
    /// HTTP/1.1 pipeline depth unless --pipeline set one. 0 until a worker has found it. Set and
    /// read while the workers are made, one after another on one thread.
    uint32_t pipelineDepth() const { return m_pipelineDepth; }
    void setPipelineDepth(uint32_t depth) { m_pipelineDepth = depth; }

private:
    /// Worker `index`'s side, made on first use: its state, setup(thread), init(args). `checked` is
    /// the address the pre-run check reached (thread.addr's default), when known.
    ScriptWorker& worker(unsigned index, const SocketAddress* checked = nullptr);
    /// wrk.setup(thread) in the setup state: the script's setup(thread), unless it replaced wrk.setup.
    Status callSetup(ScriptThread& thread);

    RunConfig m_config;
    LuaState m_setup;
    std::function<void()> m_stop;
    mutable std::mutex m_mutex; // the setup state and the worker list are made from prepare()
    std::vector<std::unique_ptr<ScriptThread>> m_threads;
    std::vector<std::unique_ptr<ScriptWorker>> m_workers;
    std::vector<std::unique_ptr<LuaState>> m_records; ///< seedThreads(): what thread:set() gave each thread
    ScriptOutput* m_capture = nullptr; ///< captureOutput()
    std::function<std::string()> m_interrupt; ///< interruptWhen()
    bool m_loader = false; ///< a loader of a distributed run
    unsigned m_threadOffset = 0; ///< a loader: its first thread among the fleet's
    std::string m_error;
    uint32_t m_pipelineDepth = 0;
};

/// What a run of `config` (a script's run) sends first, for a probe that sends what the run
/// sends: its script's setup(), init() and request() run once in states of their own (what it
/// prints is dropped), stopped with an error when `cancel` is set or after `budgetUs`.
Result<RequestSpec> scriptFirstRequest(
    const RunConfig& config, const std::atomic<bool>* cancel = nullptr, uint64_t budgetUs = 5'000'000);

} // namespace wb
