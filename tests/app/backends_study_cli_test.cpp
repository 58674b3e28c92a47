// The evenness and the front door's share as study and experiment metrics (`study --metric`,
// a plan's "metrics"): real runs of the CLI against the built-in server answering as named
// backends with Envoy's upstream-time header, then the study's table, CSV and HTML report.
// Each figure is checked against the runs' own exports (`export --what backends|upstream`),
// computed here by the textbook definitions: what the reports show is what is stored.

#include "serve/targetserver.h"
#include "testsupport.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace wb;

namespace {

using CsvRow = std::map<std::string, std::string>;

std::vector<CsvRow> csvRows(const std::string& text)
{
    std::vector<CsvRow> rows;
    std::vector<std::string> header;
    for (const std::string& line : test::splitLines(text)) {
        // The fields here carry no quoted commas but the verdict, which is read by its own column's position.
        std::vector<std::string> fields;
        std::string field;
        bool quoted = false;
        for (char c : line) {
            if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted) {
                fields.push_back(field);
                field.clear();
            } else
                field += c;
        }
        fields.push_back(field);
        if (header.empty()) {
            header = fields;
            continue;
        }
        CsvRow row;
        for (size_t i = 0; i < header.size() && i < fields.size(); ++i)
            row[header[i]] = fields[i];
        rows.push_back(row);
    }
    return rows;
}

// One CLI run into db; the text of the run id it printed is not needed: runs are numbered in order.
// The evenness figures need the sample of half a second (a CV under 0.01 over 4 backends); a run
// that only has to exist ends at `length` instead ({ "-n", "200" }).
void run(const std::string& db, const std::string& target, uint16_t port, bool options = true,
    const std::vector<std::string>& length = { "-d500ms" })
{
    std::vector<std::string> args { "run", "-t2", "-c4", "--db", db, "--target", target };
    args.insert(args.end(), length.begin(), length.end());
    if (options)
        args.insert(
            args.end(), { "--backend-from", "body", "--upstream-time", "header:x-envoy-upstream-service-time" });
    args.push_back("http://127.0.0.1:" + std::to_string(port) + "/");
    const auto r = test::runCli(args, 60'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
}

// The run's CV of per-backend counts and its front-door share, from its exports.
std::pair<double, double> figuresOf(const std::string& db, int run)
{
    const auto backends
        = test::runCli({ "export", "--db", db, "--run", std::to_string(run), "--what", "backends", "--csv" });
    std::vector<double> n;
    for (const CsvRow& r : csvRows(backends.out))
        n.push_back(std::stod(r.at("requests")));
    double mean = 0;
    for (double v : n)
        mean += v / static_cast<double>(n.size());
    double squares = 0;
    for (double v : n)
        squares += (v - mean) * (v - mean);
    const double cv = std::sqrt(squares / static_cast<double>(n.size())) / mean;
    const auto split
        = test::runCli({ "export", "--db", db, "--run", std::to_string(run), "--what", "upstream", "--csv" });
    double up = 0, door = 0;
    for (const CsvRow& r : csvRows(split.out)) {
        if (r.at("kind") == "upstream") up = std::stod(r.at("mean_ms"));
        if (r.at("kind") == "front_door") door = std::stod(r.at("mean_ms"));
    }
    return { cv, door / (up + door) };
}

double mean(double a, double b)
{
    return (a + b) / 2;
}

} // namespace

