// The engine against a real nginx on loopback.

#include "nginx.h"
#include "run/runcontroller.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

class RunAgainstNginx : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_nginx = new test::Nginx;
        test::NginxOptions options;
        options.workerConnections = 4096;
        s_ok = s_nginx->start(options);
    }
    static void TearDownTestSuite()
    {
        delete s_nginx;
        s_nginx = nullptr;
    }
    void SetUp() override
    {
        if (!test::Nginx::available()) GTEST_SKIP() << "nginx is not installed (packaging/install-deps.sh installs it)";
        ASSERT_TRUE(s_ok) << s_nginx->log();
    }

    RunResult run(const std::string& path, unsigned connections = 16, uint64_t durationMs = 1000)
    {
        RunConfig cfg;
        cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(s_nginx->port()) + path);
        cfg.threads = 2;
        cfg.connections = connections;
        cfg.durationUs = durationMs * 1000;
        RunController controller(cfg);
        const Status st = controller.prepare();
        EXPECT_TRUE(st.ok()) << st.error();
        return controller.run();
    }

    static test::Nginx* s_nginx;
    static bool s_ok;
};

test::Nginx* RunAgainstNginx::s_nginx = nullptr;
bool RunAgainstNginx::s_ok = false;

} // namespace

TEST_F(RunAgainstNginx, KeepAlive)
{
    const RunResult r = run("/");
    EXPECT_GT(r.requests, 2000u);
    EXPECT_EQ(r.errors.total(), 0u);
    EXPECT_EQ(r.status.byCode[200], r.requests);
}

TEST_F(RunAgainstNginx, ConnectionCloseReconnects)
{
    const RunResult r = run("/close");
    EXPECT_GT(r.requests, 200u);
    EXPECT_EQ(r.errors.total(), 0u);
}

TEST_F(RunAgainstNginx, NotFoundIsCountedAsNon2xx)
{
    const RunResult r = run("/missing");
    EXPECT_GT(r.requests, 1000u);
    EXPECT_EQ(r.status.byCode[404], r.requests);
    EXPECT_EQ(r.errors.status, r.requests);
    EXPECT_EQ(r.errors.socketErrors(), 0u);
}

TEST_F(RunAgainstNginx, LargeStaticFile)
{
    const RunResult r = run("/big", 4);
    EXPECT_GT(r.requests, 100u);
    EXPECT_EQ(r.errors.total(), 0u);
    EXPECT_GE(r.bytes, r.requests * 256 * 1024);
}

TEST_F(RunAgainstNginx, PipeliningWorksAgainstARealServer)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(s_nginx->port()) + "/");
    cfg.threads = 1;
    cfg.connections = 4;
    cfg.pipeline = 16;
    cfg.durationUs = 800'000;
    RunController controller(cfg);
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult r = controller.run();
    EXPECT_GT(r.requests, 2000u);
    EXPECT_EQ(r.errors.total(), 0u);
}

TEST_F(RunAgainstNginx, ThousandsOfConnections)
{
    const RunResult r = run("/", 2000, 1500);
    EXPECT_GT(r.requests, 2000u);
    EXPECT_EQ(r.errors.total(), 0u);
}
