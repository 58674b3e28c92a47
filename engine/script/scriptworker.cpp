#include "scriptworker.h"

#include "script/rawrequest.h"
#include "script/scriptrun.h"

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
    if (m_state->hasFunction("init")) {
        lua_getglobal(L, "init");
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
    }
    // After init, as wrk: what the script defines now is what runs.
    m_dynamic = m_state->hasFunction("request");
    m_observes = m_state->hasFunction("response");
    m_delays = m_state->hasFunction("delay");
    // wrk calls a thread's request() once before its connections (the request it checks) and
    // sends what the following calls build: a counter in the path starts one further on there,
    // and so here.
    if (m_dynamic) {
        lua_getglobal(L, "request");
        if (Status st = m_state->call(0, 1); !st) return Error { "request(): " + st.error() };
        lua_pop(L, 1);
    }

    lua_getglobal(L, "wrk");
    lua_getfield(L, -1, "format");
    lua_remove(L, -2);
    if (Status st = m_state->call(0, 1); !st) return Error { "wrk.format(): " + st.error() };
    size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    if (!text) {
        lua_pop(L, 1);
        return Error { "wrk.format() did not return a string" };
    }
    auto parsed = parseRawRequests(std::string_view(text, length), m_run.config().request.url);
    lua_pop(L, 1);
    if (!parsed)
        return Error { "the script's request (wrk.method, wrk.path, wrk.headers, wrk.body): " + parsed.error() };
    m_table = { std::move(parsed->front()) };
    return {};
}

RequestPick ScriptWorker::next(uint32_t connection)
{
    if (!m_dynamic || m_failed) return {};
    if (connection >= m_pending.size()) m_pending.resize(connection + 1);
    Pending& p = m_pending[connection];
    // What request() returned at once goes out one after another on this connection
    // (pipelined when --pipeline allows several in flight).
    if (p.next < p.views.size()) return wirePick(p, p.next++);
    if (p.next < p.requests.size()) {
        p.sending = std::move(p.requests[p.next++]);
        return { 0, &p.sending };
    }
    lua_State* L = m_state->get();
    lua_getglobal(L, "request");
    if (Status st = m_state->call(0, 1); !st) {
        m_failed = true;
        m_run.fail("request(): " + st.error());
        return {};
    }
    if (lua_type(L, -1) != LUA_TSTRING) {
        const std::string what = lua_typename(L, lua_type(L, -1));
        lua_pop(L, 1);
        m_failed = true;
        m_run.fail("request() returned " + what + ", not a request (a string, as wrk.format() makes)");
        return {};
    }
    size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    // The usual case (wrk.format()'s output over HTTP/1.1): checked in place and sent as it is.
    if (m_wire && scanWireRequests(std::string_view(text, length), p.views)) {
        p.wire.assign(text, length);
        lua_pop(L, 1);
        p.requests.clear();
        p.next = 1;
        return wirePick(p, 0);
    }
    p.views.clear();
    auto parsed = parseRawRequests(std::string_view(text, length), m_run.config().request.url);
    lua_pop(L, 1);
    if (!parsed) {
        m_failed = true;
        m_run.fail("request() returned something that is not a request: " + parsed.error());
        return {};
    }
    p.requests = std::move(*parsed);
    p.next = 1;
    p.sending = std::move(p.requests.front());
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
