#pragma once
// One Lua state with wrk's API installed (the global `wrk` table, wrk.format,
// wrk.lookup, wrk.connect) and a script loaded into it. wrk makes one for setup
// and done and one per thread; so does ScriptRun.

#include "common/result.h"
#include "http/url.h"
#include "run/runconfig.h"

#include <string>
#include <string_view>

struct lua_State;

namespace wb {

class LuaState
{
public:
    LuaState();
    ~LuaState();
    LuaState(const LuaState&) = delete;
    LuaState& operator=(const LuaState&) = delete;

    /// Sets wrk.scheme/host/port/path from `url`, then runs the script's chunk. A syntax or
    /// run-time error of the chunk is one line, "name:line: message".
    Status load(const ScriptSpec& script, const Url& url);
    /// Whether the script defined a global function `name`.
    bool hasFunction(const char* name) const;
    /// Calls the function on the stack's top - nargs with a traceback handler; the error is
    /// Lua's message and traceback. Leaves nresults values on success.
    Status call(int nargs, int nresults);
    lua_State* get() const { return m_L; }

private:
    lua_State* m_L = nullptr;
};

/// Copies the Lua value at `index` of `from` onto `to`'s stack: nil, booleans, numbers,
/// strings and tables of those (thread:get/set). Anything else is an error naming its type;
/// nothing is pushed then.
Status copyLuaValue(lua_State* from, int index, lua_State* to, int depth = 0);

} // namespace wb
