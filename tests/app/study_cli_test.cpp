// wrkbench-cli study: the two reference studies of ../shared/reference rebuilt end
// to end (import, tag, study), the per-thread losses against numbers recomputed
// here from the log, the intervals against the independent Python reference
// (stats_reference.py), storage as an experiment of kind 'study', and bad input.
#include "pythoncsv.h"
#include "serve/targetserver.h"
#include "store/sessionstore.h"
#include "testsupport.h"
#include "wrk/wrklog.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

using namespace wb;
using test::runProcess;
using test::sourceDir;

namespace {

std::string referenceFile(const std::string& name)
{
    return sourceDir() + "/../shared/reference/" + name;
}

class StudyCli : public ::testing::Test
{
protected:
    void SetUp() override { m_db = m_dir.file("lab.wrkbench"); }

    test::ProcessResult cli(std::vector<std::string> args) { return test::runCli(std::move(args), 60'000); }

    static nlohmann::json csv(const std::string& text) { return test::parseResultsCsvWithPython(text); }

    // The container study's eight reports, imported and tagged as the write-up's headings say.
    void importContainers()
    {
        const auto imported = cli({ "import", "--db", m_db, referenceFile("container-performance-comparison.txt") });
        ASSERT_EQ(imported.exitCode, 0) << imported.err;
        ASSERT_NE(imported.out.find("8 reports found, stored as runs 1-8"), std::string::npos) << imported.out;
        // Report order: native, native, Docker, Docker, Kubernetes, Kubernetes (http-pkg, go-gin each), actix, rocket.
        for (const auto& [runs, tag] : std::vector<std::pair<std::string, std::string>> { { "1-2,7-8", "native" },
                 { "3-4", "docker" }, { "5-6", "kubernetes" }, { "1,3,5", "http-pkg" }, { "2,4,6", "go-gin" },
                 { "7", "actix" }, { "8", "rocket" } }) {
            const auto r = cli({ "tag", "--db", m_db, "--run", runs, "--add", tag });
            ASSERT_EQ(r.exitCode, 0) << r.err;
        }
    }

    static double number(const nlohmann::json& field) { return std::stod(field.get<std::string>()); }

    test::TempDir m_dir;
    std::string m_db;
};

// Each report's "Req/Sec" average, read here with a regular expression (not the
// engine's parser), keyed by the heading line above it ("Docker - go-gin").
std::map<std::string, double> perThreadAverages(const std::string& log)
{
    std::map<std::string, double> out;
    const std::vector<std::string> lines = test::splitLines(log);
    const std::regex heading(R"(^(native|Native|Docker|Kubernetes) - (\S+)$)");
    const std::regex reqSec(R"(^\s+Req/Sec\s+([0-9.]+)(k?)\s)");
    std::string current;
    for (const std::string& line : lines) {
        std::smatch m;
        if (std::regex_match(line, m, heading)) {
            std::string level = m[1];
            std::transform(level.begin(), level.end(), level.begin(), ::tolower);
            current = level + " " + std::string(m[2]);
        } else if (std::regex_search(line, m, reqSec) && !current.empty()) {
            out[current] = std::stod(m[1]) * (m[2] == "k" ? 1000.0 : 1.0);
            current.clear();
        }
    }
    return out;
}

TEST_F(StudyCli, ContainerStudyReproducesTheHandMadeLossesPerThread)
{
    importContainers();
    const auto r = cli({ "study", "--db", m_db, "--runs", "1-8", "--variant-by-tags", "native,docker,kubernetes",
        "--group-by-tags", "http-pkg,go-gin,actix,rocket", "--baseline", "native", "--metric", "per-thread", "--name",
        "Container performance", "--csv", "-" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("Study 1 'Container performance' stored in '" + m_db
                  + "': 8 runs, 3 variants (baseline "
                    "native), 4 groups, 1 level, metric per-thread"),
        std::string::npos)
        << r.err;
    const auto table = csv(r.out);
    const auto& header = table["header"];
    ASSERT_GE(header.size(), 4u);
    EXPECT_EQ(header[1], "cell");
    EXPECT_EQ(header[2], "group") << "the group column comes right after cell";
    const auto rows = table["rows"];
    // http-pkg and go-gin: native, docker, kubernetes; actix and rocket: native only.
    ASSERT_EQ(rows.size(), 8u) << r.out;

    const auto averages = perThreadAverages(test::readFile(referenceFile("container-performance-comparison.txt")));
    ASSERT_EQ(averages.size(), 8u);
    std::map<std::string, double> loss;
    for (const auto& row : rows) {
        const std::string group = row["group"], variant = row["target"];
        EXPECT_EQ(row["level"], "c400");
        EXPECT_EQ(row["axis"], "connections");
        EXPECT_EQ(row["axis_value"], "400");
        EXPECT_EQ(row["threads"], "12");
        EXPECT_EQ(row["runs"], "1");
        EXPECT_NEAR(number(row["rps_mean"]), averages.at(variant + " " + group), 1e-9) << variant << " " << group;
        EXPECT_EQ(row["rps_stdev"], "") << "one run: no spread";
        EXPECT_EQ(row["rps_ratio_ci_low"], "") << "one run: no interval";
        if (variant == "native") {
            EXPECT_EQ(row["baseline"], "1");
            EXPECT_EQ(row["verdict"], "baseline");
            continue;
        }
        // Recomputed from the log: against the same framework's native run.
        const double expected = (1.0 - averages.at(variant + " " + group) / averages.at("native " + group)) * 100.0;
        EXPECT_NEAR(number(row["loss_pct"]), expected, 1e-9) << variant << " " << group;
        EXPECT_EQ(row["verdict"], "one run each: no confidence interval, no verdict");
        loss[group + " " + variant] = number(row["loss_pct"]);
    }
    // The write-up's table: 65.83%, 83.59%, 66.40%, 83.68%. Its go-gin Docker figure divides by
    // http-pkg's native run (1 - 2.95k / 8.78k); against go-gin's own it is 67.26%, and its
    // 83.59% is 83.599% cut rather than rounded.
    EXPECT_NEAR(loss.at("http-pkg docker"), 65.83, 0.005);
    EXPECT_NEAR(loss.at("http-pkg kubernetes"), 83.60, 0.005);
    EXPECT_NEAR(loss.at("go-gin docker"), 67.26, 0.005);
    EXPECT_NEAR(loss.at("go-gin kubernetes"), 83.68, 0.005);
    EXPECT_NEAR((1.0 - 2950.0 / 8780.0) * 100.0, 66.40, 0.005) << "where the write-up's 66.40% comes from";

    // Stored: listed as a study, and re-reported the same from the session alone.
    const auto list = cli({ "experiments", "--db", m_db });
    ASSERT_EQ(list.exitCode, 0) << list.err;
    EXPECT_TRUE(
        std::regex_search(list.out, std::regex(R"(\n1\s+study\s+completed\s+\S+ \S+\s+8/8\s+Container performance\n)")))
        << list.out;
    const auto again = cli({ "experiment-report", "--db", m_db, "--experiment", "1", "--csv", "-" });
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(again.out, r.out);
    const auto markdown = cli({ "experiment-report", "--db", m_db, "--experiment", "1", "--markdown", "-" });
    ASSERT_EQ(markdown.exitCode, 0) << markdown.err;
    EXPECT_NE(markdown.out.find("# Container performance\n"), std::string::npos) << markdown.out;
    EXPECT_NE(markdown.out.find("| group | level | variant | runs | req/s per thread |"), std::string::npos)
        << markdown.out;
    EXPECT_NE(markdown.out.find("| go-gin | c400 | docker | 1 | 2,950 |"), std::string::npos) << markdown.out;
    EXPECT_NE(markdown.out.find("| 67.26% |"), std::string::npos) << markdown.out;
    const auto terminal = cli({ "experiment-report", "--db", m_db, "--experiment", "1" });
    EXPECT_TRUE(std::regex_search(terminal.out, std::regex(R"(\ngo-gin\s+c400\s+docker\s+1\s+2,950\s)")))
        << terminal.out;

    // A study runs nothing: resuming it is refused.
    const auto resume = cli({ "experiment", "--db", m_db, "--resume", "1" });
    EXPECT_EQ(resume.exitCode, 1);
    EXPECT_NE(resume.err.find("is a study of stored runs"), std::string::npos) << resume.err;

    // The same runs by total req/s, and a study of one framework's targets by target: every run is
    // against http://localhost:8080, so its six runs fall into one variant.
    const auto total = cli({ "study", "--db", m_db, "--runs", "1-6", "--variant-by-tags", "native,docker,kubernetes",
        "--group-by-tags", "http-pkg,go-gin", "--csv", "-" });
    ASSERT_EQ(total.exitCode, 0) << total.err;
    size_t totals = 0;
    const auto totalRows = csv(total.out)["rows"]; // a copy: the parsed document is a temporary
    for (const auto& row : totalRows) {
        if (row["group"] != "go-gin" || row["target"] != "docker") continue;
        ++totals;
        EXPECT_NEAR(number(row["loss_pct"]), (1.0 - 35188.61 / 107115.65) * 100.0, 1e-9);
    }
    EXPECT_EQ(totals, 1u);

    // Against Docker, actix and rocket have no baseline: listed, with empty ratios.
    const auto noBaseline = cli(
        { "study", "--db", m_db, "--runs", "1-8", "--variant-by-tags", "native,docker,kubernetes", "--group-by-tags",
            "http-pkg,go-gin,actix,rocket", "--baseline", "docker", "--metric", "per-thread", "--csv", "-" });
    ASSERT_EQ(noBaseline.exitCode, 0) << noBaseline.err;
    size_t lonely = 0;
    const auto noBaselineRows = csv(noBaseline.out)["rows"];
    for (const auto& row : noBaselineRows) {
        if (row["group"] != "actix" && row["group"] != "rocket") continue;
        ++lonely;
        EXPECT_EQ(row["target"], "native");
        EXPECT_EQ(row["runs"], "1");
        EXPECT_NE(row["rps_mean"], "");
        EXPECT_EQ(row["rps_ratio"], "");
        EXPECT_EQ(row["loss_pct"], "");
        EXPECT_EQ(row["verdict"], "no docker run in this group and level: no ratio");
    }
    EXPECT_EQ(lonely, 2u);

    const auto byTarget = cli({ "study", "--db", m_db, "--runs", "1-6", "--csv", "-" });
    ASSERT_EQ(byTarget.exitCode, 0) << byTarget.err;
    const auto oneCell = csv(byTarget.out)["rows"];
    ASSERT_EQ(oneCell.size(), 1u);
    EXPECT_EQ(oneCell[0]["target"], "http://localhost:8080");
    EXPECT_EQ(oneCell[0]["runs"], "6");
    EXPECT_EQ(oneCell[0]["group"], "");
}

// The Ambassador write-up holds a table, not wrk's output (import finds no report in it): each row
// becomes the wrk report it summarises, under a heading naming its method, so import --tag-headings
// tags it. Requests/sec, Transfer/sec and the latency average, max and +/- stdev are the table's;
// the other fields are placeholders a study by total req/s does not read (requests and bytes are
// the rates times 60 s; the Req/Sec row is zeros: no per-thread statistics).
std::string ambassadorAsWrkReports(const std::string& table, std::vector<std::vector<std::string>>& rowsOut)
{
    const std::vector<std::string> lines = test::splitLines(table);
    auto start = std::find(lines.begin(), lines.end(), "latency std");
    std::vector<std::vector<std::string>> rows;
    for (auto it = start == lines.end() ? lines.end() : start + 1; it != lines.end(); ++it) {
        if (*it == "service" || *it == "ambassador") rows.emplace_back();
        if (!rows.empty() && !it->empty()) rows.back().push_back(*it);
    }
    std::string out;
    for (const auto& row : rows) {
        // method, concurrency, time, rqs, transfer/sec, latency avg, latency max[, latency std]
        if (row.size() < 7) continue;
        const std::string url
            = row[0] == "service" ? "http://http-echo.default.svc:80/" : "http://ambassador.default.svc:80/http-echo/";
        const double rps = std::stod(row[3]);
        const double mb = std::stod(row[4]);
        char requests[128];
        std::snprintf(requests, sizeof requests, "  %.0f requests in 1.00m, %.2fMB read\n", rps * 60.0, mb * 60.0);
        out += "# " + row[0] + "\n\nwrk -t100 -c" + row[1] + " -d60s --timeout 60s " + url + "\nRunning 1m test @ "
            + url + "\n  100 threads and " + row[1]
            + " connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n" + "    Latency   " + row[5]
            + "   -nanus   " + row[6] + "   " + (row.size() > 7 ? row[7] : "-nan%") + "\n"
            + "    Req/Sec     0.00      0.00     0.00      0.00%\n" + requests + "Requests/sec:  " + row[3]
            + "\nTransfer/sec:   " + row[4] + "\n\n";
        rowsOut.push_back(row);
    }
    return out;
}

TEST_F(StudyCli, AmbassadorStudyMatchesTheIndependentStatistics)
{
    std::vector<std::vector<std::string>> table;
    const std::string notes = m_dir.file("ambassador.md");
    test::writeFile(
        notes, ambassadorAsWrkReports(test::readFile(referenceFile("ambassador-vs-service-wrk.txt")), table));
    ASSERT_EQ(table.size(), 8u) << "service and ambassador, at 1000 and 10000 connections, twice each";
    const auto imported = cli({ "import", "--db", m_db, "--tag-headings", notes });
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_NE(
        imported.out.find("stored as runs 1-8; tagged by heading: 'service' x4, 'ambassador' x4"), std::string::npos)
        << imported.out;

    const auto r = cli({ "study", "--db", m_db, "--runs", "1-8", "--variant-by-tags", "service,ambassador",
        "--baseline", "service", "--csv", "-" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto parsed = csv(r.out);
    const auto rows = parsed["rows"];
    ASSERT_EQ(rows.size(), 4u) << r.out;
    // Pooled over the two levels, ambassador's loss differs between them (about 43% at
    // c1000, less at c10000), so the pooled line says so and gives no figure.
    ASSERT_EQ(parsed["pooled"].size(), 1u) << r.out;
    EXPECT_EQ(parsed["pooled"][0]["target"], "ambassador");
    EXPECT_EQ(parsed["pooled"][0]["rps_ratio"], "");
    EXPECT_TRUE(parsed["pooled"][0]["verdict"].get<std::string>().starts_with(
        "the effect of ambassador is not common to the cells (interaction F(1, 4) = "))
        << parsed["pooled"][0];

    // Each cell's req/s as the table gives them, and the Python reference's statistics for them.
    std::map<std::pair<std::string, std::string>, std::vector<double>> cells;
    for (const auto& row : table)
        cells[{ row[0], row[1] }].push_back(std::stod(row[3]));
    nlohmann::json datasets = nlohmann::json::array();
    for (const char* level : { "1000", "10000" })
        datasets.push_back(
            { { "baseline", cells[{ "service", level }] }, { "other", cells[{ "ambassador", level }] } });
    const auto py = runProcess(
        { "python3", sourceDir() + "/tests/engine/experiment/stats_reference.py", datasets.dump() }, 60'000);
    ASSERT_EQ(py.exitCode, 0) << py.err;
    const auto reference = nlohmann::json::parse(py.out)["datasets"];
    ASSERT_EQ(reference.size(), 2u);

    auto relative = [](double a, double b) { return std::fabs(a - b) / std::fabs(b); };
    size_t checked = 0;
    for (const auto& row : rows) {
        const std::string level = row["level"];
        ASSERT_TRUE(level == "c1000" || level == "c10000") << level;
        const auto& ref = reference[level == "c1000" ? 0 : 1];
        EXPECT_EQ(row["runs"], "2");
        if (row["target"] == "service") {
            EXPECT_LT(relative(number(row["rps_mean"]), ref["baseline_mean"]), 1e-13);
            EXPECT_LT(relative(number(row["rps_stdev"]), ref["baseline_stdev"]), 1e-12);
            continue;
        }
        ASSERT_EQ(row["target"], "ambassador");
        EXPECT_LT(relative(number(row["rps_mean"]), ref["other_mean"]), 1e-13);
        EXPECT_LT(relative(number(row["rps_stdev"]), ref["other_stdev"]), 1e-12);
        EXPECT_LT(relative(number(row["rps_ratio"]), ref["ratio"]), 1e-13);
        EXPECT_LT(relative(number(row["df"]), ref["df"]), 1e-12);
        EXPECT_LT(relative(number(row["rps_ratio_ci_low"]), ref["low"]), 1e-8);
        EXPECT_LT(relative(number(row["rps_ratio_ci_high"]), ref["high"]), 1e-8);
        EXPECT_NEAR(number(row["loss_pct"]), (1.0 - ref["ratio"].get<double>()) * 100.0, 1e-9);
        EXPECT_EQ(row["significant"], "1");
        EXPECT_NE(row["verdict"].get<std::string>().find("ambassador is "), std::string::npos) << row["verdict"];
        ++checked;
    }
    EXPECT_EQ(checked, 2u);

    // These runs have no per-thread statistics: one line, nothing stored.
    const std::string before = test::readFile(m_db);
    const auto perThread = cli({ "study", "--db", m_db, "--runs", "1-8", "--variant-by-tags", "service,ambassador",
        "--metric", "per-thread" });
    EXPECT_EQ(perThread.exitCode, 1);
    EXPECT_EQ(perThread.err,
        "wrkbench-cli: error: run 1 has no per-thread Req/Sec statistics: --metric per-thread needs them (use "
        "--metric total)\n");
    EXPECT_EQ(test::readFile(m_db), before);
}

TEST_F(StudyCli, BadInputIsOneLineAndStoresNothing)
{
    importContainers();
    // Run 9: a wrk2 report (open model) against the same URL, tagged like the rest.
    const std::string wrk2 = m_dir.file("wrk2.txt");
    test::writeFile(wrk2,
        "wrk -t12 -c400 -d30s -R 2000 http://localhost:8080\nRunning 30s test @ http://localhost:8080\n"
        "  12 threads and 400 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
        "    Latency     1.00ms    0.50ms   5.00ms   70.00%\n    Req/Sec   170.00     10.00   200.00     60.00%\n"
        "  60000 requests in 30.00s, 7.50MB read\nRequests/sec:   2000.00\nTransfer/sec:    256.00KB\n");
    ASSERT_EQ(cli({ "import", "--db", m_db, "--tag", "native", "--tag", "http-pkg", wrk2 }).exitCode, 0);
    const std::string before = test::readFile(m_db);

    const std::vector<std::string> tags { "--variant-by-tags", "native,docker,kubernetes" };
    struct Case
    {
        std::vector<std::string> args;
        std::string error;
        int exitCode = 1;
    };
    const std::vector<Case> cases {
        { { "--runs", "1-12" }, "no run with id 10 in '" + m_db + "'" },
        { { "--runs", "1-6", "--variant-by-tags", "native,docker,k8s" },
            "tag 'k8s' (--variant-by-tags) is carried by none of the runs 1-6" },
        { { "--runs", "1-8", "--variant-by-tags", "docker,kubernetes" },
            "run 1 carries none of the variant tags docker, kubernetes: it fits no cell (tag it, or leave it out of "
            "--runs)" },
        { { "--runs", "1-8", "--variant-by-tags", "native,http-pkg" },
            "run 1 carries 2 variant tags, native, http-pkg: it would fall into 2 cells" },
        { { "--runs", "1-6", "--variant-by-tags", "native,docker,kubernetes", "--baseline", "bare-metal" },
            "baseline 'bare-metal' is in no group: it is none of the variants native, docker, kubernetes (tags)" },
        { { "--runs", "1-9", "--variant-by-tags", "native,docker,kubernetes", "--group-by-tags",
              "http-pkg,go-gin,actix,rocket" },
            "mixed metrics: runs 1-8 are closed-loop (req/s is the capacity served, latency the service time), runs 9 "
            "open-model (req/s is the rate offered, latency corrected); a study compares like with like" },
        { { "--runs", "3-1" }, "--runs: run range '3-1' runs backwards", 2 },
        { { "--runs", "1-6", "--variant-by-tags", "native,,docker" },
            "--variant-by-tags: an empty tag in 'native,,docker'", 2 },
    };
    for (const Case& c : cases) {
        std::vector<std::string> args { "study", "--db", m_db };
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, c.exitCode) << c.error << ": " << r.err;
        EXPECT_EQ(r.err, "wrkbench-cli: error: " + c.error + "\n");
        EXPECT_EQ(r.out, "");
    }
    // Usage errors CLI11 catches: one line too.
    for (const auto& args : std::vector<std::vector<std::string>> {
             { "study", "--db", m_db, "--runs", "1-6", "--metric", "median" },
             { "study", "--db", m_db, "--runs", "1-6", "--level", "pipeline" },
             { "study", "--db", m_db, "--runs", "1-6", "--variant-by", "target", "--variant-by-tags", "native" },
         }) {
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    EXPECT_EQ(test::readFile(m_db), before) << "nothing stored";
    EXPECT_EQ(cli({ "experiments", "--db", m_db }).out, "id  kind  status  created  runs  name\n");
}

// Part 3: a planned experiment with groups, run against the built-in server. The schedule
// interleaves every target of a level; each group is compared with its own baseline.
TEST_F(StudyCli, PlannedGroupsRunInterleavedAndCompareWithTheirOwnBaseline)
{
    TargetServer server(TargetServerOptions {});
    ASSERT_TRUE(server.start().ok());
    const std::string base = "http://127.0.0.1:" + std::to_string(server.port());
    const std::string plan = m_dir.file("groups.json");
    test::writeFile(plan,
        R"({"name": "frameworks", "targets": [
        {"name": "gin native", "url": ")"
            + base + R"(/", "group": "go-gin"},
        {"name": "gin proxied", "url": ")"
            + base + R"(/delay/1", "group": "go-gin"},
        {"name": "pkg native", "url": ")"
            + base + R"(/", "group": "http-pkg", "baseline": true},
        {"name": "pkg proxied", "url": ")"
            + base + R"(/delay/1", "group": "http-pkg"}],
        "load": {"threads": 1, "connections": 2}, "repetitions": 2, "duration": "300ms"})");
    const auto check = cli({ "experiment", "--check", plan });
    ASSERT_EQ(check.exitCode, 0) << check.err;
    EXPECT_NE(check.out.find("4 targets in 2 groups (baselines gin native, pkg native)"), std::string::npos)
        << check.out;
    EXPECT_NE(check.out.find("rep 1: gin native\n  t1 c2 rep 1: gin proxied\n  t1 c2 rep 1: pkg native\n  t1 c2 rep 1: "
                             "pkg proxied\n  t1 c2 rep 2: gin native"),
        std::string::npos)
        << check.out;

    const auto r = cli({ "experiment", "--db", m_db, plan, "--csv", "-" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = csv(r.out)["rows"];
    ASSERT_EQ(rows.size(), 4u) << r.out;
    const std::vector<std::pair<std::string, std::string>> order { { "go-gin", "gin native" },
        { "go-gin", "gin proxied" }, { "http-pkg", "pkg native" }, { "http-pkg", "pkg proxied" } };
    for (size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i]["group"], order[i].first);
        EXPECT_EQ(rows[i]["target"], order[i].second);
        EXPECT_EQ(rows[i]["runs"], "2");
        EXPECT_EQ(rows[i]["baseline"], i % 2 == 0 ? "1" : "0");
    }
    // Each proxied target against its own group's native one.
    for (size_t i : { 1u, 3u })
        EXPECT_NEAR(number(rows[i]["rps_ratio"]), number(rows[i]["rps_mean"]) / number(rows[i - 1]["rps_mean"]), 1e-9);
    const auto markdown = cli({ "experiment-report", "--db", m_db, "--experiment", "1", "--markdown", "-" });
    EXPECT_NE(
        markdown.out.find("| http-pkg | pkg native | GET " + base + "/ | baseline of http-pkg |"), std::string::npos)
        << markdown.out;
}

} // namespace
