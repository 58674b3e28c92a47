// The results model and its reports, from runs made up here: which runs count
// (completed ones filling a planned slot, the later of two), the per-cell rows
// and their ratios, and the Markdown, CSV and terminal tables.

#include "experiment/experimentreport.h"
#include "experiment/experimentresults.h"
#include "experiment/htmlreport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <sstream>

using namespace wb;

namespace {

ExperimentPlan makePlan()
{
    auto plan = parseExperimentPlan(R"({"name": "NEG vs NodePort", "targets": [
        {"name": "NEG", "url": "http://10.0.0.1/", "baseline": true, "session_target_id": 7},
        {"name": "Node|Port", "url": "http://10.0.0.2:30080/", "session_target_id": 9}],
        "sweep": {"axis": "connections", "values": [25, 50], "match_threads": true},
        "repetitions": 3, "duration": "30s", "warmup": "5s", "cooldown": "10s"})");
    EXPECT_TRUE(plan.ok()) << plan.error();
    return *plan;
}

int64_t g_nextId = 1;

RunRecord makeRun(int64_t targetId, int cell, int rep, double rps, double p99Us,
    RunStatus status = RunStatus::Completed, uint64_t errors = 0)
{
    RunRecord r;
    r.id = g_nextId++;
    r.targetId = targetId;
    r.targetName = targetId == 7 ? "NEG" : "Node|Port";
    r.status = status;
    r.hasTotals = status != RunStatus::Failed;
    r.totals.requestsPerS = rps;
    r.totals.latency.p50Us = p99Us / 4;
    r.totals.latency.p99Us = p99Us;
    r.totals.errors.read = errors;
    r.experiment = ExperimentSlot { 3, cell, rep };
    return r;
}

ExperimentRecord makeRecord()
{
    ExperimentRecord e;
    e.id = 3;
    e.name = "NEG vs NodePort";
    e.status = ExperimentStatus::Completed;
    return e;
}

std::vector<std::string> csvLines(const std::string& csv)
{
    std::vector<std::string> lines;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

} // namespace

TEST(ExperimentResults, RowsUseCompletedRunsOfPlannedSlots)
{
    g_nextId = 1;
    const ExperimentPlan plan = makePlan();
    std::vector<RunRecord> runs;
    const double negRps[] = { 48210, 47998, 48502 };
    const double nodeRps[] = { 46234, 46101, 46420 };
    for (int rep = 0; rep < 3; ++rep) {
        runs.push_back(makeRun(7, 0, rep, negRps[rep], 2000 + rep * 10));
        if (rep == 1) runs.push_back(makeRun(9, 0, rep, 1, 1, RunStatus::Stopped)); // stopped: ignored
        if (rep == 2) runs.push_back(makeRun(9, 0, rep, 2, 2)); // replaced by the later run of the slot
        runs.push_back(makeRun(9, 0, rep, nodeRps[rep], 2500 + rep * 10, RunStatus::Completed, rep));
    }
    runs.push_back(makeRun(9, 1, 0, 1000, 1, RunStatus::Failed)); // failed: no data
    runs.push_back(makeRun(7, 1, 0, 50000, 3000));
    runs.push_back(makeRun(7, 5, 0, 50000, 3000)); // a cell the plan does not have
    runs.push_back(makeRun(8, 0, 0, 50000, 3000)); // a target the plan does not have

    const ExperimentResults results = computeExperimentResults(makeRecord(), plan, runs);
    EXPECT_EQ(results.runsTotal, 12u);
    EXPECT_EQ(results.runsDone, 7u);
    EXPECT_EQ(results.runs.size(), runs.size());
    ASSERT_EQ(results.rows.size(), 4u);

    const ExperimentRow* neg = results.row(0, 0);
    const ExperimentRow* node = results.row(0, 1);
    ASSERT_TRUE(neg && node);
    EXPECT_TRUE(neg->baseline);
    EXPECT_EQ(neg->verdict, "baseline");
    EXPECT_DOUBLE_EQ(neg->requestsPerSRatio.ratio, 1.0);
    EXPECT_FALSE(neg->requestsPerSRatio.hasInterval());
    EXPECT_EQ(node->cellLabel, "c25");
    EXPECT_EQ(node->runIds.size(), 3u);
    EXPECT_EQ(node->requestsPerS.n, 3u);
    EXPECT_DOUBLE_EQ(node->requestsPerS.mean, describeSample({ 46234, 46101, 46420 }).mean);
    EXPECT_DOUBLE_EQ(node->errors.mean, 1.0);
    EXPECT_DOUBLE_EQ(node->p99Us.mean, 2510.0);
    const RatioEstimate expected = ratioOfMeans({ 48210, 47998, 48502 }, { 46234, 46101, 46420 });
    EXPECT_DOUBLE_EQ(node->requestsPerSRatio.ratio, expected.ratio);
    EXPECT_DOUBLE_EQ(node->requestsPerSRatio.low, expected.low);
    EXPECT_DOUBLE_EQ(node->requestsPerSRatio.high, expected.high);
    EXPECT_NEAR(node->lossPct(), (1 - expected.ratio) * 100, 1e-12);
    EXPECT_TRUE(node->verdict.starts_with("Node|Port is 4.1% slower than NEG (CI ")) << node->verdict;
    EXPECT_TRUE(node->p99Ratio.significant());

    // Level c50: one baseline run, none of the other target.
    const ExperimentRow* lonely = results.row(1, 1);
    ASSERT_NE(lonely, nullptr);
    EXPECT_EQ(lonely->runIds.size(), 0u);
    EXPECT_EQ(lonely->verdict, "no data");
    EXPECT_EQ(results.row(1, 0)->runIds.size(), 1u);
    EXPECT_EQ(results.row(2, 0), nullptr);
}

