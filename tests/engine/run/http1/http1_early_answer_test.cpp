// A server that answers a POST as soon as it has read its head, then reads (and drops) the
// body: what nginx's `return` does and what proxies in front of it pass on. The body is larger
// than the socket buffers, so the answer arrives while the request is still being written, and
// the next request must go out behind the rest of it, byte for byte.

#include "run/runcontroller.h"
#include "testsupport.h"

#include <atomic>
#include <gtest/gtest.h>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace wb;

namespace {

// Twice what a socket may buffer (net.ipv4.tcp_wmem allows 4 MB): the write always blocks.
constexpr size_t BODY_BYTES = 8 * 1024 * 1024;
constexpr const char* REQUEST_LINE = "POST /early HTTP/1.1\r\n";

class EarlyAnswerServer
{
public:
    EarlyAnswerServer()
    {
        m_fd = test::listenOnLoopback(m_port, 4096); // a small buffer: the client's writes block soon
        if (m_fd < 0) return;
        m_acceptor = std::thread([this] { accept(); });
    }
    ~EarlyAnswerServer()
    {
        m_stop = true;
        if (m_acceptor.joinable()) m_acceptor.join();
        for (std::thread& t : m_connections)
            t.join();
        ::close(m_fd);
    }

    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/early"; }
    /// Requests read whole and well formed, per connection in the order accepted.
    std::vector<uint64_t> served() const
    {
        std::lock_guard lock(m_mutex);
        return m_served;
    }
    /// Anything that was not a whole request of ours, with what came instead.
    std::vector<std::string> garbage() const
    {
        std::lock_guard lock(m_mutex);
        return m_garbage;
    }

private:
    void accept()
    {
        while (!m_stop) {
            pollfd p { m_fd, POLLIN, 0 };
            if (::poll(&p, 1, 20) <= 0) continue;
            const int c = ::accept(m_fd, nullptr, nullptr);
            if (c < 0) continue;
            std::lock_guard lock(m_mutex);
            m_served.push_back(0);
            m_connections.emplace_back([this, c, index = m_served.size() - 1] { serve(c, index); });
        }
    }

    // Reads until `data` holds `bytes` bytes, polling so the server stops with the test.
    bool fill(int c, std::string& data, size_t bytes)
    {
        char buf[65536];
        while (data.size() < bytes) {
            pollfd p { c, POLLIN, 0 };
            if (m_stop) return false;
            if (::poll(&p, 1, 20) <= 0) continue;
            const ssize_t n = ::recv(c, buf, sizeof buf, 0);
            if (n <= 0) return false;
            data.append(buf, static_cast<size_t>(n));
        }
        return true;
    }

    void serve(int c, size_t index)
    {
        static constexpr std::string_view ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        std::string data;
        for (;;) {
            size_t headEnd = std::string::npos;
            while ((headEnd = data.find("\r\n\r\n")) == std::string::npos && data.size() < 4096)
                if (!fill(c, data, data.size() + 1)) return finish(c, data);
            if (headEnd == std::string::npos || data.rfind(REQUEST_LINE, 0) != 0
                || data.find("Content-Length: " + std::to_string(BODY_BYTES) + "\r\n") > headEnd)
                return refuse(c, data);
            ::send(c, ANSWER.data(), ANSWER.size(), MSG_NOSIGNAL); // before the body
            data.erase(0, headEnd + 4);
            if (!fill(c, data, BODY_BYTES)) return finish(c, data);
            if (data.find_first_not_of('b', 0) < BODY_BYTES) return refuse(c, data);
            data.erase(0, BODY_BYTES);
            std::lock_guard lock(m_mutex);
            ++m_served[index];
        }
    }

    void refuse(int c, const std::string& data)
    {
        {
            std::lock_guard lock(m_mutex);
            m_garbage.push_back(data.substr(0, 80));
        }
        ::close(c);
    }

    // The client closed (the run ended): whatever it had begun to send is no request of ours to judge.
    void finish(int c, const std::string&) { ::close(c); }

    int m_fd = -1;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop { false };
    std::thread m_acceptor;
    std::vector<std::thread> m_connections;
    mutable std::mutex m_mutex;
    std::vector<uint64_t> m_served;
    std::vector<std::string> m_garbage;
};

RunConfig postConfig(const EarlyAnswerServer& server)
{
    RunConfig cfg;
    cfg.request.url = *parseUrl(server.url());
    cfg.request.method = "POST";
    cfg.request.body.assign(BODY_BYTES, 'b');
    cfg.threads = 1;
    cfg.connections = 2;
    cfg.durationUs = 600'000;
    return cfg;
}

RunResult runToEnd(RunConfig cfg)
{
    RunController run(std::move(cfg));
    const Status st = run.prepare();
    EXPECT_TRUE(st.ok()) << st.error();
    return run.run();
}

std::string errorsOf(const RunResult& r)
{
    const ErrorCounts& e = r.errors;
    return "connect " + std::to_string(e.connect) + ", read " + std::to_string(e.read) + ", write "
        + std::to_string(e.write) + ", timeout " + std::to_string(e.timeout) + ", parse " + std::to_string(e.parse)
        + "; requests " + std::to_string(r.requests);
}

std::string listed(const std::vector<std::string>& lines)
{
    std::string all;
    for (const std::string& line : lines)
        all += line + "\n";
    return all;
}

} // namespace

TEST(Http1EarlyAnswer, ClosedLoopSendsEveryByteOfEveryRequest)
{
    EarlyAnswerServer server;
    const RunResult r = runToEnd(postConfig(server));
    EXPECT_TRUE(server.garbage().empty()) << listed(server.garbage());
    EXPECT_EQ(r.errors.transportErrors(), 0u) << errorsOf(r);
    EXPECT_GT(r.requests, 0u);
    uint64_t served = 0;
    for (const uint64_t n : server.served())
        served += n;
    // Each answer leaves before its body is read: the run may count a few answers whose bodies
    // were cut short by the end (at most one per connection).
    EXPECT_GE(served + 2, r.requests);
}

// The open model sends nothing behind a blocked write; when every answer came while it was
// blocked, the end of the write must wake the connection, or it sends nothing more.
TEST(Http1EarlyAnswer, OpenModelGoesOnOnceTheBlockedWriteIsOut)
{
    EarlyAnswerServer server;
    RunConfig cfg = postConfig(server);
    cfg.ratePerS = 10; // 3 due on each connection: every one answered while being written
    const RunResult r = runToEnd(cfg);
    EXPECT_TRUE(server.garbage().empty()) << listed(server.garbage());
    EXPECT_EQ(r.errors.transportErrors(), 0u) << errorsOf(r);
    // The connections the run loaded (the check before the run opens one that sends nothing).
    std::vector<uint64_t> loaded;
    for (const uint64_t n : server.served())
        if (n > 0) loaded.push_back(n);
    ASSERT_EQ(loaded.size(), 2u);
    for (const uint64_t n : loaded)
        EXPECT_GE(n, 2u) << "a connection stopped after its first answer";
}
