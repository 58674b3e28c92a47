// wrkbench-cli against what someone else made: a metrics endpoint that prints bytes that are not
// UTF-8 and terminal escape sequences, or new names at every scrape; a session whose names carry
// the same, or a configuration nested thousands of levels deep; a request mix nested deeper still;
// patterns that make a backtracking engine spin. Each input is built here, and each case ends in
// a run that completes, valid JSON, text escaped on the way to the terminal, a one-line refusal,
// or a bounded peak RSS.

#include "common/text.h"
#include "scriptedserver.h"
#include "testsupport.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <gtest/gtest.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

using namespace wb;
using nlohmann::json;

namespace {

// What a compromised target, a broken exporter or a hostile colleague's session says: two bytes
// that are not UTF-8, then a window title, a screen clear and an OSC 52 clipboard write.
const std::string HOSTILE = "\xff\xfe\x1b]0;TITLE\x07\x1b[2J\x1b]52;c;aGk=\x07";
const std::string HOSTILE_SHOWN = "\xef\xbf\xbd\xef\xbf\xbd\\x1b]0;TITLE\\x07\\x1b[2J\\x1b]52;c;aGk=\\x07";

/// Text that may reach a terminal (common/text.h says what terminalText leaves).
::testing::AssertionResult terminalSafe(const std::string& text)
{
    if (isTerminalText(text)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "a control byte or bad UTF-8 in: " << text;
}

std::string metricsAnswer(const std::string& body)
{
    return test::ScriptedServer::response("200 OK", "Content-Type: text/plain; version=0.0.4\r\n", body);
}

/// Runs sql on a session file with one text parameter.
void execute(const std::string& path, const std::string& sql, const std::string& text)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_bind_text(stmt, 1, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE) << sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

/// A sanitizer build's process is larger by its shadow memory; the bounds below leave room.
long rssBoundKb(long kb)
{
    return test::timeScale() > 1 ? 3 * kb : kb;
}

} // namespace

// A label value that is not UTF-8 aborted the CLI after the run (nlohmann's type_error 316): no
// JSON written, and every later export of the run aborted the same way. Its escape sequences
// reached the terminal in the report's target-metrics block and in CSV on stdout.
TEST(UntrustedCli, ScrapedLabelsThatAreNotTextBecomeText)
{
    test::ScriptedServer endpoint(
        [](const std::string&) { return metricsAnswer("# TYPE hostile gauge\nhostile{v=\"" + HOSTILE + "\"} 1\n"); });
    test::TempDir dir;
    const std::string db = dir.file("s.wrkbench");
    const std::string out = dir.file("run.json");
    const auto run = test::runCli({ "run", "-t1", "-c1", "-d1s", "--interval", "500ms", "http://builtin/", "--scrape",
        "h=" + endpoint.url("/metrics"), "--scrape-metric", "hostile", "--db", db, "--json", out });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(terminalSafe(run.out));
    EXPECT_TRUE(terminalSafe(run.err));
    EXPECT_NE(run.out.find("hostile{v=\"" + HOSTILE_SHOWN + "\"}"), std::string::npos) << run.out;

    // Strict JSON: nlohmann refuses a file that is not UTF-8. The name is the endpoint's, its
    // bad bytes U+FFFD and its controls as they were (JSON escapes them).
    const std::string expectedName = "hostile{v=\"\xef\xbf\xbd\xef\xbf\xbd" + HOSTILE.substr(2) + "\"}";
    const json report = json::parse(test::readFile(out));
    ASSERT_FALSE(report["scrape"]["series"].empty()) << report["scrape"].dump();
    EXPECT_EQ(report["scrape"]["series"][0]["name"], expectedName);

    const auto exported = test::runCli({ "export", "--db", db, "--run", "1", "--what", "scrape", "--json" });
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    EXPECT_TRUE(terminalSafe(exported.out));
    EXPECT_EQ(json::parse(exported.out)[0]["scrape"]["series"][0]["name"], expectedName);
    const auto csv = test::runCli({ "export", "--db", db, "--run", "1", "--what", "scrape", "--csv" });
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_TRUE(terminalSafe(csv.out));
    EXPECT_NE(csv.out.find(HOSTILE_SHOWN), std::string::npos) << csv.out;
}

// Names from a session reach `runs`, CSV on stdout and error messages escaped, whoever wrote them;
// `study` of a target whose name is not UTF-8 aborted like the scrape above.
TEST(UntrustedCli, SessionNamesReachTheTerminalEscaped)
{
    test::TempDir dir;
    const std::string db = dir.file("s.wrkbench");
    const std::string name = "evil" + HOSTILE;
    ASSERT_EQ(
        test::runCli({ "run", "-t1", "-c1", "-n", "100", "http://builtin/", "--db", db, "--target", name }).exitCode,
        0);
    execute(db, "UPDATE runs SET notes = ?1, host_name = ?1", HOSTILE);
    execute(db, "INSERT INTO run_tags (run_id, tag) VALUES (1, ?1)", "tag" + HOSTILE);

    for (const std::vector<std::string>& args :
        std::vector<std::vector<std::string>> { { "runs", "--db", db }, { "runs", "--db", db, "--csv" },
            { "study", "--db", db, "--runs", "1" }, { "study", "--db", db, "--runs", "1", "--markdown", "-" } }) {
        const auto r = test::runCli(args);
        ASSERT_EQ(r.exitCode, 0) << args[0] << ": " << r.err;
        EXPECT_TRUE(terminalSafe(r.out)) << args[0];
        EXPECT_TRUE(terminalSafe(r.err)) << args[0];
        EXPECT_NE(r.out.find("evil" + HOSTILE_SHOWN), std::string::npos) << r.out;
    }
    const auto html = test::runCli({ "study", "--db", db, "--runs", "1", "--html", dir.file("s.html") });
    ASSERT_EQ(html.exitCode, 0) << html.err;
    const std::string page = test::readFile(dir.file("s.html"));
    EXPECT_TRUE(isValidUtf8(page));

    // An error message quoting a file: a request mix's line with the same bytes.
    const std::string mix = dir.file("mix.txt");
    test::writeFile(mix, "GET http://builtin/\nX-Name" + HOSTILE + "\n");
    const auto refused = test::runCli({ "run", "-d1s", "--requests", mix });
    EXPECT_EQ(refused.exitCode, 2) << refused.err;
    EXPECT_TRUE(terminalSafe(refused.err));
    EXPECT_NE(refused.err.find("\\x1b]0;TITLE"), std::string::npos) << refused.err;
}

// A JSON Lines request mix whose second line nests 100,000 levels: the CLI crashed (SIGSEGV) on
// the stack overflow of building its error message. Now one line says what is wrong.
TEST(UntrustedCli, ARequestMixNestedDeeplyIsOneLineError)
{
    test::TempDir dir;
    const std::string mix = dir.file("mix.jsonl");
    test::writeFile(
        mix, "{\"url\": \"http://builtin/\"}\n" + std::string(100'000, '[') + std::string(100'000, ']') + "\n");
    const auto r = test::runCli({ "run", "-d1s", "--requests", mix });
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_EQ(r.err, "wrkbench-cli: error: " + mix + ":2: invalid JSON: nested deeper than 64 levels\n");
}

// '(a|aa)+b' backtracks without end in std::regex against a's: a run against a body of a's
// spun at 100% CPU past its -d, and Ctrl-C did not stop it. The same for --scrape-metric against
// a metric name of a's. Each run now ends on its own (the test's guard is only against a hang),
// and what RE2 cannot run in linear time is refused in one line.
TEST(UntrustedCli, UsersPatternsRunInLinearTimeOrAreRefused)
{
    const int hangGuardMs = test::scaledMs(120'000);
    const auto body
        = test::runCli({ "run", "-t1", "-c1", "-d1s", "-n", "100", "-X", "POST", "--body", std::string(3000, 'a'),
                           "--backend-from", "body-regex:(a|aa)+b", "http://builtin/echo" },
            hangGuardMs);
    ASSERT_FALSE(body.timedOut) << "the run did not end";
    EXPECT_EQ(body.exitCode, 0) << body.err;
    EXPECT_NE(body.out.find("responses named no backend"), std::string::npos) << body.out;

    test::ScriptedServer endpoint(
        [](const std::string&) { return metricsAnswer(std::string(500, 'a') + " 1\nother 2\n"); });
    const auto scrape = test::runCli({ "run", "-t1", "-c1", "-d1s", "http://builtin/", "--scrape",
                                         "h=" + endpoint.url("/metrics"), "--scrape-metric", "(a|aa)+b" },
        hangGuardMs);
    ASSERT_FALSE(scrape.timedOut) << "the run did not end";
    EXPECT_EQ(scrape.exitCode, 0) << scrape.err;

    for (const std::vector<std::string>& flag :
        std::vector<std::vector<std::string>> { { "--backend-from", "body-regex:(a)\\1" },
            { "--scrape", "http://builtin/metrics", "--scrape-metric", "x(?=y)" } }) {
        std::vector<std::string> args { "run", "-d1s", "http://builtin/" };
        args.insert(args.end(), flag.begin(), flag.end());
        const auto r = test::runCli(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(test::splitLines(r.err).size(), 1u) << r.err;
        EXPECT_NE(r.err.find("no backreferences or lookaround"), std::string::npos) << r.err;
    }
}

// An endpoint that prints 20,000 names never seen before at every scrape, scraped with a
// --scrape-metric that keeps everything: every name was remembered, and the process grew by
// each scrape's names (200 MB to 658 MB in a minute). Peak RSS after many scrapes is now what it
// is after a few.
TEST(UntrustedCli, ScraperMemoryIsBoundedWhenEveryScrapePrintsNewNames)
{
    std::atomic<unsigned> scrapes { 0 };
    test::ScriptedServer endpoint([&scrapes](const std::string&) {
        const unsigned n = scrapes++;
        std::string body;
        const std::string pad(200, 'x');
        body.reserve(20'000 * (pad.size() + 24));
        for (unsigned i = 0; i < 20'000; ++i)
            body += "gen_" + std::to_string(n) + "_" + std::to_string(i) + "_" + pad + " 1\n";
        return metricsAnswer(body);
    });
    // The child's peak RSS is the program's memory, not a sanitizer's quarantine of freed blocks.
    const char* asan = std::getenv("ASAN_OPTIONS");
    ::setenv("ASAN_OPTIONS", (std::string(asan ? asan : "") + ":quarantine_size_mb=16").c_str(), 1);
    test::TempDir dir;
    // Scrapes 2 s apart: a scrape may take 80% of that (20,000 new names parsed, under ASan on a busy
    // machine a second and more), so nearly every one answers. The load is what the scrapes need
    // (a run), at a rate that leaves the CPU to them and to other tests.
    const auto run = [&](const char* duration, const std::string& out) {
        return test::runCli({ "run", "-t1", "-c1", "-R", "200", duration, "--interval", "2s", "http://builtin/",
                                "--scrape", "h=" + endpoint.url("/metrics"), "--scrape-metric", ".*", "--json", out },
            test::scaledMs(180'000));
    };
    const auto answered = [](const std::string& path) {
        const json e = json::parse(test::readFile(path))["scrape"]["endpoints"][0];
        return e["scrapes"].get<int>() - e["failures"].get<int>();
    };
    // What each child adds to the pages it shares with this process at fork (test::ownRssKb).
    const long fewShared = test::ownRssKb();
    const auto few = run("-d4s", dir.file("few.json"));
    ASSERT_EQ(few.exitCode, 0) << few.err;
    const long manyShared = test::ownRssKb();
    const auto many = run("-d30s", dir.file("many.json"));
    ASSERT_EQ(many.exitCode, 0) << many.err;
    const int fewScrapes = answered(dir.file("few.json"));
    const int manyScrapes = answered(dir.file("many.json"));
    // A machine too busy to answer enough more scrapes (each timed out: the bound is the interval's)
    // shows no growth either way: said with its figures, not judged.
    if (manyScrapes < fewScrapes + 6)
        GTEST_SKIP() << "only " << manyScrapes << " scrapes answered in 30 s against " << fewScrapes
                     << " in 4 s: too few more to show growth";
    const std::string figures = std::to_string(fewScrapes) + " scrapes: " + std::to_string(few.peakRssKb) + " KB peak, "
        + std::to_string(manyScrapes) + " scrapes: " + std::to_string(many.peakRssKb) + " KB peak";
    std::cout << "peak RSS: " << figures << "\n";
    // Each scrape's names took some 6 MB where they were remembered: six more scrapes, 36 MB more.
    EXPECT_LT(many.peakRssKb - std::min(manyShared, many.peakRssKb),
        few.peakRssKb - std::min(fewShared, few.peakRssKb) + rssBoundKb(24 * 1024))
        << figures << " (this process: " << fewShared << " and " << manyShared << " KB)";
}

// A stored configuration nested 5,000 levels deep (10 KB in the session file) became a 50 MB
// page, pretty-printed level by level; 400 KB of it passed 7.9 GB.
TEST(UntrustedCli, HtmlReportOfADeeplyNestedConfigurationIsBounded)
{
    test::TempDir dir;
    const std::string db = dir.file("s.wrkbench");
    ASSERT_EQ(test::runCli({ "run", "-t1", "-c1", "-n", "100", "http://builtin/", "--db", db }).exitCode, 0);
    const std::string nested = std::string(5'000, '[') + std::string(5'000, ']');
    execute(db, "UPDATE runs SET config = substr(config, 1, length(config) - 1) || ', \"x\": ' || ?1 || '}'", nested);

    const auto r = test::runCli({ "study", "--db", db, "--runs", "1", "--html", dir.file("study.html") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string page = test::readFile(dir.file("study.html"));
    EXPECT_NE(page.find("Run 1 ("), std::string::npos) << "the run's configuration block is there";
    EXPECT_NE(page.find("[[[[[[[["), std::string::npos) << "shown as stored";
    EXPECT_LT(page.size(), 1u << 20);
    EXPECT_LT(r.peakRssKb, test::ownRssKb() + rssBoundKb(100 * 1024));
}
