#include "livemetrics/metricsserver.h"

#include "common/clock.h"
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

// A scrape is a short GET: anything longer, or slower, is not one.
constexpr size_t MAX_REQUEST_BYTES = 8192;
constexpr int REQUEST_TIMEOUT_MS = 2000;

void writeAll(int fd, const std::string& data)
{
    size_t sent = 0;
    while (sent < data.size()) {
        pollfd p { fd, POLLOUT, 0 };
        if (::poll(&p, 1, REQUEST_TIMEOUT_MS) <= 0) return;
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n <= 0) return;
        sent += static_cast<size_t>(n);
    }
}

std::string response(const char* status, const char* contentType, const std::string& body)
{
    return fmt::format("HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}", status,
        contentType, body.size(), body);
}

} // namespace

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
    for (;;) {
        pollfd p[2] = { { m_listenFd, POLLIN, 0 }, { m_wakeFd, POLLIN, 0 } };
        if (::poll(p, 2, -1) < 0 && errno != EINTR) return;
        if (p[1].revents) return;
        if (!(p[0].revents & POLLIN)) continue;
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) continue;
        answer(fd);
        ::close(fd);
    }
}

void MetricsServer::answer(int fd)
{
    // Read the request head (bounded in size and time), answer, close.
    std::string head;
    const uint64_t deadlineUs = monotonicNowUs() + REQUEST_TIMEOUT_MS * 1000ULL;
    while (head.find("\r\n\r\n") == std::string::npos && head.find("\n\n") == std::string::npos) {
        if (head.size() >= MAX_REQUEST_BYTES) {
            writeAll(fd, response("431 Request Header Fields Too Large", "text/plain", "request too large\n"));
            return;
        }
        const uint64_t now = monotonicNowUs();
        if (now >= deadlineUs) return;
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, static_cast<int>((deadlineUs - now) / 1000) + 1) <= 0) return;
        char buffer[2048];
        const ssize_t n = ::recv(fd, buffer, std::min(sizeof buffer, MAX_REQUEST_BYTES - head.size()), 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n <= 0) return;
        head.append(buffer, static_cast<size_t>(n));
    }
    const size_t lineEnd = head.find_first_of("\r\n");
    const std::string line = head.substr(0, lineEnd);
    const bool get = line.rfind("GET ", 0) == 0 || line.rfind("HEAD ", 0) == 0;
    const size_t pathStart = line.find(' ') + 1;
    const size_t pathEnd = line.find(' ', pathStart);
    const std::string path
        = line.substr(pathStart, pathEnd == std::string::npos ? std::string::npos : pathEnd - pathStart);
    if (!get) {
        writeAll(fd, response("405 Method Not Allowed", "text/plain", "only GET /metrics\n"));
        return;
    }
    if (path != "/metrics" && path.rfind("/metrics?", 0) != 0) {
        writeAll(fd, response("404 Not Found", "text/plain", "wrkbench serves /metrics\n"));
        return;
    }
    const bool finished = m_metrics.finished(); // read before rendering: the render has it all
    std::string body = m_metrics.render();
    if (line.rfind("HEAD ", 0) == 0) body.clear();
    writeAll(fd, response("200 OK", "text/plain; version=0.0.4; charset=utf-8", body));
    ++m_scrapes;
    if (finished) {
        std::lock_guard lock(m_mutex);
        m_finishedScraped = true;
        m_scrapedFinished.notify_all();
    }
}

bool MetricsServer::lingerUntilScraped(uint64_t maxUs)
{
    if (m_listenFd < 0) return false;
    std::unique_lock lock(m_mutex);
    return m_scrapedFinished.wait_for(lock, std::chrono::microseconds(maxUs), [&] { return m_finishedScraped; });
}

} // namespace wb
