// --backend-from and --upstream-time against real peers: nginx balancing over built-in
// servers that answer with their names, with upstream weights. What must hold is nginx's
// own account: per upstream, its access log counts exactly what the run counted for that
// backend, and the upstream times it logged are the ones the run recorded, bucket for bucket.
// The open model drains after the end, so every request sent is a request counted.

#include "requirenginx.h"
#include "run/runcontroller.h"
#include "serve/targetserver.h"
#include "stats/backendbalance.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

using namespace wb;

namespace {

struct Backends
{
    std::vector<std::unique_ptr<TargetServer>> servers;
    std::map<uint16_t, std::string> nameByPort;

    explicit Backends(unsigned count, uint64_t delayUs = 0)
    {
        for (unsigned i = 0; i < count; ++i) {
            TargetServerOptions o;
            o.text = "b" + std::to_string(i) + "\n";
            o.delayUs = delayUs;
            servers.push_back(std::make_unique<TargetServer>(o));
            const Status st = servers.back()->start();
            EXPECT_TRUE(st.ok()) << st.error();
            nameByPort[servers.back()->port()] = "b" + std::to_string(i);
        }
    }
};

struct LogLine
{
    std::string backend; ///< the last upstream nginx tried (its answer is the one sent)
    double upstreamS = 0;
    int status = 0;
};

// nginx writes its log line after the answer, so the last lines can trail the run: read
// until the line count reaches what the run counted or stops growing.
std::vector<LogLine> balancerLog(const test::Nginx& nginx, const Backends& backends, size_t expected)
{
    std::string text;
    for (int tries = 0; tries < 100; ++tries) {
        text = nginx.balancerLog();
        const auto lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
        if (lines >= expected) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::vector<LogLine> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        // "127.0.0.1:P1, 127.0.0.1:P2 0.001, 0.002 200": addresses and times of every try.
        std::vector<std::string> words;
        std::istringstream w(line);
        for (std::string word; w >> word;)
            words.push_back(word);
        const size_t tries = (words.size() - 1) / 2;
        std::string addr = words[tries - 1];
        if (addr.back() == ',') addr.pop_back();
        LogLine l;
        l.backend = backends.nameByPort.at(static_cast<uint16_t>(std::stoi(addr.substr(addr.rfind(':') + 1))));
        for (size_t i = tries; i < 2 * tries; ++i)
            l.upstreamS += std::stod(words[i]);
        l.status = std::stoi(words.back());
        out.push_back(l);
    }
    return out;
}

const BackendStats* find(const BackendBreakdown& b, const std::string& name)
{
    for (size_t i = 0; i < b.names.size(); ++i)
        if (b.names[i] == name) return &b.stats[i];
    return nullptr;
}

RunConfig balancedRun(uint16_t port, double ratePerS, uint64_t durationUs)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(port) + "/");
    cfg.threads = 2;
    cfg.connections = 8;
    cfg.ratePerS = ratePerS;
    cfg.durationUs = durationUs;
    cfg.timeoutUs = 10'000'000;
    cfg.backendFrom = *parseBackendFrom("body");
    cfg.upstreamTime = *parseUpstreamTime("header:X-Upstream-Time:s");
    return cfg;
}

} // namespace

