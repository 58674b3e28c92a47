// --backend-from and --upstream-time as users run them: nginx balancing over built-in
// servers with weights; the text report and the JSON carry the breakdown and the split,
// the session keeps them (export --what backends|upstream), and a bad spec is refused
// with one sentence and exit code 2 before any load.

#include "requirenginx.h"
#include "serve/targetserver.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

using namespace wb;

namespace {

class BackendsCli : public ::testing::Test
{
protected:
    void SetUp() override
    {
        WB_REQUIRE_NGINX();
        test::NginxOptions options;
        for (unsigned i = 0; i < 3; ++i) {
            TargetServerOptions o;
            o.text = "pod-" + std::to_string(i) + "\n";
            o.delayUs = 1000;
            m_servers.push_back(std::make_unique<TargetServer>(o));
            ASSERT_TRUE(m_servers.back()->start().ok());
            options.balancedUpstreams.emplace_back(m_servers.back()->port(), i + 1);
        }
        ASSERT_TRUE(m_nginx.start(options)) << m_nginx.log();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_nginx.balancerPort()) + "/"; }

    std::vector<std::unique_ptr<TargetServer>> m_servers;
    test::Nginx m_nginx;
};

} // namespace

TEST_F(BackendsCli, ReportJsonAndStoreCarryTheBreakdownAndTheSplit)
{
    test::TempDir dir;
    const std::string db = dir.file("s.wrkbench");
    const auto r = test::runCli({ "-t1", "-c4", "-n", "300", "-R", "1000", "--backend-from", "body", "--upstream-time",
        "header:X-Upstream-Time:s", "--db", db, "--json", "-", url() });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // The text report (on stderr with --json -): the table and the split, after wrk's lines.
    EXPECT_NE(r.err.find("  Backends (body): 3, max/min share "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("    pod-2 "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("  Upstream time (header:X-Upstream-Time:s)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("    Mean split: "), std::string::npos) << r.err;
    EXPECT_LT(r.err.find("Transfer/sec:"), r.err.find("  Backends (body)"));

    const auto j = nlohmann::json::parse(r.out);
    const uint64_t requests = j["summary"]["requests"];
    ASSERT_GT(requests, 0u);
    EXPECT_EQ(requests, 300u); // -n
    ASSERT_EQ(j["backends"]["count"], 3);
    EXPECT_EQ(j["backends"]["source"], "body");
    EXPECT_EQ(j["backends"]["requests"], requests);
    EXPECT_EQ(j["backends"]["unnamed"], 0);
    std::map<std::string, uint64_t> byName;
    for (const auto& b : j["backends"]["list"])
        byName[b["name"]] = b["requests"];
    ASSERT_EQ(byName.size(), 3u);
    // nginx's weighted round robin over weights 1:2:3 is exact per cycle of 6.
    EXPECT_LE(byName["pod-0"], byName["pod-1"]);
    EXPECT_LE(byName["pod-1"], byName["pod-2"]);
    EXPECT_LT(j["backends"]["p_value"].get<double>(), 0.05);
    EXPECT_EQ(j["summary"]["upstream_time_us"]["count"], requests);
    EXPECT_EQ(j["summary"]["front_door_us"]["count"], requests);
    EXPECT_EQ(j["summary"]["upstream_missing"], 0);
    EXPECT_TRUE(j["summary"]["histograms"].contains("upstream"));
    // Each interval carries its backends (what loaders and merge add up).
    uint64_t inIntervals = 0;
    for (const auto& i : j["intervals"])
        for (const auto& b : i["backends"])
            inIntervals += b["requests"].get<uint64_t>();
    EXPECT_EQ(inIntervals, requests);

    // The session: one row per backend, and the split, folded from the stored intervals.
    const auto csv = test::runCli({ "export", "--db", db, "--run", "1", "--what", "backends", "--csv" });
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    const auto rows = test::splitLines(csv.out);
    ASSERT_EQ(rows.size(), 4u) << csv.out;
    EXPECT_EQ(rows[0].rfind("run_id,backend,requests,share,", 0), 0u);
    for (size_t i = 1; i < rows.size(); ++i) {
        const std::string name = rows[i].substr(2, rows[i].find(',', 2) - 2);
        const std::string count = std::to_string(byName[name]);
        EXPECT_EQ(rows[i].rfind("1," + name + "," + count + ",", 0), 0u) << rows[i];
    }
    const auto split = test::runCli({ "export", "--db", db, "--run", "1", "--what", "upstream", "--csv" });
    ASSERT_EQ(split.exitCode, 0) << split.err;
    const auto splitRows = test::splitLines(split.out);
    ASSERT_EQ(splitRows.size(), 4u) << split.out;
    EXPECT_EQ(splitRows[2].rfind("1,upstream," + std::to_string(requests) + ",", 0), 0u) << splitRows[2];
    EXPECT_EQ(splitRows[3].rfind("1,front_door," + std::to_string(requests) + ",", 0), 0u) << splitRows[3];
}

TEST_F(BackendsCli, BadSpecsAreRefusedBeforeAnyLoad)
{
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases {
        { { "--backend-from", "body-regex:pod-(\\d+" }, "is not a regular expression" },
        { { "--backend-from", "cookie:x" }, "--backend-from must be 'body', 'header:NAME' or 'body-regex:RE'" },
        { { "--upstream-time", "header:X-Upstream-Time:minutes" }, "the unit is ms, s or us" },
        { { "--upstream-time", "x-envoy-upstream-service-time" }, "--upstream-time must be" },
        { { "--max-backends", "10" }, "--max-backends needs --backend-from" },
    };
    for (const auto& [flags, message] : cases) {
        std::vector<std::string> args { "-t1", "-c1", "-n", "100" };
        args.insert(args.end(), flags.begin(), flags.end());
        args.push_back(url());
        const auto r = test::runCli(args);
        EXPECT_EQ(r.exitCode, 2) << flags[1] << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
    EXPECT_EQ(m_nginx.balancerLog(), "") << "nothing was sent";
}
