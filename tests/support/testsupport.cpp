#include "testsupport.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <random>
#include <sstream>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace wb::test {

namespace {

bool bindsOnLoopback(int type, uint16_t port)
{
    const int fd = ::socket(AF_INET, type | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

} // namespace

uint16_t freePortBelowEphemeral(bool udpToo)
{
    // The port goes to a server started later (nginx, caddy, an agent...). A port the kernel picks for
    // bind(port 0) comes from its ephemeral range, where every outgoing connection of every test takes
    // its local port too: a load run opens thousands, any of which may take the port before the
    // server binds it. Below that range the kernel gives out no port by itself. Random, so two tests
    // choosing at once rarely choose alike; checked free, then given up. A server that still finds
    // its port taken is started again on another (image_test's caddy).
    unsigned ephemeralLow = 32768;
    if (std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range"); range) range >> ephemeralLow;
    const unsigned low = 10'000;
    if (ephemeralLow > low + 1'000 && ephemeralLow <= 65'536) {
        thread_local std::mt19937 random(std::random_device {}());
        std::uniform_int_distribution<unsigned> pick(low, ephemeralLow - 1);
        for (int attempt = 0; attempt < 200; ++attempt) {
            const auto port = static_cast<uint16_t>(pick(random));
            if (bindsOnLoopback(SOCK_STREAM, port) && (!udpToo || bindsOnLoopback(SOCK_DGRAM, port))) return port;
        }
    }
    // No room below the range (a machine that lowered it): the kernel's choice, as before.
    for (int attempt = 0; attempt < 50; ++attempt) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        const bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), len) == 0
            && ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
        ::close(fd);
        const uint16_t port = ntohs(addr.sin_port);
        if (bound && (!udpToo || bindsOnLoopback(SOCK_DGRAM, port))) return port;
    }
    return 0;
}

uint16_t freeTcpPort()
{
    return freePortBelowEphemeral(false);
}

int listenOnLoopback(uint16_t& port, int receiveBufferBytes, int backlog)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (receiveBufferBytes > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBufferBytes, sizeof receiveBufferBytes);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), len) != 0 || ::listen(fd, backlog) != 0) {
        ::close(fd);
        return -1;
    }
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
    return fd;
}

bool waitForPort(const std::string& host, uint16_t port, int timeoutMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (std::chrono::steady_clock::now() < deadline) {
        const bool v6 = host.find(':') != std::string::npos;
        const int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int rc = -1;
        if (v6) {
            sockaddr_in6 a {};
            a.sin6_family = AF_INET6;
            a.sin6_port = htons(port);
            inet_pton(AF_INET6, host.c_str(), &a.sin6_addr);
            rc = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        } else {
            sockaddr_in a {};
            a.sin_family = AF_INET;
            a.sin_port = htons(port);
            inet_pton(AF_INET, host.c_str(), &a.sin_addr);
            rc = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        }
        ::close(fd);
        if (rc == 0) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

TempDir::TempDir()
{
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/wrkbench-test-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data())) m_path = buf.data();
}

TempDir::~TempDir()
{
    std::error_code ec;
    if (!m_path.empty()) std::filesystem::remove_all(m_path, ec);
}

static std::vector<char*> toArgv(const std::vector<std::string>& argv)
{
    std::vector<char*> out;
    for (const auto& a : argv)
        out.push_back(const_cast<char*>(a.c_str()));
    out.push_back(nullptr);
    return out;
}

ProcessResult runProcess(const std::vector<std::string>& argv, int timeoutMs)
{
    ProcessResult result;
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0) return result;
    auto args = toArgv(argv);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(outPipe[1], 1);
        ::dup2(errPipe[1], 2);
        const int devNull = ::open("/dev/null", O_RDONLY);
        ::dup2(devNull, 0);
        ::execvp(args[0], args.data());
        _exit(127);
    }
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    pollfd fds[2] = { { outPipe[0], POLLIN, 0 }, { errPipe[0], POLLIN, 0 } };
    std::string* sinks[2] = { &result.out, &result.err };
    int open = 2;
    while (open > 0) {
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            result.timedOut = true;
            ::kill(pid, SIGKILL);
            break;
        }
        if (::poll(fds, 2, static_cast<int>(left.count())) <= 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
            char buf[4096];
            const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                sinks[i]->append(buf, static_cast<size_t>(n));
            } else {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0) ::close(f.fd);
    int status = 0;
    rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.peakRssKb = usage.ru_maxrss; // Linux: kilobytes
    return result;
}

