// The comparability check: which fields of a set of runs differ beyond the variant,
// what an unknown value does (nothing), and how an experiment's or a study's reports
// (terminal table, Markdown, CSV) carry the warnings, level by level.

#include "experiment/comparability.h"
#include "experiment/experimentreport.h"
#include "experiment/experimentresults.h"

#include <functional>
#include <gtest/gtest.h>

using namespace wb;

namespace {

RunRecord measured(int64_t id, const std::string& target = "A")
{
    RunRecord r;
    r.id = id;
    r.targetName = target;
    r.status = RunStatus::Completed;
    r.hasTotals = true;
    r.engineVersion = "0.1.0";
    r.hostName = "loader-1";
    r.config.request.url = Url { "http", "10.0.0.1", 80, "/", "" };
    r.config.threads = 2;
    r.config.connections = 50;
    r.config.durationUs = 30'000'000;
    r.totals.requestsPerS = 1000;
    r.totals.latency.p50Us = 1000;
    r.totals.latency.p99Us = 4000;
    return r;
}

RunRecord imported(int64_t id)
{
    RunRecord r = measured(id, "B");
    r.status = RunStatus::Imported;
    r.engineVersion = "wrk";
    r.hostName.clear();
    return r;
}

std::vector<const RunRecord*> ptrs(const std::vector<RunRecord>& runs)
{
    std::vector<const RunRecord*> out;
    for (const RunRecord& r : runs)
        out.push_back(&r);
    return out;
}

const FieldDifference* find(const std::vector<FieldDifference>& diffs, const std::string& field)
{
    for (const FieldDifference& d : diffs)
        if (d.field == field) return &d;
    return nullptr;
}

} // namespace

TEST(Comparability, RunsDifferingInTheVariantOnlyAreComparable)
{
    std::vector<RunRecord> runs { measured(1, "A"), measured(2, "B"), measured(3, "A") };
    runs[1].config.request.url = Url { "http", "10.0.0.2", 30080, "/x", "" }; // the variant's own URL
    EXPECT_TRUE(compareRuns(ptrs(runs)).empty());
    EXPECT_EQ(comparabilityFields().size(), 11U);
}

// A wrk script decides what is sent: another script, other arguments, or the same file name
// holding another text is a difference; an imported run (its log does not say) is left out.
TEST(Comparability, RunsWithOtherScriptsAreNamed)
{
    std::vector<RunRecord> runs { measured(1), measured(2), measured(3), measured(4), imported(5) };
    runs[1].config.script = { "auth.lua", "token = nil\n", { "a" }, {} };
    runs[2].config.script = { "auth.lua", "token = 1\n", { "a" }, {} };
    runs[3].config.script = runs[1].config.script;
    const auto diffs = compareRuns(ptrs(runs));
    const FieldDifference* d = nullptr;
    for (const auto& f : diffs)
        if (f.field == "script") d = &f;
    ASSERT_NE(d, nullptr);
    ASSERT_EQ(d->values.size(), 3u);
    EXPECT_EQ(d->values[0].text, "none");
    EXPECT_EQ(d->values[0].runIds, std::vector<int64_t> { 1 });
    EXPECT_EQ(d->values[1].runIds, (std::vector<int64_t> { 2, 4 }));
    EXPECT_EQ(d->values[1].text.rfind("auth.lua (text ", 0), 0u) << d->values[1].text;
    EXPECT_NE(d->values[1].text, d->values[2].text);
    EXPECT_EQ(d->values[1].text.substr(d->values[1].text.size() - 2), " a");
    std::vector<RunRecord> same { measured(1), measured(2) };
    same[0].config.script = same[1].config.script = runs[1].config.script;
    EXPECT_TRUE(compareRuns(ptrs(same)).empty());
}

