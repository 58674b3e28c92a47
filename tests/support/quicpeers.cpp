#include "quicpeers.h"

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace wb::test {

namespace {

bool bindUdp(uint16_t port)
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

bool onPath(const char* program)
{
    return runProcess({ "sh", "-c", std::string("command -v ") + program }, 10'000).exitCode == 0;
}

uint64_t countLines(const std::string& text, const std::string& needle, const std::string& also = {})
{
    uint64_t n = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find(needle) != std::string::npos && (also.empty() || line.find(also) != std::string::npos)) ++n;
    return n;
}

} // namespace

uint16_t freeUdpPort()
{
    // caddy takes the same number on TCP for h1/h2.
    return freePortBelowEphemeral(true);
}

bool waitForUdpPort(uint16_t port, int timeoutMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (std::chrono::steady_clock::now() < deadline) {
        if (!bindUdp(port)) return true; // taken: the server holds it
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

Caddy::~Caddy()
{
    stop();
}

bool Caddy::available()
{
    return onPath("caddy");
}

bool Caddy::start(const TestCertificates& certs, const CaddyOptions& options)
{
    m_port = freeUdpPort();
    const std::string port = std::to_string(m_port);
    // admin off, no automatic HTTPS, loopback only; the config and data directories are the
    // test's own (caddy autosaves its configuration under XDG_CONFIG_HOME).
    std::string body;
    for (char c : options.body)
        if (c != '\n' && c != '"') body += c;
    writeFile(m_dir.file("Caddyfile"),
        "{\n\tadmin off\n\tauto_https off\n\tdefault_bind 127.0.0.1\n\thttp_port " + std::to_string(freeTcpPort())
            + "\n\thttps_port " + port + "\n\tservers {\n\t\tprotocols h1 h2 h3\n\t}\n}\n" + "https://localhost:" + port
            + " {\n\ttls " + certs.serverCert + " " + certs.serverKey + "\n\tlog {\n\t\toutput file "
            + m_dir.file("access.log") + "\n\t\tformat json\n\t}\n\t@status path_regexp code ^/status/([0-9]{3})$\n"
            + "\trespond @status \"status\" {re.code.1}\n\trespond \"" + body + "\" 200\n}\n");
    const std::string caddyLog = m_dir.file("caddy.log");
    if (!m_process.start({ "env", "XDG_CONFIG_HOME=" + m_dir.path(), "XDG_DATA_HOME=" + m_dir.path(), "timeout",
                             std::to_string(options.deadlineS), "caddy", "run", "--config", m_dir.file("Caddyfile"),
                             "--adapter", "caddyfile" },
            caddyLog))
        return false;
    return waitForPort("127.0.0.1", m_port, scaledMs(10'000)) && waitForUdpPort(m_port, scaledMs(10'000));
}

void Caddy::stop()
{
    if (m_process.running()) m_process.signalAndWait(SIGTERM, 10'000);
}

uint64_t Caddy::http3Logged(int status) const
{
    return countLines(
        readFile(m_dir.file("access.log")), "\"proto\":\"HTTP/3.0\"", "\"status\":" + std::to_string(status) + ",");
}

uint64_t Caddy::http3Logged() const
{
    return countLines(readFile(m_dir.file("access.log")), "\"proto\":\"HTTP/3.0\"");
}

std::string Caddy::log() const
{
    return readFile(m_dir.file("caddy.log"));
}

GtlsServer::~GtlsServer()
{
    stop();
}

bool GtlsServer::available()
{
    return onPath("gtlsserver") || access("/usr/sbin/gtlsserver", X_OK) == 0;
}

bool GtlsServer::start(const TestCertificates& certs, const GtlsServerOptions& options)
{
    writeFile(m_dir.file("index.html"), "hello\n");
    // A port free a moment ago may be taken by the time the server binds it (other tests pick
    // ports too): a server that does not hold its port soon is stopped and started on another.
    for (int attempt = 0; attempt < 3; ++attempt) {
        m_port = freeUdpPort();
        std::vector<std::string> argv = { "timeout", std::to_string(options.deadlineS),
            access("/usr/sbin/gtlsserver", X_OK) == 0 ? "/usr/sbin/gtlsserver" : "gtlsserver", "--no-quic-dump",
            "--no-http-dump", "-d", m_dir.path(), "--max-streams-bidi=" + std::to_string(options.maxStreamsBidi),
            "--timeout=" + options.idleTimeout };
        if (options.txLoss > 0) argv.push_back("--tx-loss=" + std::to_string(options.txLoss));
        argv.insert(argv.end(), { "127.0.0.1", std::to_string(m_port), certs.serverKey, certs.serverCert });
        if (!m_process.start(argv, m_dir.file("server.log"))) return false;
        if (waitForUdpPort(m_port, scaledMs(3'000))) return true;
        stop();
    }
    return false;
}

void GtlsServer::stop()
{
    if (m_process.running()) m_process.signalAndWait(SIGTERM, 10'000);
}

pid_t GtlsServer::serverPid() const
{
    const pid_t outer = m_process.pid();
    if (outer <= 0) return -1;
    const std::string children
        = readFile("/proc/" + std::to_string(outer) + "/task/" + std::to_string(outer) + "/children");
    return children.empty() ? -1 : static_cast<pid_t>(std::stol(children));
}

uint64_t GtlsServer::responses() const
{
    return countLines(log(), "submit response headers");
}

uint64_t GtlsServer::closedByClients() const
{
    // ngtcp2's examples enter the draining period when the peer's CONNECTION_CLOSE arrives.
    return countLines(log(), "Draining period has started");
}

std::string GtlsServer::log() const
{
    return readFile(m_dir.file("server.log"));
}

} // namespace wb::test
