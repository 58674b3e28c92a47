#include "delayproxy.h"

#include "testsupport.h"

#include <arpa/inet.h>
#include <chrono>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb::test {

namespace {

int connectUpstream(uint16_t port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

bool writeAll(int fd, const char* data, size_t length)
{
    while (length > 0) {
        const ssize_t n = ::send(fd, data, length, MSG_NOSIGNAL);
        if (n <= 0) return false;
        data += n;
        length -= static_cast<size_t>(n);
    }
    return true;
}

} // namespace

DelayProxy::DelayProxy(uint16_t upstreamPort, unsigned firstBytesDelayMs)
    : m_upstreamPort(upstreamPort)
    , m_delayMs(firstBytesDelayMs)
{
    m_listenFd = listenOnLoopback(m_port, 0, 256);
    m_acceptThread = std::thread([this] { acceptLoop(); });
}

DelayProxy::~DelayProxy()
{
    m_stop = true;
    m_acceptThread.join();
    std::lock_guard lock(m_mutex);
    for (auto& t : m_threads)
        t.join();
    ::close(m_listenFd);
}

void DelayProxy::acceptLoop()
{
    while (!m_stop.load()) {
        pollfd p { m_listenFd, POLLIN, 0 };
        if (::poll(&p, 1, 50) <= 0) continue;
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        ++m_accepted;
        std::lock_guard lock(m_mutex);
        m_threads.emplace_back([this, fd] { relay(fd); });
    }
}

// One connection: wait for the client's first bytes, hold them for the delay, then relay
// both ways until either side closes (or the proxy stops; polls wake every 50 ms to see it).
void DelayProxy::relay(int client)
{
    const int upstream = connectUpstream(m_upstreamPort);
    bool delayed = false;
    char buffer[16 * 1024];
    while (upstream >= 0 && !m_stop.load()) {
        pollfd p[2] = { { client, POLLIN, 0 }, { upstream, POLLIN, 0 } };
        if (::poll(p, 2, 50) <= 0) continue;
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
            if (n <= 0) break;
            if (!delayed) {
                delayed = true;
                std::this_thread::sleep_for(std::chrono::milliseconds(m_delayMs));
            }
            if (!writeAll(upstream, buffer, static_cast<size_t>(n))) break;
        }
        if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::recv(upstream, buffer, sizeof buffer, 0);
            if (n <= 0) break;
            if (!writeAll(client, buffer, static_cast<size_t>(n))) break;
        }
    }
    if (upstream >= 0) ::close(upstream);
    ::close(client);
}

} // namespace wb::test
