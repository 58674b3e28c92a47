#include "scriptworker.h"

#include "script/rawrequest.h"
#include "script/scriptrun.h"

#include <algorithm>
#include <cmath>
#include <lua.hpp>

namespace wb {

namespace {
constexpr double MAX_DELAY_MS = 86'400'000; // a day
} // namespace

ScriptWorker::ScriptWorker(ScriptRun& run, ScriptThread& thread, std::unique_ptr<LuaState> state)
    : m_run(run)
    , m_thread(thread)
    , m_state(std::move(state))
    // The configured request until start() builds the script's: a worker whose setup() or init()
    // failed still needs a request to prepare its sessions against (the run is already stopping).
    , m_table { run.config().request }
    , m_wire(!run.config().http2())
{ }

Status ScriptWorker::start()
{
    lua_State* L = m_state->get();
    // wrk.init(args), the table's field, as wrk calls it: it sets wrk.headers.Host, calls the
    // script's init(args) and makes wrk.request() return what wrk.format() builds after it.
    lua_getglobal(L, "wrk");
    lua_getfield(L, -1, "init");
    lua_remove(L, -2);
    lua_newtable(L);
    // As wrk's: args[0] is the URL as given on the command line, args[1..] what followed `--`.
    const Url& url = m_run.config().request.url;
    const std::string given = url.original.empty() ? url.displayText() : url.original;
    lua_pushlstring(L, given.data(), given.size());
    lua_rawseti(L, -2, 0);
    int i = 0;
    for (const std::string& a : m_run.config().script.args) {
        lua_pushlstring(L, a.data(), a.size());
        lua_rawseti(L, -2, ++i);
    }
    if (Status st = m_state->call(1, 0); !st) return Error { "init(): " + st.error() };
    // After init, as wrk: what the script defines now is what runs.
    m_dynamic = m_state->hasFunction("request");
    m_observes = m_state->hasFunction("response");
    m_delays = m_state->hasFunction("delay");
    // wrk calls thread 0's request() once before its connections (the request it checks, which
    // is not sent) and pipelines as many requests as that string holds; the other threads'
    // first call is their first request. A loader of a distributed run that has no thread 0
    // takes the depth from its first thread's first string, and sends it.
    if (m_dynamic && m_run.pipelineDepth() == 0) {
        Pending first;
        if (Status st = fetch(first); !st) return st;
        const size_t requests = first.views.empty() ? first.requests.size() : first.views.size();
        m_run.setPipelineDepth(static_cast<uint32_t>(std::min<size_t>(requests, RunConfig::MAX_PIPELINE)));
        if (!m_run.isFleetThreadZero(m_thread.index)) m_pending.push_back(std::move(first));
    }

    // The static request: what wrk.request() returns (wrk.format() after init), what wrk sends
    // without request(). A script whose own wrk.init made none has wrk.format()'s.
    lua_getglobal(L, "wrk");
    lua_getfield(L, -1, "request");
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        lua_getfield(L, -1, "format");
    }
    lua_remove(L, -2);
    if (Status st = m_state->call(0, 1); !st) return Error { "wrk.request(): " + st.error() };
    size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    if (!text) {
        lua_pop(L, 1);
        return Error { "wrk.request() did not return a string" };
    }
    auto parsed = parseRawRequests(std::string_view(text, length), m_run.config().request.url);
    lua_pop(L, 1);
    if (!parsed)
        return Error { "the script's request (wrk.method, wrk.path, wrk.headers, wrk.body): " + parsed.error() };
    m_table = { std::move(parsed->front()) };
    // wrk's aeMain clears a thread's stop flag when its loop starts: thread:stop() in setup() or
    // init() does nothing.
    m_thread.stopped.store(false, std::memory_order_relaxed);
    return {};
}

