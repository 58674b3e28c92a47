#pragma once
// wrk.format(method, path, headers, body) in C: the same string wrk's Lua version builds (the
// request line, the headers in pairs() order after Host and Content-Length are put into the headers
// table, an empty line, the body), without the Lua table and the string.format calls per request
// that made it the largest cost of a dynamic request() (bench/instructions.sh SCRIPTS=1).

struct lua_State;

namespace wb {

/// The C function installed as wrk.format (a script may still replace it, as under wrk).
int luaWrkFormat(lua_State* L);

} // namespace wb
