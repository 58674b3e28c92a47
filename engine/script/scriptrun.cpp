#include "scriptrun.h"

#include "run/runcontroller.h"
#include "run/shard.h"
#include "script/scriptworker.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <lua.hpp>

namespace wb {

namespace {

constexpr const char* THREAD_META = "wrk.thread";
// wrk2 has no delay(): under -R the schedule alone decides when a request goes.
constexpr const char* DELAY_REFUSAL
    = "delay() cannot run with -R: the open model's schedule decides when requests are sent (remove delay() or -R)";

ScriptThread* checkThread(lua_State* L)
{
    return *static_cast<ScriptThread**>(luaL_checkudata(L, 1, THREAD_META));
}

// thread:get(name): the worker state's global, copied into the caller's state.
int threadGet(lua_State* L)
{
    ScriptThread* t = checkThread(L);
    const char* name = luaL_checkstring(L, 2);
    lua_State* from = t->state->get();
    lua_getglobal(from, name);
    Status st = copyLuaValue(from, -1, L);
    lua_pop(from, 1);
    if (!st) return luaL_error(L, "thread:get('%s'): %s", name, st.error().c_str());
    return 1;
}

// thread:set(name, value): a global of the worker's state, copied from the caller's.
int threadSet(lua_State* L)
{
    ScriptThread* t = checkThread(L);
    const char* name = luaL_checkstring(L, 2);
    lua_State* to = t->state->get();
    if (std::find(t->setNames.begin(), t->setNames.end(), name) == t->setNames.end()) t->setNames.push_back(name);
    if (to == L) {
        lua_pushvalue(L, 3);
        lua_setglobal(L, name);
        return 0;
    }
    Status st = copyLuaValue(L, 3, to);
    if (!st) return luaL_error(L, "thread:set('%s'): %s", name, st.error().c_str());
    lua_setglobal(to, name);
    return 0;
}

// wrk's aeStop(): this thread sends nothing more; the others go on, and the run lasts -d.
int threadStop(lua_State* L)
{
    checkThread(L)->stopped.store(true, std::memory_order_relaxed);
    return 0;
}

int threadIndex(lua_State* L)
{
    ScriptThread* t = checkThread(L);
    const std::string key = luaL_checkstring(L, 2);
    if (key == "addr") {
        lua_pushlstring(L, t->addr.data(), t->addr.size());
    } else if (key == "get") {
        lua_pushcfunction(L, threadGet);
    } else if (key == "set") {
        lua_pushcfunction(L, threadSet);
    } else if (key == "stop") {
        lua_pushcfunction(L, threadStop);
    } else {
        lua_pushnil(L);
    }
    return 1;
}

// thread.addr = addr in setup() (or the thread's init()), as wrk: "ip:port", what wrk.lookup() returns.
int threadNewIndex(lua_State* L)
{
    ScriptThread* t = checkThread(L);
    const std::string key = luaL_checkstring(L, 2);
    if (key != "addr") return luaL_error(L, "thread.%s cannot be set (only thread.addr)", key.c_str());
    if (t->addressTaken)
        return luaL_error(L, "thread.addr can be set in setup() or init() only: the thread is connecting");
    auto address = parseSocketAddress(luaL_checkstring(L, 3));
    if (!address) return luaL_error(L, "thread.addr: %s", address.error().c_str());
    t->address = *address;
    t->addr = address->toString();
    t->addrSet = true;
    return 0;
}

void pushThread(lua_State* L, ScriptThread* t)
{
    *static_cast<ScriptThread**>(lua_newuserdata(L, sizeof(ScriptThread*))) = t;
    if (luaL_newmetatable(L, THREAD_META)) {
        lua_pushcfunction(L, threadIndex);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, threadNewIndex);
        lua_setfield(L, -2, "__newindex");
    }
    lua_setmetatable(L, -2);
}

} // namespace

ScriptRun::ScriptRun(RunConfig config)
    : m_config(std::move(config))
{ }

ScriptRun::ScriptRun(RunConfig share, unsigned threadOffset)
    : m_config(std::move(share))
    , m_loader(true)
    , m_threadOffset(threadOffset)
{ }

ScriptRun::~ScriptRun() = default;

