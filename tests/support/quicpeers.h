#pragma once
// The two HTTP/3 servers Debian 12 ships, on loopback with a generated
// certificate, for the HTTP/3 tests and benchmarks:
//   - caddy 2.6 (HTTP/3 on by default beside h1 and h2 on the same port number,
//     TCP and UDP; it answers HTTP/3 only with SNI, so clients use "localhost");
//     its JSON access log is the witness of what it served.
//   - ngtcp2's GnuTLS example server, gtlsserver (single-threaded; its debug log
//     names every request it answered), whose stream limit, idle timeout and
//     packet loss can be set.
// Each runs under `timeout`, so it ends by itself even if a test never stops it.

#include "testsupport.h"

#include <cstdint>
#include <string>

namespace wb::test {

/// A UDP port on 127.0.0.1 that was free a moment ago (and whose TCP port was free too).
uint16_t freeUdpPort();
/// True once something holds UDP port on 127.0.0.1 (polls until timeoutMs).
bool waitForUdpPort(uint16_t port, int timeoutMs);

struct CaddyOptions
{
    std::string body = "hello over h3"; ///< what / answers (200), one line
    int deadlineS = 900; ///< caddy ends by itself after this long
};

class Caddy
{
public:
    ~Caddy();
    static bool available();
    /// Starts caddy serving https://localhost:port/ with certs (h1, h2, h3); "/status/NNN" answers NNN.
    bool start(const TestCertificates& certs, const CaddyOptions& options = {});
    void stop();
    uint16_t port() const { return m_port; }
    /// Requests caddy logged over HTTP/3 with this status (its access log, read now).
    uint64_t http3Logged(int status) const;
    /// Every request it logged over HTTP/3.
    uint64_t http3Logged() const;
    std::string log() const;

private:
    TempDir m_dir;
    ChildProcess m_process;
    uint16_t m_port = 0;
};

struct GtlsServerOptions
{
    unsigned maxStreamsBidi = 100; ///< the server's initial_max_streams_bidi
    std::string idleTimeout = "30s";
    double txLoss = 0; ///< the probability the server drops a packet it sends
    int deadlineS = 900;
};

class GtlsServer
{
public:
    ~GtlsServer();
    static bool available();
    /// Serves a document root with index.html ("hello") on UDP 127.0.0.1:port.
    bool start(const TestCertificates& certs, const GtlsServerOptions& options = {});
    void stop();
    uint16_t port() const { return m_port; }
    /// The server process itself (not the `timeout` around it), for SIGSTOP/SIGCONT; -1 when gone.
    pid_t serverPid() const;
    /// Responses it submitted so far ("submit response headers" lines of its log).
    uint64_t responses() const;
    /// Connections whose client closed them (CONNECTION_CLOSE received: "Draining period has started").
    uint64_t closedByClients() const;
    std::string log() const;

private:
    TempDir m_dir;
    ChildProcess m_process;
    uint16_t m_port = 0;
};

} // namespace wb::test
