// HTTP/1.1 and, on the same port, HTTP/2 with prior knowledge (h2c; told apart by
// the connection preface). One Loop per thread: its own listening socket (SO_REUSEPORT), epoll set,
// eventfd for stop() and timer heap for delays. Level-triggered: one read per
// readiness, every complete request in it answered, all answers written with
// one sendmsg; EPOLLOUT is registered only while a write is incomplete.
#include "serve/targetserver.h"

#include "net/eventwait.h"
#include "serve/admission.h"
#include "serve/h2serverconnection.h"
#include "serve/outqueue.h"
#include "serve/requesthead.h"
#include "serve/response.h"
#include "serve/servermetrics.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <mutex>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <queue>
#include <span>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace wb {
namespace {

using serve::H2ServerConnection;
using serve::OutQueue;
using serve::RequestHead;
using serve::Responder;
using serve::Route;

constexpr size_t READ_BUFFER_SIZE = 64 * 1024;
constexpr size_t MAX_HEAD_SIZE = 64 * 1024;
constexpr uint64_t MAX_ECHO_SIZE = 64ull * 1024 * 1024;
// A client that pipelines faster than it reads is not read from until its
// answers drain below these.
constexpr uint64_t MAX_BACKLOG_BYTES = 4ull * 1024 * 1024;
constexpr size_t MAX_DELAYED_ANSWERS = 1024;
constexpr int64_t LINGER_NS = 1'000'000'000; // how long a closing connection waits for the client's FIN
constexpr int64_t ACCEPT_RETRY_NS = 50'000'000; // pause after running out of descriptors
constexpr int MAX_EVENTS = 256;
constexpr int MAX_IOV = 64;
constexpr int ACCEPTS_PER_EVENT = 64;

int64_t monotonicNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// An answer waiting for its time (a delay) or for an earlier delayed answer.
struct Delayed
{
    int64_t dueNs;
    OutQueue out;
    bool close = false;
    bool counts = false; // a final answer, not "100 Continue"
};

struct Connection
{
    int fd = -1;
    uint64_t serial = 0; // unique per loop: stale timers and events are recognised by it
    uint32_t events = 0; // registered with epoll
    std::string in; // the incomplete request head at the end of the input
    size_t scanFrom = 0; // in[0, scanFrom) holds no head end
    RequestHead current; // the request whose body is being read
    uint64_t bodyLeft = 0;
    bool inBody = false;
    bool discardInput = false; // answered with close, an error, or /silent: no more requests
    bool closeAfterFlush = false;
    bool peerClosed = false;
    bool lingering = false; // our side is shut down; waiting for the client's FIN
    std::string echo;
    OutQueue out; // ready to send
    // Delayed answers in request order, behind out. A vector with a head
    // index: std::deque allocates even when empty, and most connections never delay.
    std::vector<Delayed> delayed;
    size_t delayedHead = 0;
    int64_t timerDueNs = 0; // the timer armed for the first delayed answer, 0 = none
    int64_t lingerUntilNs = 0;
    // The first bytes tell the protocols apart: HTTP/2's connection preface, or an HTTP/1.1 request.
    bool protocolKnown = false;
    std::unique_ptr<H2ServerConnection> h2; // set when the connection began with the preface

    bool hasDelayed() const { return delayedHead < delayed.size(); }
    size_t delayedCount() const { return delayed.size() - delayedHead; }
    void popDelayed()
    {
        delayed[delayedHead].out = OutQueue(); // sent: free it now
        if (++delayedHead == delayed.size()) {
            delayed.clear();
            delayedHead = 0;
        } else if (delayedHead > 64 && delayedHead > delayed.size() / 2) {
            delayed.erase(delayed.begin(), delayed.begin() + static_cast<std::ptrdiff_t>(delayedHead));
            delayedHead = 0;
        }
    }
};

struct Timer
{
    int64_t dueNs;
    int fd;
    uint64_t serial; // 0: re-enable accepting
    bool operator>(const Timer& o) const { return dueNs > o.dueNs; }
};

/// Periodic stalls (--stall-every/--stall-for): in every period the server
/// answers normally, then holds every answer during the last `forNs` and sends
/// them all when the period ends. Windows are aligned to the server's start.
struct StallPlan
{
    int64_t everyNs = 0;
    int64_t forNs = 0;
    int64_t originNs = 0;

