// libFuzzer target for what comes back from Lua into C++ (engine/script):
//   - the input as what a request() returned: parseRawRequests either fails with one line
//     starting "request N: " (or "an empty request") or gives requests whose bodies add up to
//     no more than the input, each method and target without CR or LF; what scanWireRequests
//     lets go out as it is parses into as many requests, each at its place;
//   - the input as the recipe of a Lua value (nil, booleans, numbers, strings, nested tables)
//     built in one state and carried to another by copyLuaValue (thread:set/get): it
//     arrives equal, or fails naming why (nesting deeper than 32); written as Lua source by
//     luaValueSource (a distributed run's thread set-up) and read back, it is equal too.
// A violation traps.

#include "script/luastate.h"
#include "script/rawrequest.h"

#include <cstddef>
#include <cstdint>
#include <lua.hpp>
#include <string>
#include <string_view>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

// Builds a value from the bytes: each byte's low 3 bits choose what comes next.
void build(lua_State* L, const uint8_t*& p, const uint8_t* end, int depth)
{
    if (p == end) {
        lua_pushnil(L);
        return;
    }
    const uint8_t op = *p++;
    switch (op & 7) {
    case 0:
        lua_pushnil(L);
        break;
    case 1:
        lua_pushboolean(L, op & 8);
        break;
    case 2:
        lua_pushnumber(L, static_cast<double>(op >> 3) - 7.5);
        break;
    case 3: {
        const size_t n = std::min<size_t>(op >> 3, static_cast<size_t>(end - p));
        lua_pushlstring(L, reinterpret_cast<const char*>(p), n);
        p += n;
        break;
    }
    default: {
        lua_newtable(L);
        const int entries = op >> 4;
        for (int i = 0; i < entries && p != end && depth < 40; ++i) {
            build(L, p, end, depth + 1);
            if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) != lua_tonumber(L, -1))) {
                lua_pop(L, 1);
                continue;
            }
            build(L, p, end, depth + 1);
            lua_rawset(L, -3);
        }
    }
    }
}

bool equal(lua_State* a, int ia, lua_State* b, int ib)
{
    if (lua_type(a, ia) != lua_type(b, ib)) return false;
    switch (lua_type(a, ia)) {
    case LUA_TNIL:
        return true;
    case LUA_TBOOLEAN:
        return lua_toboolean(a, ia) == lua_toboolean(b, ib);
    case LUA_TNUMBER:
        return lua_tonumber(a, ia) == lua_tonumber(b, ib);
    case LUA_TSTRING: {
        size_t na = 0, nb = 0;
        const char* sa = lua_tolstring(a, ia, &na);
        const char* sb = lua_tolstring(b, ib, &nb);
        return std::string_view(sa, na) == std::string_view(sb, nb);
    }
    case LUA_TTABLE: {
        // Same size and every key of a found in b with an equal value (keys are plain values).
        int count = 0;
        lua_pushnil(a);
        while (lua_next(a, ia) != 0) {
            ++count;
            // A table used as a key arrives as a new table (wrk copies keys as it copies values),
            // so it cannot be looked up by identity: only counted.
            if (lua_type(a, -2) != LUA_TTABLE && wb::copyLuaValue(a, -2, b)) {
                lua_rawget(b, ib);
                const bool same = equal(a, lua_gettop(a), b, lua_gettop(b));
                lua_pop(b, 1);
                if (!same) {
                    lua_pop(a, 2);
                    return false;
                }
            }
            lua_pop(a, 1);
        }
        lua_pushnil(b);
        while (lua_next(b, ib) != 0) {
            --count;
            lua_pop(b, 1);
        }
        return count == 0;
    }
    default:
        return false;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    wb::Url base;
    base.scheme = "http";
    base.host = "127.0.0.1";
    base.port = 8080;
    base.target = "/";
    auto parsed = wb::parseRawRequests(text, base);
    if (!parsed) {
        check(parsed.error().starts_with("request ") || parsed.error() == "an empty request");
        check(parsed.error().find('\n') == std::string::npos);
    } else {
        size_t bodies = 0;
        for (const wb::RequestSpec& r : *parsed) {
            bodies += r.body.size();
            check(r.method.find_first_of("\r\n") == std::string::npos);
            check(r.url.target.find_first_of("\r\n") == std::string::npos);
        }
        check(bodies <= size);
    }

    // What goes out as it is (the HTTP/1.1 fast path) is what parses: the same requests, each at
    // its place, covering the whole text.
    static std::vector<wb::RawRequestView> views;
    if (wb::scanWireRequests(text, views)) {
        check(parsed.ok() && parsed->size() == views.size());
        size_t at = 0;
        for (size_t i = 0; i < views.size(); ++i) {
            check(views[i].offset == at && views[i].length > 0);
            at += views[i].length;
            check(views[i].head == ((*parsed)[i].method == "HEAD"));
            check(text.substr(views[i].offset, views[i].length).ends_with((*parsed)[i].body));
        }
        check(at == size);
    }

    static wb::LuaState from;
    static wb::LuaState to;
    lua_State* A = from.get();
    lua_State* B = to.get();
    const uint8_t* p = data;
    build(A, p, data + size, 0);
    const wb::Status copied = wb::copyLuaValue(A, -1, B);
    if (copied) {
        check(equal(A, lua_gettop(A), B, lua_gettop(B)));
        lua_pop(B, 1);
    } else {
        check(copied.error().find("deeper than 32") != std::string::npos);
    }
    // The same value as Lua source (a distributed run's thread set-up): it reads back equal.
    const auto source = wb::luaValueSource(A, -1);
    check(source.ok() == copied.ok());
    if (source) {
        const std::string chunk = "return " + *source;
        check(luaL_loadbuffer(B, chunk.data(), chunk.size(), "=value") == 0);
        check(lua_pcall(B, 0, 1, 0) == 0);
        check(equal(A, lua_gettop(A), B, lua_gettop(B)));
        lua_pop(B, 1);
    }
    lua_pop(A, 1);
    check(lua_gettop(A) == 0 && lua_gettop(B) == 0);
    return 0;
}
