#pragma once
// One Lua state with wrk's API installed (the global `wrk` table, wrk.format,
// wrk.lookup, wrk.connect) and a script loaded into it. wrk makes one for setup
// and done and one per thread; so does ScriptRun.

#include "common/result.h"
#include "http/request.h"
#include "run/runconfig.h"

#include <functional>
#include <mutex>
#include <string>
#include <string_view>

struct lua_State;
struct lua_Debug;

namespace wb {

/// What a script printed, kept instead of written to stdout (the GUI shows it with the run and
/// the session stores it). States on several threads may write at once; past `limitBytes` the
/// rest is dropped and the text says so once.
class ScriptOutput
{
public:
    static constexpr size_t DEFAULT_LIMIT_BYTES = 1024 * 1024;
    void append(std::string_view text);
    std::string text() const;

private:
    mutable std::mutex m_mutex;
    std::string m_text;
    bool m_cut = false;
};

class LuaState
{
public:
    LuaState();
    ~LuaState();
    LuaState(const LuaState&) = delete;
    LuaState& operator=(const LuaState&) = delete;

    /// Where print() and io.write() go: stdout as under wrk, or stderr in a loader, whose stdout
    /// is its stream to the coordinator.
    /// Capture: into `capture` (print(), io.write() and io.stdout:write()).
    enum class Output { Stdout, Stderr, Capture };
    /// Sets wrk.scheme/host/port/path from the request's URL and puts its headers (-H) into
    /// wrk.headers, then runs the script's chunk. A syntax or run-time error of the chunk is one
    /// line, "name:line: message".
    Status load(const ScriptSpec& script, const RequestSpec& request, Output output = Output::Stdout,
        ScriptOutput* capture = nullptr);
    /// Whether the script defined a global function `name`.
    bool hasFunction(const char* name) const;
    /// Calls the function on the stack's top - nargs with a traceback handler; the error is
    /// Lua's message and traceback. Leaves nresults values on success.
    Status call(int nargs, int nresults);
    lua_State* get() const { return m_L; }
    /// Stops whatever the script runs with the error "stopped: <reason>" once `stopped()` gives a
    /// reason, asked every few thousand Lua instructions: for a caller that must return (a probe)
    /// whatever the script does. The JIT is off in such a state, so a compiled loop is asked too.
    /// Before load().
    void interruptWhen(std::function<std::string()> stopped);

private:
    static void interruptHook(lua_State* L, lua_Debug* ar);

    lua_State* m_L = nullptr;
    int m_traceback = 0; ///< call()'s message handler, in the registry
    std::function<std::string()> m_interrupt;
};

/// Whether `script` parses, without running any of it (the GUI checks a file when it is chosen):
/// a syntax error is one line, "name:line: message".
Status checkScriptSyntax(const ScriptSpec& script);

/// Reads the script at `path` for a run (-s, a target's Script field): its bytes, its name, `args`.
/// A missing or unreadable file is one line naming it.
Result<ScriptSpec> readScriptFile(const std::string& path, std::vector<std::string> args);

/// Copies the Lua value at `index` of `from` onto `to`'s stack: nil, booleans, numbers,
/// strings and tables of those (thread:get/set). Anything else is an error naming its type;
/// nothing is pushed then.
Status copyLuaValue(lua_State* from, int index, lua_State* to, int depth = 0);

/// The Lua value at `index` as Lua source text that makes it again (a constructor for tables,
/// "\ddd" escapes in strings), for the same values as copyLuaValue: how what setup() gave a
/// thread travels to a loader (ScriptSpec::threadSetup). Anything else is an error naming its type.
Result<std::string> luaValueSource(lua_State* L, int index, int depth = 0);

} // namespace wb