    /// How long an answer due at dueNs must wait for the stall window to end.
    int64_t holdNs(int64_t dueNs) const
    {
        if (everyNs <= 0 || forNs <= 0 || dueNs < originNs) return 0;
        const int64_t phase = (dueNs - originNs) % everyNs;
        return phase >= everyNs - forNs ? everyNs - phase : 0;
    }
};

class Loop
{
public:
    Loop(const Responder& responder, serve::Admissions& admission, int64_t delayNs, const StallPlan& stalls,
        int listenFd, serve::LoopCounters& counters, std::span<const serve::LoopCounters> all)
        : m_responder(responder)
        , m_admission(admission)
        , m_delayNs(delayNs)
        , m_stalls(stalls)
        , m_listenFd(listenFd)
        , m_counters(counters)
        , m_all(all)
    { }
    ~Loop()
    {
        for (int fd : { m_epollFd, m_wakeFd, m_listenFd }) {
            if (fd >= 0) ::close(fd);
        }
    }
    Loop(const Loop&) = delete;
    Loop& operator=(const Loop&) = delete;

    bool init()
    {
        m_epollFd = epoll_create1(EPOLL_CLOEXEC);
        m_wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        return m_epollFd >= 0 && m_wakeFd >= 0 && control(EPOLL_CTL_ADD, m_wakeFd, 0, EPOLLIN)
            && control(EPOLL_CTL_ADD, m_listenFd, 0, EPOLLIN);
    }

    void requestStop()
    {
        m_stop.store(true, std::memory_order_relaxed);
        uint64_t one = 1;
        [[maybe_unused]] ssize_t n = ::write(m_wakeFd, &one, sizeof one);
    }

    uint64_t served() const { return m_counters.answered.load(std::memory_order_relaxed); }

    void run() noexcept
    {
        m_readBuffer.reset(new (std::nothrow) char[READ_BUFFER_SIZE]);
        epoll_event events[MAX_EVENTS];
        m_wokeNs = monotonicNs();
        while (m_readBuffer && !m_stop.load(std::memory_order_relaxed)) {
            // Busy time for /metrics: from waking up to waiting again (one clock read per wake-up).
            m_busyNs += uint64_t(std::max<int64_t>(0, monotonicNs() - m_wokeNs));
            m_counters.busyNs.store(m_busyNs, std::memory_order_relaxed);
            int n = wait(events);
            if (n < 0 && errno != EINTR) break;
            m_nowNs = monotonicNs();
            m_wokeNs = m_nowNs;
            for (int i = 0; i < n; ++i)
                dispatch(events[i]);
            runTimers();
            publishServed();
        }
        for (auto& c : m_connections) {
            if (c) ::close(c->fd);
        }
        m_connections.clear();
    }

private:
    bool control(int op, int fd, uint64_t serial, uint32_t events)
    {
        // The low half of the serial travels with the event: an event for a
        // descriptor closed and reused within the same batch is recognised.
        epoll_event ev {};
        ev.events = events;
        ev.data.u64 = uint64_t(uint32_t(fd)) | (serial << 32);
        return epoll_ctl(m_epollFd, op, fd, &ev) == 0;
    }

    int wait(epoll_event* events)
    {
        int64_t timeoutNs = -1;
        if (!m_timers.empty()) timeoutNs = std::max<int64_t>(0, m_timers.top().dueNs - monotonicNs());
        return waitForEvents(m_epollFd, events, MAX_EVENTS, timeoutNs);
    }

    void dispatch(const epoll_event& ev)
    {
        int fd = static_cast<int>(ev.data.u64 & 0xffffffffu);
        uint64_t tag = ev.data.u64 >> 32;
        if (tag == 0) {
            if (fd == m_wakeFd)
                m_stop.store(true, std::memory_order_relaxed);
            else if (fd == m_listenFd)
                acceptConnections();
            return;
        }
        if (size_t(fd) >= m_connections.size() || !m_connections[fd]
            || (m_connections[fd]->serial & 0xffffffffu) != tag)
            return;
        Connection& c = *m_connections[fd];
        try {
            if (ev.events & (EPOLLERR | EPOLLHUP)) {
                closeConnection(c);
                return;
            }
            if ((ev.events & EPOLLOUT) && !flush(c)) return;
            if (ev.events & EPOLLIN) readFrom(c);
        } catch (...) {
            // Only allocation can throw here; losing one connection beats losing the thread.
            closeIfSame(fd, tag);
        }
    }

