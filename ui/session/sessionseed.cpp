#include "session/sessionseed.h"

namespace wb::ui {

namespace {

Target demo(const char* name, const char* path, std::vector<std::string> tags, const char* notes,
    HttpVersion version = HttpVersion::Http1)
{
    Target t;
    t.httpVersion = version;
    t.name = name;
    t.url = std::string("http://builtin") + path;
    t.tags = std::move(tags);
    t.notes = notes;
    // The built-in server's own /metrics: the demo targets show the target's side out of the box.
    t.scrape.endpoints = { { "server", "http://builtin/metrics" } };
    return t;
}

LoadProfile preset(int64_t id, const char* name, unsigned threads, unsigned connections, uint64_t durationS)
{
    LoadProfile p;
    p.id = id;
    p.name = name;
    p.load = defaultLoad();
    p.load.threads = threads;
    p.load.connections = connections;
    p.load.durationUs = durationS * 1'000'000;
    return p;
}

} // namespace

std::vector<Target> demoTargets()
{
    return {
        // Named so that the session's order (by name) starts with the plain one.
        demo("Demo: fast", "/", { "demo", "builtin" }, "The built-in server answering at once."),
        demo("Demo: large answers (16 KB)", "/bytes/16384", { "demo", "builtin" },
            "Bigger answers: transfer/s matters."),
        demo(
            "Demo: not found (404)", "/status/404", { "demo", "builtin" }, "Every answer is a 404: non-2xx responses."),
        demo("Demo: slow (2 ms delay)", "/delay/2", { "demo", "builtin" }, "Every answer 2 ms late: a slower backend."),
        demo("Demo: limited to 2,000 req/s (503 beyond)", "/capacity/2000", { "demo", "builtin", "capacity" },
            "A front door of known capacity: the built-in server admits 2,000 requests/s on this path and answers "
            "503 beyond. Run > Find capacity… with the SLO non2xx<0.1% finds it."),
        demo("Demo: fast over HTTP/2 (h2c)", "/", { "demo", "builtin", "http2" },
            "The built-in server over HTTP/2 with prior knowledge: compare with \"Demo: fast\"; raise the "
            "profile's Streams for many requests per connection.",
            HttpVersion::Http2),
    };
}

Status seedDemoTargets(SessionStore& store)
{
    return store.transaction([&]() -> Status {
        for (const Target& t : demoTargets())
            if (auto id = store.targets().add(t); !id) return Error { id.error() };
        return {};
    });
}

RunConfig defaultLoad()
{
    RunConfig c;
    c.threads = 2;
    c.connections = 50;
    c.durationUs = 10'000'000;
    // Four points a second: smooth live charts, and a 30 s run still stores only 120 intervals.
    c.intervalUs = 250'000;
    return c;
}

std::vector<LoadProfile> presetProfiles()
{
    return {
        preset(-1, "Default  -t2 -c50 -d10s", 2, 50, 10),
        preset(-2, "wrk classic  -t12 -c400 -d30s", 12, 400, 30),
        preset(-3, "Soak  -t100 -c100 -d120s", 100, 100, 120),
        preset(-4, "Ladder  -t4 -c25 -d30s", 4, 25, 30),
        preset(-5, "Ladder  -t4 -c50 -d30s", 4, 50, 30),
        preset(-6, "Ladder  -t4 -c100 -d30s", 4, 100, 30),
    };
}

} // namespace wb::ui