TEST(RunBackends, SharesAndUpstreamTimesMatchNginxsLog)
{
    WB_REQUIRE_NGINX();
    const Backends backends(4, 2000);
    const std::vector<unsigned> weights { 1, 2, 3, 4 };
    test::NginxOptions options;
    for (size_t i = 0; i < weights.size(); ++i)
        options.balancedUpstreams.emplace_back(backends.servers[i]->port(), weights[i]);
    test::Nginx nginx;
    ASSERT_TRUE(nginx.start(options)) << nginx.log();

    RunController controller(balancedRun(nginx.balancerPort(), 1000, 2'000'000));
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult r = controller.run();
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    ASSERT_GE(r.requests, 100u); // only there to make the equalities below mean something

    const std::vector<LogLine> log = balancerLog(nginx, backends, r.requests);
    ASSERT_EQ(log.size(), r.requests) << "the open model counted every request it sent";
    std::map<std::string, uint64_t> logged;
    LatencyHistogram loggedUpstream;
    for (const LogLine& l : log) {
        ++logged[l.backend];
        loggedUpstream.record(static_cast<uint64_t>(std::llround(l.upstreamS * 1e6)));
    }
    EXPECT_EQ(r.backends.unnamed, 0u);
    EXPECT_EQ(r.backends.namedRequests(), r.requests);
    for (const auto& [name, count] : logged) {
        const BackendStats* b = find(r.backends, name);
        ASSERT_NE(b, nullptr) << name;
        EXPECT_EQ(b->requests, count) << name;
        EXPECT_EQ(b->latency.count(), count) << name;
        EXPECT_EQ(b->non2xx, 0u) << name;
    }
    // nginx's weighted round robin is exact over each cycle of 10: a share is its weight's to
    // within one partial cycle.
    for (size_t i = 0; i < weights.size(); ++i) {
        const double share = static_cast<double>(find(r.backends, "b" + std::to_string(i))->requests) / r.requests;
        EXPECT_NEAR(share, weights[i] / 10.0, 10.0 / r.requests + 1e-9) << i;
    }
    const BackendBalance balance = backendBalanceOf(r.backends);
    EXPECT_EQ(balance.backends, 4u);
    EXPECT_LT(balance.pValue, 1e-6) << "1:2:3:4 is not an even split";

    // The upstream side is nginx's own figure for each request, the front door the rest.
    EXPECT_EQ(r.upstreamMissing, 0u);
    EXPECT_EQ(r.upstreamTime, loggedUpstream);
    EXPECT_EQ(r.frontDoor.count(), r.requests);
    // Every backend waits 2 ms before it answers: nginx saw at least that much of each request.
    EXPECT_GE(r.upstreamTime.minUs(), 2000u);
}

TEST(RunBackends, EvenWeightsAreEven)
{
    WB_REQUIRE_NGINX();
    const Backends backends(4);
    test::NginxOptions options;
    for (const auto& s : backends.servers)
        options.balancedUpstreams.emplace_back(s->port(), 1);
    test::Nginx nginx;
    ASSERT_TRUE(nginx.start(options)) << nginx.log();
    RunController controller(balancedRun(nginx.balancerPort(), 800, 1'000'000));
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult r = controller.run();
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    ASSERT_GE(r.requests, 100u);
    const BackendBalance balance = backendBalanceOf(r.backends);
    EXPECT_EQ(balance.backends, 4u);
    // Round robin: no two backends differ by more than one request.
    EXPECT_LE(balance.maxShare * balance.requests - balance.minShare * balance.requests, 1.0 + 1e-9);
    EXPECT_GT(balance.pValue, 0.99);
}

TEST(RunBackends, ABackendStoppedMidRunVanishes)
{
    WB_REQUIRE_NGINX();
    Backends backends(3);
    test::NginxOptions options;
    for (const auto& s : backends.servers)
        options.balancedUpstreams.emplace_back(s->port(), 1);
    test::Nginx nginx;
    ASSERT_TRUE(nginx.start(options)) << nginx.log();
    RunConfig cfg = balancedRun(nginx.balancerPort(), 600, 3'000'000);
    cfg.upstreamTime = {};
    RunController controller(cfg);
    ASSERT_TRUE(controller.prepare().ok());
    // A pod that crashes a third of the way through: nginx sends its share to the others.
    std::thread crash([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1000));
        backends.servers[2]->stop();
    });
    const RunResult r = controller.run();
    crash.join();
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    const std::vector<BackendEvent> events = backendEventsOf(r.intervals);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].kind, BackendEvent::Kind::Vanished);
    EXPECT_EQ(events[0].name, "b2");
    const BackendStats* b2 = find(r.backends, "b2");
    ASSERT_NE(b2, nullptr);
    EXPECT_DOUBLE_EQ(events[0].atS, b2->lastSeenS);
    // It is absent from every interval after its last response, and answered no more than it served.
    for (const IntervalRecord& i : r.intervals) {
        if (i.startS <= b2->lastSeenS) continue;
        for (const BackendRecord& b : i.backends)
            EXPECT_NE(b.name, "b2") << "interval " << i.index;
    }
    EXPECT_LE(b2->requests, backends.servers[2]->requestsServed());
    EXPECT_GT(find(r.backends, "b0")->lastSeenS, b2->lastSeenS);
}