    void acceptConnections()
    {
        for (int i = 0; i < ACCEPTS_PER_EVENT; ++i) {
            int fd = accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO) continue;
                if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                    // Level-triggered accept would spin: stop listening for a moment.
                    control(EPOLL_CTL_MOD, m_listenFd, 0, 0);
                    m_timers.push({ m_nowNs + ACCEPT_RETRY_NS, m_listenFd, 0 });
                }
                return;
            }
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            try {
                if (size_t(fd) >= m_connections.size())
                    m_connections.resize(std::max<size_t>(size_t(fd) + 1, m_connections.size() * 2));
                auto c = std::make_unique<Connection>();
                c->fd = fd;
                c->serial = ++m_nextSerial;
                if ((c->serial & 0xffffffffu) == 0) c->serial = ++m_nextSerial; // the tag must not be 0
                c->events = EPOLLIN;
                if (!control(EPOLL_CTL_ADD, fd, c->serial, EPOLLIN)) {
                    ::close(fd);
                    continue;
                }
                m_connections[fd] = std::move(c);
                ++m_open;
            } catch (...) {
                ::close(fd);
            }
        }
    }

    void closeConnection(Connection& c)
    {
        int fd = c.fd;
        ::close(fd); // also leaves the epoll set
        m_connections[fd].reset();
        --m_open;
    }

    void closeIfSame(int fd, uint64_t tag)
    {
        if (size_t(fd) < m_connections.size() && m_connections[fd] && (m_connections[fd]->serial & 0xffffffffu) == tag)
            closeConnection(*m_connections[fd]);
    }

    void readFrom(Connection& c)
    {
        ssize_t n = ::read(c.fd, m_readBuffer.get(), READ_BUFFER_SIZE);
        if (n < 0) {
            if (errno != EAGAIN && errno != EINTR) closeConnection(c);
            return;
        }
        if (n == 0) {
            // The client is done sending; answer what it asked, then close.
            if (c.lingering || (c.out.empty() && !c.hasDelayed())) {
                closeConnection(c);
                return;
            }
            c.peerClosed = true;
            c.closeAfterFlush = true;
            updateInterest(c);
            return;
        }
        if (c.lingering || c.discardInput) return;
        if (c.h2) return receiveHttp2(c, m_readBuffer.get(), size_t(n));
        if (!c.protocolKnown) {
            if (!c.in.empty()) c.in.append(m_readBuffer.get(), size_t(n));
            const std::string_view seen = c.in.empty() ? std::string_view(m_readBuffer.get(), size_t(n)) : c.in;
            if (serve::startsHttp2Preface(seen)) {
                if (seen.size() < sizeof(NGHTTP2_CLIENT_MAGIC) - 1) { // the rest of the preface is still to come
                    if (c.in.empty()) c.in.assign(seen);
                    return;
                }
                std::string bytes(seen);
                c.in.clear();
                c.protocolKnown = true;
                c.h2 = std::make_unique<H2ServerConnection>(m_responder, m_delayNs, &m_admission);
                return receiveHttp2(c, bytes.data(), bytes.size());
            }
            c.protocolKnown = true;
            if (!c.in.empty()) {
                const std::string bytes = std::exchange(c.in, {});
                consume(c, bytes.data(), bytes.size());
                releaseDue(c);
                flush(c);
                return;
            }
        }
        consume(c, m_readBuffer.get(), size_t(n));
        releaseDue(c);
        flush(c);
    }

    void receiveHttp2(Connection& c, const char* data, size_t size)
    {
        const bool ok = c.h2->receive(data, size, m_nowNs);
        pumpHttp2(c, ok);
    }

    /// Moves the HTTP/2 session's frames to the output, arms the timer of its next
    /// delayed answer, and writes.
    void pumpHttp2(Connection& c, bool ok)
    {
        m_h2Frames.clear();
        c.h2->takeOutput(m_h2Frames);
        c.out.appendBytes(m_h2Frames);
        m_served += c.h2->takeAnswered();
        if (const int64_t due = c.h2->nextDueNs(); due != 0 && due != c.timerDueNs) {
            c.timerDueNs = due;
            m_timers.push({ due, c.fd, c.serial });
        }
        if (!ok || c.h2->finished()) {
            c.discardInput = true;
            c.closeAfterFlush = true;
        }
        flush(c);
    }

    void consume(Connection& c, const char* data, size_t size)
    {
        // Complete requests are parsed straight from the shared read buffer;
        // only an incomplete head is copied into the connection.
        if (c.in.empty()) {
            size_t used = parse(c, data, size);
            if (used < size && !c.discardInput) c.in.assign(data + used, size - used);
            return;
        }
        c.in.append(data, size);
        size_t used = parse(c, c.in.data(), c.in.size());
        if (c.discardInput)
            c.in.clear();
        else
            c.in.erase(0, used);
    }

    size_t parse(Connection& c, const char* p, size_t size)
    {
        size_t pos = 0;
        while (pos < size && !c.discardInput) {
            if (c.inBody) {
                uint64_t take = std::min<uint64_t>(c.bodyLeft, size - pos);
                if (c.current.route == Route::Echo) c.echo.append(p + pos, take);
                pos += take;
                c.bodyLeft -= take;
                if (c.bodyLeft > 0) break;
                c.inBody = false;
                answer(c, c.current);
                c.echo.clear();
                continue;
            }
            if (p[pos] == '\r' || p[pos] == '\n') { // stray line ends between requests are allowed
                ++pos;
                continue;
            }
            size_t end = serve::findHeadEnd(p + pos, size - pos, c.scanFrom);
            if (end == 0) {
                if (size - pos > MAX_HEAD_SIZE)
                    answerError(c, 431);
                else
                    c.scanFrom = size - pos >= 3 ? size - pos - 3 : 0;
                break;
            }
            c.scanFrom = 0;
            RequestHead r;
            int error = serve::parseRequestHead({ p + pos, end }, r);
            pos += end;
            if (error != 0) {
                answerError(c, error);
                break;
            }
            if (r.contentLength == 0) {
                answer(c, r);
                continue;
            }
            if (r.route == Route::Echo && r.contentLength > MAX_ECHO_SIZE) {
                answerError(c, 413);
                break;
            }
            c.current = r;
            c.inBody = true;
            c.bodyLeft = r.contentLength;
            if (r.expectContinue && size - pos < r.contentLength) {
                Delayed* d = nullptr;
                queueFor(c, 0, d).appendBytes("HTTP/1.1 100 Continue\r\n\r\n", 25);
            }
        }
        return pos;
    }

    /// Where the next answer goes: straight out, or behind earlier delayed answers.
    OutQueue& queueFor(Connection& c, int64_t delayNs, Delayed*& delayed)
    {
        if (delayNs == 0 && !c.hasDelayed()) {
            delayed = nullptr;
            return c.out;
        }
        c.delayed.push_back({ delayNs == 0 ? 0 : m_nowNs + delayNs, {} });
        delayed = &c.delayed.back();
        return delayed->out;
    }

    void finishAnswer(Connection& c, Delayed* delayed, bool close)
    {
        if (close) c.discardInput = true;
        if (delayed) {
            delayed->close = close;
            delayed->counts = true;
            return;
        }
        c.closeAfterFlush = c.closeAfterFlush || close;
        ++m_served;
    }

    void answerError(Connection& c, int status)
    {
        Delayed* delayed = nullptr;
        Responder::composeError(queueFor(c, 0, delayed), status);
        finishAnswer(c, delayed, true);
    }

    void answer(Connection& c, const RequestHead& r)
    {
        if (r.route == Route::Silent) {
            c.discardInput = true;
            return;
        }
        if (r.route == Route::Metrics) {
            // The server's own counters, now: neither --delay nor a stall holds them back. Answered as
            // an echo of their text (the same framing rules); queued after any answer still delayed.
            publishServed();
            const std::string text = serve::formatServerMetrics(m_all);
            RequestHead asEcho = r;
            asEcho.route = Route::Echo;
            const bool closeAfter = !r.keepAlive;
            Delayed* delayed = nullptr;
            m_responder.compose(queueFor(c, 0, delayed), asEcho, text, closeAfter);
            ++m_metricsAnswers;
            finishAnswer(c, delayed, closeAfter);
            return;
        }
        // --capacity: past the rate the request is refused (503, the connection kept) or waits its turn.
        const int64_t admittedAfterNs = m_admission.admit(m_nowNs, r.route == Route::Capacity ? r.number : 0);
        if (admittedAfterNs < 0) {
            ++m_refused;
            RequestHead refused = r;
            refused.route = Route::Status;
            refused.status = 503;
            const bool closeAfter = !r.keepAlive;
            Delayed* delayed = nullptr;
            m_responder.compose(queueFor(c, 0, delayed), refused, {}, closeAfter);
            finishAnswer(c, delayed, closeAfter);
            return;
        }
        m_queuedNs += static_cast<uint64_t>(admittedAfterNs);
        int64_t delayNs = admittedAfterNs + (r.route == Route::Delay ? int64_t(r.number) * 1'000'000 : m_delayNs);
        delayNs += m_stalls.holdNs(m_nowNs + delayNs);
        bool close = !r.keepAlive || r.route == Route::Close;
        Delayed* delayed = nullptr;
        OutQueue& q = queueFor(c, delayNs, delayed);
        m_responder.compose(q, r, c.echo, close);
        finishAnswer(c, delayed, close);
    }

    /// Moves the delayed answers whose time has come (in order) to the output.
    void releaseDue(Connection& c)
    {
        while (c.hasDelayed() && c.delayed[c.delayedHead].dueNs <= m_nowNs) {
            Delayed& d = c.delayed[c.delayedHead];
            c.out.appendQueue(d.out);
            c.closeAfterFlush = c.closeAfterFlush || d.close;
            m_served += d.counts ? 1 : 0;
            c.popDelayed();
        }
        if (c.hasDelayed() && c.delayed[c.delayedHead].dueNs != c.timerDueNs) {
            c.timerDueNs = c.delayed[c.delayedHead].dueNs;
            m_timers.push({ c.timerDueNs, c.fd, c.serial });
        }
    }

    /// Writes what is ready with one sendmsg (more only for many segments).
    /// Returns false when the connection was closed.
    bool flush(Connection& c)
    {
        publishServed(); // before the client can see the answers
        while (!c.out.empty()) {
            iovec iov[MAX_IOV];
            uint64_t total = 0;
            msghdr msg {};
            msg.msg_iov = iov;
            msg.msg_iovlen = size_t(c.out.fillIov(iov, MAX_IOV, total));
            ssize_t n = ::sendmsg(c.fd, &msg, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN) break;
                closeConnection(c);
                return false;
            }
            c.out.consume(uint64_t(n));
            if (uint64_t(n) < total) break; // the socket buffer is full: wait for EPOLLOUT
        }
        if (c.out.empty() && !c.hasDelayed() && c.closeAfterFlush && !c.lingering) {
            if (c.peerClosed) {
                closeConnection(c);
                return false;
            }
            // Closing with unread input would send a reset that can destroy the
            // answer in flight: send FIN, read until the client's FIN (or a timeout).
            ::shutdown(c.fd, SHUT_WR);
            c.lingering = true;
            c.lingerUntilNs = m_nowNs + LINGER_NS;
            m_timers.push({ c.lingerUntilNs, c.fd, c.serial });
        }
        updateInterest(c);
        return true;
    }

    void updateInterest(Connection& c)
    {
        bool backlogged = c.out.size() >= MAX_BACKLOG_BYTES || c.delayedCount() >= MAX_DELAYED_ANSWERS;
        bool reading = !c.peerClosed && (c.lingering || c.discardInput || !backlogged);
        uint32_t want = (reading ? EPOLLIN : 0u) | (c.out.empty() ? 0u : EPOLLOUT);
        if (want != c.events && control(EPOLL_CTL_MOD, c.fd, c.serial, want)) c.events = want;
    }

    void runTimers()
    {
        if (m_timers.empty()) return;
        m_nowNs = monotonicNs();
        while (!m_timers.empty() && m_timers.top().dueNs <= m_nowNs) {
            Timer t = m_timers.top();
            m_timers.pop();
            if (t.serial == 0) {
                control(EPOLL_CTL_MOD, m_listenFd, 0, EPOLLIN);
                continue;
            }
            if (size_t(t.fd) >= m_connections.size() || !m_connections[t.fd] || m_connections[t.fd]->serial != t.serial)
                continue; // the connection is gone
            Connection& c = *m_connections[t.fd];
            if (c.lingering) {
                if (m_nowNs >= c.lingerUntilNs) closeConnection(c);
                continue;
            }
            if (t.dueNs == c.timerDueNs) c.timerDueNs = 0;
            try {
                if (c.h2) {
                    c.h2->releaseDue(m_nowNs);
                    pumpHttp2(c, true);
                    continue;
                }
                releaseDue(c);
                flush(c);
            } catch (...) {
                closeIfSame(t.fd, t.serial & 0xffffffffu);
            }
        }
    }

    void publishServed()
    {
        // One writer: a relaxed store is a plain move, no locked instruction.
        if (m_open != m_openPublished) {
            m_openPublished = m_open;
            m_counters.connections.store(m_open, std::memory_order_relaxed);
        }
        if (m_served != m_servedPublished) {
            m_servedPublished = m_served;
            m_counters.answered.store(m_served, std::memory_order_relaxed);
            m_counters.metricsAnswers.store(m_metricsAnswers, std::memory_order_relaxed);
            m_counters.refused.store(m_refused, std::memory_order_relaxed);
            m_counters.queuedNs.store(m_queuedNs, std::memory_order_relaxed);
        }
    }

    const Responder& m_responder;
    serve::Admissions& m_admission; // --capacity, shared by every loop
    const int64_t m_delayNs; // the delayUs option
    const StallPlan m_stalls;
    int m_listenFd;
    int m_epollFd = -1;
    int m_wakeFd = -1;
    std::atomic<bool> m_stop { false };
    int64_t m_nowNs = 0; // taken once per wake-up: "when the request arrived"
    uint64_t m_nextSerial = 0;
    uint64_t m_served = 0;
    uint64_t m_servedPublished = 0;
    uint64_t m_metricsAnswers = 0; ///< answers to /metrics (counted in m_served too)
    uint64_t m_refused = 0; ///< --capacity: refused past the rate (answered, so in m_served too)
    uint64_t m_queuedNs = 0; ///< --capacity --queue: the admitted requests' waits
    uint64_t m_busyNs = 0;
    int64_t m_wokeNs = 0;
    uint64_t m_open = 0; ///< open connections
    uint64_t m_openPublished = 0;
    serve::LoopCounters& m_counters; ///< this loop's slot: its only writer
    std::span<const serve::LoopCounters> m_all; ///< every loop's, read for /metrics
    std::unique_ptr<char[]> m_readBuffer;
    std::string m_h2Frames; // HTTP/2 output on its way to a connection's queue
    std::vector<std::unique_ptr<Connection>> m_connections; // by descriptor
    std::priority_queue<Timer, std::vector<Timer>, std::greater<>> m_timers;
};

