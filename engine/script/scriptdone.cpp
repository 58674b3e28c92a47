// done(summary, latency, requests): wrk's summary table and its statistics objects.
#include "script/scriptrun.h"

#include <algorithm>
#include <cmath>
#include <lua.hpp>
#include <map>
#include <memory>

namespace wb {

namespace {

constexpr const char* STATS_META = "wrk.stats";

/// wrk's `stats`: distinct values with their counts, lowest first, and the moments.
struct ScriptStats
{
    std::vector<std::pair<double, uint64_t>> values;
    uint64_t total = 0;
    double min = 0, max = 0, mean = 0, stdev = 0;
    /// Latency: the run's histogram (merged over threads and loaders by the fold), so that
    /// percentile(p) is the figure the report and the JSON give, not an estimate of its own.
    std::shared_ptr<const LatencyHistogram> histogram;

    double percentile(double p) const
    {
        if (histogram) return static_cast<double>(histogram->valueAtPercentileUs(p));
        if (values.empty()) return 0;
        p = std::clamp(p, 0.0, 100.0);
        // wrk's stats_percentile: rank round(p/100 * n + 0.5), the first value whose running count reaches it.
        const auto rank = static_cast<uint64_t>(std::round(p / 100.0 * static_cast<double>(total) + 0.5));
        uint64_t seen = 0;
        for (const auto& [value, count] : values) {
            seen += count;
            if (seen >= rank) return value;
        }
        return values.back().first;
    }
};

ScriptStats* checkStats(lua_State* L)
{
    return static_cast<ScriptStats*>(luaL_checkudata(L, 1, STATS_META));
}

int statsPercentile(lua_State* L)
{
    lua_pushnumber(L, checkStats(L)->percentile(luaL_checknumber(L, 2)));
    return 1;
}

int statsIndex(lua_State* L)
{
    const ScriptStats* s = checkStats(L);
    const std::string key = luaL_checkstring(L, 2);
    if (key == "min")
        lua_pushnumber(L, s->min);
    else if (key == "max")
        lua_pushnumber(L, s->max);
    else if (key == "mean")
        lua_pushnumber(L, s->mean);
    else if (key == "stdev")
        lua_pushnumber(L, s->stdev);
    else if (key == "percentile")
        lua_pushcfunction(L, statsPercentile);
    else
        lua_pushvalue(L, 2); // wrk pushes nothing: the key itself comes back
    return 1;
}

// stats(i): the i-th distinct value (1-based) and how often it was seen, as wrk; past the end
// (or before it), 0 and the number of distinct values, as wrk's stats_value_at.
int statsCall(lua_State* L)
{
    const ScriptStats* s = checkStats(L);
    const auto i = static_cast<int64_t>(luaL_checknumber(L, 2));
    if (i < 1 || static_cast<size_t>(i) > s->values.size()) {
        lua_pushnumber(L, 0);
        lua_pushnumber(L, static_cast<double>(s->values.size()));
        return 2;
    }
    lua_pushnumber(L, s->values[static_cast<size_t>(i - 1)].first);
    lua_pushnumber(L, static_cast<double>(s->values[static_cast<size_t>(i - 1)].second));
    return 2;
}

int statsLen(lua_State* L)
{
    lua_pushinteger(L, static_cast<lua_Integer>(checkStats(L)->values.size()));
    return 1;
}

int statsGc(lua_State* L)
{
    checkStats(L)->~ScriptStats();
    return 0;
}

void pushStats(lua_State* L, ScriptStats stats)
{
    new (lua_newuserdata(L, sizeof(ScriptStats))) ScriptStats(std::move(stats));
    if (luaL_newmetatable(L, STATS_META)) {
        lua_pushcfunction(L, statsIndex);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, statsCall);
        lua_setfield(L, -2, "__call");
        lua_pushcfunction(L, statsLen);
        lua_setfield(L, -2, "__len");
        lua_pushcfunction(L, statsGc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
}

ScriptStats latencyStats(const LatencyHistogram& h)
{
    ScriptStats s;
    h.forEachBucket([&](const LatencyHistogram::Bucket& b) {
        s.values.emplace_back(static_cast<double>(b.lowUs), b.count);
        s.total += b.count;
    });
    s.min = static_cast<double>(h.minUs());
    s.max = static_cast<double>(h.maxUs());
    s.mean = h.meanUs();
    s.stdev = h.stdevUs();
    s.histogram = std::make_shared<const LatencyHistogram>(h);
    return s;
}

// wrk's requests: a thread's 100 ms windows in which it completed something, each as whole
// requests per second (truncated, as wrk's uint64_t). (wrk stretches a window without requests
// into the next one; here such a window is left out.)
ScriptStats rateStats(const RateSamples& r)
{
    ScriptStats s;
    std::map<double, uint64_t> counts;
    double sum = 0;
    for (double v : r.perThreadRequestsPerS) {
        const double whole = std::trunc(v);
        if (whole <= 0) continue;
        ++counts[whole];
        sum += whole;
        ++s.total;
    }
    for (const auto& [v, n] : counts)
        s.values.emplace_back(v, n);
    if (s.values.empty()) return s;
    s.min = s.values.front().first;
    s.max = s.values.back().first;
    s.mean = sum / static_cast<double>(s.total);
    if (s.total > 1) { // wrk's stats_stdev: the sample deviation
        double squares = 0;
        for (const auto& [v, n] : counts)
            squares += static_cast<double>(n) * (v - s.mean) * (v - s.mean);
        s.stdev = std::sqrt(squares / static_cast<double>(s.total - 1));
    }
    return s;
}

// wrk's errors.status: responses whose status is above 399 (a 1xx or 3xx is no error there).
// Codes outside 100..599 are kept under 0 and counted too: most are 6xx to 9xx.
uint64_t statusAbove399(const StatusCounts& status)
{
    uint64_t sum = status.byCode[0];
    for (size_t code = 400; code < status.byCode.size(); ++code)
        sum += status.byCode[code];
    return sum;
}

void setNumber(lua_State* L, const char* name, double value)
{
    lua_pushnumber(L, value);
    lua_setfield(L, -2, name);
}

} // namespace

Status ScriptRun::done(const RunResult& r)
{
    if (!m_setup.hasFunction("done")) return {};
    lua_State* L = m_setup.get();
    lua_getglobal(L, "done");
    lua_newtable(L);
    setNumber(L, "duration", std::round(r.durationS * 1e6)); // µs, as wrk
    setNumber(L, "requests", static_cast<double>(r.requests));
    setNumber(L, "bytes", static_cast<double>(r.bytes));
    lua_newtable(L);
    // wrk's kinds: read also covers what it cannot parse; TLS failures are connect errors there.
    setNumber(L, "connect", static_cast<double>(r.errors.connect + r.errors.tls));
    setNumber(L, "read", static_cast<double>(r.errors.read + r.errors.parse + r.errors.stream));
    setNumber(L, "write", static_cast<double>(r.errors.write));
    setNumber(L, "status", static_cast<double>(statusAbove399(r.status)));
    setNumber(L, "timeout", static_cast<double>(r.errors.timeout));
    lua_setfield(L, -2, "errors");
    pushStats(L, latencyStats(r.latency));
    pushStats(L, rateStats(r.threadRates));
    if (Status st = m_setup.call(3, 0); !st) return Error { "done(): " + st.error() };
    return {};
}

} // namespace wb
