#pragma once
// A real nginx on loopback for integration tests and benchmarks: its own
// temporary prefix and configuration, a free port (and a TLS port with the
// given certificate), stopped on destruction.

#include "testsupport.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wb::test {

struct NginxOptions
{
    std::string certFile; ///< PEM; with keyFile, a TLS listener is added
    std::string keyFile;
    unsigned workerConnections = 1024;
    /// Adds a second plain listener (proxyPort()) that proxies every request to the
    /// first over keep-alive upstream connections: the same answers, one hop more.
    bool reverseProxy = false;
    /// With reverseProxy: nginx's limit_rate for every answer of the proxy port
    /// ("2m" = 2 MiB/s per response), to make that hop slow by a known amount.
    std::string proxyLimitRate;
    /// Adds HTTP/2 listeners: h2c with prior knowledge (h2cPort()) and, with a certificate,
    /// h2 by ALPN (h2Port()). Their requests are logged as "<protocol> <status>" (http2AccessLog()).
    bool http2 = false;
    unsigned maxConcurrentStreams = 128; ///< nginx's http2_max_concurrent_streams
    /// Logs every request on the plain port as "<method> <request URI> <status>" (requestLog()).
    bool requestLog = false;
    /// Logs the body of every request to "/body" on the plain port, one line each (bodyLog()).
    bool bodyLog = false;
    /// Logs what the client sent with every request on the plain port (clientLog()).
    bool clientLog = false;
    /// The plain port also listens on 127.0.0.2, and every request on it is logged by the local
    /// address it reached, one line each ("127.0.0.2"; addressLog()).
    bool secondAddress = false;
    /// A load balancer (balancerPort()) over these upstreams, (port, weight) each: nginx's weighted
    /// round robin with keep-alive upstream connections. Every answer carries
    /// "X-Upstream-Time: $upstream_header_time" (seconds; $upstream_response_time is not known
    /// yet when nginx sends the headers), and is logged as
    /// "$upstream_addr $upstream_header_time $status" (balancerLog()).
    std::vector<std::pair<uint16_t, unsigned>> balancedUpstreams;
    /// For each rate N, "/limited/N" on the plain port: a small static file behind nginx's own
    /// limit_req at N requests/s (a burst of 1% of N, nodelay; 503 beyond), a capacity known in
    /// advance. A static file, because `return` answers before limit_req is consulted.
    std::vector<unsigned> limitedRates;
};

/// Options for a TLS listener with these certificates (and the plain one).
NginxOptions tlsOptions(const TestCertificates& certs, unsigned workerConnections = 1024);

class Nginx
{
public:
    Nginx() = default;
    ~Nginx();
    /// Writes the configuration and starts nginx in the foreground; false when
    /// nginx is missing or does not come up (see log()).
    bool start(const NginxOptions& options = {});
    void stop();
    uint16_t port() const { return m_port; }
    uint16_t tlsPort() const { return m_tlsPort; }
    uint16_t proxyPort() const { return m_proxyPort; }
    uint16_t h2cPort() const { return m_h2cPort; }
    uint16_t h2Port() const { return m_h2Port; }
    uint16_t balancerPort() const { return m_balancerPort; }
    /// With NginxOptions::balancedUpstreams: one line per request, "127.0.0.1:PORT 0.002 200"
    /// (several addresses, comma-separated, when nginx tried more than one).
    std::string balancerLog() const;
    /// One line per request on the HTTP/2 ports: "<server protocol> <status>", e.g. "HTTP/2.0 200".
    std::string http2AccessLog() const;
    /// With NginxOptions::requestLog: one line per request on the plain port, "GET /mix/a?x=1 200".
    std::string requestLog() const;
    /// requestLog()'s lines from line `skip` on, once there are at least `atLeast` of them: nginx
    /// logs a request after its response went out, so the last ones a client counted may reach the
    /// log a moment after the client is done. Bounded (5 s, scaled): then what is there.
    std::vector<std::string> requestLines(size_t atLeast, size_t skip = 0) const;
    /// With NginxOptions::bodyLog: the bodies of the requests to "/body", as the bytes nginx
    /// received (its log escapes them as \xHH; this undoes that), in order.
    std::vector<std::string> bodyLog() const;
    /// With NginxOptions::clientLog: one line per request on the plain port, "<method> <request
    /// URI> <status> <Host> <p if it came pipelined behind another, else .> <X-Counter> <X-Token>"
    /// ("-" for a header not sent), e.g. "GET /?bar 200 127.0.0.1:8080 p - -".
    std::string clientLog() const;
    /// With NginxOptions::secondAddress: one line per request on the plain port, its $server_addr.
    std::string addressLog() const;
    std::string log() const;
    /// One line per TLS request: "<protocol> <r if the session was resumed, else .>".
    std::string tlsAccessLog() const;
    static bool available();

    // Locations served on every port: "/" 200 "hello from nginx\n"; "/close" 200 with
    // Connection: close; "/big" a 256 KiB file; "/mixed" 200 or 503 at random (about
    // half each); "/status/500" 500; "/authenticate" 200 with
    // "X-Token: token-from-nginx" (wrk's auth.lua); "/mix/..." 200 "mix <method> <path>" for any method;
    // "/slow" (HTTP/2 ports only) the 256 KiB file at 16 KiB/s; anything else 404.
private:
    TempDir m_dir;
    ChildProcess m_process;
    uint16_t m_port = 0;
    uint16_t m_tlsPort = 0;
    uint16_t m_proxyPort = 0;
    uint16_t m_h2cPort = 0;
    uint16_t m_h2Port = 0;
    uint16_t m_balancerPort = 0;
};

} // namespace wb::test