/// "[::1]:8080" or "127.0.0.1:8080", for messages.
std::string endpointText(const std::string& address, uint16_t port)
{
    bool v6 = address.find(':') != std::string::npos && address.front() != '[';
    return (v6 ? "[" + address + "]" : address) + ":" + std::to_string(port);
}

int openListener(const sockaddr_storage& addr, socklen_t length, std::string& error)
{
    int fd = ::socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = std::strerror(errno);
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    // Every loop has its own listening socket on the same port; the kernel
    // spreads new connections over them.
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) != 0
        || ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), length) != 0 || ::listen(fd, 65535) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return -1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // inherited by accepted sockets on Linux
    return fd;
}

} // namespace

struct TargetServer::Impl
{
    TargetServerOptions options;
    Responder responder; // read by the loops while they run
    serve::Admissions admission; // --capacity and /capacity/N: one rate each for every loop
    uint16_t port = 0;
    mutable std::mutex mutex; // start/stop/requestsServed against each other
    std::vector<std::unique_ptr<Loop>> loops;
    std::unique_ptr<serve::LoopCounters[]> counters; // one per loop, outlives them
    std::vector<std::thread> threads;
    uint64_t servedBefore = 0; // by loops of earlier start()s

    void stopLocked()
    {
        for (auto& loop : loops)
            loop->requestStop();
        for (auto& thread : threads)
            thread.join();
        for (auto& loop : loops)
            servedBefore += loop->served();
        threads.clear();
        loops.clear();
    }
};

