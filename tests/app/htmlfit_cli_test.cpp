// The HTML reports fit the page: rendered by a real headless browser (Debian's chromium) in an
// iframe 1280 and 1920 px wide, the verdict column of the study report's results table and of
// the comparison report's table lies inside the viewport (no hidden horizontal scroller), and
// no latency cell of those tables carries a unit of its own (one unit per column, in its
// header). The comparison report is `wrkbench-cli export --run ... --html`: the container
// write-up's imported wrk logs beside one run measured here (microseconds beside milliseconds,
// what mixed "59.00us ± 11.31us" with "1.14ms" before).
//
// The reports forbid scripts (Content-Security-Policy); the measuring script runs in a harness
// page of its own that frames the report (file:// access between them allowed for the test).
#include "containerstudy.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <regex>

using namespace wb;

namespace {

std::string chromium()
{
    for (const char* name : { "chromium", "chromium-browser", "google-chrome" }) {
        const auto r = test::runProcess({ "sh", "-c", std::string("command -v ") + name }, 10'000);
        if (r.exitCode == 0 && !r.out.empty()) return r.out.substr(0, r.out.find('\n'));
    }
    return "";
}

struct Layout
{
    double verdictRight = -1; ///< the rightmost edge of a verdict cell, CSS px from the frame's left
    double width = 0; ///< the frame's viewport width
    int verdicts = 0; ///< verdict cells found
    int overflowing = 0; ///< tables whose scroller is wider than its box (a hidden part)
};

class HtmlFitCli : public ::testing::Test
{
protected:
    void SetUp() override { m_db = m_dir.file("lab.wrkbench"); }

    test::ProcessResult cli(std::vector<std::string> args) { return test::runCli(std::move(args), 60'000); }

    void makeRuns()
    {
        ASSERT_NO_FATAL_FAILURE(test::importContainerStudy(m_db));
        const auto run = cli({ "run", "--db", m_db, "--target", "rocket on this machine, measured", "--tag", "native",
            "--tag", "rocket", "-t1", "-c2", "-n", "200", "--latency", "http://builtin/" });
        ASSERT_EQ(run.exitCode, 0) << run.err;
    }

    /// The layout of the report at path in a frame width px wide, measured by chromium.
    Layout measure(const std::string& browser, const std::string& path, int width)
    {
        const std::string harness = m_dir.file("harness-" + std::to_string(width) + ".html");
        test::writeFile(harness,
            "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"f\" src=\"file://" + path
                + "\" style=\"width:" + std::to_string(width)
                + "px;height:1000px;border:0\"></iframe><pre id=\"out\">pending</pre><script>\n"
                  "window.addEventListener('load', function () {\n"
                  "  var f = document.getElementById('f'), d = f.contentDocument, w = f.contentWindow;\n"
                  "  var right = -1, cells = d.querySelectorAll('.verdict');\n"
                  "  for (var i = 0; i < cells.length; ++i) right = Math.max(right, "
                  "cells[i].getBoundingClientRect().right);\n"
                  "  var over = 0, scrollers = d.querySelectorAll('.scroll');\n"
                  "  for (var j = 0; j < scrollers.length; ++j)\n"
                  "    if (scrollers[j].querySelector('.verdict') && scrollers[j].scrollWidth > "
                  "scrollers[j].clientWidth) ++over;\n"
                  "  document.getElementById('out').textContent = 'right=' + right + ';width=' + w.innerWidth\n"
                  "    + ';verdicts=' + cells.length + ';over=' + over + ';';\n"
                  "});\n</script></body></html>\n");
        const auto dom = test::runProcess(
            { browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=" + m_dir.file("profile"), "--allow-file-access-from-files",
                "--window-size=" + std::to_string(width + 40) + ",1200", "--dump-dom", "file://" + harness },
            120'000);
        EXPECT_EQ(dom.exitCode, 0) << dom.err;
        std::smatch m;
        Layout layout;
        const std::regex out("right=([-0-9.]+);width=([0-9.]+);verdicts=([0-9]+);over=([0-9]+);");
        if (!std::regex_search(dom.out, m, out)) {
            ADD_FAILURE() << "no measurement in the page: " << dom.out.substr(0, 3000);
            return layout;
        }
        layout.verdictRight = std::stod(m[1]);
        layout.width = std::stod(m[2]);
        layout.verdicts = std::stoi(m[3]);
        layout.overflowing = std::stoi(m[4]);
        return layout;
    }

    /// The cells of a table that carry a latency unit of their own ("59.00us", "1.14ms", "2s").
    static std::vector<std::string> cellsWithUnits(const std::string& html, const std::string& tableId)
    {
        const size_t at = html.find("<table id=\"" + tableId + "\"");
        EXPECT_NE(at, std::string::npos) << tableId;
        const std::string table = at == std::string::npos ? "" : html.substr(at, html.find("</table>", at) - at);
        std::vector<std::string> out;
        const std::regex cell("<td class=\"num\">([^<]*)</td>");
        for (auto it = std::sregex_iterator(table.begin(), table.end(), cell); it != std::sregex_iterator(); ++it)
            if (std::regex_search((*it)[1].str(), std::regex("[0-9](us|ms|s|\xC2\xB5s)\\b")))
                out.push_back((*it)[1].str());
        return out;
    }

    test::TempDir m_dir;
    std::string m_db;
};

} // namespace

TEST_F(HtmlFitCli, StudyReportVerdictColumnIsInsideTheViewport)
{
    const std::string browser = chromium();
    if (browser.empty()) {
        if (test::underCi()) FAIL() << "no chromium on PATH, and CI must render the report in a browser";
        GTEST_SKIP() << "no chromium on PATH (packaging/install-deps.sh installs it)";
    }
    ASSERT_NO_FATAL_FAILURE(makeRuns());
    const std::string path = m_dir.file("study.html");
    const auto r = cli({ "study", "--db", m_db, "--runs", "1-9", "--variant-by-tags", "native,docker,kubernetes",
        "--group-by-tags", "http-pkg,go-gin,actix,rocket", "--level", "none", "--html", path });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string html = test::readFile(path);
    EXPECT_TRUE(cellsWithUnits(html, "results-table").empty()) << cellsWithUnits(html, "results-table").front();
    for (const int width : { 1280, 1920 }) {
        const Layout layout = measure(browser, path, width);
        EXPECT_EQ(layout.width, width);
        EXPECT_GE(layout.verdicts, 5) << width; // the header and one per row
        EXPECT_GT(layout.verdictRight, 0) << width;
        EXPECT_LE(layout.verdictRight, layout.width) << "the verdict column ends outside a " << width << " px page";
        EXPECT_EQ(layout.overflowing, 0) << "the results table scrolls sideways at " << width << " px";
    }
}

TEST_F(HtmlFitCli, ComparisonOfRunsExportsAsHtmlThatFits)
{
    ASSERT_NO_FATAL_FAILURE(makeRuns());
    const std::string path = m_dir.file("comparison.html");
    const auto r = cli({ "export", "--db", m_db, "--run", "7", "--run", "8", "--run", "9", "--html", path });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string html = test::readFile(path);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
    EXPECT_NE(html.find("<table id=\"comparison-table\" class=\"fit\">"), std::string::npos);
    EXPECT_NE(html.find("<tr class=\"baseline\" id=\"run-7\">"), std::string::npos);
    EXPECT_NE(html.find("<table id=\"config-table\" class=\"fit\">"), std::string::npos);
    EXPECT_NE(html.find("rocket on this machine, measured"), std::string::npos);
    EXPECT_TRUE(cellsWithUnits(html, "comparison-table").empty());
    // To stdout with "-", and a format must be chosen.
    const auto out = cli({ "export", "--db", m_db, "--run", "7", "--run", "9", "--html", "-" });
    ASSERT_EQ(out.exitCode, 0) << out.err;
    EXPECT_EQ(out.out.rfind("<!DOCTYPE html>", 0), 0U);
    const auto none = cli({ "export", "--db", m_db, "--run", "7" });
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("choose one output format: --csv [OUT], --html [OUT]"), std::string::npos) << none.err;
    const auto noWhat = cli({ "export", "--db", m_db, "--run", "7", "--csv" });
    EXPECT_EQ(noWhat.exitCode, 2);
    EXPECT_NE(noWhat.err.find("--csv needs --what"), std::string::npos) << noWhat.err;

    const std::string browser = chromium();
    if (browser.empty()) {
        if (test::underCi()) FAIL() << "no chromium on PATH, and CI must render the report in a browser";
        GTEST_SKIP() << "no chromium on PATH (packaging/install-deps.sh installs it)";
    }
    for (const int width : { 1280, 1920 }) {
        const Layout layout = measure(browser, path, width);
        EXPECT_EQ(layout.verdicts, 4) << width;
        EXPECT_GT(layout.verdictRight, 0) << width;
        EXPECT_LE(layout.verdictRight, layout.width) << width;
        EXPECT_EQ(layout.overflowing, 0) << width;
    }
}