Status ScriptWorker::fetch(Pending& p)
{
    lua_State* L = m_state->get();
    lua_getglobal(L, "request");
    if (Status st = m_state->call(0, 1); !st) return Error { "request(): " + st.error() };
    if (lua_type(L, -1) != LUA_TSTRING) {
        const std::string what = lua_typename(L, lua_type(L, -1));
        lua_pop(L, 1);
        return Error { "request() returned " + what + ", not a request (a string, as wrk.format() makes)" };
    }
    size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    p.next = 0;
    // The usual case (wrk.format()'s output over HTTP/1.1): checked in place and sent as it is.
    if (m_wire && scanWireRequests(std::string_view(text, length), p.views)) {
        p.wire.assign(text, length);
        lua_pop(L, 1);
        p.requests.clear();
        return {};
    }
    p.views.clear();
    auto parsed = parseRawRequests(std::string_view(text, length), m_run.config().request.url);
    lua_pop(L, 1);
    if (!parsed) return Error { "request() returned something that is not a request: " + parsed.error() };
    p.requests = std::move(*parsed);
    return {};
}

RequestPick ScriptWorker::next(uint32_t connection)
{
    if (!m_dynamic || m_failed) return {};
    if (connection >= m_pending.size()) m_pending.resize(connection + 1);
    Pending& p = m_pending[connection];
    // What request() returned at once goes out one after another on this connection, in one
    // batch when the pipeline depth holds them all (wrk's pipelining); then request() again.
    if (p.next >= p.views.size() + p.requests.size()) {
        if (Status st = fetch(p); !st) {
            m_failed = true;
            m_run.fail(st.error());
            return {};
        }
    }
    if (p.next < p.views.size()) return wirePick(p, p.next++);
    p.sending = std::move(p.requests[p.next++]);
    return { 0, &p.sending };
}

RequestPick ScriptWorker::wirePick(const Pending& p, size_t index)
{
    const RawRequestView& v = p.views[index];
    RequestPick pick;
    pick.wire = std::string_view(p.wire).substr(v.offset, v.length);
    pick.wireHead = v.head;
    return pick;
}

uint32_t ScriptWorker::pipelineDepth() const
{
    return m_run.pipelineDepth();
}

bool ScriptWorker::stopped() const
{
    return m_thread.stopped.load(std::memory_order_relaxed);
}

uint64_t ScriptWorker::delayUs(uint32_t)
{
    if (!m_delays || m_failed) return 0;
    lua_State* L = m_state->get();
    lua_getglobal(L, "delay");
    if (Status st = m_state->call(0, 1); !st) {
        m_failed = true;
        m_run.fail("delay(): " + st.error());
        return 0;
    }
    // wrk reads lua_tonumber(): nil (a delay() that sometimes returns nothing) is no delay. What
    // is neither is a mistake worth naming, not a silent 0.
    const int type = lua_type(L, -1);
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (type != LUA_TNUMBER) {
        const std::string what = lua_typename(L, type);
        lua_pop(L, 1);
        m_failed = true;
        m_run.fail("delay() returned " + what + ", not a number of milliseconds");
        return 0;
    }
    const double ms = lua_tonumber(L, -1);
    lua_pop(L, 1);
    // More than a day is a mistake too (and would overflow the clock's arithmetic at 1e13 ms).
    if (!(ms >= 0 && ms <= MAX_DELAY_MS)) {
        m_failed = true;
        m_run.fail("delay() returned " + std::to_string(ms) + ": milliseconds from 0 to "
            + std::to_string(static_cast<long>(MAX_DELAY_MS)));
        return 0;
    }
    return static_cast<uint64_t>(std::llround(ms * 1000.0));
}

void ScriptWorker::onResponse(const ObservedResponse& response)
{
    if (!m_observes || m_failed) return;
    lua_State* L = m_state->get();
    lua_getglobal(L, "response");
    lua_pushinteger(L, response.status);
    lua_createtable(L, 0, static_cast<int>(response.headers.size()));
    for (const HeaderField& h : response.headers) {
        lua_pushlstring(L, h.name.data(), h.name.size());
        lua_pushlstring(L, h.value.data(), h.value.size());
        lua_rawset(L, -3);
    }
    lua_pushlstring(L, response.body.data(), response.body.size());
    if (Status st = m_state->call(3, 0); !st) {
        m_failed = true;
        m_run.fail("response(): " + st.error());
    }
}

} // namespace wb
