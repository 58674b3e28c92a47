// The plans of examples/ (one per seed study: containers x frameworks, NEG vs
// NodePort on two cluster sizes, Ambassador vs Service), as users take them:
// every one passes `experiment --check`, points only at loopback stand-ins
// that its description says how to start, and the Ambassador plan, scaled down
// as docs/EXPERIMENTS.md shows, runs for real against the built-in server.

#include "serve/targetserver.h"
#include "store/sessionstore.h"
#include "testsupport.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

using namespace wb;
using Json = nlohmann::json;

namespace {

std::vector<std::string> examplePlans()
{
    std::vector<std::string> plans;
    for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() + "/examples"))
        if (entry.path().extension() == ".json") plans.push_back(entry.path().string());
    std::sort(plans.begin(), plans.end());
    return plans;
}

std::string joinedDescription(const Json& plan)
{
    std::string text;
    for (const Json& line : plan["description"])
        text += line.get<std::string>() + "\n";
    return text;
}

} // namespace

TEST(ExamplesCli, EveryPlanChecksAndSaysHowToStartItsStandIns)
{
    const auto plans = examplePlans();
    std::set<std::string> names;
    for (const std::string& path : plans)
        names.insert(std::filesystem::path(path).filename().string());
    for (const char* study :
        { "container-performance-comparison.json", "neg-vs-nodeport.json", "ambassador-vs-service.json" })
        EXPECT_TRUE(names.count(study)) << study << " is missing from examples/";

    for (const std::string& path : plans) {
        SCOPED_TRACE(path);
        const auto r = test::runCli({ "experiment", "--check", path });
        ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_TRUE(r.out.starts_with("Plan '" + path + "' is valid: ")) << r.out;

        const Json plan = Json::parse(test::readFile(path));
        const std::string description = joinedDescription(plan);
        // The description is printed with the schedule, and says where the real targets go.
        EXPECT_NE(r.out.find("  Real targets: "), std::string::npos) << r.out;
        EXPECT_NE(description.find("Stand-ins"), std::string::npos) << description;
        // Offline: every target is a loopback stand-in, and the description starts each port it uses.
        for (const Json& target : plan["targets"]) {
            std::smatch m;
            const std::string url = target["url"];
            ASSERT_TRUE(std::regex_match(url, m, std::regex(R"(http://127\.0\.0\.1:(\d+)/.*)"))) << url;
            EXPECT_NE(description.find("wrkbench-cli serve --port " + m[1].str() + " "), std::string::npos)
                << target["name"] << " uses port " << m[1] << ", which the description does not start";
        }
    }
}

// The Ambassador study (-t100 -c1000/-c10000, --timeout 60s, 60 s runs, twice each) shortened the way
// docs/EXPERIMENTS.md shows, against the two stand-ins its description names (the Service answering at
// once, Ambassador one millisecond later), on loopback ports of this test.
TEST(ExamplesCli, TheAmbassadorPlanScaledDownRunsOnTheBuiltInServer)
{
    TargetServer service(TargetServerOptions {});
    TargetServerOptions delayed;
    delayed.delayUs = 1000; // wrkbench-cli serve --delay 1
    TargetServer ambassador(delayed);
    ASSERT_TRUE(service.start().ok());
    ASSERT_TRUE(ambassador.start().ok());

    Json plan = Json::parse(test::readFile(test::sourceDir() + "/examples/ambassador-vs-service.json"));
    EXPECT_EQ(plan["load"]["threads"], 100);
    EXPECT_EQ(plan["load"]["timeout"], "60s");
    EXPECT_EQ(plan["sweep"]["values"], Json::parse("[1000, 10000]"));
    EXPECT_EQ(plan["repetitions"], 2);
    // Scaled down: fewer connections and threads, short runs, no pauses.
    plan["sweep"]["values"] = { 2, 4 };
    plan["load"]["threads"] = 2;
    plan["duration"] = "300ms";
    plan["warmup"] = 0;
    plan["cooldown"] = 0;
    for (Json& target : plan["targets"]) {
        std::string url = target["url"];
        const uint16_t port = url.find(":8080/") != std::string::npos ? service.port() : ambassador.port();
        url = std::regex_replace(url, std::regex(R"(:80\d\d/)"), ":" + std::to_string(port) + "/");
        target["url"] = url;
    }
    test::TempDir dir;
    const std::string planPath = dir.file("ambassador-small.json");
    test::writeFile(planPath, plan.dump(2));
    const std::string db = dir.file("lab.wrkbench");

    const auto r = test::runCli({ "experiment", "--db", db, planPath }, 120'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 targets (baseline Service), 2 levels, 2 repetitions: 8 runs of 300ms, interleaved"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Experiment 1 complete: 8 runs in '" + db + "'"), std::string::npos) << r.out;

    SessionOpenOptions options;
    options.readOnly = true;
    auto store = SessionStore::open(db, options);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->experimentRuns(1);
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 8u);
    for (const auto& run : *runs) {
        EXPECT_EQ(run.status, RunStatus::Completed);
        EXPECT_EQ(run.config.timeoutUs, 60'000'000u); // --timeout 60s, as in the study
        EXPECT_GT(run.totals.requests, 0u);
        if (run.targetName == "Ambassador") {
            EXPECT_GE(run.totals.latency.p50Us, 1000.0) << "Ambassador's stand-in answers 1 ms late";
        }
    }
}
