#pragma once
// WB_REQUIRE_NGINX(): in a GoogleTest test or fixture SetUp, skips when nginx is
// not installed, except under CI (CI=true), where .ci/run installs it: there a
// missing nginx fails the test instead of quietly testing less.

#include "nginx.h"

#include <gtest/gtest.h>

#define WB_REQUIRE_NGINX()                                                                                             \
    do {                                                                                                               \
        if (!::wb::test::Nginx::available()) {                                                                         \
            if (::wb::test::underCi())                                                                                 \
                FAIL() << "nginx is not installed, and CI must test against it (packaging/install-deps.sh)";           \
            else                                                                                                       \
                GTEST_SKIP() << "nginx is not installed (packaging/install-deps.sh installs it)";                      \
        }                                                                                                              \
    } while (false)

namespace wb::test {

/// A fixture whose suite shares one nginx: a suite calls startNginx(options) in its
/// SetUpTestSuite() and stopNginx() in its TearDownTestSuite(); every test then skips
/// (or, under CI, fails) without nginx, and fails with nginx's log when it did not start.
class NginxTest : public ::testing::Test
{
protected:
    static void startNginx(const NginxOptions& options = {})
    {
        s_nginx = new Nginx;
        s_ok = s_nginx->start(options);
    }
    static void stopNginx()
    {
        delete s_nginx;
        s_nginx = nullptr;
    }
    void SetUp() override
    {
        WB_REQUIRE_NGINX();
        ASSERT_TRUE(s_ok) << s_nginx->log();
    }
    static Nginx& nginx() { return *s_nginx; }

private:
    inline static Nginx* s_nginx = nullptr;
    inline static bool s_ok = false;
};

} // namespace wb::test
