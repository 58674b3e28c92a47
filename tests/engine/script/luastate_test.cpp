// The Lua side of wrk's API without a run: wrk's table and wrk.format, errors as
// file:line, and values carried between states as thread:get/set carry them.
#include "script/luastate.h"

#include <gtest/gtest.h>
#include <lua.hpp>

using namespace wb;

namespace {

RequestSpec url()
{
    RequestSpec r;
    r.url.scheme = "http";
    r.url.host = "127.0.0.1";
    r.url.port = 8080;
    r.url.target = "/start";
    return r;
}

std::string evalString(LuaState& s, const std::string& expression)
{
    const std::string chunk = "return " + expression;
    EXPECT_EQ(luaL_loadstring(s.get(), chunk.c_str()), 0);
    EXPECT_TRUE(s.call(0, 1).ok());
    size_t n = 0;
    const char* text = lua_tolstring(s.get(), -1, &n);
    std::string out = text ? std::string(text, n) : std::string("(not a string)");
    lua_pop(s.get(), 1);
    return out;
}

} // namespace

TEST(LuaState, WrkTableHoldsTheUrlAndFormatBuildsWrksRequest)
{
    LuaState s;
    ASSERT_TRUE(s.load({ "t.lua", "wrk.method = 'POST'; wrk.body = 'abc'", {}, {} }, url()).ok());
    EXPECT_EQ(evalString(s, "wrk.host .. ' ' .. wrk.port .. ' ' .. wrk.path .. ' ' .. wrk.scheme"),
        "127.0.0.1 8080 /start http");
    // Before wrk.init, as under wrk, a request has no Host (wrk.headers has none yet).
    EXPECT_EQ(evalString(s, "tostring(wrk.headers.Host) .. ' ' .. type(wrk.request)"), "nil nil");
    // wrk.init(args) sets Host from the URL, with its port, and makes wrk.request().
    ASSERT_EQ(luaL_dostring(s.get(), "wrk.init({})"), 0);
    EXPECT_EQ(evalString(s, "wrk.headers.Host"), "127.0.0.1:8080");
    // Headers come in pairs() order, as wrk's: check each, not their order.
    const std::string formatted = evalString(s, "wrk.format()");
    EXPECT_EQ(evalString(s, "wrk.request()"), formatted);
    EXPECT_TRUE(formatted.starts_with("POST /start HTTP/1.1\r\n")) << formatted;
    EXPECT_NE(formatted.find("\r\nHost: 127.0.0.1:8080\r\n"), std::string::npos) << formatted;
    EXPECT_NE(formatted.find("\r\nContent-Length: 3\r\n"), std::string::npos) << formatted;
    EXPECT_TRUE(formatted.ends_with("\r\n\r\nabc")) << formatted;
    // nil arguments are wrk's own fields (the body too, as under wrk).
    EXPECT_TRUE(evalString(s, "wrk.format('GET', '/x', {})").starts_with("GET /x HTTP/1.1\r\n"));
    LuaState plain;
    ASSERT_TRUE(plain.load({ "t.lua", "", {}, {} }, url()).ok());
    ASSERT_EQ(luaL_dostring(plain.get(), "wrk.init({})"), 0);
    EXPECT_EQ(evalString(plain, "wrk.format('GET', '/x', {}, nil)"), "GET /x HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
}

// wrk.port is nil when the URL names no port, so Host has none; IPv6 hosts are bracketed; -H
// headers are in wrk.headers before the script runs (a -H Host wins); and, as wrk's, neither
// headers table has a metatable: names are looked up as written.
TEST(LuaState, HostAndHeadersAreWrks)
{
    auto parsed = [](const std::string& text) {
        RequestSpec r;
        r.url = *parseUrl(text);
        return r;
    };
    LuaState noPort;
    ASSERT_TRUE(noPort.load({ "t.lua", "wrk.init({})", {}, {} }, parsed("http://Example.com/a?b")).ok());
    EXPECT_EQ(
        evalString(noPort, "tostring(wrk.port) .. ' ' .. wrk.headers.Host .. ' ' .. wrk.path"), "nil example.com /a?b");
    LuaState defaultPortGiven;
    ASSERT_TRUE(defaultPortGiven.load({ "t.lua", "wrk.init({})", {}, {} }, parsed("http://h:80/")).ok());
    EXPECT_EQ(evalString(defaultPortGiven, "wrk.port .. ' ' .. wrk.headers.Host"), "80 h:80");
    LuaState v6;
    ASSERT_TRUE(v6.load({ "t.lua", "wrk.init({})", {}, {} }, parsed("http://[::1]:8080/")).ok());
    EXPECT_EQ(evalString(v6, "wrk.headers.Host"), "[::1]:8080");
    RequestSpec withHeaders = parsed("http://127.0.0.1:9/");
    withHeaders.headers = { { "X-One", "1" }, { "Host", "given" } };
    LuaState h;
    ASSERT_TRUE(h.load({ "t.lua", "seen = wrk.headers['X-One'] wrk.init({})", {}, {} }, withHeaders).ok());
    EXPECT_EQ(evalString(h, "seen .. ' ' .. wrk.headers.Host"), "1 given");
    EXPECT_EQ(evalString(h, "tostring(getmetatable(wrk.headers)) .. ' ' .. tostring(wrk.headers['x-one'])"), "nil nil");
}

TEST(LuaState, LuaJitLibrariesAreThereAsUnderWrk)
{
    LuaState s;
    ASSERT_TRUE(s.load({ "t.lua", "", {}, {} }, url()).ok());
    EXPECT_EQ(evalString(s, "tostring(bit.band(12, 10)) .. tostring(unpack({'a'})) .. type(loadstring) .. type(jit)"),
        "8afunctiontable");
}

TEST(LuaState, SyntaxAndRuntimeErrorsSayFileAndLine)
{
    LuaState a;
    EXPECT_EQ(a.load({ "bad.lua", "x = 1\nlocal y = = 2\n", {}, {} }, url()).error(),
        "bad.lua:2: unexpected symbol near '='");
    LuaState b;
    EXPECT_EQ(b.load({ "boom.lua", "\nerror('no')\n", {}, {} }, url()).error(), "boom.lua:2: no");
}

TEST(LuaState, CallGivesTheTraceback)
{
    LuaState s;
    ASSERT_TRUE(s.load({ "f.lua", "function f() error('inner') end", {}, {} }, url()).ok());
    lua_getglobal(s.get(), "f");
    const Status st = s.call(0, 0);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("f.lua:1: inner"), std::string::npos) << st.error();
    EXPECT_NE(st.error().find("stack traceback:"), std::string::npos) << st.error();
}

