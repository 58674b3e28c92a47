#include "luastate.h"

#include "script/wrkformat.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <lua.hpp>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

namespace {

// wrk's defaults and wrk.lua's functions, as wrk's src/wrk.lua defines them. wrk.format is wrk's
// Lua function written in C (script/wrkformat.h): the same string, a fraction of the cost per
// request; wrk.lookup and wrk.connect are C in wrk too. A script may replace or wrap any of them,
// as under wrk: the run calls wrk.init(args) and wrk.setup(thread), the table's fields.
constexpr std::string_view PRELUDE = R"lua(
wrk = {
  scheme = "http", host = "localhost", port = nil,
  method = "GET", path = "/", headers = {}, body = nil, thread = nil,
}

function wrk.resolve(host, service)
   -- (wrk exits when the lookup fails; here the pre-run check says why the target is unreachable)
   local addrs = wrk.lookup(host, service) or {}
   for i = #addrs, 1, -1 do
      if not wrk.connect(addrs[i]) then
         table.remove(addrs, i)
      end
   end
   wrk.addrs = addrs
end

function wrk.setup(thread)
   -- wrk sets thread.addr = wrk.addrs[1] first, the first address that connected. A thread's
   -- address already is the one the pre-run check connected to (a loader of a distributed run
   -- resolves the host itself), so only setup() may change it.
   if type(setup) == "function" then
      setup(thread)
   end
end

function wrk.init(args)
   if not wrk.headers["Host"] then
      local host = wrk.host
      local port = wrk.port

      host = host:find(":") and ("[" .. host .. "]")  or host
      host = port           and (host .. ":" .. port) or host

      wrk.headers["Host"] = host
   end

   if type(init) == "function" then
      init(args)
   end

   local req = wrk.format()
   wrk.request = function()
      return req
   end
end
)lua";

// A loader's stdout is its stream: print(), io.write() and io.stdout go to stderr instead, which
// the coordinator shows as the loader's lines.
constexpr std::string_view TO_STDERR = R"lua(
io.output(io.stderr)
io.stdout = io.stderr
print = function(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = tostring((select(i, ...))) end
  io.stderr:write(table.concat(parts, "\t"), "\n")
end
)lua";

// Output::Capture: print() and io.write() as Lua's own (tab between values, no newline for
// io.write), into the ScriptOutput the closure carries.
int capturedWrite(lua_State* L, bool print)
{
    auto* sink = static_cast<ScriptOutput*>(lua_touserdata(L, lua_upvalueindex(1)));
    const int n = lua_gettop(L);
    std::string text;
    for (int i = 1; i <= n; ++i) {
        size_t length = 0;
        const char* s = nullptr;
        if (print) {
            lua_getglobal(L, "tostring");
            lua_pushvalue(L, i);
            lua_call(L, 1, 1);
            s = lua_tolstring(L, -1, &length);
            if (!s) return luaL_error(L, "'tostring' must return a string to 'print'");
            if (i > 1) text += '\t';
        } else {
            s = luaL_checklstring(L, i, &length);
        }
        text.append(s, length);
        if (print) lua_pop(L, 1);
    }
    if (print) text += '\n';
    sink->append(text);
    return 0;
}

int capturedPrint(lua_State* L)
{
    return capturedWrite(L, true);
}

int capturedIoWrite(lua_State* L)
{
    return capturedWrite(L, false);
}

// io.stdout:write(...): the file handle's method form; returns the handle, as Lua's does.
int capturedFileWrite(lua_State* L)
{
    lua_remove(L, 1);
    capturedWrite(L, false);
    lua_getglobal(L, "io");
    lua_getfield(L, -1, "stdout");
    return 1;
}

void captureOutput(lua_State* L, ScriptOutput* sink)
{
    lua_pushlightuserdata(L, sink);
    lua_pushcclosure(L, capturedPrint, 1);
    lua_setglobal(L, "print");
    lua_getglobal(L, "io");
    lua_pushlightuserdata(L, sink);
    lua_pushcclosure(L, capturedIoWrite, 1);
    lua_setfield(L, -2, "write");
    lua_newtable(L); // io.stdout: a stand-in with write and flush
    lua_pushlightuserdata(L, sink);
    lua_pushcclosure(L, capturedFileWrite, 1);
    lua_setfield(L, -2, "write");
    luaL_dostring(L, "return function(self) return self end");
    lua_setfield(L, -2, "flush");
    lua_setfield(L, -2, "stdout");
    lua_pop(L, 1);
}

