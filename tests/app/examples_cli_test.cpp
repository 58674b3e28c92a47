// The plans of examples/ (one per seed study: containers x frameworks, NEG vs
// NodePort on two cluster sizes, Ambassador vs Service), as users take them:
// every one passes `experiment --check`, points only at loopback stand-ins
// that its description says how to start, and the Ambassador plan, scaled down
// as docs/EXPERIMENTS.md shows, runs for real against the built-in server. The NEG/NodePort and
// Ambassador plans run against stand-ins started exactly as their descriptions say (serve --backends,
// --upstream-time-header), and their breakdown shows offline: the runs name their backends or split
// their time, and the results compare the evenness and the front door's share.

#include "serve/targetserver.h"
#include "store/frontdoorview.h"
#include "store/sessionstore.h"
#include "testsupport.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

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

// The built-in server as the description's `wrkbench-cli serve --port PORT ...` line starts it.
TargetServerOptions standInFor(const std::string& description, const std::string& port)
{
    TargetServerOptions o;
    const std::string start = "wrkbench-cli serve --port " + port + " ";
    const size_t at = description.find(start);
    EXPECT_NE(at, std::string::npos) << "no stand-in on port " << port;
    if (at == std::string::npos) return o;
    std::istringstream line(description.substr(at + start.size(), description.find('\n', at) - at - start.size()));
    for (std::string word; line >> word;) {
        std::string value;
        if (word == "--threads" && line >> value)
            o.threads = static_cast<unsigned>(std::stoul(value));
        else if (word == "--backends" && line >> value)
            o.backends = static_cast<unsigned>(std::stoul(value));
        else if (word == "--spread" && line >> value)
            o.skewedBackends = value == "skewed";
        else if (word == "--delay" && line >> value)
            o.delayUs = std::stoull(value) * 1000;
        else if (word == "--upstream-time-header")
            o.upstreamTimeHeader = true;
        else if (word != "&")
            ADD_FAILURE() << "the test does not know '" << word << "' of " << start;
    }
    return o;
}

/// Scales a study plan down (short runs, few connections, no pauses), points each target at the
/// stand-in its description starts on its port, and writes it to dir; the servers stay up in `servers`.
std::string scaledDown(Json plan, const std::string& dir, std::vector<std::unique_ptr<TargetServer>>& servers)
{
    const std::string description = joinedDescription(plan);
    plan["duration"] = "300ms";
    plan["warmup"] = 0;
    plan["cooldown"] = 0;
    std::map<std::string, uint16_t> ports;
    for (Json& target : plan["targets"]) {
        std::smatch m;
        std::string url = target["url"];
        EXPECT_TRUE(std::regex_match(url, m, std::regex(R"(http://127\.0\.0\.1:(\d+)(/.*))"))) << url;
        if (!ports.count(m[1])) {
            servers.push_back(std::make_unique<TargetServer>(standInFor(description, m[1])));
            EXPECT_TRUE(servers.back()->start().ok());
            ports[m[1]] = servers.back()->port();
        }
        target["url"] = "http://127.0.0.1:" + std::to_string(ports[m[1]]) + m[2].str();
    }
    const std::string path = dir + "/small.json";
    test::writeFile(path, plan.dump(2));
    return path;
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
    Json plan = Json::parse(test::readFile(test::sourceDir() + "/examples/ambassador-vs-service.json"));
    EXPECT_EQ(plan["load"]["threads"], 100);
    EXPECT_EQ(plan["load"]["timeout"], "60s");
    EXPECT_EQ(plan["sweep"]["values"], Json::parse("[1000, 10000]"));
    EXPECT_EQ(plan["repetitions"], 2);
    // Scaled down: fewer connections and threads, short runs, no pauses.
    plan["sweep"]["values"] = { 2, 4 };
    plan["load"]["threads"] = 2;
    test::TempDir dir;
    std::vector<std::unique_ptr<TargetServer>> standIns;
    const std::string planPath = scaledDown(plan, dir.path(), standIns);
    ASSERT_EQ(standIns.size(), 2u);
    const std::string db = dir.file("lab.wrkbench");

    const auto r = test::runCli({ "experiment", "--db", db, planPath }, 120'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 targets (baseline Service), 2 levels, 2 repetitions: 8 runs of 300ms, interleaved"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Experiment 1 complete: 8 runs in '" + db + "'"), std::string::npos) << r.out;
    // The front door's share, compared in the results: Ambassador's is there, the Service states none.
    EXPECT_NE(r.out.find("Behind the front door"), std::string::npos) << r.out;
    EXPECT_TRUE(
        std::regex_search(r.out, std::regex(R"(c2 Ambassador: front-door share \d+\.\d% ± \d+\.\d% \(2 runs\))")))
        << r.out;

    SessionOpenOptions options;
    options.readOnly = true;
    auto store = SessionStore::open(db, options);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->experiments().runs(1);
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 8u);
    for (const auto& run : *runs) {
        EXPECT_EQ(run.status, RunStatus::Completed);
        EXPECT_EQ(run.config.timeoutUs, 60'000'000u); // --timeout 60s, as in the study
        EXPECT_GT(run.totals.requests, 0u);
        auto data = (*store)->runs().load(run.id);
        ASSERT_TRUE(data.ok());
        const FrontDoorView view = frontDoorViewOf(*data);
        ASSERT_TRUE(view.upstreamAsked);
        if (run.targetName == "Ambassador") {
            EXPECT_GE(run.totals.latency.p50Us, 1000.0) << "Ambassador's stand-in answers 1 ms late";
            // Every answer stated Envoy's 1 ms: the split holds every response, upstream 1 ms each.
            EXPECT_EQ(view.upstream.count(), run.totals.requests);
            EXPECT_EQ(view.upstreamMissing, 0u);
            EXPECT_NEAR(view.meanSplit.upstreamUs, 1000.0, 10.0);
            EXPECT_GT(view.meanSplit.frontDoorShare(), 0.0);
        } else {
            EXPECT_EQ(view.upstreamMissing, run.totals.requests) << "a plain Service states no upstream time";
        }
    }
}