TEST(Comparability, NamesEveryDifferingFieldWithItsValuesAndRuns)
{
    std::vector<RunRecord> runs { measured(1), measured(2), measured(3) };
    runs[1].config.threads = 4;
    runs[2].config.durationUs = 10'000'000;
    runs[2].config.ratePerS = 5000;
    runs[1].config.httpVersion = HttpVersion::Http2;
    runs[2].engineVersion = "0.2.0";
    runs[2].hostName = "loader-2";
    const auto diffs = compareRuns(ptrs(runs));
    std::vector<std::string> fields;
    for (const auto& d : diffs)
        fields.push_back(d.field);
    EXPECT_EQ(fields,
        (std::vector<std::string> { "threads", "duration", "rate", "protocol", "engine version", "loader host" }));
    const FieldDifference* threads = find(diffs, "threads");
    ASSERT_EQ(threads->values.size(), 2U);
    EXPECT_EQ(threads->values[0].text, "2");
    EXPECT_EQ(threads->values[0].runIds, (std::vector<int64_t> { 1, 3 }));
    EXPECT_EQ(threads->values[1].text, "4");
    EXPECT_EQ(threads->values[1].runIds, (std::vector<int64_t> { 2 }));
    EXPECT_EQ(find(diffs, "duration")->values[1].text, "10s");
    EXPECT_EQ(find(diffs, "rate")->values[0].text, "none (closed model)");
    EXPECT_EQ(find(diffs, "rate")->values[1].text, "5000/s");
    EXPECT_EQ(find(diffs, "protocol")->values[1].text, "h2");
    const std::string text = describeDifferences(diffs);
    EXPECT_NE(text.find("threads (2: runs 1, 3; 4: run 2)"), std::string::npos) << text;
    EXPECT_NE(text.find("loader host (loader-1: runs 1, 2; loader-2: run 3)"), std::string::npos) << text;
}

TEST(Comparability, ImportedBesideMeasuredIsFlaggedAndUnknownsAreNoDifference)
{
    std::vector<RunRecord> runs { measured(1), imported(2) };
    const auto diffs = compareRuns(ptrs(runs));
    // The imported run has no loader host: not a difference. Its engine is wrk.
    EXPECT_EQ(find(diffs, "loader host"), nullptr);
    ASSERT_NE(find(diffs, "engine version"), nullptr);
    ASSERT_NE(find(diffs, "source"), nullptr);
    EXPECT_EQ(find(diffs, "source")->values[0].text, "measured");
    EXPECT_EQ(find(diffs, "source")->values[1].text, "imported");
    EXPECT_NE(
        describeDifferences(diffs).find("imported vs measured (measured: run 1; imported: run 2)"), std::string::npos);

    // Two imported runs of one host each: comparable.
    std::vector<RunRecord> both { imported(3), imported(4) };
    EXPECT_TRUE(compareRuns(ptrs(both)).empty());
}

TEST(Comparability, TlsVerificationCountsOnlyOverTls)
{
    std::vector<RunRecord> plain { measured(1), measured(2) };
    plain[1].config.tls.verifyPeer = false; // http: no certificate to verify
    EXPECT_TRUE(compareRuns(ptrs(plain)).empty());

    std::vector<RunRecord> tls { measured(1), measured(2) };
    for (RunRecord& r : tls)
        r.config.request.url = Url { "https", "example.test", 443, "/", "" };
    tls[1].config.tls.verifyPeer = false;
    const auto diffs = compareRuns(ptrs(tls));
    ASSERT_EQ(diffs.size(), 1U);
    EXPECT_EQ(diffs[0].field, "TLS verification");
    EXPECT_EQ(diffs[0].values[0].text, "on");
    EXPECT_EQ(diffs[0].values[1].text, "off");
}

TEST(Comparability, StagesAndLoadersAreSpelledOut)
{
    std::vector<RunRecord> runs { measured(1), measured(2) };
    runs[1].config.stages = { { 5'000'000, 100 }, { 5'000'000, 200 } };
    runs[1].config.loaders.count = 3;
    const auto diffs = compareRuns(ptrs(runs));
    EXPECT_EQ(find(diffs, "rate")->values[1].text, "rate ramp 5s:100,5s:200");
    EXPECT_EQ(find(diffs, "duration")->values[1].text, "10s"); // the stages' total
    EXPECT_EQ(find(diffs, "loader host")->values[1].text, "3 local loaders on loader-1");
}

namespace {

// Two levels (c25, c50) of targets A and B, two repetitions each; every run made alike.
ExperimentResults sweep(const std::function<void(std::vector<RunRecord>&)>& change)
{
    auto plan = parseExperimentPlan(R"({"name": "sweep", "targets": [
        {"name": "A", "url": "http://10.0.0.1/", "baseline": true, "session_target_id": 1},
        {"name": "B", "url": "http://10.0.0.2/", "session_target_id": 2}],
        "sweep": {"axis": "connections", "values": [25, 50]}, "repetitions": 2, "duration": "30s"})");
    EXPECT_TRUE(plan.ok()) << plan.error();
    std::vector<RunRecord> runs;
    int64_t id = 1;
    for (int cell = 0; cell < 2; ++cell)
        for (int rep = 0; rep < 2; ++rep)
            for (int64_t target : { 1, 2 }) {
                RunRecord r = measured(id++, target == 1 ? "A" : "B");
                r.targetId = target;
                r.config = plan->runConfig(static_cast<size_t>(cell), static_cast<size_t>(target - 1));
                r.totals.requestsPerS = 1000.0 * (cell + 1) + static_cast<double>(rep) + (target == 2 ? 50 : 0);
                r.experiment = ExperimentSlot { 5, cell, rep };
                runs.push_back(r);
            }
    change(runs);
    ExperimentRecord e;
    e.id = 5;
    e.name = "sweep";
    return computeExperimentResults(e, *plan, runs);
}

} // namespace