Status ScriptRun::check()
{
    if (m_loader) {
        const size_t needed = size_t { m_threadOffset } + m_config.normalized().threads;
        if (m_config.script.threadSetup.size() < needed)
            return Error { "the script's thread set-up covers " + std::to_string(m_config.script.threadSetup.size())
                + " threads, this loader needs " + std::to_string(needed) };
        return m_setup.load(m_config.script, m_config.request, LuaState::Output::Stderr);
    }
    const auto output = m_capture ? LuaState::Output::Capture : LuaState::Output::Stdout;
    if (m_interrupt) m_setup.interruptWhen(m_interrupt);
    if (Status st = m_setup.load(m_config.script, m_config.request, output, m_capture); !st) return st;
    if (m_config.openModel() && m_setup.hasFunction("delay")) return Error { DELAY_REFUSAL };
    // wrk.resolve(host, service) in the setup state, as wrk does after loading the script: it
    // fills wrk.addrs with the addresses that accept a connection (service: the URL's port, else
    // its scheme).
    lua_State* S = m_setup.get();
    const Url& url = m_config.request.url;
    lua_getglobal(S, "wrk");
    lua_getfield(S, -1, "resolve");
    lua_remove(S, -2);
    lua_pushlstring(S, url.host.data(), url.host.size());
    const std::string service = url.portGiven || !url.hasDefaultPort() ? std::to_string(url.port) : url.scheme;
    lua_pushlstring(S, service.data(), service.size());
    if (Status st = m_setup.call(2, 0); !st) return Error { "wrk.resolve(): " + st.error() };
    return {};
}

Result<RequestSpec> ScriptRun::firstRequest()
{
    ScriptWorker& w = worker(0);
    if (std::string e = error(); !e.empty()) return Error { e };
    const RequestPick pick = w.next(0);
    if (std::string e = error(); !e.empty()) return Error { e };
    if (pick.built) return *pick.built;
    if (!pick.wire.empty()) {
        auto requests = parseRawRequests(pick.wire, m_config.request.url);
        if (!requests) return Error { "request(): " + requests.error() };
        return std::move(requests->front());
    }
    if (w.table().empty()) return Error { "the script made no request" };
    return w.table().front();
}

Result<RequestSpec> scriptFirstRequest(const RunConfig& config, const std::atomic<bool>* cancel, uint64_t budgetUs)
{
    ScriptRun run(config);
    ScriptOutput dropped;
    run.captureOutput(&dropped);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(budgetUs);
    run.interruptWhen([cancel, deadline, budgetUs]() -> std::string {
        if (cancel && cancel->load()) return "cancelled";
        if (std::chrono::steady_clock::now() >= deadline)
            return fmt::format("the script ran {} s without making its first request", budgetUs / 1'000'000.0);
        return {};
    });
    if (Status st = run.check(); !st) return Error { st.error() };
    return run.firstRequest();
}

RunHooks ScriptRun::hooks(std::function<void()> stop)
{
    m_stop = std::move(stop);
    RunHooks h;
    // Asked first by each worker: setup(thread) runs here, and may set the thread's address.
    h.connectAddress = [this](unsigned index, const SocketAddress& checked) -> SocketAddress {
        ScriptWorker& w = worker(index, &checked);
        (void)w;
        std::lock_guard lock(m_mutex);
        ScriptThread& t = *m_threads[index];
        t.addressTaken = true;
        return t.address;
    };
    h.requestSource = [this](unsigned index, const std::vector<uint32_t>&) -> std::unique_ptr<RequestSource> {
        return std::make_unique<ScriptSourceRef>(worker(index));
    };
    h.failure = [this] { return error(); };
    h.responseObserver = [this](unsigned index) -> ResponseObserver* {
        ScriptWorker& w = worker(index);
        return w.observes() ? &w : nullptr;
    };
    return h;
}

ScriptWorker& ScriptRun::worker(unsigned index, const SocketAddress* checked)
{
    std::lock_guard lock(m_mutex);
    if (index < m_workers.size() && m_workers[index]) return *m_workers[index];
    if (index >= m_workers.size()) {
        m_workers.resize(index + 1);
        m_threads.resize(index + 1);
    }
    auto thread = std::make_unique<ScriptThread>();
    thread->index = index;
    if (checked) {
        thread->address = *checked;
        thread->addr = checked->toString();
    } else { // a controller without the address hook: the URL's (nothing connects to it from here)
        thread->addr = m_config.request.url.host + ":" + std::to_string(m_config.request.url.port);
    }
    auto state = std::make_unique<LuaState>();
    if (m_interrupt) state->interruptWhen(m_interrupt);
    thread->state = state.get();
    const auto output = m_loader ? LuaState::Output::Stderr
        : m_capture              ? LuaState::Output::Capture
                                 : LuaState::Output::Stdout;
    Status st = state->load(m_config.script, m_config.request, output, m_capture);
    lua_State* W = state->get();
    lua_getglobal(W, "wrk");
    pushThread(W, thread.get());
    lua_setfield(W, -2, "thread");
    lua_pop(W, 1);
    // A loader: what the coordinator's setup() gave this thread, before its init.
    if (st && m_loader) {
        const std::string& chunk = m_config.script.threadSetup.at(m_threadOffset + index);
        if (luaL_loadbuffer(W, chunk.data(), chunk.size(), "=setup") != 0) {
            st = Error { std::string("setup(): ") + lua_tostring(W, -1) };
            lua_pop(W, 1);
        } else if (Status ran = state->call(0, 0); !ran) {
            st = Error { "setup(): " + ran.error() };
        }
    }
    // wrk.setup(thread) (the script's setup(thread)) in the setup state, before the thread's
    // init, as wrk.
    if (st && !m_loader) st = callSetup(*thread);
    auto w = std::make_unique<ScriptWorker>(*this, *thread, std::move(state));
    if (st) st = w->start();
    if (st && w->delays() && m_config.openModel()) st = Error { DELAY_REFUSAL };
    m_threads[index] = std::move(thread);
    m_workers[index] = std::move(w);
    if (!st) {
        m_error = m_error.empty() ? st.error() : m_error;
        if (m_stop) m_stop();
    }
    return *m_workers[index];
}