TEST(RunBackends, Http2ResponsesAreNotedToo)
{
    // The built-in server over h2c: the note travels with the stream to its completion.
    TargetServerOptions o;
    o.text = "solo\n";
    TargetServer server(o);
    ASSERT_TRUE(server.start().ok());
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(server.port()) + "/");
    cfg.httpVersion = HttpVersion::Http2;
    cfg.streams = 8;
    cfg.threads = 1;
    cfg.connections = 2;
    cfg.durationUs = 500'000;
    cfg.backendFrom = *parseBackendFrom("body");
    cfg.upstreamTime = *parseUpstreamTime("server-timing:upstream");
    RunController controller(cfg);
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult r = controller.run();
    ASSERT_GT(r.requests, 0u);
    ASSERT_EQ(r.backends.names.size(), 1u);
    EXPECT_EQ(r.backends.names[0], "solo");
    EXPECT_EQ(r.backends.stats[0].requests, r.requests);
    EXPECT_EQ(r.upstreamMissing, r.requests) << "the server sends no Server-Timing: every response counted as missing";
}

// serve --backends N --spread skewed --upstream-time-header: one built-in server stands in for a
// gateway over N backends, offline. The open model drains, so the run counts every answer the
// server gave, and the spread is the server's table: backend i weighted N - i, exact per cycle.
TEST(RunBackends, TheBuiltInServerStandsInForWeightedBackendsAndAGateway)
{
    TargetServerOptions o;
    o.backends = 4;
    o.skewedBackends = true;
    o.upstreamTimeHeader = true;
    o.delayUs = 2000;
    TargetServer server(o);
    ASSERT_TRUE(server.start().ok());
    RunConfig cfg = balancedRun(server.port(), 1000, 1'000'000);
    cfg.upstreamTime = *parseUpstreamTime("header:x-envoy-upstream-service-time");
    RunController controller(cfg);
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult r = controller.run();
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    ASSERT_GE(r.requests, 100u);
    ASSERT_EQ(r.requests, server.requestsServed());
    ASSERT_EQ(backendBalanceOf(r.backends).backends, 4u);
    for (unsigned i = 0; i < 4; ++i) {
        const BackendStats* b = find(r.backends, "backend-" + std::to_string(i));
        ASSERT_NE(b, nullptr) << i;
        const double weight = 4.0 - i;
        EXPECT_NEAR(static_cast<double>(b->requests), r.requests * weight / 10, weight) << i;
    }
    // Every answer said 2 ms upstream; the front door is the rest of each service time.
    EXPECT_EQ(r.upstreamTime.count(), r.requests);
    EXPECT_EQ(r.upstreamTime.minUs(), 2000u);
    EXPECT_EQ(r.upstreamTime.maxUs(), 2000u);
    EXPECT_EQ(r.frontDoor.count(), r.requests);
    EXPECT_EQ(r.frontDoor.sumUs() + r.upstreamTime.sumUs(), r.serviceLatency.sumUs())
        << "no service time was shorter than the 2 ms the server held each answer";
}

TEST(RunBackends, TheStandInAnswersOverHttp2Too)
{
    TargetServerOptions o;
    o.backends = 3;
    o.upstreamTimeHeader = true;
    TargetServer server(o);
    ASSERT_TRUE(server.start().ok());
    RunConfig cfg = balancedRun(server.port(), 600, 1'000'000);
    cfg.httpVersion = HttpVersion::Http2;
    cfg.streams = 4;
    cfg.upstreamTime = *parseUpstreamTime("header:x-envoy-upstream-service-time");
    RunController controller(cfg);
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult r = controller.run();
    ASSERT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    ASSERT_EQ(r.requests, server.requestsServed());
    const BackendBalance balance = backendBalanceOf(r.backends);
    EXPECT_EQ(balance.backends, 3u);
    EXPECT_LE(balance.maxShare * balance.requests - balance.minShare * balance.requests, 1.0 + 1e-9) << "in turn";
    EXPECT_EQ(r.upstreamTime.count(), r.requests);
    EXPECT_EQ(r.upstreamTime.maxUs(), 0u);
}