TargetServer::TargetServer(TargetServerOptions options)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->options = std::move(options);
}

TargetServer::~TargetServer()
{
    stop();
}

Status TargetServer::start()
{
    Impl& d = *m_impl;
    std::lock_guard lock(d.mutex);
    const TargetServerOptions& o = d.options;
    if (!d.loops.empty())
        return Error { "the target server is already running on " + endpointText(o.bindAddress, d.port) };
    if (o.threads == 0) return Error { "the target server needs at least one thread" };

    std::string host = o.bindAddress;
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
    addrinfo* info = nullptr;
    if (host.empty() || getaddrinfo(host.c_str(), nullptr, &hints, &info) != 0 || !info)
        return Error { "cannot listen on '" + o.bindAddress + "': not an IPv4 or IPv6 address" };
    sockaddr_storage addr {};
    socklen_t length = info->ai_addrlen;
    std::memcpy(&addr, info->ai_addr, length);
    freeaddrinfo(info);
    auto setPort = [&](uint16_t port) {
        if (addr.ss_family == AF_INET6)
            reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port = htons(port);
        else
            reinterpret_cast<sockaddr_in*>(&addr)->sin_port = htons(port);
    };
    setPort(o.port);

    d.responder.standIn(
        o.backends, o.skewedBackends, o.upstreamTimeHeader ? static_cast<int64_t>((o.delayUs + 500) / 1000) : -1);
    d.responder.prepare(o.bodySize, o.text);
    d.admission.configure(o.capacityPerS, o.capacityQueue);
    // Capped at ~12 days so that the nanoseconds fit.
    int64_t delayNs = int64_t(std::min<uint64_t>(o.delayUs, uint64_t(1) << 40) * 1000);
    StallPlan stalls;
    stalls.everyNs = int64_t(std::min<uint64_t>(o.stallEveryUs, uint64_t(1) << 40) * 1000);
    stalls.forNs = int64_t(std::min<uint64_t>(o.stallForUs, o.stallEveryUs) * 1000);
    stalls.originNs = monotonicNs();
    d.port = o.port;
    d.counters = std::make_unique<serve::LoopCounters[]>(o.threads);
    const std::span<const serve::LoopCounters> all(d.counters.get(), o.threads);
    for (unsigned i = 0; i < o.threads; ++i) {
        std::string error;
        int fd = openListener(addr, length, error);
        if (fd < 0) {
            d.loops.clear();
            uint16_t port = std::exchange(d.port, 0);
            return Error { "cannot listen on " + endpointText(host, port) + ": " + error };
        }
        d.loops.push_back(std::make_unique<Loop>(d.responder, d.admission, delayNs, stalls, fd, d.counters[i], all));
        if (i == 0) { // port 0: the first bind picked one, the others share it
            sockaddr_storage bound {};
            socklen_t boundLength = sizeof bound;
            getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &boundLength);
            d.port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                                       : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
            setPort(d.port);
        }
        if (!d.loops.back()->init()) {
            std::string reason = std::strerror(errno);
            d.loops.clear();
            uint16_t port = std::exchange(d.port, 0);
            return Error { "cannot set up the event loop for " + endpointText(host, port) + ": " + reason };
        }
    }
    try {
        for (auto& loop : d.loops)
            d.threads.emplace_back([l = loop.get()] { l->run(); });
    } catch (const std::system_error& e) {
        d.loops.resize(d.threads.size()); // loops without a thread cannot be joined
        d.stopLocked();
        d.port = 0;
        return Error { std::string("cannot start the target server threads: ") + e.what() };
    }
    return {};
}

void TargetServer::stop()
{
    std::lock_guard lock(m_impl->mutex);
    m_impl->stopLocked();
}

uint16_t TargetServer::port() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->port;
}

uint64_t TargetServer::requestsServed() const
{
    std::lock_guard lock(m_impl->mutex);
    uint64_t total = m_impl->servedBefore;
    for (const auto& loop : m_impl->loops)
        total += loop->served();
    return total;
}

} // namespace wb
