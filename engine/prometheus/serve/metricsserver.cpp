#include "prometheus/serve/metricsserver.h"

#include "common/clock.h"
#include "http/reasonphrase.h"
#include "http/serverrequest.h"
#include "net/address.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

namespace {

// A scrape is a short GET: anything longer, or slower, is not one. Connections are served side
// by side, so a peer that connects and says nothing costs a slot for at most the read deadline
// and never delays anyone else's scrape (one at a time, four idle peers held a scrape 7.8 s).
constexpr size_t MAX_REQUEST_BYTES = 8192;
constexpr uint64_t READ_DEADLINE_US = 1'000'000; ///< from accept to the end of the request head
constexpr uint64_t WRITE_DEADLINE_US = 5'000'000; ///< from then to the last byte of the answer
/// Connections served at once. Past it, a new one takes the place of the oldest still reading:
/// idle peers can neither fill the server nor keep a scraper out.
constexpr size_t MAX_CONNECTIONS = 64;

std::string response(const std::string& status, const char* contentType, const std::string& body)
{
    return fmt::format("HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}", status,
        contentType, body.size(), body);
}

} // namespace

/// One accepted connection: its request head as it arrives, then its answer as it leaves.
struct MetricsServer::Peer
{
    int fd = -1;
    uint64_t deadlineUs = 0;
    ServerRequestParser request { MAX_REQUEST_BYTES, 0 }; ///< a scrape has no body
    std::string answer; ///< empty while reading
    size_t sent = 0;
    bool scrape = false; ///< the answer is a scrape (counted when sent)
    bool finished = false; ///< the scrape has the finished run's figures

    bool reading() const { return answer.empty(); }
};

MetricsServer::MetricsServer(MetricsLabels labels)
    : m_metrics(std::move(labels))
{ }

MetricsServer::~MetricsServer()
{
    if (m_thread.joinable()) {
        const uint64_t one = 1;
        [[maybe_unused]] const ssize_t n = ::write(m_wakeFd, &one, sizeof one);
        m_thread.join();
    }
    if (m_listenFd >= 0) ::close(m_listenFd);
    if (m_wakeFd >= 0) ::close(m_wakeFd);
}

Status MetricsServer::listen(const std::string& text)
{
    auto address = parseSocketAddress(text);
    if (!address) return Error { "--metrics-listen: " + address.error() };
    const int fd = ::socket(address->family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return Error { fmt::format("--metrics-listen: cannot open a socket: {}", std::strerror(errno)) };
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(fd, address->get(), address->length) != 0 || ::listen(fd, 16) != 0) {
        const int err = errno;
        ::close(fd);
        return Error { fmt::format("--metrics-listen: cannot listen on {}: {}", text, std::strerror(err)) };
    }
    sockaddr_storage bound {};
    socklen_t length = sizeof bound;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length);
    m_port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                               : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    m_listenFd = fd;
    m_wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    m_thread = std::thread([this] { serve(); });
    return {};
}

void MetricsServer::serve()
{
    std::vector<Peer> peers;
    std::vector<pollfd> polled;
    for (;;) {
        polled.assign({ { m_listenFd, POLLIN, 0 }, { m_wakeFd, POLLIN, 0 } });
        uint64_t nextDeadlineUs = UINT64_MAX;
        for (const Peer& p : peers) {
            polled.push_back({ p.fd, static_cast<short>(p.reading() ? POLLIN : POLLOUT), 0 });
            nextDeadlineUs = std::min(nextDeadlineUs, p.deadlineUs);
        }
        const uint64_t now = monotonicNowUs();
        const int timeoutMs = nextDeadlineUs == UINT64_MAX ? -1
            : nextDeadlineUs <= now                        ? 0
                                                           : static_cast<int>((nextDeadlineUs - now) / 1000 + 1);
        if (::poll(polled.data(), polled.size(), timeoutMs) < 0 && errno != EINTR) break;
        if (polled[1].revents) break;
        // Peers first (their slots in `polled` follow the order of `peers`), then new ones.
        const uint64_t after = monotonicNowUs();
        for (size_t i = 0; i < peers.size(); ++i)
            if (polled[i + 2].revents) progress(peers[i]);
        for (Peer& p : peers)
            if (p.fd >= 0 && after >= p.deadlineUs) {
                ::close(p.fd);
                p.fd = -1;
            }
        std::erase_if(peers, [](const Peer& p) { return p.fd < 0; });
        if (polled[0].revents & POLLIN) accept(peers);
    }
    for (Peer& p : peers)
        ::close(p.fd);
}