Result<ScriptRun::MakeRunner> ScriptRun::prepareRun(RunConfig& config, int64_t startAtUnixUs)
{
    if (!config.loaders.distributed()) {
        return MakeRunner([this, startAtUnixUs](const RunConfig& c) -> std::unique_ptr<LoadRunner> {
            auto controller = std::make_unique<RunController>(c);
            controller->measureFrom(startAtUnixUs);
            RunController* raw = controller.get();
            controller->setHooks(hooks([raw] { raw->stop(); }));
            return controller;
        });
    }
    const RunConfig whole = config.normalized();
    std::vector<unsigned> threadsPerLoader;
    for (unsigned i = 0; i < whole.loaders.count; ++i) {
        auto share = shareOf(whole, Shard { i, whole.loaders.count });
        if (!share) return Error { share.error() };
        threadsPerLoader.push_back(share->threads);
    }
    auto seeds = seedThreads(threadsPerLoader);
    if (!seeds) return Error { seeds.error() };
    config.script.threadSetup = std::move(*seeds);
    return MakeRunner();
}

Result<std::vector<std::string>> ScriptRun::seedThreads(const std::vector<unsigned>& threadsPerLoader)
{
    std::lock_guard lock(m_mutex);
    std::vector<std::string> chunks;
    for (unsigned loader = 0; loader < threadsPerLoader.size(); ++loader)
        for (unsigned i = 0; i < threadsPerLoader[loader]; ++i) {
            auto thread = std::make_unique<ScriptThread>();
            thread->index = static_cast<unsigned>(m_threads.size());
            thread->addr = m_config.request.url.host + ":" + std::to_string(m_config.request.url.port);
            thread->state = m_records.emplace_back(std::make_unique<LuaState>()).get();
            // Kept before setup() sees it: a setup() that keeps its threads (to read them in done())
            // holds a pointer to this one.
            ScriptThread& t = *m_threads.emplace_back(std::move(thread));
            if (Status called = callSetup(t); !called) return Error { called.error() };
            std::string chunk;
            lua_State* R = t.state->get();
            for (const std::string& name : t.setNames) {
                lua_pushlstring(R, name.data(), name.size());
                auto key = luaValueSource(R, -1);
                lua_pop(R, 1);
                lua_getglobal(R, name.c_str());
                auto value = luaValueSource(R, -1);
                lua_pop(R, 1);
                if (!value) return Error { "setup(): thread:set('" + name + "'): " + value.error() };
                chunk += "_G[" + *key + "] = " + *value + "\n";
            }
            if (t.addrSet) {
                lua_pushlstring(R, t.addr.data(), t.addr.size());
                chunk += "wrk.thread.addr = " + *luaValueSource(R, -1) + "\n";
                lua_pop(R, 1);
            }
            chunks.push_back(std::move(chunk));
        }
    return chunks;
}

void ScriptRun::fail(const std::string& message)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_error.empty()) m_error = message;
    }
    if (m_stop) m_stop();
}

Status ScriptRun::callSetup(ScriptThread& thread)
{
    lua_State* S = m_setup.get();
    lua_getglobal(S, "wrk");
    lua_getfield(S, -1, "setup");
    lua_remove(S, -2);
    pushThread(S, &thread);
    if (Status called = m_setup.call(1, 0); !called) return Error { "setup(): " + called.error() };
    return {};
}

bool ScriptRun::isFleetThreadZero(unsigned index) const
{
    return m_threadOffset + index == 0;
}

std::string ScriptRun::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

bool ScriptRun::hasDone() const
{
    return m_setup.hasFunction("done");
}

} // namespace wb
