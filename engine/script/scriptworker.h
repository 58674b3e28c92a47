#pragma once
// One worker thread's side of a script: its own Lua state, the request source in
// front of its sessions and the response observer behind them. Only the worker's
// thread calls it once the run starts.

#include "run/requestsource.h"
#include "run/responseobserver.h"
#include "script/luastate.h"
#include "script/rawrequest.h"

#include <memory>
#include <vector>

namespace wb {

class ScriptRun;
struct ScriptThread;

class ScriptWorker final : public RequestSource, public ResponseObserver
{
public:
    ScriptWorker(ScriptRun& run, ScriptThread& thread, std::unique_ptr<LuaState> state);

    /// Calls wrk.init(args) (which calls the script's init(args)), thread 0's first request()
    /// as wrk's check, and builds the thread's static request (wrk.request()).
    Status start();

    // RequestSource
    const std::vector<RequestSpec>& table() const override { return m_table; }
    bool buildsPerSend() const override { return m_dynamic; }
    RequestPick next(uint32_t connection) override;
    bool delays() const override { return m_delays; }
    /// delay(): milliseconds as wrk (a number, fractions kept; nil is none).
    uint64_t delayUs(uint32_t connection) override;
    uint32_t pipelineDepth() const override;
    bool mayStop() const override { return true; }
    bool stopped() const override;

    // ResponseObserver
    bool wantsBody() const override { return m_observes; }
    void onResponse(const ObservedResponse& response) override;

    bool observes() const { return m_observes; }

private:
    struct Pending;
    /// Calls request() and keeps the requests its string holds in `p`, from the first.
    Status fetch(Pending& p);
    static RequestPick wirePick(const Pending& p, size_t index);

    ScriptRun& m_run;
    ScriptThread& m_thread;
    std::unique_ptr<LuaState> m_state;
    std::vector<RequestSpec> m_table; ///< the static request (also what the run checks against)
    bool m_dynamic = false; ///< request() is defined
    bool m_observes = false; ///< response() is defined
    bool m_delays = false; ///< delay() is defined
    bool m_failed = false; ///< a Lua error stopped the run: no more Lua
    /// Per connection: what request() returned and is still to be sent (several: pipelined).
    /// Over HTTP/1.1 the string itself goes out (wire, its requests at views), as wrk sends it;
    /// parsed into RequestSpecs only for HTTP/2 or what needs rebuilding (a bare LF, no Host).
    struct Pending
    {
        std::string wire; ///< request()'s string (its capacity kept from call to call)
        std::vector<RawRequestView> views;
        std::vector<RequestSpec> requests;
        size_t next = 0;
        RequestSpec sending; ///< the one handed out last (valid until asked again)
    };
    std::vector<Pending> m_pending;
    bool m_wire = true; ///< the run speaks HTTP/1.1: request()'s strings can go out as they are
};

/// A forwarding source: the worker owns its source, the ScriptRun owns the ScriptWorker.
class ScriptSourceRef final : public RequestSource
{
public:
    explicit ScriptSourceRef(ScriptWorker& worker)
        : m_worker(worker)
    { }
    const std::vector<RequestSpec>& table() const override { return m_worker.table(); }
    bool buildsPerSend() const override { return m_worker.buildsPerSend(); }
    RequestPick next(uint32_t connection) override { return m_worker.next(connection); }
    bool delays() const override { return m_worker.delays(); }
    uint64_t delayUs(uint32_t connection) override { return m_worker.delayUs(connection); }
    uint32_t pipelineDepth() const override { return m_worker.pipelineDepth(); }
    bool mayStop() const override { return true; }
    bool stopped() const override { return m_worker.stopped(); }

private:
    ScriptWorker& m_worker;
};

} // namespace wb