// The NEG/NodePort study scaled down to one level and short runs, against the four stand-ins its
// description starts: NEG's pods share the load evenly, NodePort's do not, and the results say so.
TEST(ExamplesCli, TheNegPlanScaledDownShowsEachPodsShare)
{
    Json plan = Json::parse(test::readFile(test::sourceDir() + "/examples/neg-vs-nodeport.json"));
    EXPECT_EQ(plan["load"]["backend_from"], "body");
    plan["sweep"]["values"] = { 2 };
    test::TempDir dir;
    std::vector<std::unique_ptr<TargetServer>> standIns;
    const std::string planPath = scaledDown(plan, dir.path(), standIns);
    ASSERT_EQ(standIns.size(), 4u);
    const std::string db = dir.file("lab.wrkbench");
    const std::string html = dir.file("report.html");

    const auto r = test::runCli({ "experiment", "--db", db, planPath, "--html", html }, 120'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("Behind the front door"), std::string::npos) << r.out;
    for (const char* nodes : { "4 nodes", "10 nodes" })
        EXPECT_NE(r.out.find(std::string("NodePort ") + nodes + "'s backend CV is "), std::string::npos)
            << nodes << "\n"
            << r.out;

    SessionOpenOptions options;
    options.readOnly = true;
    auto store = SessionStore::open(db, options);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->experiments().runs(1);
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 8u);
    const std::string page = test::readFile(html);
    EXPECT_NE(page.find("<section id=\"front-door\">"), std::string::npos);
    for (const auto& run : *runs) {
        EXPECT_EQ(run.status, RunStatus::Completed);
        auto data = (*store)->runs().load(run.id);
        ASSERT_TRUE(data.ok());
        const FrontDoorView view = frontDoorViewOf(*data);
        const unsigned pods = run.targetName.find("10 nodes") != std::string::npos ? 10 : 4;
        EXPECT_EQ(view.balance.backends, pods) << run.targetName;
        EXPECT_EQ(view.balance.requests, run.totals.requests) << "every answer named its pod";
        if (run.targetName.starts_with("NEG"))
            EXPECT_LT(view.balance.cv, 0.05) << "round robin: the counts differ by at most one";
        else
            EXPECT_GT(view.balance.cv, 0.3) << "skewed: weights N, N-1, ..., 1";
        EXPECT_NE(page.find("id=\"backends-" + std::to_string(run.id) + "\""), std::string::npos) << run.id;
    }
}
