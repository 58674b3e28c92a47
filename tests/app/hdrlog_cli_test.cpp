// wrkbench-cli --hdr-log: an HdrHistogram interval log (HistogramLogWriter's format)
// whose intervals, decoded and added, are exactly the run's whole histograms.

#include "stats/hdrcodec.h"
#include "testsupport.h"

#include <chrono>
#include <csignal>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

using namespace wb;
using nlohmann::json;

namespace {

struct LogLine
{
    std::string tag;
    double startS = 0;
    double lengthS = 0;
    double maxMs = 0;
    LatencyHistogram histogram;
};

struct Log
{
    std::vector<std::string> comments;
    bool legend = false;
    std::vector<LogLine> lines;
};

// Parses the log the way HistogramLogReader does; every line must be whole and decodable.
Log parseLog(const std::string& text)
{
    Log log;
    for (const std::string& line : test::splitLines(text)) {
        if (line.rfind("#", 0) == 0) {
            log.comments.push_back(line);
            continue;
        }
        if (line == "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"") {
            log.legend = true;
            continue;
        }
        std::vector<std::string> fields;
        size_t from = 0;
        for (size_t comma; (comma = line.find(',', from)) != std::string::npos; from = comma + 1)
            fields.push_back(line.substr(from, comma - from));
        fields.push_back(line.substr(from));
        EXPECT_EQ(fields.size(), 5u) << line;
        if (fields.size() != 5) continue;
        EXPECT_EQ(fields[0].rfind("Tag=", 0), 0u) << line;
        LogLine l;
        l.tag = fields[0].substr(4);
        l.startS = std::stod(fields[1]);
        l.lengthS = std::stod(fields[2]);
        l.maxMs = std::stod(fields[3]);
        auto h = decodeHdrBase64(fields[4]);
        EXPECT_TRUE(h.ok()) << h.error() << ": " << line;
        if (h.ok()) l.histogram = *h;
        log.lines.push_back(std::move(l));
    }
    return log;
}

} // namespace

TEST(HdrLogCli, IntervalsAddUpToTheRun)
{
    test::TempDir dir;
    const std::string logPath = dir.file("run.hlog");
    const std::string jsonPath = dir.file("run.json");
    const auto r = test::runCli(
        { "-t2", "-c4", "-d1s", "--interval", "200ms", "--hdr-log", logPath, "--json", jsonPath, "http://builtin/" },
        120'000);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // ordered: the histograms in the order the file lists them
    const auto doc = nlohmann::ordered_json::parse(test::readFile(jsonPath));
    const Log log = parseLog(test::readFile(logPath));

    ASSERT_GE(log.comments.size(), 3u);
    EXPECT_EQ(log.comments[0], "#[Histogram log format version 1.3]");
    const auto startMs = doc["summary"]["start_unix_ms"].get<int64_t>();
    const std::string seconds = std::to_string(startMs / 1000) + ".";
    int startTimes = 0, baseTimes = 0;
    for (const std::string& c : log.comments) {
        if (c.rfind("#[StartTime: " + seconds, 0) == 0) ++startTimes;
        if (c.rfind("#[BaseTime: " + seconds, 0) == 0) ++baseTimes;
    }
    EXPECT_EQ(startTimes, 1);
    EXPECT_EQ(baseTimes, 1);
    EXPECT_TRUE(log.legend);

    // One line per interval and histogram of the JSON, in the JSON's key order.
    const auto& intervals = doc["intervals"];
    std::vector<std::string> keys;
    for (const auto& [key, value] : doc["summary"]["histograms"].items())
        keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string> { "latency", "connect", "ttfb" }));
    ASSERT_EQ(log.lines.size(), intervals.size() * keys.size());
    std::map<std::string, LatencyHistogram> added;
    for (size_t i = 0; i < log.lines.size(); ++i) {
        const LogLine& l = log.lines[i];
        const auto& interval = intervals[i / keys.size()];
        EXPECT_EQ(l.tag, keys[i % keys.size()]);
        EXPECT_NEAR(l.startS, interval["start_s"].get<double>(), 0.0005);
        EXPECT_NEAR(l.startS + l.lengthS, interval["t_s"].get<double>(), 0.001);
        // Interval_Max: the exact maximum in milliseconds.
        EXPECT_NEAR(l.maxMs, interval["histogram_totals"][l.tag]["max_us"].get<double>() / 1000.0, 0.0005);
        EXPECT_EQ(l.histogram.count(), interval["histogram_totals"][l.tag]["count"].get<uint64_t>());
        added[l.tag].merge(l.histogram);
    }
    for (const std::string& key : keys) {
        auto whole = decodeHdrBase64(doc["summary"]["histograms"][key].get<std::string>());
        ASSERT_TRUE(whole.ok()) << whole.error();
        EXPECT_EQ(added[key].count(), doc["summary"]["histogram_totals"][key]["count"].get<uint64_t>()) << key;
        EXPECT_TRUE(
            std::equal(whole->bucketCounts().begin(), whole->bucketCounts().end(), added[key].bucketCounts().begin()))
            << key;
    }
    EXPECT_EQ(added["latency"].count(), doc["summary"]["requests"].get<uint64_t>());
}

TEST(HdrLogCli, OpenModelAddsTheServiceTime)
{
    test::TempDir dir;
    const std::string logPath = dir.file("run.hlog");
    const auto r
        = test::runCli({ "-t1", "-c2", "-R", "500", "-n", "100", "--hdr-log", logPath, "http://builtin/" }, 120'000);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Log log = parseLog(test::readFile(logPath));
    ASSERT_FALSE(log.lines.empty());
    std::vector<std::string> tags;
    for (size_t i = 0; i < 5 && i < log.lines.size(); ++i)
        tags.push_back(log.lines[i].tag);
    EXPECT_EQ(tags, (std::vector<std::string> { "latency", "service", "send_lag", "connect", "ttfb" }));
    EXPECT_EQ(log.lines.size() % 5, 0u);
}

TEST(HdrLogCli, UnwritablePathIsRefusedBeforeAnyLoad)
{
    test::TempDir dir;
    const auto r = test::runCli({ "-n", "100", "--hdr-log", dir.file("missing/run.hlog"), "http://builtin/" });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(test::splitLines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("cannot write the HdrHistogram log '" + dir.file("missing/run.hlog") + "'"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, ""); // not even the "Running ..." header: no load
}

TEST(HdrLogCli, AKilledRunLeavesAValidLog)
{
    test::TempDir dir;
    const std::string logPath = dir.file("run.hlog");
    test::ChildProcess child;
    ASSERT_TRUE(child.start(
        { test::cliPath(), "-t1", "-c2", "-d60s", "--interval", "100ms", "--hdr-log", logPath, "http://builtin/" },
        dir.file("cli.log")));
    // Wait (generously) until a few intervals are in, then kill it without a chance to clean up.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(test::scaledMs(30'000));
    size_t lines = 0;
    while (std::chrono::steady_clock::now() < deadline) {
        lines = test::splitLines(test::readFile(logPath)).size();
        if (lines >= 5 + 3 * 3) break; // 2 comments, StartTime, BaseTime, legend; 3 intervals
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    child.signalAndWait(SIGKILL, 10'000);
    ASSERT_GE(lines, 14u) << test::readFile(dir.file("cli.log"));
    const std::string text = test::readFile(logPath);
    EXPECT_EQ(text.back(), '\n');
    const Log log = parseLog(text);
    EXPECT_TRUE(log.legend);
    EXPECT_EQ(log.lines.size() % 3, 0u); // whole intervals: written and flushed one at a time
    EXPECT_GE(log.lines.size(), 9u);
}