ChildProcess::~ChildProcess()
{
    if (m_pid > 0 && signalAndWait(SIGTERM, 3000) == -1) signalAndWait(SIGKILL, 3000);
}

bool ChildProcess::start(const std::vector<std::string>& argv, const std::string& logPath)
{
    auto args = toArgv(argv);
    m_pid = ::fork();
    if (m_pid == 0) {
        const int log = ::open(logPath.empty() ? "/dev/null" : logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(log, 1);
        ::dup2(log, 2);
        ::execvp(args[0], args.data());
        _exit(127);
    }
    return m_pid > 0;
}

int ChildProcess::signalAndWait(int sig, int timeoutMs)
{
    if (m_pid <= 0) return -1;
    ::kill(m_pid, sig);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_pid = -1;
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
}

std::string cliPath()
{
    const char* p = std::getenv("WB_CLI");
    return p ? p : "wrkbench-cli";
}

std::string sourceDir()
{
    const char* dir = std::getenv("WB_SOURCE_DIR");
    return dir ? dir : ".";
}

ProcessResult runCli(std::vector<std::string> args, int timeoutMs)
{
    args.insert(args.begin(), cliPath());
    return runProcess(args, timeoutMs);
}

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        out.push_back(text.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const std::string& path, const std::string& content)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
}

bool generateCertificates(const std::string& dir, TestCertificates& out, bool expiredServer)
{
    out.caCert = dir + "/ca.pem";
    out.serverCert = dir + "/server.pem";
    out.serverKey = dir + "/server.key";
    const std::string caKey = dir + "/ca.key", csr = dir + "/server.csr", ext = dir + "/san.ext";
    writeFile(ext, "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nbasicConstraints=CA:FALSE\n");
    auto ok = [](const std::vector<std::string>& argv) { return runProcess(argv, 30'000).exitCode == 0; };
    if (!ok({ "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", caKey, "-out", out.caCert, "-days", "2", "-subj", "/CN=wrkbench test CA" }))
        return false;
    if (!ok({ "openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
            out.serverKey, "-out", csr, "-subj", "/CN=localhost" }))
        return false;
    std::vector<std::string> sign = { "openssl", "x509", "-req", "-in", csr, "-CA", out.caCert, "-CAkey", caKey,
        "-CAcreateserial", "-out", out.serverCert, "-extfile", ext };
    if (expiredServer) {
        // x509 -req has no start date option; a negative validity yields notAfter in the past.
        sign.insert(sign.end(), { "-days", "-1" });
    } else {
        sign.insert(sign.end(), { "-days", "2" });
    }
    return ok(sign);
}

} // namespace wb::test

namespace wb::test {

bool underCi()
{
    const char* ci = std::getenv("CI");
    return ci && (std::strcmp(ci, "true") == 0 || std::strcmp(ci, "1") == 0);
}

double timeScale()
{
    if (const char* forced = std::getenv("WB_TIME_SCALE")) {
        const double scale = std::atof(forced);
        if (scale >= 1) return scale;
    }
#if defined(__SANITIZE_ADDRESS__)
    return 6; // Debug + ASan + UBSan: measured 3-6x slower than RelWithDebInfo
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 6;
#else
    return 1;
#endif
#else
    return 1;
#endif
}

int scaledMs(int ms)
{
    return static_cast<int>(ms * timeScale());
}

bool nodeModuleAvailable(const std::string& module, std::string& why)
{
    if (runProcess({ "node", "--version" }, 30'000).exitCode != 0) {
        why = "node is not installed";
        return false;
    }
    if (::access((sourceDir() + "/tests/support/npm/node_modules/" + module + "/package.json").c_str(), R_OK) != 0) {
        why = module + " is not installed in tests/support/npm (packaging/install-deps.sh runs npm ci there)";
        return false;
    }
    return true;
}

long ownRssKb()
{
    for (const std::string& line : splitLines(readFile("/proc/self/status")))
        if (line.starts_with("VmRSS:")) return std::stol(line.substr(6));
    return 0;
}

const TestCertificates& processCertificates()
{
    static TempDir dir;
    static TestCertificates certs;
    // No gtest here: a failure is said on stderr, and every TLS run of the test then fails on it.
    static const bool made = generateCertificates(dir.path(), certs);
    if (!made) std::fprintf(stderr, "test certificates could not be generated in %s (openssl)\n", dir.path().c_str());
    return certs;
}

} // namespace wb::test
