#pragma once
// Small helpers shared by the store, import and experiment tests: sample records built from real
// histograms, file contents for "unchanged" checks, raw SQL on a store.

#include "stats/snapshot.h"
#include "store/sessionrecorder.h"
#include "store/sessionstore.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <string>

namespace wb::storetest {

/// A configuration as the CLI would build it.
inline RunConfig sampleConfig(const std::string& url = "http://127.0.0.1:8080/api?x=1")
{
    RunConfig c;
    c.request.url = *parseUrl(url);
    c.request.method = "POST";
    c.request.headers = { { "Host", "api.example" }, { "X-Trace", "a, \"b\"" } };
    c.request.body = "{\"k\":1}";
    c.tls.verifyPeer = false;
    c.threads = 3;
    c.connections = 30;
    c.pipeline = 2;
    c.durationUs = 90'000'000;
    c.warmupUs = 5'000'000;
    c.intervalUs = 500'000;
    c.ratePerS = 1500;
    c.stages = { { 10'000'000, 500 }, { 20'000'000, 1500 } };
    return c;
}

/// An interval with latencies base..base+n-1 us and a few status codes, as the engine would report it.
inline IntervalSnapshot sampleSnapshot(uint32_t index, uint64_t baseUs, uint64_t n)
{
    IntervalSnapshot s;
    s.index = index;
    s.startS = index * 0.5;
    s.endS = (index + 1) * 0.5;
    for (uint64_t i = 0; i < n; ++i) {
        s.latency.record(baseUs + i);
        s.serviceLatency.record((baseUs + i) / 2);
        s.status.add(i % 10 == 0 ? 503 : 200);
    }
    s.requests = n;
    s.bytes = n * 120;
    s.errors.timeout = index;
    s.connections = 30;
    s.targetRatePerS = 1500;
    s.lateRequests = index * 2;
    s.maxLagUs = 1000 + index;
    return s;
}

inline RunFilter filterOf(const std::string& target, const std::vector<std::string>& tags = {},
    std::optional<RunStatus> status = std::nullopt)
{
    RunFilter f;
    f.targetName = target;
    f.tags = tags;
    f.status = status;
    return f;
}

inline RecordingOptions recording(
    int64_t targetId, const std::vector<std::string>& tags = {}, const std::string& notes = {})
{
    RecordingOptions o;
    o.targetId = targetId;
    o.tags = tags;
    o.notes = notes;
    return o;
}

inline SessionOpenOptions openOptions(bool create, bool readOnly)
{
    SessionOpenOptions o;
    o.create = create;
    o.readOnly = readOnly;
    return o;
}

/// The session file opened (read-only when asked), or null with the failure recorded in the test.
inline std::unique_ptr<SessionStore> openStore(const std::string& path, bool readOnly = false)
{
    SessionOpenOptions options;
    options.readOnly = readOnly;
    auto store = SessionStore::open(path, options);
    EXPECT_TRUE(store.ok()) << store.error();
    return store ? std::move(*store) : nullptr;
}

/// Runs sql on the store's connection; returns the first column of the first row as text.
inline std::string sqlText(SessionStore& store, const std::string& sql)
{
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(store.nativeHandle(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
        return "prepare failed: " + std::string(sqlite3_errmsg(store.nativeHandle()));
    std::string out;
    if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0))
        out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    return out;
}

/// A target row, created once.
inline int64_t addSampleTarget(SessionStore& store, const std::string& name = "NEG")
{
    Target t;
    t.name = name;
    t.url = "http://127.0.0.1:8080/api?x=1";
    auto id = store.targets().add(t);
    EXPECT_TRUE(id.ok()) << id.error();
    return id.ok() ? *id : 0;
}

} // namespace wb::storetest