TEST(Comparability, ExperimentWarningsAreByLevelAndReachEveryReport)
{
    // A sweep differs in connections from level to level: that is its axis, not a warning.
    const ExperimentResults alike = sweep([](std::vector<RunRecord>&) {});
    EXPECT_TRUE(experimentComparability(alike).empty());
    EXPECT_EQ(formatResultsTable(alike).find("WARNING"), std::string::npos);

    // Run 7 (c50, A) was made by another engine version on another host.
    const ExperimentResults mixed = sweep([](std::vector<RunRecord>& runs) {
        runs[6].engineVersion = "0.0.9";
        runs[6].hostName = "laptop";
    });
    const auto warnings = experimentComparability(mixed);
    ASSERT_EQ(warnings.size(), 1U);
    EXPECT_EQ(warnings[0].scope, "c50");
    EXPECT_EQ(warnings[0].runIds.size(), 4U);
    EXPECT_EQ(warnings[0].fieldList(), "engine version, loader host");
    EXPECT_NE(warnings[0].text().find("c50: the runs differ in more than the variant: engine version (0.1.0: runs 5, "
                                      "6, 8; 0.0.9: run 7)"),
        std::string::npos)
        << warnings[0].text();

    const std::string table = formatResultsTable(mixed);
    EXPECT_NE(table.find("WARNING c50: the runs differ in more than the variant"), std::string::npos) << table;
    const std::string markdown = formatMarkdownReport(mixed);
    EXPECT_NE(markdown.find("> **Warning:** c50: the runs differ"), std::string::npos) << markdown;

    // CSV: the "differs" column names the fields on the rows of c50 only.
    const std::string csv = resultsCsv(mixed);
    EXPECT_NE(csv.find(",run_ids,differs"), std::string::npos) << csv;
    EXPECT_NE(csv.find("5;7,\"engine version, loader host\""), std::string::npos) << csv;
    EXPECT_NE(csv.find(",1;3,\n"), std::string::npos) << csv; // c25's A row: nothing differs
}

// A run whose loader was saturated is named, beside the others, even when nothing else differs;
// runs whose loader's cost was not measured (imported, stored before) are left out.
TEST(Comparability, ARunWhoseLoaderWasSaturatedIsNamed)
{
    std::vector<RunRecord> runs { measured(1), measured(2), measured(3) };
    EXPECT_TRUE(compareRuns(ptrs(runs)).empty()) << "nothing measured: nothing to say";
    for (RunRecord& r : runs) {
        r.totals.loaderCost.workerWallUs = 2'000'000;
        r.totals.loaderCost.workerCpuUs = 400'000;
    }
    EXPECT_TRUE(compareRuns(ptrs(runs)).empty()) << "idle loaders";
    runs[1].totals.loaderCost.workerWaitUs = 1'560'000; // 98% busy
    auto diffs = compareRuns(ptrs(runs));
    ASSERT_EQ(diffs.size(), 1U);
    EXPECT_EQ(diffs[0].field, "loader saturated");
    ASSERT_EQ(diffs[0].values.size(), 2U);
    EXPECT_EQ(diffs[0].values[0].text, "no");
    EXPECT_EQ(diffs[0].values[0].runIds, (std::vector<int64_t> { 1, 3 }));
    EXPECT_EQ(diffs[0].values[1].text, "yes, workers 98% busy (20% on a CPU, 78% waiting for one)");
    EXPECT_EQ(diffs[0].values[1].runIds, (std::vector<int64_t> { 2 }));
    ComparabilityWarning w { "c50", { 1, 2, 3 }, diffs };
    EXPECT_EQ(w.text(),
        "c50: the figures may measure the loader rather than the target: loader saturated (no: runs 1, 3; yes, "
        "workers 98% busy (20% on a CPU, 78% waiting for one): run 2)");
    // Every run saturated alike: still named.
    runs[0].totals.loaderCost = runs[2].totals.loaderCost = runs[1].totals.loaderCost;
    diffs = compareRuns(ptrs(runs));
    ASSERT_EQ(diffs.size(), 1U);
    EXPECT_EQ(diffs[0].values.size(), 1U);
    EXPECT_EQ(diffs[0].values[0].runIds.size(), 3U);
    // Beside another difference, in its place at the end.
    runs[2].config.threads = 8;
    diffs = compareRuns(ptrs(runs));
    ASSERT_EQ(diffs.size(), 2U);
    EXPECT_EQ(diffs[0].field, "threads");
    EXPECT_EQ(diffs[1].field, "loader saturated");
    // Beside another difference the runs are not comparable, whatever is compared (the Compare page
    // compares targets); nothing to say, no sentence.
    EXPECT_EQ(differencesSentence(diffs, "target").rfind("the runs differ in more than the target: threads (", 0), 0U)
        << differencesSentence(diffs, "target");
    EXPECT_EQ(differencesSentence({}, "target"), "");
    diffs.erase(diffs.begin());
    EXPECT_EQ(differencesSentence(diffs, "target")
                  .rfind("the figures may measure the loader rather than the target: loader saturated (", 0),
        0U);
}

