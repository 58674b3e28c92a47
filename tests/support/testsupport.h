#pragma once
// Helpers for tests that use real peers: free loopback ports, temporary
// directories, child processes with captured output, generated certificates.

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace wb::test {

/// A TCP port on 127.0.0.1 that was free a moment ago, for a server started next: below the kernel's
/// ephemeral range, so no test's outgoing connection takes it meanwhile. udpToo: its UDP port was
/// free too (caddy serves HTTP/3 and HTTPS on one number). 0 when none was found.
uint16_t freePortBelowEphemeral(bool udpToo);
/// freePortBelowEphemeral(false).
uint16_t freeTcpPort();
/// A listening TCP socket on 127.0.0.1, its port chosen by the kernel (into `port`); -1 when
/// none could be made. receiveBufferBytes > 0 sets SO_RCVBUF first, which accepted sockets inherit;
/// backlog is how many connections may wait to be accepted.
int listenOnLoopback(uint16_t& port, int receiveBufferBytes = 0, int backlog = 16);
/// True once something accepts connections on host:port (polls until timeoutMs).
bool waitForPort(const std::string& host, uint16_t port, int timeoutMs);

/// A fresh directory under $TMPDIR, removed with its contents on destruction.
class TempDir
{
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return m_path; }
    std::string file(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

struct ProcessResult
{
    int exitCode = -1; ///< exit status, or 128+signal
    bool timedOut = false;
    std::string out;
    std::string err;
    long peakRssKb = 0; ///< the child's peak resident memory (memory bounds are checked by it, never by time)
};

/// Runs argv to completion (killed after timeoutMs), capturing stdout and stderr.
ProcessResult runProcess(const std::vector<std::string>& argv, int timeoutMs = 60'000);

/// A background child process; killed (SIGTERM, then SIGKILL) on destruction.
class ChildProcess
{
public:
    ChildProcess() = default;
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    /// Starts argv with stdout/stderr redirected to logPath (or /dev/null).
    bool start(const std::vector<std::string>& argv, const std::string& logPath = {});
    /// Sends sig; waits up to timeoutMs for exit; returns the exit status (or -1).
    int signalAndWait(int sig, int timeoutMs);
    pid_t pid() const { return m_pid; }
    bool running() const { return m_pid > 0; }

private:
    pid_t m_pid = -1;
};

/// node and tests/support/npm/node_modules/MODULE are there (packaging/install-deps.sh installs
/// both); otherwise false, with why.
bool nodeModuleAvailable(const std::string& module, std::string& why);

/// Path of the wrkbench-cli binary under test ($WB_CLI, set by CTest).
std::string cliPath();
/// The source tree ($WB_SOURCE_DIR, set by CTest; "." when run by hand from it).
std::string sourceDir();
/// Runs wrkbench-cli with args (see runProcess).
ProcessResult runCli(std::vector<std::string> args, int timeoutMs = 30'000);
/// The lines of text, without their '\n' (a last line without one included).
std::vector<std::string> splitLines(const std::string& text);
std::string readFile(const std::string& path);
/// This process's resident memory now (VmRSS), in KB. A child's ProcessResult::peakRssKb counts the
/// pages it shared with this process when it was forked (Linux keeps them in ru_maxrss across exec):
/// a bound on a child's peak is a bound on what it adds to this.
long ownRssKb();
void writeFile(const std::string& path, const std::string& content);

/// Files of a test PKI made with the openssl command: a CA and a server
/// certificate for localhost / 127.0.0.1 / ::1 signed by it.
struct TestCertificates
{
    std::string caCert;
    std::string serverCert;
    std::string serverKey;
};
/// Generates the certificates into dir; expiredServer makes the server certificate already expired.
bool generateCertificates(const std::string& dir, TestCertificates& out, bool expiredServer = false);
/// One set of certificates for the whole test process, made on first use (a failure is said on stderr).
const TestCertificates& processCertificates();

} // namespace wb::test

namespace wb::test {

/// True under CI (CI=true in the environment): a missing peer such as nginx is
/// then a failure, never a quiet skip.
bool underCi();

/// How many times slower than an optimised build this one may run: 1, or 6 in a
/// sanitizer build (and WB_TIME_SCALE=N overrides both). Tests that must bound a
/// wait scale the bound with it; the bound itself always leaves room for a busy
/// 2-core machine (another process holding a core).
double timeScale();

/// ms scaled by timeScale(), as an int for waits and deadlines.
int scaledMs(int ms);

} // namespace wb::test