TEST(ExperimentResults, ReportsShowTheTableAndTheMethod)
{
    g_nextId = 100;
    const ExperimentPlan plan = makePlan();
    std::vector<RunRecord> runs;
    for (int cell = 0; cell < 2; ++cell)
        for (int rep = 0; rep < 3; ++rep) {
            runs.push_back(makeRun(7, cell, rep, 30000 + rep * 100, 1000));
            runs.push_back(makeRun(9, cell, rep, 20000 + rep * 150, 1500 + rep));
        }
    const ExperimentResults results = computeExperimentResults(makeRecord(), plan, runs);

    const std::string table = formatResultsTable(results);
    EXPECT_NE(table.find("c50"), std::string::npos);
    EXPECT_NE(table.find("NEG *"), std::string::npos);
    EXPECT_NE(table.find("30,100 \xC2\xB1 100"), std::string::npos) << table;
    EXPECT_NE(table.find("Node|Port is 33.1% slower than NEG"), std::string::npos) << table;

    MarkdownOptions options;
    options.sessionName = "lab.wrkbench";
    std::string md = formatMarkdownReport(results, options);
    EXPECT_TRUE(md.starts_with("# NEG vs NodePort\n")) << md;
    EXPECT_NE(md.find("in session `lab.wrkbench`, completed: 12 of 12 runs completed."), std::string::npos) << md;
    EXPECT_NE(md.find("| c25 | Node\\|Port | 3 | 20,150 \xC2\xB1 150 |"), std::string::npos) << md; // '|' escaped
    EXPECT_NE(md.find("| c25 | NEG (baseline) | 3 | 30,100 \xC2\xB1 100 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| 33.06% |"), std::string::npos) << md;
    EXPECT_NE(md.find("c25 (25 threads, 25 connections), c50 (50 threads, 50 connections)"), std::string::npos);
    EXPECT_NE(md.find("3 repetitions of 30s (warm-up 5s, cool-down 10s between runs), in interleaved order"),
        std::string::npos);
    EXPECT_NE(md.find("Fieller"), std::string::npos);
    EXPECT_NE(md.find("## Runs"), std::string::npos);
    EXPECT_EQ(md.find("## Charts"), std::string::npos); // no images, no section
    options.images = { { "Requests/s per level", "neg-vs-nodeport-rps.png" } };
    options.listRuns = false;
    md = formatMarkdownReport(results, options);
    EXPECT_NE(md.find("## Charts\n\n![Requests/s per level](neg-vs-nodeport-rps.png)"), std::string::npos) << md;
    EXPECT_EQ(md.find("## Runs"), std::string::npos);

    const auto lines = csvLines(resultsCsv(results));
    ASSERT_EQ(lines.size(), 6u); // header, 4 rows, the pooled row
    EXPECT_TRUE(lines[5].starts_with("3,,,pooled,,,,,,Node|Port,0,6,,,,,,,,,,,0.6")) << lines[5];
    EXPECT_NE(lines[5].find(",1,\"pooled over 2 cells: Node|Port is 33.1% slower than NEG (CI "), std::string::npos)
        << lines[5];
    EXPECT_TRUE(
        lines[0].starts_with("experiment_id,cell,group,level,axis,axis_value,threads,connections,rate,target,"));
    const size_t columns = std::count(lines[0].begin(), lines[0].end(), ',') + 1;
    EXPECT_EQ(columns, 37u);
    EXPECT_TRUE(lines[1].starts_with("3,0,,c25,connections,25,25,25,0,NEG,1,3,30100,100,")) << lines[1];
    EXPECT_TRUE(lines[2].starts_with("3,0,,c25,connections,25,25,25,0,Node|Port,0,3,20150,150,")) << lines[2];
    EXPECT_NE(lines[2].find(",1,Node|Port is 33.1% slower"), std::string::npos) << lines[2];
    EXPECT_TRUE(lines[4].ends_with(",107;109;111,")) << lines[4]; // run ids, then nothing differs
}