// "protocols": ["h2", "h3"] makes one target per protocol: the protocol is the variant, so the
// check does not flag it; a plan of two targets with different protocols, written as two targets,
// still does (that is a difference beside the variant, the URL).
TEST(Comparability, AProtocolAxisIsTheVariantNotAWarning)
{
    auto plan = parseExperimentPlan(R"({"name": "h2 vs h3", "targets": [
        {"name": "front", "url": "https://10.0.0.1/", "protocols": ["h2", "h3"]}],
        "levels": [{"connections": 20, "streams": 10}], "repetitions": 2, "duration": "30s"})");
    ASSERT_TRUE(plan.ok()) << plan.error();
    ASSERT_EQ(plan->targets.size(), 2U);
    EXPECT_EQ(plan->targets[0].name, "front h2");
    EXPECT_EQ(plan->targets[1].name, "front h3");
    EXPECT_TRUE(plan->targets[0].baseline);
    EXPECT_FALSE(plan->targets[1].baseline);
    EXPECT_EQ(plan->runConfig(0, 1).httpVersion, HttpVersion::Http3);
    EXPECT_EQ(plan->runConfig(0, 1).streams, 10U);
    // The canonical form reads back as the same plan.
    auto again = parseExperimentPlan(experimentPlanToJson(*plan));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(experimentPlanToJson(*again), experimentPlanToJson(*plan));
    EXPECT_TRUE(again->targets[1].protocolVariant);

    std::vector<RunRecord> runs;
    int64_t id = 1;
    for (int rep = 0; rep < 2; ++rep)
        for (int64_t target : { 1, 2 }) {
            RunRecord r = measured(id++, target == 1 ? "front h2" : "front h3");
            r.targetId = target;
            r.config = plan->runConfig(0, static_cast<size_t>(target - 1));
            r.experiment = ExperimentSlot { 5, 0, rep };
            runs.push_back(r);
        }
    plan->targets[0].sessionTargetId = 1;
    plan->targets[1].sessionTargetId = 2;
    ExperimentRecord e;
    e.id = 5;
    EXPECT_TRUE(experimentComparability(computeExperimentResults(e, *plan, runs)).empty());
    // The same runs without the protocol axis: the protocol is named.
    for (ExperimentTarget& t : plan->targets)
        t.protocolVariant = false;
    const auto warnings = experimentComparability(computeExperimentResults(e, *plan, runs));
    ASSERT_EQ(warnings.size(), 1U);
    EXPECT_EQ(warnings[0].fieldList(), "protocol");
}

TEST(Comparability, AProtocolListIsChecked)
{
    auto twice = parseExperimentPlan(R"({"name": "x", "targets": [
        {"name": "a", "url": "https://10.0.0.1/", "protocols": ["h3", "http/3"]}], "duration": "30s"})");
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.error().find("targets[0].protocols[1]: is listed twice"), std::string::npos) << twice.error();
    auto both = parseExperimentPlan(R"({"name": "x", "targets": [
        {"name": "a", "url": "https://10.0.0.1/", "protocols": ["h2", "h3"], "http_version": "h2"}], "duration": "30s"})");
    ASSERT_FALSE(both.ok());
    EXPECT_NE(both.error().find("either \"protocols\" or \"http_version\""), std::string::npos) << both.error();
    auto cleartext = parseExperimentPlan(R"({"name": "x", "targets": [
        {"name": "a", "url": "http://10.0.0.1/", "protocols": ["h2", "h3"]}], "duration": "30s"})");
    ASSERT_FALSE(cleartext.ok());
    EXPECT_NE(cleartext.error().find("https://"), std::string::npos) << cleartext.error();
}
