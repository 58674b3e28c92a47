// The built-in target server's HTTP/2 side (h2c with prior knowledge, on the
// same port as HTTP/1.1), against h2load as the independent client and the
// engine's own HTTP/2 session.

#include "run/runcontroller.h"
#include "serve/targetserver.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <regex>

using namespace wb;

namespace {

bool haveH2load()
{
    return test::runProcess({ "sh", "-c", "command -v h2load" }).exitCode == 0;
}

/// h2load's "status codes: N 2xx, N 3xx, N 4xx, N 5xx" and "N succeeded".
std::map<std::string, int> h2loadCounts(const std::string& output)
{
    std::map<std::string, int> out;
    std::smatch m;
    if (std::regex_search(output, m, std::regex(R"((\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx)"))) {
        out["2xx"] = std::stoi(m[1]);
        out["4xx"] = std::stoi(m[3]);
        out["5xx"] = std::stoi(m[4]);
    }
    if (std::regex_search(output, m, std::regex(R"((\d+) succeeded)"))) out["succeeded"] = std::stoi(m[1]);
    return out;
}

RunResult runEngine(uint16_t port, const std::string& path, unsigned streams)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(port) + path);
    cfg.httpVersion = HttpVersion::Http2;
    cfg.threads = 1;
    cfg.connections = 2;
    cfg.streams = streams;
    cfg.durationUs = 300'000;
    RunController controller(cfg);
    const Status st = controller.prepare();
    EXPECT_TRUE(st.ok()) << st.error();
    return st.ok() ? controller.run() : RunResult {};
}

} // namespace

TEST(TargetServerHttp2, H2loadGetsEveryAnswer)
{
    if (!haveH2load()) {
        if (test::underCi()) FAIL() << "h2load is missing (packaging/install-deps.sh installs nghttp2-client)";
        GTEST_SKIP() << "h2load is not installed";
    }
    TargetServerOptions options;
    options.text = "hello h2\n";
    TargetServer server(options);
    ASSERT_TRUE(server.start().ok());
    const std::string base = "http://127.0.0.1:" + std::to_string(server.port());
    auto ok = test::runProcess({ "h2load", "-n", "500", "-c", "2", "-m", "10", base + "/" });
    EXPECT_EQ(h2loadCounts(ok.out)["2xx"], 500) << ok.out;
    auto unavailable = test::runProcess({ "h2load", "-n", "50", "-c", "1", "-m", "4", base + "/status/503" });
    EXPECT_EQ(h2loadCounts(unavailable.out)["5xx"], 50) << unavailable.out;
    EXPECT_EQ(server.requestsServed(), 550u);
}

TEST(TargetServerHttp2, OnePortSpeaksBothProtocols)
{
    TargetServerOptions options;
    options.text = "both\n";
    TargetServer server(options);
    ASSERT_TRUE(server.start().ok());
    const RunResult h2 = runEngine(server.port(), "/", 8);
    EXPECT_GT(h2.requests, 20u);
    EXPECT_EQ((h2.errors.transportErrors() + h2.status.non2xx()), 0u);
    EXPECT_EQ(h2.status.byCode[200], h2.requests);

    RunConfig h1;
    h1.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(server.port()) + "/");
    h1.threads = 1;
    h1.connections = 2;
    h1.durationUs = 300'000;
    RunController controller(h1);
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult r1 = controller.run();
    EXPECT_GT(r1.requests, 20u);
    EXPECT_EQ((r1.errors.transportErrors() + r1.status.non2xx()), 0u);
}

TEST(TargetServerHttp2, RoutesAnswerAsOverHttp1)
{
    TargetServer server(TargetServerOptions {});
    ASSERT_TRUE(server.start().ok());
    const RunResult status = runEngine(server.port(), "/status/429", 4);
    EXPECT_GT(status.requests, 0u);
    EXPECT_EQ(status.status.byCode[429], status.requests);

    const RunResult bytes = runEngine(server.port(), "/bytes/100000", 2);
    EXPECT_GT(bytes.requests, 0u);
    EXPECT_EQ((bytes.errors.transportErrors() + bytes.status.non2xx()), 0u);
    // Every answer carried its 100,000 bytes of DATA (plus frame and header bytes).
    EXPECT_GE(bytes.bytes, bytes.requests * 100'000);

    const RunResult delayed = runEngine(server.port(), "/delay/50", 4);
    EXPECT_GT(delayed.requests, 0u);
    EXPECT_GE(delayed.latency.minUs(), 50'000u);
    EXPECT_EQ((delayed.errors.transportErrors() + delayed.status.non2xx()), 0u);
}
