// wrkbench-cli study / experiment-report --html: the self-contained report of a study
// made of the container write-up's imported logs and one measured run of a target named
// <script>alert(1)</script>, read as a file, then rendered by a real headless browser
// (Debian's chromium): its DOM has the results table, the warning row and the SVG charts,
// the script stays text, and the screenshot is a page, not a blank.
#include "containerstudy.h"
#include "testsupport.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>

using namespace wb;

namespace {

const std::string EVIL = "<script>alert(1)</script>";

/// The browser on PATH ("" when none).
std::string chromium()
{
    for (const char* name : { "chromium", "chromium-browser", "google-chrome" }) {
        const auto r = test::runProcess({ "sh", "-c", std::string("command -v ") + name }, 10'000);
        if (r.exitCode == 0 && !r.out.empty()) return r.out.substr(0, r.out.find('\n'));
    }
    return "";
}

#define WB_REQUIRE_CHROMIUM(browser)                                                                                   \
    do {                                                                                                               \
        if ((browser).empty()) {                                                                                       \
            if (test::underCi()) FAIL() << "no chromium on PATH, and CI must render the report in a browser";          \
            GTEST_SKIP() << "no chromium on PATH (packaging/install-deps.sh installs it)";                             \
        }                                                                                                              \
    } while (false)

class HtmlReportCli : public ::testing::Test
{
protected:
    void SetUp() override { m_db = m_dir.file("lab.wrkbench"); }

    test::ProcessResult cli(std::vector<std::string> args) { return test::runCli(std::move(args), 60'000); }

    // Runs 1-8: the container study's reports, imported and tagged; run 9: measured here against the
    // built-in server, tagged as rocket's native run beside the imported one.
    void makeStudy()
    {
        ASSERT_NO_FATAL_FAILURE(test::importContainerStudy(m_db));
        const auto run = cli({ "run", "--db", m_db, "--target", EVIL, "--tag", "native", "--tag", "rocket", "-t1",
            "-c2", "-n", "200", "--latency", "http://builtin/" });
        ASSERT_EQ(run.exitCode, 0) << run.err;
        ASSERT_NE(run.out.find("Stored as run 9"), std::string::npos) << run.out;
    }

    std::vector<std::string> studyArgs(const std::string& html)
    {
        return { "study", "--db", m_db, "--runs", "1-9", "--variant-by-tags", "native,docker,kubernetes",
            "--group-by-tags", "http-pkg,go-gin,actix,rocket", "--level", "none", "--html", html };
    }

    test::TempDir m_dir;
    std::string m_db;
};

} // namespace

TEST_F(HtmlReportCli, StudyWritesOneEscapedFileWithAWarningRow)
{
    ASSERT_NO_FATAL_FAILURE(makeStudy());
    const std::string path = m_dir.file("study.html");
    const auto r = cli(studyArgs(path));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // The terminal table carries the warning too.
    EXPECT_NE(r.out.find("WARNING rocket, all: the runs differ in more than the variant: threads"), std::string::npos)
        << r.out;
    const std::string html = test::readFile(path);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    // The measured run may also differ in "loader saturated" (whether its loader had CPU to spare
    // depends on what else this machine did meanwhile): the row says the rest either way.
    EXPECT_NE(html.find("<tr class=\"warning\"><td colspan=\"12\">\xE2\x9A\xA0 rocket, all: not comparable, the runs "
                        "differ in threads, connections, duration, engine version, imported vs measured"),
        std::string::npos);
    EXPECT_NE(html.find("<tr id=\"run-9\">"), std::string::npos);

    // experiment-report re-reports the stored study, to stdout with '-' (which then carries nothing else).
    const auto again = cli({ "experiment-report", "--db", m_db, "--experiment", "1", "--html", "-" });
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(again.out.rfind("<!DOCTYPE html>", 0), 0U);
    EXPECT_NE(again.out.find("<table id=\"results-table\" class=\"fit\">"), std::string::npos);
    EXPECT_NE(again.out.find("<tr class=\"warning\">"), std::string::npos);
    EXPECT_EQ(again.out.find("WARNING"), std::string::npos); // no terminal table mixed in

    // A file that cannot be written: one line, exit 1.
    const auto bad = cli(
        { "experiment-report", "--db", m_db, "--experiment", "1", "--html", m_dir.file("missing-dir/report.html") });
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("cannot write '" + m_dir.file("missing-dir/report.html") + "'"), std::string::npos)
        << bad.err;
}

TEST_F(HtmlReportCli, RendersInAHeadlessBrowser)
{
    const std::string browser = chromium();
    WB_REQUIRE_CHROMIUM(browser);
    ASSERT_NO_FATAL_FAILURE(makeStudy());
    const std::string path = m_dir.file("study.html");
    ASSERT_EQ(cli(studyArgs(path)).exitCode, 0);

    // Its own profile in the temporary directory; no sandbox (tests may run as root in a container).
    const std::vector<std::string> common { browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--user-data-dir=" + m_dir.file("profile"), "--window-size=1200,1600" };
    auto dumpArgs = common;
    dumpArgs.insert(dumpArgs.end(), { "--dump-dom", "file://" + path });
    const auto dom = test::runProcess(dumpArgs, 120'000);
    ASSERT_EQ(dom.exitCode, 0) << dom.err;
    // The DOM as the browser built it: the tables, the warning row, three charts... and no script element.
    EXPECT_NE(dom.out.find("<table id=\"results-table\" class=\"fit\">"), std::string::npos) << dom.out.substr(0, 2000);
    EXPECT_NE(dom.out.find("<table id=\"runs-table\">"), std::string::npos);
    EXPECT_NE(dom.out.find("<tr class=\"warning\">"), std::string::npos);
    EXPECT_NE(dom.out.find("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\""), std::string::npos);
    EXPECT_NE(dom.out.find("<g class=\"bars\""), std::string::npos);
    EXPECT_EQ(dom.out.find("<script"), std::string::npos);
    EXPECT_NE(dom.out.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);

    auto shotArgs = common;
    const std::string png = m_dir.file("study.png");
    shotArgs.insert(shotArgs.end(), { "--screenshot=" + png, "file://" + path });
    const auto shot = test::runProcess(shotArgs, 120'000);
    ASSERT_EQ(shot.exitCode, 0) << shot.err;
    const std::string image = test::readFile(png);
    ASSERT_GT(image.size(), 24U);
    EXPECT_EQ(image.substr(1, 3), "PNG");
    // IHDR: the page at the window's size.
    const auto be32 = [&](size_t at) {
        return (static_cast<uint32_t>(static_cast<unsigned char>(image[at])) << 24)
            | (static_cast<uint32_t>(static_cast<unsigned char>(image[at + 1])) << 16)
            | (static_cast<uint32_t>(static_cast<unsigned char>(image[at + 2])) << 8)
            | static_cast<uint32_t>(static_cast<unsigned char>(image[at + 3]));
    };
    EXPECT_EQ(be32(16), 1200U);
    EXPECT_EQ(be32(20), 1600U);
    // A blank page compresses to a few KB; tables, text and coloured charts do not.
    EXPECT_GT(image.size(), 60'000U) << "a near-empty screenshot: " << image.size() << " bytes";
}
