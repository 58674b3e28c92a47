#pragma once
// A tiny loopback HTTP server: one request per connection, the answer chosen by a
// handler from the request head, every request kept. It answers what the built-in
// server cannot (redirects for the probe tests; hostile metrics endpoints for the
// scrape tests) and shows exactly what the client sent.

#include "testsupport.h"

#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <sys/time.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace wb::test {

class ScriptedServer
{
public:
    /// Gets the request head (request line and headers), returns the raw response bytes.
    using Handler = std::function<std::string(const std::string& head)>;

    explicit ScriptedServer(Handler handler)
        : m_handler(std::move(handler))
    {
        m_fd = listenOnLoopback(m_port);
        if (m_fd < 0) return;
        m_thread = std::thread([this] { serve(); });
    }
    ~ScriptedServer()
    {
        m_stop = true;
        if (m_thread.joinable()) m_thread.join();
        ::close(m_fd);
    }
    ScriptedServer(const ScriptedServer&) = delete;
    ScriptedServer& operator=(const ScriptedServer&) = delete;

    uint16_t port() const { return m_port; }
    std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(m_port) + path; }
    /// Request heads received so far (one per connection).
    std::vector<std::string> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

    /// "HTTP/1.1 <status>" with the given extra header lines and body, Connection: close.
    static std::string response(const std::string& status, const std::string& headers, const std::string& body)
    {
        return "HTTP/1.1 " + status + "\r\n" + headers + "Content-Length: " + std::to_string(body.size())
            + "\r\nConnection: close\r\n\r\n" + body;
    }

private:
    void serve()
    {
        while (!m_stop) {
            pollfd p { m_fd, POLLIN, 0 };
            if (::poll(&p, 1, 20) <= 0) continue;
            const int c = ::accept(m_fd, nullptr, nullptr);
            if (c < 0) continue;
            timeval tv { 2, 0 };
            ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            std::string data;
            char buf[4096];
            size_t headEnd = std::string::npos;
            while ((headEnd = data.find("\r\n\r\n")) == std::string::npos) {
                const ssize_t n = ::recv(c, buf, sizeof buf, 0);
                if (n <= 0) break;
                data.append(buf, static_cast<size_t>(n));
            }
            if (headEnd != std::string::npos) {
                const std::string head = data.substr(0, headEnd + 2);
                {
                    std::lock_guard lock(m_mutex);
                    m_requests.push_back(head);
                }
                const std::string answer = m_handler(head);
                ::send(c, answer.data(), answer.size(), MSG_NOSIGNAL);
                ::shutdown(c, SHUT_WR);
                while (::recv(c, buf, sizeof buf, 0) > 0) { } // let the client close first: no RST on unread body
            }
            ::close(c);
        }
    }

    Handler m_handler;
    int m_fd = -1;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop { false };
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::vector<std::string> m_requests;
};

/// The path of a request head's request line ("GET /a HTTP/1.1" -> "/a").
inline std::string requestPath(const std::string& head)
{
    const auto a = head.find(' ');
    const auto b = head.find(' ', a + 1);
    return a == std::string::npos || b == std::string::npos ? std::string() : head.substr(a + 1, b - a - 1);
}

} // namespace wb::test