// A cell whose two baseline runs disagree (144k and 113k req/s) cannot decide an 84%
// loss; every output says so and says what would, never "no significant difference".
TEST(ExperimentResults, UndecidedCellsSayWhatWouldDecideInEveryOutput)
{
    g_nextId = 300;
    const ExperimentPlan plan = makePlan();
    std::vector<RunRecord> runs { makeRun(7, 0, 0, 144000, 1000), makeRun(9, 0, 0, 20460, 1500),
        makeRun(7, 0, 1, 113000, 1000), makeRun(9, 0, 1, 20800, 1500) };
    const ExperimentResults results = computeExperimentResults(makeRecord(), plan, runs);
    const ExperimentRow* node = results.row(0, 1);
    ASSERT_NE(node, nullptr);
    const std::string expected
        = "too few repetitions to judge: the baseline varies \xC2\xB1"
          "17% between its runs; about 52 repetitions would detect a 10% difference, about 3 the 83.9% seen";
    EXPECT_EQ(node->verdict, expected);
    for (const std::string& out : { formatResultsTable(results), formatMarkdownReport(results), resultsCsv(results),
             formatHtmlReport(results) }) {
        EXPECT_NE(out.find(expected), std::string::npos) << out;
        EXPECT_EQ(out.find("no significant difference"), std::string::npos) << out;
    }
}

// The same undecided cell, where one of the baseline's runs had a saturated loader (the
// hypervisor took 30% of the machine): the verdict says where that spread may come from.
TEST(ExperimentResults, AnUndecidedVerdictNamesRunsWhoseLoaderWasSaturated)
{
    g_nextId = 400;
    const ExperimentPlan plan = makePlan();
    std::vector<RunRecord> runs { makeRun(7, 0, 0, 144000, 1000), makeRun(9, 0, 0, 20460, 1500),
        makeRun(7, 0, 1, 113000, 1000), makeRun(9, 0, 1, 20800, 1500) };
    runs[2].totals.loaderCost.machineCpuUs = 2'000'000;
    runs[2].totals.loaderCost.machineStealUs = 600'000;
    ASSERT_TRUE(runs[2].totals.loaderCost.saturated());
    const ExperimentResults results = computeExperimentResults(makeRecord(), plan, runs);
    const ExperimentRow* node = results.row(0, 1);
    ASSERT_NE(node, nullptr);
    EXPECT_TRUE(node->verdict.starts_with("too few repetitions to judge: the baseline varies")) << node->verdict;
    EXPECT_TRUE(node->verdict.ends_with(
        "; the loader was saturated in 1 of the baseline's 2 runs: that spread may be the loader's"))
        << node->verdict;
    EXPECT_EQ(node->verdict.find("Node|Port's"), std::string::npos) << "its runs were clean";
    // A decided verdict stands as it is: the clause explains a spread that decided nothing.
    runs[2].totals.requestsPerS = 144000;
    const ExperimentResults decided = computeExperimentResults(makeRecord(), plan, runs);
    EXPECT_EQ(decided.row(0, 1)->verdict.find("saturated"), std::string::npos) << decided.row(0, 1)->verdict;
}