TEST(LuaState, LookupFindsLoopbackAndConnectAnswers)
{
    LuaState s;
    ASSERT_TRUE(s.load({ "t.lua", "", {}, {} }, url()).ok());
    EXPECT_EQ(evalString(s, "wrk.lookup('127.0.0.1', '9')[1]"), "127.0.0.1:9");
    // Port 9 (discard) is closed on loopback here: connect says false, never throws.
    EXPECT_EQ(evalString(s, "tostring(wrk.connect('127.0.0.1:1'))"), "false");
}

TEST(LuaState, ValuesCarriedBetweenStatesArriveEqual)
{
    LuaState a, b;
    ASSERT_EQ(luaL_dostring(a.get(), "v = { 1, 'two', true, nested = { x = 1.5, s = 'a\\0b' } }"), 0);
    lua_getglobal(a.get(), "v");
    ASSERT_TRUE(copyLuaValue(a.get(), -1, b.get()).ok());
    lua_setglobal(b.get(), "v");
    lua_pop(a.get(), 1);
    EXPECT_EQ(evalString(b, "v[2] .. tostring(v[3]) .. v[1] .. v.nested.x .. #v.nested.s"), "twotrue11.53");
}

TEST(LuaState, FunctionsAndDeepTablesAreRefusedNamingWhy)
{
    LuaState a, b;
    lua_pushcfunction(a.get(), [](lua_State*) { return 0; });
    EXPECT_EQ(copyLuaValue(a.get(), -1, b.get()).error(),
        "cannot carry a function between Lua states (nil, booleans, numbers, strings and tables of those)");
    lua_pop(a.get(), 1);
    ASSERT_EQ(luaL_dostring(a.get(), "d = {} local t = d for i = 1, 40 do t.x = {} t = t.x end"), 0);
    lua_getglobal(a.get(), "d");
    EXPECT_EQ(copyLuaValue(a.get(), -1, b.get()).error(), "a table nested deeper than 32");
    EXPECT_EQ(lua_gettop(b.get()), 0);
}

// What setup() gave a thread travels to a loader as Lua source (ScriptSpec::threadSetup): read
// back in another state it is the same value, bytes, awkward numbers and nesting included.
TEST(LuaState, ValueSourceMakesTheSameValueInAnotherState)
{
    LuaState a, b;
    ASSERT_EQ(luaL_dostring(a.get(),
                  "v = { 1, 'two\\r\\n\"\\\\', true, 0.1, -1/0, 2^53 + 2, 1e-300,"
                  "      nested = { x = 1.5, s = 'a\\0b\\2553' }, [false] = 'no', [2.5] = {} }"),
        0);
    lua_getglobal(a.get(), "v");
    auto source = luaValueSource(a.get(), -1);
    lua_pop(a.get(), 1);
    ASSERT_TRUE(source.ok()) << source.error();
    const std::string chunk = "v = " + *source;
    ASSERT_EQ(luaL_dostring(b.get(), chunk.c_str()), 0) << *source;
    EXPECT_EQ(evalString(b, "v[2]"), "two\r\n\"\\");
    EXPECT_EQ(
        evalString(b, "tostring(v[3]) .. ' ' .. tostring(v[4] == 0.1) .. ' ' .. tostring(v[5])"), "true true -inf");
    EXPECT_EQ(evalString(b, "string.format('%.0f %g', v[6], v[7])"), "9007199254740994 1e-300");
    EXPECT_EQ(evalString(b, "v.nested.s"),
        std::string("a\0b\xff"
                    "3",
            5));
    EXPECT_EQ(evalString(b, "v[false] .. type(v[2.5]) .. v.nested.x"), "notable1.5");
    lua_pushnil(a.get());
    EXPECT_EQ(*luaValueSource(a.get(), -1), "nil");
    lua_pop(a.get(), 1);
    ASSERT_EQ(luaL_dostring(a.get(), "f = { print }"), 0);
    lua_getglobal(a.get(), "f");
    EXPECT_EQ(luaValueSource(a.get(), -1).error(),
        "cannot carry a function between Lua states (nil, booleans, numbers, strings and tables of those)");
    lua_pop(a.get(), 1);
    EXPECT_EQ(lua_gettop(a.get()), 0);
}

