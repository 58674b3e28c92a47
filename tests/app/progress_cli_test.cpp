// A long run on a terminal shows its progress on stderr, one line rewritten at every interval and
// erased before the report; stdout and a stderr that is a pipe are as without it; --quiet turns it
// off. The terminal is a real pseudo-terminal (openpty), the target the built-in server.

#include "serve/targetserver.h"
#include "testsupport.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <regex>
#include <sys/wait.h>
#include <unistd.h>

using namespace wb;

namespace {

struct TerminalRun
{
    int exitCode = -1;
    std::string out; ///< stdout (a file)
    std::string terminal; ///< what reached the terminal (stderr)
};

/// Runs the CLI with stderr on a pseudo-terminal and stdout in a file.
TerminalRun runOnTerminal(const std::vector<std::string>& args)
{
    TerminalRun result;
    test::TempDir dir;
    const std::string outPath = dir.path() + "/out";
    int master = -1, slave = -1;
    winsize ws {};
    ws.ws_col = 200;
    ws.ws_row = 50;
    if (::openpty(&master, &slave, nullptr, nullptr, &ws) != 0) {
        ADD_FAILURE() << "openpty failed";
        return result;
    }
    std::vector<std::string> argv { test::cliPath() };
    argv.insert(argv.end(), args.begin(), args.end());
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(master);
        const int out = ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(out, STDOUT_FILENO);
        ::dup2(slave, STDERR_FILENO);
        const int null = ::open("/dev/null", O_RDONLY);
        ::dup2(null, STDIN_FILENO);
        std::vector<char*> c;
        for (std::string& a : argv)
            c.push_back(a.data());
        c.push_back(nullptr);
        ::execv(c[0], c.data());
        ::_exit(127);
    }
    ::close(slave);
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(master, buffer, sizeof buffer);
        if (n <= 0) break; // EIO once the last writer closed the terminal
        result.terminal.append(buffer, static_cast<size_t>(n));
    }
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = test::readFile(outPath);
    return result;
}

size_t count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

class Progress : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_TRUE(m_server.start().ok()); }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_server.port()) + "/"; }
    TargetServer m_server { TargetServerOptions {} };
};

} // namespace

TEST_F(Progress, ATerminalSeesOneLineRewrittenAndErasedBeforeTheReport)
{
    const TerminalRun r = runOnTerminal({ "-t1", "-c2", "-d1s", "--interval", "200ms", url() });
    ASSERT_EQ(r.exitCode, 0) << r.terminal;
    // Each interval rewrote the line in place (carriage return, erase to the end), and it says
    // how far the run is and what the target did.
    EXPECT_GE(count(r.terminal, "\r\x1b[K"), 3u) << r.terminal;
    EXPECT_TRUE(std::regex_search(r.terminal, std::regex(R"(\r\x1b\[K\d+\.\ds of 1s, )"))) << r.terminal;
    EXPECT_NE(r.terminal.find(" req/s, p50 "), std::string::npos) << r.terminal;
    EXPECT_NE(r.terminal.find(" errors, 0 non-2xx"), std::string::npos) << r.terminal;
    // Erased at the end: the terminal's last bytes are the erase, no line left behind.
    EXPECT_TRUE(r.terminal.ends_with("\r\x1b[K")) << r.terminal;
    // No line break in the progress: it never scrolls the terminal.
    EXPECT_EQ(r.terminal.find('\n'), std::string::npos) << r.terminal;
    // stdout is the report, without a trace of the line.
    EXPECT_TRUE(r.out.starts_with("Running 1s test @ ")) << r.out;
    EXPECT_NE(r.out.find("Requests/sec:"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\r'), std::string::npos) << r.out;
}

TEST_F(Progress, QuietOrAPipeShowsNone)
{
    const TerminalRun quiet = runOnTerminal({ "-t1", "-c2", "-d1s", "--interval", "200ms", "--quiet", url() });
    ASSERT_EQ(quiet.exitCode, 0) << quiet.terminal;
    EXPECT_EQ(quiet.terminal, "");
    EXPECT_NE(quiet.out.find("Requests/sec:"), std::string::npos) << quiet.out;

    const test::ProcessResult piped = test::runCli({ "-t1", "-c2", "-d1s", "--interval", "200ms", url() });
    ASSERT_EQ(piped.exitCode, 0) << piped.err;
    EXPECT_EQ(piped.err, "");
    EXPECT_EQ(piped.out.find('\x1b'), std::string::npos) << piped.out;
}

TEST_F(Progress, ACapacitySearchSaysWhichTrialRunsAndTheBudgetLeft)
{
    const TerminalRun r = runOnTerminal({ "capacity", "-t1", "-c2", "--interval", "100ms", "--trial", "500ms",
        "--final", "500ms", "--repeat", "1", "--from", "100", "--to", "200", "--slo", "non2xx<50%", url() });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.terminal;
    // The line names the trial, its rate and the budget left before the run's own figures.
    EXPECT_TRUE(std::regex_search(
        r.terminal, std::regex(R"(\r\x1b\[Ktrial 1 at 100 req/s, 15m00s of the budget left: \d+\.\ds of 500ms, )")))
        << r.terminal;
    EXPECT_TRUE(std::regex_search(r.terminal, std::regex(R"(\r\x1b\[Ktrial 2 at 200 req/s, )"))) << r.terminal;
    EXPECT_TRUE(r.terminal.ends_with("\r\x1b[K")) << r.terminal;
    EXPECT_EQ(r.terminal.find('\n'), std::string::npos) << r.terminal;
    // stdout has every trial's line, whole, and no trace of the progress line.
    EXPECT_NE(r.out.find("    1        100 req/s for 500ms passed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("at least 200 req/s"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;

    const TerminalRun quiet = runOnTerminal({ "capacity", "-q", "-t1", "-c2", "--trial", "500ms", "--final", "500ms",
        "--repeat", "1", "--from", "100", "--to", "100", "--slo", "non2xx<50%", url() });
    ASSERT_EQ(quiet.exitCode, 0) << quiet.out << quiet.terminal;
    EXPECT_EQ(quiet.terminal, "");
}

TEST_F(Progress, AnExperimentSaysWhichRunIsUnderWayAndWritesEachRunsLineWhole)
{
    test::TempDir dir;
    const std::string plan = dir.path() + "/plan.json";
    test::writeFile(plan,
        R"({"name": "p", "targets": [{"name": "A", "url": ")" + url() + R"("}, {"name": "B", "url": ")" + url()
            + R"("}], "load": {"threads": 1, "connections": 2, "interval": "100ms"}, "repetitions": 1,
            "duration": "500ms", "cooldown": 0})");
    const TerminalRun r = runOnTerminal({ "experiment", "--db", dir.path() + "/s.wrkbench", plan });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.terminal;
    EXPECT_TRUE(
        std::regex_search(r.terminal, std::regex(R"(\r\x1b\[Kcell 1/1 \([^)]*\) rep 1/1: A, 0/2 done: \d+\.\ds of )")))
        << r.terminal;
    EXPECT_TRUE(std::regex_search(r.terminal, std::regex(R"(\r\x1b\[Kcell 1/1 \([^)]*\) rep 1/1: B, 1/2 done, ETA )")))
        << r.terminal;
    EXPECT_EQ(r.terminal.find('\n'), std::string::npos) << r.terminal;
    // Each run's line on stdout is whole: its start and its figures together.
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(cell 1/1 \([^)]*\) rep 1/1: A \.\.\. [\d,]+ req/s, p99 )")))
        << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
}