// An address is "ip:port" text ("[v6]:port"): tostring() shows it as wrk's userdata does.
int luaLookup(lua_State* L)
{
    const char* host = luaL_checkstring(L, 1);
    const char* service = luaL_optstring(L, 2, "http");
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = getaddrinfo(host, service, &hints, &found); rc != 0) {
        lua_pushnil(L);
        lua_pushstring(L, gai_strerror(rc));
        return 2;
    }
    lua_newtable(L);
    int n = 0;
    for (addrinfo* a = found; a; a = a->ai_next) {
        char ip[INET6_ADDRSTRLEN] = {};
        int port = 0;
        if (a->ai_family == AF_INET) {
            const auto* in = reinterpret_cast<const sockaddr_in*>(a->ai_addr);
            inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
            port = ntohs(in->sin_port);
            lua_pushfstring(L, "%s:%d", ip, port);
        } else if (a->ai_family == AF_INET6) {
            const auto* in = reinterpret_cast<const sockaddr_in6*>(a->ai_addr);
            inet_ntop(AF_INET6, &in->sin6_addr, ip, sizeof ip);
            port = ntohs(in->sin6_port);
            lua_pushfstring(L, "[%s]:%d", ip, port);
        } else {
            continue;
        }
        lua_rawseti(L, -2, ++n);
    }
    freeaddrinfo(found);
    return 1;
}

// wrk.connect(addr): true when a TCP connection to addr opens within a second.
int luaConnect(lua_State* L)
{
    std::string text = luaL_checkstring(L, 1);
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos) return luaL_error(L, "wrk.connect: '%s' is not an address", text.c_str());
    std::string host = text.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    const std::string port = text.substr(colon + 1);
    addrinfo hints {};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo* a = nullptr;
    if (getaddrinfo(host.c_str(), port.c_str(), &hints, &a) != 0) {
        lua_pushboolean(L, 0);
        return 1;
    }
    bool ok = false;
    const int fd = socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
        if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            ok = true;
        } else if (errno == EINPROGRESS) {
            pollfd p { fd, POLLOUT, 0 };
            int err = 0;
            socklen_t len = sizeof err;
            ok = poll(&p, 1, 1000) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
        }
        close(fd);
    }
    freeaddrinfo(a);
    lua_pushboolean(L, ok);
    return 1;
}

int traceback(lua_State* L)
{
    const char* message = lua_tostring(L, 1);
    luaL_traceback(L, L, message ? message : "(error object is not a string)", 1);
    return 1;
}

} // namespace

LuaState::LuaState()
    : m_L(luaL_newstate())
{
    luaL_openlibs(m_L);
    luaL_loadbuffer(m_L, PRELUDE.data(), PRELUDE.size(), "=wrk");
    lua_call(m_L, 0, 0);
    lua_getglobal(m_L, "wrk");
    lua_pushcfunction(m_L, luaWrkFormat);
    lua_setfield(m_L, -2, "format");
    lua_pushcfunction(m_L, luaLookup);
    lua_setfield(m_L, -2, "lookup");
    lua_pushcfunction(m_L, luaConnect);
    lua_setfield(m_L, -2, "connect");
    lua_pop(m_L, 1);
    lua_pushcfunction(m_L, traceback);
    m_traceback = luaL_ref(m_L, LUA_REGISTRYINDEX);
}

LuaState::~LuaState()
{
    if (m_L) lua_close(m_L);
}

namespace {
const char INTERRUPT_KEY = 0; // its address keys the state's LuaState in the registry
}

void LuaState::interruptWhen(std::function<std::string()> stopped)
{
    m_interrupt = std::move(stopped);
    luaJIT_setmode(m_L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF); // compiled code calls no hooks
    lua_pushlightuserdata(m_L, const_cast<char*>(&INTERRUPT_KEY));
    lua_pushlightuserdata(m_L, this);
    lua_rawset(m_L, LUA_REGISTRYINDEX);
    lua_sethook(m_L, interruptHook, LUA_MASKCOUNT, 4096);
}

