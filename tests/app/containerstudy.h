#pragma once
// The container study of ../shared/reference (native, Docker and Kubernetes; four web frameworks)
// imported into a session and tagged as its report groups it: the runs the HTML report tests lay out.

#include "testsupport.h"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

namespace wb::test {

/// Runs 1-8 of db: the study's eight wrk reports, tagged by platform and by framework. Fails the test
/// (a fatal failure) when the CLI refuses one step.
inline void importContainerStudy(const std::string& db)
{
    const auto imported = runCli(
        { "import", "--db", db, sourceDir() + "/../shared/reference/container-performance-comparison.txt" }, 60'000);
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    for (const auto& [runs, tag] : std::vector<std::pair<std::string, std::string>> { { "1-2,7-8", "native" },
             { "3-4", "docker" }, { "5-6", "kubernetes" }, { "1,3,5", "http-pkg" }, { "2,4,6", "go-gin" },
             { "7", "actix" }, { "8", "rocket" } }) {
        const auto r = runCli({ "tag", "--db", db, "--run", runs, "--add", tag }, 60'000);
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
}

} // namespace wb::test
