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
