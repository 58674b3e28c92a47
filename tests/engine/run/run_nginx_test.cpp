// The engine against a real nginx on loopback. The request counts are floors that
// only make the equalities next to them meaningful (how fast this machine is, is
// bench/'s business): what must hold is that every answer is counted, and right.

#include "nginx.h"
#include "requirenginx.h"
#include "run/runcontroller.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

test::NginxOptions manyConnections()
{
    test::NginxOptions options;
    options.workerConnections = 4096;
    return options;
}

class RunAgainstNginx : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(manyConnections()); }
    static void TearDownTestSuite() { stopNginx(); }

    RunResult run(
        const std::string& path, unsigned connections = 16, uint64_t durationMs = 1000, uint64_t timeoutMs = 2000)
    {
        RunConfig cfg;
        cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(nginx().port()) + path);
        cfg.threads = 2;
        cfg.connections = connections;
        cfg.durationUs = durationMs * 1000;
        cfg.timeoutUs = timeoutMs * 1000;
        RunController controller(cfg);
        const Status st = controller.prepare();
        EXPECT_TRUE(st.ok()) << st.error();
        return controller.run();
    }
};

} // namespace

TEST_F(RunAgainstNginx, KeepAlive)
{
    const RunResult r = run("/");
    EXPECT_GE(r.requests, 20u);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
}

TEST_F(RunAgainstNginx, ConnectionCloseReconnects)
{
    const RunResult r = run("/close");
    // More answers than the 16 connections: closed connections were replaced.
    EXPECT_GT(r.requests, 2u * 16);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
}

TEST_F(RunAgainstNginx, NotFoundIsCountedAsNon2xx)
{
    const RunResult r = run("/missing");
    EXPECT_GE(r.requests, 20u);
    EXPECT_EQ(r.status.byCode[404], r.requests);
    EXPECT_EQ(r.status.non2xx(), r.requests);
    EXPECT_EQ(r.errors.transportErrors(), 0u);
    EXPECT_EQ(r.errors.socketErrors(), 0u);
}

TEST_F(RunAgainstNginx, LargeStaticFile)
{
    const RunResult r = run("/big", 4);
    EXPECT_GE(r.requests, 8u); // several per connection: each big body was read to its end
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_GE(r.bytes, r.requests * 256 * 1024);
}

TEST_F(RunAgainstNginx, PipeliningWorksAgainstARealServer)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(nginx().port()) + "/");
    cfg.threads = 1;
    cfg.connections = 4;
    cfg.pipeline = 16;
    cfg.durationUs = 800'000;
    RunController controller(cfg);
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult r = controller.run();
    // More than one full pipeline per connection: the batches were refilled as answers came.
    EXPECT_GT(r.requests, uint64_t { cfg.connections } * cfg.pipeline);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
}

TEST_F(RunAgainstNginx, ThousandsOfConnections)
{
    const unsigned connections = 2000;
    // One nginx worker with an access log serves 2,000 connections in turn: on a busy
    // machine one of them can wait longer than the default 2 s timeout, which is the
    // server's slowness, not an error of ours. A 30 s timeout leaves only real losses.
    const RunResult r = run("/", connections, 3000, 30'000);
    EXPECT_EQ((r.errors.transportErrors() + r.status.non2xx()), 0u)
        << "connect " << r.errors.connect << " read " << r.errors.read << " write " << r.errors.write << " timeout "
        << r.errors.timeout << " parse " << r.errors.parse << " " << r.firstConnectError;
    // Every connection was made and still open at the end, and there were at least as
    // many answers as connections.
    ASSERT_FALSE(r.intervals.empty());
    EXPECT_EQ(r.intervals.back().connections, connections);
    EXPECT_GE(r.requests, uint64_t { connections });
    EXPECT_EQ(r.status.byCode[200], r.requests);
}