// Targets in groups, each group with its own baseline; rows group by group.
TEST(ExperimentResults, GroupsCompareWithTheirOwnBaseline)
{
    auto plan = parseExperimentPlan(R"({"name": "frameworks", "targets": [
        {"name": "gin native", "url": "http://10.0.0.1/", "group": "go-gin", "session_target_id": 1},
        {"name": "gin docker", "url": "http://10.0.0.2/", "group": "go-gin", "session_target_id": 2},
        {"name": "pkg native", "url": "http://10.0.0.3/", "group": "http-pkg", "baseline": true, "session_target_id": 3},
        {"name": "pkg docker", "url": "http://10.0.0.4/", "group": "http-pkg", "session_target_id": 4}],
        "sweep": {"axis": "connections", "values": [10, 20]}, "repetitions": 2})");
    ASSERT_TRUE(plan.ok()) << plan.error();
    EXPECT_EQ(plan->groups(), (std::vector<std::string> { "go-gin", "http-pkg" }));
    EXPECT_TRUE(plan->targets[0].baseline) << "a group without a marked baseline takes its first target";
    EXPECT_EQ(plan->baselineOf(1), 0u);
    EXPECT_EQ(plan->baselineOf(3), 2u);
    // The schedule interleaves every target of a level, whatever its group.
    const auto schedule = plan->schedule();
    ASSERT_EQ(schedule.size(), 16u);
    for (size_t i = 0; i < 4; ++i)
        EXPECT_EQ(schedule[i].target, i);
    // The canonical form keeps the groups.
    auto again = parseExperimentPlan(experimentPlanToJson(*plan));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->targets[3].group, "http-pkg");
    EXPECT_TRUE(again->targets[2].baseline);

    std::vector<RunRecord> runs;
    const double rps[4] = { 9000, 3000, 8800, 3000 };
    int64_t id = 1;
    for (int cell = 0; cell < 2; ++cell)
        for (int rep = 0; rep < 2; ++rep)
            for (int64_t t = 1; t <= 4; ++t) {
                RunRecord r;
                r.id = id++;
                r.targetId = t;
                r.status = RunStatus::Completed;
                r.hasTotals = true;
                r.totals.requestsPerS = rps[t - 1] + rep * 10;
                r.totals.latency.p99Us = 1000;
                r.experiment = ExperimentSlot { 3, cell, rep };
                runs.push_back(r);
            }
    const ExperimentResults results = computeExperimentResults(makeRecord(), *plan, runs);
    EXPECT_EQ(results.groups, plan->groups());
    ASSERT_EQ(results.rows.size(), 8u);
    const std::vector<std::pair<std::string, std::string>> order { { "go-gin", "gin native" },
        { "go-gin", "gin docker" }, { "go-gin", "gin native" }, { "go-gin", "gin docker" },
        { "http-pkg", "pkg native" }, { "http-pkg", "pkg docker" }, { "http-pkg", "pkg native" },
        { "http-pkg", "pkg docker" } };
    for (size_t i = 0; i < order.size(); ++i) {
        EXPECT_EQ(results.rows[i].group, order[i].first) << i;
        EXPECT_EQ(results.rows[i].targetName, order[i].second) << i;
        EXPECT_EQ(results.rows[i].cell, i % 4 < 2 ? 0u : 1u) << i;
    }
    const ExperimentRow& ginDocker = results.rows[1];
    EXPECT_EQ(ginDocker.baselineName, "gin native");
    EXPECT_DOUBLE_EQ(ginDocker.requestsPerSRatio.ratio, 3005.0 / 9005.0);
    EXPECT_TRUE(ginDocker.verdict.starts_with("gin docker is 66.6% slower than gin native")) << ginDocker.verdict;
    const ExperimentRow& pkgDocker = results.rows[5];
    EXPECT_DOUBLE_EQ(pkgDocker.requestsPerSRatio.ratio, 3005.0 / 8805.0) << "its own group's baseline";

    const auto lines = csvLines(resultsCsv(results));
    ASSERT_EQ(lines.size(), 11u); // header, 8 rows, one pooled row per non-baseline target
    EXPECT_TRUE(lines[9].starts_with("3,,,pooled,")) << lines[9];
    EXPECT_TRUE(lines[10].starts_with("3,,,pooled,")) << lines[10];
    EXPECT_TRUE(lines[2].starts_with("3,0,go-gin,c10,connections,10,")) << lines[2];
    EXPECT_TRUE(lines[6].starts_with("3,0,http-pkg,c10,connections,10,")) << lines[6];
    const std::string table = formatResultsTable(results);
    EXPECT_TRUE(table.starts_with("group     level  target")) << table;
    EXPECT_NE(table.find("* baseline of each group."), std::string::npos) << table;
    const std::string md = formatMarkdownReport(results);
    EXPECT_NE(md.find("| group | target | URL | role |"), std::string::npos) << md;
    EXPECT_NE(md.find("| http-pkg | pkg native | GET http://10.0.0.3/ | baseline of http-pkg |"), std::string::npos)
        << md;
    EXPECT_NE(md.find("| group | level | target | runs | req/s |"), std::string::npos) << md;

    // Bad groups: one line naming the place.
    for (const auto& [json, error] : std::vector<std::pair<std::string, std::string>> {
             { R"({"targets": [{"name": "a", "url": "http://a/", "group": "x"}, {"name": "b", "url": "http://b/"}]})",
                 "targets[1]: has no \"group\" while other targets have one" },
             { R"({"targets": [{"name": "a", "url": "http://a/", "group": "x", "baseline": true},
                  {"name": "b", "url": "http://b/", "group": "x", "baseline": true}]})",
                 "targets: group 'x' has 2 baselines: one target per group can be the baseline" },
             { R"({"targets": [{"name": "a", "url": "http://a/", "group": ""}, {"name": "b", "url": "http://b/"}]})",
                 "targets[0].group: a group needs a name" },
         }) {
        auto bad = parseExperimentPlan(json);
        ASSERT_FALSE(bad.ok()) << json;
        EXPECT_TRUE(bad.error().starts_with(error)) << bad.error();
    }
}