// wrk.format is written in C for speed: for every shape of call it makes the string wrk's own Lua
// version makes (run here beside it on equal tables), and changes the headers table as it does.
TEST(LuaState, FormatInCMakesWhatWrksLuaFormatMakes)
{
    LuaState s;
    ASSERT_TRUE(s.load({ "t.lua", "", {}, {} }, url()).ok());
    ASSERT_EQ(luaL_dostring(s.get(), R"lua(
function wrk_lua_format(method, path, headers, body)
  method  = method  or wrk.method
  path    = path    or wrk.path
  headers = headers or wrk.headers
  body    = body    or wrk.body
  local s = {}
  if not headers["Host"] then headers["Host"] = wrk.headers["Host"] end
  headers["Content-Length"] = body and string.len(body)
  s[1] = string.format("%s %s HTTP/1.1", method, path)
  for name, value in pairs(headers) do
    s[#s + 1] = string.format("%s: %s", name, value)
  end
  s[#s + 1] = ""
  s[#s + 1] = body or ""
  return table.concat(s, "\r\n")
end
-- pairs() order is no part of the request: two tables built alike may list the same keys in
-- another order under LuaJIT (once a nil was stored under a missing key, as `headers["Host"] =
-- wrk.headers["Host"]` does before wrk.init). The header lines are compared sorted.
function canonical(text)
  local head, body = text:match("^(.-)\r\n\r\n(.*)$")
  local lines = {}
  for line in (head .. "\r\n"):gmatch("(.-)\r\n") do lines[#lines + 1] = line end
  local first = table.remove(lines, 1)
  table.sort(lines)
  return first .. "\n" .. table.concat(lines, "\n") .. "\n\n" .. body
end
function entries(t)
  local out = {}
  if t then for k, v in pairs(t) do out[#out + 1] = tostring(k) .. "=" .. tostring(v) end end
  table.sort(out)
  return table.concat(out, ";")
end
function both(make)
  local a1, a2, a3, a4 = make()
  local b1, b2, b3, b4 = make()
  local ours, theirs = canonical(wrk.format(a1, a2, a3, a4)), canonical(wrk_lua_format(b1, b2, b3, b4))
  return ours == theirs and entries(a3) == entries(b3), ours, theirs
end
)lua"),
        0);
    const char* calls[] = {
        "function() return end",
        "function() wrk.init({}) return end", // Host from wrk.headers from here on
        "function() return end",
        "function() return 'POST', '/x?y=1', { ['X-A'] = '1', Y = 2, Z = true }, 'a body' end",
        "function() return nil, '/p', { Host = 'other' }, 12345 end",
        "function() return 'GET', 7, {}, '' end",
        "function() return 'PUT', nil, { ['Content-Length'] = '99' }, nil end",
        "function() wrk.headers = { ['X-Static'] = 'v' } wrk.method = 'DELETE' wrk.body = 'b' return end",
    };
    for (const char* call : calls) {
        SCOPED_TRACE(call);
        const std::string chunk = std::string("return both(") + call + ")";
        ASSERT_EQ(luaL_loadstring(s.get(), chunk.c_str()), 0);
        ASSERT_TRUE(s.call(0, 3).ok());
        const bool same = lua_toboolean(s.get(), -3);
        const std::string ours = lua_tostring(s.get(), -2);
        const std::string theirs = lua_tostring(s.get(), -1);
        lua_pop(s.get(), 3);
        EXPECT_TRUE(same) << ours << "\n---\n" << theirs;
        EXPECT_EQ(ours, theirs);
    }
    // What cannot be a body is refused as string.len refuses it.
    EXPECT_NE(evalString(s, "select(2, pcall(wrk.format, 'GET', '/', {}, {}))").find("bad argument #1 to 'len'"),
        std::string::npos);
    EXPECT_EQ(lua_gettop(s.get()), 0);
}
