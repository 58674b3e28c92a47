#pragma once
// A small HTTP/2 server that misbehaves on purpose, for the engine's bad-input
// tests: it writes frames by hand (no HTTP/2 library: it must be able to break
// the rules), one thread per connection, on a free loopback port. Requests are
// answered with a 200 and "ok" unless the behaviour says otherwise.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace wb::test {

class RawH2Server
{
public:
    enum class Behaviour {
        Good, ///< a correct (tiny) server
        OmitsTableSizeUpdate, ///< as Good, but ignores a client's smaller HPACK table (RFC 7541 4.2)
        GarbageAfterPreface, ///< SETTINGS, then bytes that are no frame once the first request arrives
        SettingsFlood, ///< 50,000 empty SETTINGS frames once the first request arrives
        HeadersWithoutEndHeaders, ///< answers with HEADERS lacking END_HEADERS, then DATA (no CONTINUATION)
        WindowUpdateZero, ///< a connection WINDOW_UPDATE of 0 once the first request arrives
        ResetEveryStream, ///< RST_STREAM(INTERNAL_ERROR) for every request
        GoawayAfter20, ///< answers 20 requests per connection, then GOAWAY(last answered); closes after the client
        NeverSendsSettings, ///< reads, never writes
        Http1Only, ///< answers the preface as an HTTP/1.1 server does: 400 and close
    };

    explicit RawH2Server(Behaviour behaviour);
    ~RawH2Server();
    RawH2Server(const RawH2Server&) = delete;
    RawH2Server& operator=(const RawH2Server&) = delete;

    uint16_t port() const { return m_port; }
    /// Connections accepted so far.
    unsigned connections() const { return m_accepted.load(); }
    /// Requests answered with a 200 so far.
    uint64_t answered() const { return m_answered.load(); }

private:
    void acceptLoop();
    void serve(int fd);

    Behaviour m_behaviour;
    int m_listenFd = -1;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop { false };
    std::atomic<unsigned> m_accepted { 0 };
    std::atomic<uint64_t> m_answered { 0 };
    std::thread m_acceptThread;
    std::mutex m_mutex;
    std::vector<std::thread> m_threads;
    std::vector<int> m_fds;
};

} // namespace wb::test