void MetricsServer::accept(std::vector<Peer>& peers)
{
    for (;;) {
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return; // EAGAIN: all taken; anything else: the next poll tries again
        if (peers.size() >= MAX_CONNECTIONS) {
            // Before one is given up, every one gets its request read if it has sent it: on a
            // starved machine a scraper's request can wait unread behind a burst of idle peers.
            for (Peer& p : peers)
                if (p.reading()) progress(p);
            std::erase_if(peers, [](const Peer& p) { return p.fd < 0; });
        }
        if (peers.size() >= MAX_CONNECTIONS) {
            auto oldest = std::min_element(peers.begin(), peers.end(), [](const Peer& a, const Peer& b) {
                return a.reading() != b.reading() ? a.reading() : a.deadlineUs < b.deadlineUs;
            });
            ::close(oldest->fd);
            peers.erase(oldest);
        }
        Peer& peer = peers.emplace_back();
        peer.fd = fd;
        peer.deadlineUs = monotonicNowUs() + READ_DEADLINE_US;
    }
}

void MetricsServer::progress(Peer& peer)
{
    if (peer.reading()) {
        char buffer[2048];
        const ssize_t n = ::recv(peer.fd, buffer, sizeof buffer, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
        if (n <= 0) {
            ::close(peer.fd);
            peer.fd = -1;
            return;
        }
        const auto state = peer.request.feed(std::string_view(buffer, static_cast<size_t>(n)));
        if (state == ServerRequestParser::State::NeedMore) return;
        if (state == ServerRequestParser::State::Bad)
            peer.answer = response(fmt::format("{} {}", peer.request.status(), httpReasonPhrase(peer.request.status())),
                "text/plain", peer.request.error() + "\n");
        else
            answer(peer);
        peer.deadlineUs = monotonicNowUs() + WRITE_DEADLINE_US;
    }
    const ssize_t n = ::send(peer.fd, peer.answer.data() + peer.sent, peer.answer.size() - peer.sent, MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n > 0) peer.sent += static_cast<size_t>(n);
    if (n > 0 && peer.sent < peer.answer.size()) return;
    if (n > 0 && peer.scrape) {
        ++m_scrapes;
        if (peer.finished) {
            std::lock_guard lock(m_mutex);
            m_finishedScraped = true;
            m_scrapedFinished.notify_all();
        }
    }
    ::close(peer.fd);
    peer.fd = -1;
}

void MetricsServer::answer(Peer& peer)
{
    const ServerRequest& request = peer.request.request();
    const bool head = request.method == "HEAD";
    if (request.method != "GET" && !head) {
        peer.answer = response("405 Method Not Allowed", "text/plain", "only GET /metrics\n");
        return;
    }
    if (request.path != "/metrics") {
        peer.answer = response("404 Not Found", "text/plain", "wrkbench serves /metrics\n");
        return;
    }
    peer.finished = m_metrics.finished(); // read before rendering: the render has it all
    std::string body = m_metrics.render();
    if (head) body.clear();
    peer.answer = response("200 OK", "text/plain; version=0.0.4; charset=utf-8", body);
    peer.scrape = true;
}

bool MetricsServer::lingerUntilScraped(uint64_t maxUs)
{
    if (m_listenFd < 0) return false;
    std::unique_lock lock(m_mutex);
    return m_scrapedFinished.wait_for(lock, std::chrono::microseconds(maxUs), [&] { return m_finishedScraped; });
}

} // namespace wb
