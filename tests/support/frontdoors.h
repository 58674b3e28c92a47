#pragma once
// The HTTP servers and proxies Debian 12 ships, on loopback, for the interop
// matrix: what a user may point wrkbench at. Each serves the same small site
// over every protocol it speaks and logs one line per request with the
// protocol and the status, so a test counts what the server itself served:
//   /      "hello\n" (a file)       /big  1 MiB (a file: HTTP/2 flow control)
//   /post  200 to any method, the body read or not as the server likes
// haproxy and nghttpx are proxies in front of an nginx origin (their own log
// is the count); caddy also speaks HTTP/3. Every server runs under `timeout`,
// so it ends by itself even if a test never stops it.

#include "testsupport.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wb::test {

enum class FrontDoorKind : uint8_t { Nginx, Haproxy, H2o, Apache, Nghttpx, Caddy };

/// "nginx", "haproxy", "h2o", "apache2", "nghttpx", "caddy".
const char* frontDoorName(FrontDoorKind kind);
/// All of them, in that order.
std::vector<FrontDoorKind> allFrontDoors();

/// How a client reaches a front door: the protocol and the URL scheme it goes with.
enum class Wire : uint8_t {
    Http1, ///< HTTP/1.1 over TCP (http://)
    Http1Tls, ///< HTTP/1.1 over TLS (https://, ALPN http/1.1)
    H2, ///< HTTP/2 over TLS, h2 by ALPN (https://)
    H2c, ///< HTTP/2 over TCP with prior knowledge (http://)
    H3, ///< HTTP/3 over QUIC (https://)
};
const char* wireName(Wire wire); ///< "h1", "h1-tls", "h2", "h2c", "h3"
/// The protocol a server logs for requests over this wire, as FrontDoor::logged() names it.
const char* loggedProtocol(Wire wire); ///< "http/1.1", "h2", "h3"

class FrontDoor
{
public:
    explicit FrontDoor(FrontDoorKind kind);
    ~FrontDoor();
    FrontDoor(const FrontDoor&) = delete;
    FrontDoor& operator=(const FrontDoor&) = delete;

    /// The server's program is installed (and, for apache2, the user it must run as exists); else why not.
    static bool available(FrontDoorKind kind, std::string& why);
    /// Starts it (and its origin) with these certificates; false with log() saying why.
    bool start(const TestCertificates& certs);
    void stop();

    FrontDoorKind kind() const { return m_kind; }
    /// The wires it serves here.
    std::vector<Wire> wires() const;
    /// The URL of path over wire ("http://127.0.0.1:PORT/big", "https://localhost:PORT/").
    std::string url(Wire wire, const std::string& path = "/") const;

    /// One logged request: nginx and caddy also say which connection brought it and from where.
    struct Request
    {
        std::string protocol; ///< "http/1.1", "h2", "h3"
        int status = 0;
        std::string connection; ///< nginx: its connection serial; caddy: the client's ip:port; else ""
        std::string client; ///< the client's address (nginx, caddy); else ""
    };
    std::vector<Request> requests() const;
    /// Requests it logged so far, by protocol ("http/1.1", "h2", "h3") and status.
    std::map<std::pair<std::string, int>, uint64_t> logged() const;
    uint64_t logged(const std::string& protocol, int status) const;
    /// Every request line it logged, whatever the protocol and status.
    uint64_t loggedTotal() const;
    /// Waits until the access log stops growing (a line is written when a response ends, a little
    /// after the client saw it), at most timeoutMs; returns loggedTotal().
    uint64_t settle(int timeoutMs = 3'000) const;
    /// Its error log and what it printed, for a failure's message.
    std::string log() const;

private:
    bool startOnce(const TestCertificates& certs);
    std::string accessLog() const;

    FrontDoorKind m_kind;
    TempDir m_dir;
    ChildProcess m_process;
    ChildProcess m_origin; ///< nginx behind haproxy and nghttpx
    uint16_t m_plainPort = 0;
    uint16_t m_tlsPort = 0;
    uint16_t m_h2cPort = 0; ///< where h2c with prior knowledge is served (nginx: a port of its own)
    uint16_t m_originPort = 0;
};

/// An L4 balancer as kube-proxy or a NEG in connection mode is one: haproxy in TCP mode, round
/// robin per connection, over `backends` nginx ports that count what each served.
class L4Balancer
{
public:
    L4Balancer() = default;
    ~L4Balancer();
    L4Balancer(const L4Balancer&) = delete;
    L4Balancer& operator=(const L4Balancer&) = delete;
    static bool available(std::string& why);
    bool start(unsigned backends);
    void stop();
    uint16_t port() const { return m_port; }
    /// Requests each backend served so far (by nginx's own log), in backend order.
    std::vector<uint64_t> requestsPerBackend() const;
    std::string log() const;

private:
    TempDir m_dir;
    ChildProcess m_balancer;
    ChildProcess m_backends;
    uint16_t m_port = 0;
    std::vector<uint16_t> m_backendPorts;
};

} // namespace wb::test