TEST(BackendsStudyCli, EvennessAndFrontDoorShareAreComparedWithIntervals)
{
    TargetServerOptions even;
    even.threads = 2;
    even.backends = 4;
    even.delayUs = 1000;
    even.upstreamTimeHeader = true;
    TargetServerOptions skewed = even;
    skewed.skewedBackends = true;
    TargetServer neg(even), nodePort(skewed);
    ASSERT_TRUE(neg.start().ok());
    ASSERT_TRUE(nodePort.start().ok());
    test::TempDir dir;
    const std::string db = dir.file("lab.wrkbench");
    // Runs 1-4: NEG, NodePort, NEG, NodePort (two repetitions each, interleaved).
    for (int rep = 0; rep < 2; ++rep) {
        run(db, "NEG", neg.port());
        run(db, "NodePort", nodePort.port());
    }
    const std::string csv = dir.file("study.csv");
    const std::string html = dir.file("study.html");
    const auto r = test::runCli({ "study", "--db", db, "--runs", "1-4", "--level", "none", "--metric",
        "total,backend-cv,front-door-share", "--csv", csv, "--html", html });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(", metric total, backend-cv, front-door-share"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Behind the front door"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NodePort's backend CV is "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" higher than NEG's (CI +"), std::string::npos) << r.out;

    const auto f1 = figuresOf(db, 1), f2 = figuresOf(db, 2), f3 = figuresOf(db, 3), f4 = figuresOf(db, 4);
    const std::vector<CsvRow> rows = csvRows(test::readFile(csv));
    ASSERT_EQ(rows.size(), 2u);
    const CsvRow& base = rows[0].at("target") == "NEG" ? rows[0] : rows[1];
    const CsvRow& other = rows[0].at("target") == "NEG" ? rows[1] : rows[0];
    EXPECT_NEAR(std::stod(base.at("backend-cv_mean")), mean(f1.first, f3.first), 1e-12);
    EXPECT_NEAR(std::stod(other.at("backend-cv_mean")), mean(f2.first, f4.first), 1e-12);
    EXPECT_NEAR(std::stod(other.at("backend-cv_diff")), mean(f2.first, f4.first) - mean(f1.first, f3.first), 1e-12);
    EXPECT_NEAR(std::stod(base.at("front-door-share_mean")), mean(f1.second, f3.second), 1e-9);
    EXPECT_NEAR(std::stod(other.at("front-door-share_mean")), mean(f2.second, f4.second), 1e-9);
    EXPECT_TRUE(base.at("backend-cv_diff").empty()) << "the baseline has no difference to itself";
    // Round robin is even, 4:3:2:1 is not: the interval of the difference lies clear of zero.
    EXPECT_LT(std::stod(base.at("backend-cv_mean")), 0.01);
    EXPECT_NEAR(std::stod(other.at("backend-cv_mean")), 0.447, 0.02);
    EXPECT_GT(std::stod(other.at("backend-cv_diff_ci_low")), 0.0);
    EXPECT_LE(std::stod(other.at("backend-cv_diff_ci_low")), std::stod(other.at("backend-cv_diff")));
    EXPECT_GE(std::stod(other.at("backend-cv_diff_ci_high")), std::stod(other.at("backend-cv_diff")));

    // The HTML report: the section, a table per run with the stored counts, and the split.
    const std::string page = test::readFile(html);
    EXPECT_NE(page.find("<section id=\"front-door\">"), std::string::npos);
    for (int id = 1; id <= 4; ++id) {
        EXPECT_NE(page.find("id=\"backends-" + std::to_string(id) + "\""), std::string::npos) << id;
        EXPECT_NE(page.find("id=\"split-" + std::to_string(id) + "\""), std::string::npos) << id;
    }
    EXPECT_NE(page.find("backend CV is "), std::string::npos); // the verdict, in the section's list

    // Each backend's row carries its stored count.
    const auto backends = test::runCli({ "export", "--db", db, "--run", "2", "--what", "backends", "--csv" });
    for (const CsvRow& row : csvRows(backends.out)) {
        const size_t table = page.find("id=\"backends-2\"");
        const size_t at = page.find("<td>" + row.at("backend") + "</td>", table);
        ASSERT_NE(at, std::string::npos) << row.at("backend");
        std::string count = row.at("requests");
        for (int i = static_cast<int>(count.size()) - 3; i > 0; i -= 3)
            count.insert(static_cast<size_t>(i), ",");
        EXPECT_EQ(page.find("<td class=\"num\">" + count + "</td>", at), page.find("<td class=\"num\">", at))
            << row.at("backend") << " " << count;
    }
}

TEST(BackendsStudyCli, AMetricTheRunsCannotMeasureIsRefused)
{
    TargetServerOptions o;
    o.backends = 2;
    TargetServer server(o);
    ASSERT_TRUE(server.start().ok());
    test::TempDir dir;
    const std::string db = dir.file("lab.wrkbench");
    run(db, "A", server.port(), true, { "-n", "200" });
    run(db, "B", server.port(), false, { "-n", "200" });
    auto r = test::runCli({ "study", "--db", db, "--runs", "1-2", "--metric", "backend-cv" });
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("run 2 was made without --backend-from: --metric backend-cv needs it"), std::string::npos)
        << r.err;
    r = test::runCli({ "study", "--db", db, "--runs", "1-2", "--metric", "total,per-thread" });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--metric: give one of total and per-thread, not both"), std::string::npos) << r.err;
    r = test::runCli({ "study", "--db", db, "--runs", "1-2", "--metric", "evenness" });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--metric: 'evenness' is none of total, per-thread, backend-cv, backend-max-min, "
                         "front-door-share"),
        std::string::npos)
        << r.err;

    // A plan asks for a metric its load cannot measure: refused before the first run, naming the field.
    const std::string plan = dir.file("plan.json");
    test::writeFile(plan,
        R"({"targets": [{"name": "A", "url": "http://127.0.0.1:)" + std::to_string(server.port())
            + R"(/"}, {"name": "B", "url": "http://127.0.0.1:)" + std::to_string(server.port())
            + R"(/"}], "metrics": ["front-door-share"], "load": {"backend_from": "body"}})");
    r = test::runCli({ "experiment", "--check", plan });
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("metrics[0]: 'front-door-share' needs \"upstream_time\" in \"load\""), std::string::npos)
        << r.err;
}
