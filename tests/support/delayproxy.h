#pragma once
// A TCP proxy on loopback that holds each connection's first bytes from the
// client for a fixed delay before passing them on, then relays both ways. The
// TCP connect to the proxy completes at once (the kernel accepts it); over TLS
// the ClientHello is what waits, so the delay shows in the TLS handshake and
// not in the connect: a slow load balancer's handshake, made on purpose.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace wb::test {

class DelayProxy
{
public:
    DelayProxy(uint16_t upstreamPort, unsigned firstBytesDelayMs);
    ~DelayProxy();
    DelayProxy(const DelayProxy&) = delete;
    DelayProxy& operator=(const DelayProxy&) = delete;

    uint16_t port() const { return m_port; }
    /// Connections accepted so far.
    unsigned connections() const { return m_accepted.load(); }

private:
    void acceptLoop();
    void relay(int client);

    uint16_t m_upstreamPort;
    unsigned m_delayMs;
    int m_listenFd = -1;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop { false };
    std::atomic<unsigned> m_accepted { 0 };
    std::thread m_acceptThread;
    std::mutex m_mutex;
    std::vector<std::thread> m_threads;
};

} // namespace wb::test