void LuaState::interruptHook(lua_State* L, lua_Debug*)
{
    lua_pushlightuserdata(L, const_cast<char*>(&INTERRUPT_KEY));
    lua_rawget(L, LUA_REGISTRYINDEX);
    auto* self = static_cast<LuaState*>(lua_touserdata(L, -1));
    lua_pop(L, 1);
    if (!self || !self->m_interrupt) return;
    const std::string reason = self->m_interrupt();
    if (!reason.empty()) luaL_error(L, "stopped: %s", reason.c_str());
}

void ScriptOutput::append(std::string_view text)
{
    std::lock_guard lock(m_mutex);
    if (m_cut) return;
    if (m_text.size() + text.size() > DEFAULT_LIMIT_BYTES) {
        m_text.append(text.substr(0, DEFAULT_LIMIT_BYTES - m_text.size()));
        m_text += "\n[more output dropped: only the first 1 MB is kept]\n";
        m_cut = true;
        return;
    }
    m_text.append(text);
}

std::string ScriptOutput::text() const
{
    std::lock_guard lock(m_mutex);
    return m_text;
}

Status LuaState::load(const ScriptSpec& script, const RequestSpec& request, Output output, ScriptOutput* capture)
{
    if (output == Output::Stderr) {
        luaL_loadbuffer(m_L, TO_STDERR.data(), TO_STDERR.size(), "=wrk");
        lua_call(m_L, 0, 0);
    } else if (output == Output::Capture && capture) {
        captureOutput(m_L, capture);
    }
    const Url& url = request.url;
    lua_getglobal(m_L, "wrk");
    lua_pushlstring(m_L, url.scheme.data(), url.scheme.size());
    lua_setfield(m_L, -2, "scheme");
    lua_pushlstring(m_L, url.host.data(), url.host.size());
    lua_setfield(m_L, -2, "host");
    // A string, as wrk's, and nil when the URL named no port (wrk.init then sends Host without
    // one). A URL made in code without its text has a port only when it is not the default.
    if (url.portGiven || !url.hasDefaultPort()) {
        lua_pushstring(m_L, std::to_string(url.port).c_str());
        lua_setfield(m_L, -2, "port");
    }
    lua_pushlstring(m_L, url.target.data(), url.target.size());
    lua_setfield(m_L, -2, "path");
    // -H headers, as wrk puts its -H headers into wrk.headers before the script runs.
    lua_getfield(m_L, -1, "headers");
    for (const Header& h : request.headers) {
        lua_pushlstring(m_L, h.name.data(), h.name.size());
        lua_pushlstring(m_L, h.value.data(), h.value.size());
        lua_settable(m_L, -3);
    }
    lua_pop(m_L, 2);

    const std::string chunkName = "@" + (script.name.empty() ? std::string("script") : script.name);
    if (luaL_loadbuffer(m_L, script.text.data(), script.text.size(), chunkName.c_str()) != 0) {
        std::string message = lua_tostring(m_L, -1);
        lua_pop(m_L, 1);
        return Error { message };
    }
    if (lua_pcall(m_L, 0, 0, 0) != 0) {
        std::string message = lua_tostring(m_L, -1) ? lua_tostring(m_L, -1) : "error";
        lua_pop(m_L, 1);
        return Error { message };
    }
    return {};
}

bool LuaState::hasFunction(const char* name) const
{
    lua_getglobal(m_L, name);
    const bool is = lua_isfunction(m_L, -1);
    lua_pop(m_L, 1);
    return is;
}

Status LuaState::call(int nargs, int nresults)
{
    const int base = lua_gettop(m_L) - nargs;
    lua_rawgeti(m_L, LUA_REGISTRYINDEX, m_traceback); // made once: pushing a C function allocates
    lua_insert(m_L, base);
    const int rc = lua_pcall(m_L, nargs, nresults, base);
    lua_remove(m_L, base);
    if (rc != 0) {
        std::string message = lua_tostring(m_L, -1) ? lua_tostring(m_L, -1) : "error";
        lua_pop(m_L, 1);
        return Error { message };
    }
    return {};
}

