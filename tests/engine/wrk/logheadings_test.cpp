// --tag-headings: the heading each report of a pasted log sits under.

#include "wrk/logheadings.h"
#include "wrk/wrklog.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

std::string report(const std::string& url, int rps)
{
    return "Running 10s test @ " + url
        + "\n  2 threads and 25 connections\n"
          "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
          "    Latency     1.00ms    0.50ms  10.00ms   80.00%\n"
          "    Req/Sec     5.00k     1.00k    9.00k    70.00%\n"
          "  100000 requests in 10.00s, 10.00MB read\n"
          "Requests/sec: "
        + std::to_string(rps) + ".00\nTransfer/sec:      1.00MB\n";
}

} // namespace

TEST(LogHeadings, WhatCountsAsAHeading)
{
    EXPECT_EQ(headingOf("# 4-node cluster"), "4-node cluster");
    EXPECT_EQ(headingOf("  ### NEG, c100  "), "NEG c100"); // a comma would split the tag list
    EXPECT_EQ(headingOf("> ## quoted"), "quoted");
    EXPECT_EQ(headingOf("10-nodes.md"), "10-nodes");
    EXPECT_EQ(headingOf("results/c100.TXT:"), "c100");
    EXPECT_EQ(headingOf("#no-space"), "");
    EXPECT_EQ(headingOf("# wrk -t2 -c25 -d10s http://x/"), ""); // a root prompt
    EXPECT_EQ(headingOf("see the notes in results.md"), "");
    EXPECT_EQ(headingOf("plain prose"), "");
    EXPECT_EQ(headingOf("#"), "");
    EXPECT_EQ(headingOf("# bad \xff byte"), "bad ? byte");
    EXPECT_EQ(headingOf("# " + std::string(300, 'a')).size(), 100u);
}

TEST(LogHeadings, EachReportGetsTheNearestHeadingAboveIt)
{
    const std::string text = "notes from the loader VM\n\n" + report("http://a/", 1) + "# 4 nodes\n"
        + "$ wrk -t2 -c25 -d10s http://neg/\n" + report("http://neg/", 2) + report("http://nodeport/", 3)
        + "10-nodes.md\n" + report("http://neg/", 4);
    const WrkLogParseResult parsed = parseWrkLog(text);
    ASSERT_EQ(parsed.reports.size(), 4u);
    EXPECT_EQ(
        reportHeadings(text, parsed.reports), (std::vector<std::string> { "", "4 nodes", "4 nodes", "10-nodes" }));
}
