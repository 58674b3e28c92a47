#include "script/wrkformat.h"

#include <lua.hpp>
#include <string>

namespace wb {

namespace {

// What string.format's %s writes for the value at `index`: strings and numbers as they are (a
// number as Lua writes it), anything else as tostring() makes it. The value is copied first:
// lua_tolstring() turns a number into a string in place, and the key of a traversal must stay.
void appendText(lua_State* L, int index, std::string& out)
{
    if (index < 0) index = lua_gettop(L) + index + 1; // what is pushed below moves relative indices
    const int type = lua_type(L, index);
    if (type == LUA_TSTRING || type == LUA_TNUMBER) {
        lua_pushvalue(L, index);
    } else {
        lua_getglobal(L, "tostring");
        lua_pushvalue(L, index);
        lua_call(L, 1, 1);
        if (!lua_isstring(L, -1)) luaL_error(L, "'tostring' must return a string to 'format'");
    }
    size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    out.append(text, length);
    lua_pop(L, 1);
}

constexpr const char* FIELDS[] = { "method", "path", "headers", "body" };

} // namespace

int luaWrkFormat(lua_State* L)
{
    lua_settop(L, 4);
    lua_getglobal(L, "wrk");
    const int wrk = 5;
    if (!lua_istable(L, wrk)) return luaL_error(L, "wrk.format: the global 'wrk' is not a table");
    // method = method or wrk.method, and so on.
    for (int i = 1; i <= 4; ++i)
        if (!lua_toboolean(L, i)) {
            lua_getfield(L, wrk, FIELDS[i - 1]);
            lua_replace(L, i);
        }
    if (!lua_istable(L, 3)) return luaL_error(L, "wrk.format: headers must be a table (got %s)", luaL_typename(L, 3));
    // if not headers["Host"] then headers["Host"] = wrk.headers["Host"] end: what wrk.init set
    // (the URL's host, and its port when the URL named one) or a -H Host; nil before wrk.init.
    lua_getfield(L, 3, "Host");
    const bool host = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (!host) {
        lua_getfield(L, wrk, "headers");
        if (!lua_istable(L, -1)) return luaL_error(L, "wrk.format: wrk.headers is not a table");
        // (Assigning nil adds the key as LuaJIT's own assignment does: pairs() keeps wrk's order.)
        lua_getfield(L, -1, "Host");
        lua_setfield(L, 3, "Host");
        lua_pop(L, 1);
    }
    // headers["Content-Length"] = body and string.len(body)
    if (lua_toboolean(L, 4)) {
        if (!lua_isstring(L, 4))
            return luaL_error(L, "bad argument #1 to 'len' (string expected, got %s)", luaL_typename(L, 4));
        lua_pushvalue(L, 4);
        size_t bodyLength = 0;
        lua_tolstring(L, -1, &bodyLength);
        lua_pop(L, 1);
        lua_pushnumber(L, static_cast<lua_Number>(bodyLength));
    } else {
        lua_pushvalue(L, 4); // nil, or false as `body and ...` gives
    }
    lua_setfield(L, 3, "Content-Length");

    std::string out;
    out.reserve(256);
    appendText(L, 1, out);
    out += ' ';
    appendText(L, 2, out);
    out += " HTTP/1.1\r\n";
    lua_pushnil(L);
    while (lua_next(L, 3) != 0) { // pairs() order: next()'s
        appendText(L, -2, out);
        out += ": ";
        appendText(L, -1, out);
        out += "\r\n";
        lua_pop(L, 1);
    }
    out += "\r\n";
    if (lua_toboolean(L, 4)) appendText(L, 4, out); // body or ""
    lua_pushlstring(L, out.data(), out.size());
    return 1;
}

} // namespace wb