Status checkScriptSyntax(const ScriptSpec& script)
{
    LuaState state;
    const std::string chunkName = "@" + (script.name.empty() ? std::string("script") : script.name);
    if (luaL_loadbuffer(state.get(), script.text.data(), script.text.size(), chunkName.c_str()) != 0)
        return Error { lua_tostring(state.get(), -1) };
    return {};
}

Result<ScriptSpec> readScriptFile(const std::string& path, std::vector<std::string> args)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error { "cannot read the script '" + path + "'" };
    ScriptSpec spec;
    spec.name = path;
    spec.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) return Error { "cannot read the script '" + path + "'" };
    // An empty script is a script (wrk runs it): one newline keeps it apart from "no script".
    if (spec.text.empty()) spec.text = "\n";
    spec.args = std::move(args);
    return spec;
}

Status copyLuaValue(lua_State* from, int index, lua_State* to, int depth)
{
    if (depth > 32) return Error { "a table nested deeper than 32" };
    if (index < 0) index = lua_gettop(from) + index + 1;
    switch (lua_type(from, index)) {
    case LUA_TNIL:
    case LUA_TNONE:
        lua_pushnil(to);
        return {};
    case LUA_TBOOLEAN:
        lua_pushboolean(to, lua_toboolean(from, index));
        return {};
    case LUA_TNUMBER:
        lua_pushnumber(to, lua_tonumber(from, index));
        return {};
    case LUA_TSTRING: {
        size_t length = 0;
        const char* s = lua_tolstring(from, index, &length);
        lua_pushlstring(to, s, length);
        return {};
    }
    case LUA_TTABLE: {
        lua_newtable(to);
        lua_pushnil(from);
        while (lua_next(from, index) != 0) {
            // key at -2, value at -1
            if (Status st = copyLuaValue(from, -2, to, depth + 1); !st) {
                lua_pop(from, 2);
                lua_pop(to, 1);
                return st;
            }
            if (Status st = copyLuaValue(from, -1, to, depth + 1); !st) {
                lua_pop(from, 2);
                lua_pop(to, 2);
                return st;
            }
            if (lua_isnil(to, -2)) {
                lua_pop(to, 2);
            } else {
                lua_rawset(to, -3);
            }
            lua_pop(from, 1);
        }
        return {};
    }
    default:
        return Error { std::string("cannot carry a ") + lua_typename(from, lua_type(from, index))
            + " between Lua states (nil, booleans, numbers, strings and tables of those)" };
    }
}

Result<std::string> luaValueSource(lua_State* L, int index, int depth)
{
    if (depth > 32) return Error { "a table nested deeper than 32" };
    if (index < 0) index = lua_gettop(L) + index + 1;
    switch (lua_type(L, index)) {
    case LUA_TNIL:
    case LUA_TNONE:
        return std::string("nil");
    case LUA_TBOOLEAN:
        return std::string(lua_toboolean(L, index) ? "true" : "false");
    case LUA_TNUMBER: {
        const double v = lua_tonumber(L, index);
        if (std::isnan(v)) return std::string("(0/0)");
        if (std::isinf(v)) return std::string(v > 0 ? "(1/0)" : "(-1/0)");
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", v); // round-trips every double
        return "(" + std::string(text) + ")";
    }
    case LUA_TSTRING: {
        size_t length = 0;
        const char* s = lua_tolstring(L, index, &length);
        std::string out = "\"";
        out.reserve(length + 2);
        for (size_t i = 0; i < length; ++i) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                out += static_cast<char>(c);
            } else { // three digits always: a digit that follows cannot join the escape
                char escape[5];
                std::snprintf(escape, sizeof escape, "\\%03u", c);
                out += escape;
            }
        }
        out += '"';
        return out;
    }
    case LUA_TTABLE: {
        std::string out = "{";
        lua_pushnil(L);
        while (lua_next(L, index) != 0) {
            auto key = luaValueSource(L, -2, depth + 1);
            auto value = key ? luaValueSource(L, -1, depth + 1) : key;
            if (!value) {
                lua_pop(L, 2);
                return value;
            }
            out += "[" + *key + "]=" + *value + ",";
            lua_pop(L, 1);
        }
        return out + "}";
    }
    default:
        return Error { std::string("cannot carry a ") + lua_typename(L, lua_type(L, index))
            + " between Lua states (nil, booleans, numbers, strings and tables of those)" };
    }
}

} // namespace wb
