#include "run/worker.h"

#include "common/clock.h"
#include "net/socket.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace wb {

namespace {
constexpr size_t READ_BUFFER_BYTES = 64 * 1024;
constexpr int MAX_EVENTS = 512;
constexpr uint64_t HOUSEKEEPING_US = 100'000; // wrk samples Req/Sec every 100 ms
constexpr uint64_t RETRY_BACKOFF_US = 10'000; // after a failed connect, so a refusing server is not spun on
constexpr uint32_t WAKE_TAG = UINT32_MAX;

uint64_t eventData(uint32_t index, uint32_t generation)
{
    return (static_cast<uint64_t>(generation) << 32) | index;
}
} // namespace

Worker::Worker(const LoadPlan& plan, unsigned connectionCount)
    : m_plan(plan)
    , m_connections(connectionCount)
    , m_generation(connectionCount, 0)
    , m_readBuffer(new char[READ_BUFFER_BYTES])
{
    if (plan.tls)
        for (auto& c : m_connections)
            c.tls = std::make_unique<TlsTransport>();
}

Worker::~Worker()
{
    for (auto& c : m_connections)
        c.close();
    if (m_epollFd >= 0) ::close(m_epollFd);
    if (m_wakeFd >= 0) ::close(m_wakeFd);
}

Status Worker::init()
{
    m_epollFd = epoll_create1(EPOLL_CLOEXEC);
    m_wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_epollFd < 0 || m_wakeFd < 0) return Error { std::string("cannot create event loop: ") + std::strerror(errno) };
    epoll_event ev {};
    ev.events = EPOLLIN;
    ev.data.u64 = eventData(WAKE_TAG, 0);
    epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_wakeFd, &ev);
    return {};
}

void Worker::wake()
{
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = ::write(m_wakeFd, &one, sizeof one);
}

void Worker::run()
{
    m_nextTickUs = m_plan.measureStartUs + m_plan.config.intervalUs;
    m_nextHousekeepingUs = monotonicNowUs() + HOUSEKEEPING_US;
    m_lastSampleUs = m_plan.measureStartUs;
    for (uint32_t i = 0; i < m_connections.size(); ++i)
        connect(i);

    epoll_event events[MAX_EVENTS];
    for (;;) {
        uint64_t now = monotonicNowUs();
        if (m_plan.stopRequested.load(std::memory_order_relaxed) || now >= m_plan.endUs) break;
        if (now >= m_nextTickUs) publishUpTo(now);
        if (now >= m_nextHousekeepingUs) housekeeping(now);
        if (now >= m_nextRetryUs) retryIdle(now);

        const uint64_t wakeAtUs = std::min({ m_plan.endUs, m_nextTickUs, m_nextHousekeepingUs, m_nextRetryUs });
        const uint64_t waitUs = wakeAtUs > now ? wakeAtUs - now : 0;
        const timespec timeout { static_cast<time_t>(waitUs / 1'000'000), static_cast<long>(waitUs % 1'000'000) * 1000 };
        const int n = epoll_pwait2(m_epollFd, events, MAX_EVENTS, &timeout, nullptr);
        for (int i = 0; i < n; ++i) {
            const auto index = static_cast<uint32_t>(events[i].data.u64);
            const auto generation = static_cast<uint32_t>(events[i].data.u64 >> 32);
            if (index == WAKE_TAG) continue; // only there to interrupt the wait
            if (generation != m_generation[index]) continue; // event for a socket closed earlier in this batch
            onEvent(index, events[i].events);
        }
    }

    // Data of the last, possibly partial, interval (none when the run ended on a boundary).
    const uint64_t endUs = std::min({ monotonicNowUs(), m_plan.endUs, m_plan.stopAtUs.load() });
    publishUpTo(endUs);
    if (measuring(endUs) && endUs > m_nextTickUs - m_plan.config.intervalUs) publishCurrent();
    for (auto& c : m_connections)
        c.close();
    m_finished.store(true, std::memory_order_release);
}

void Worker::connect(uint32_t index)
{
    Connection& c = m_connections[index];
    c.fd = openTcpSocket(m_plan.address.family());
    c.stateSinceUs = monotonicNowUs();
    if (c.fd < 0) return fail(c, &ErrorCounts::connect, describeConnectError(errno, m_plan.address));
    const IoStatus st = startConnect(c.fd, m_plan.address);
    if (st == IoStatus::Error) return fail(c, &ErrorCounts::connect, describeConnectError(errno, m_plan.address));
    epoll_event ev {};
    ev.events = EPOLLIN | EPOLLOUT;
    ev.data.u64 = eventData(index, m_generation[index]);
    epoll_ctl(m_epollFd, EPOLL_CTL_ADD, c.fd, &ev);
    c.writeInterest = true;
    c.state = Connection::State::Connecting;
    if (st == IoStatus::Ok) onConnected(c);
}

void Worker::onEvent(uint32_t index, uint32_t events)
{
    Connection& c = m_connections[index];
    switch (c.state) {
    case Connection::State::Connecting:
        finishConnect(c);
        break;
    case Connection::State::Handshaking:
        continueHandshake(c);
        break;
    case Connection::State::Active:
        if ((events & EPOLLOUT) && c.writePending(m_plan.batch.size()) && !flushWrite(c)) return;
        if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) onReadable(c);
        break;
    case Connection::State::Idle:
        break;
    }
}

void Worker::finishConnect(Connection& c)
{
    if (const int err = connectResult(c.fd)) return fail(c, &ErrorCounts::connect, describeConnectError(err, m_plan.address));
    onConnected(c);
}

void Worker::onConnected(Connection& c)
{
    if (c.tls) {
        if (!c.tls->attach(*m_plan.tls, c.fd, m_plan.serverName))
            return fail(c, &ErrorCounts::tls, c.tls->lastError());
        c.state = Connection::State::Handshaking;
        c.stateSinceUs = monotonicNowUs();
        return continueHandshake(c);
    }
    c.state = Connection::State::Active;
    startBatch(c);
}

void Worker::continueHandshake(Connection& c)
{
    switch (c.tls->handshake()) {
    case IoStatus::Ok:
        c.state = Connection::State::Active;
        return startBatch(c);
    case IoStatus::WantRead:
        return setWriteInterest(c, false);
    case IoStatus::WantWrite:
        return setWriteInterest(c, true);
    case IoStatus::Closed:
    case IoStatus::Error:
        const std::string reason = c.tls->lastError();
        return fail(c, &ErrorCounts::tls, reason.empty() ? "TLS handshake failed" : reason);
    }
}

void Worker::startBatch(Connection& c)
{
    c.parser.reset(m_plan.responseToHead);
    c.inFlight = m_plan.config.pipeline;
    c.writeOffset = 0;
    c.batchSentUs = monotonicNowUs();
    flushWrite(c);
}

// Writes as much of the batch as the socket takes. Returns false when the
// connection failed (and was recycled). EPOLLOUT is registered only while a
// write is blocked, so a request costs one write() and no epoll_ctl().
bool Worker::flushWrite(Connection& c)
{
    const std::string& batch = m_plan.batch;
    while (c.writeOffset < batch.size()) {
        size_t n = 0;
        switch (c.write(batch.data() + c.writeOffset, batch.size() - c.writeOffset, n)) {
        case IoStatus::Ok:
            c.writeOffset += n;
            continue;
        case IoStatus::WantWrite:
            setWriteInterest(c, true);
            return true;
        case IoStatus::WantRead: // TLS renegotiation: the read path resumes the write
            return true;
        case IoStatus::Closed:
        case IoStatus::Error:
            fail(c, &ErrorCounts::write, {});
            return false;
        }
    }
    setWriteInterest(c, false);
    return true;
}

void Worker::onReadable(Connection& c)
{
    for (;;) {
        size_t n = 0;
        switch (c.read(m_readBuffer.get(), READ_BUFFER_BYTES, n)) {
        case IoStatus::Ok:
            if (!consume(c, n)) return;
            // A short read drained the socket; level-triggered epoll reports new data.
            if (n < READ_BUFFER_BYTES && !c.hasBufferedInput()) return;
            continue;
        case IoStatus::WantRead:
            return;
        case IoStatus::WantWrite:
            return setWriteInterest(c, true);
        case IoStatus::Closed:
            return onPeerClosed(c);
        case IoStatus::Error:
            return fail(c, &ErrorCounts::read, {});
        }
    }
}

// Feeds freshly read bytes to the parser. Returns false when the connection
// was closed or replaced meanwhile (the rest of the buffer is then moot).
bool Worker::consume(Connection& c, size_t length)
{
    // Bytes count from the measured phase on, like requests.
    if (c.batchSentUs >= m_plan.measureStartUs) m_current.bytes += length;
    const char* data = m_readBuffer.get();
    size_t offset = 0;
    while (offset < length) {
        size_t used = 0;
        const auto r = c.parser.feed(data + offset, length - offset, used);
        offset += used;
        if (r == ResponseParser::Result::NeedMore) return true;
        if (r == ResponseParser::Result::Error || c.inFlight == 0) {
            fail(c, &ErrorCounts::parse, {});
            return false;
        }
        if (!onResponse(c)) return false;
    }
    return true;
}

bool Worker::onResponse(Connection& c)
{
    const uint64_t now = monotonicNowUs();
    // Responses after the end (or a stop) fall outside the measured window.
    const bool inWindow = now < m_plan.endUs && now < m_plan.stopAtUs.load(std::memory_order_relaxed);
    if (inWindow && now >= m_nextTickUs) publishUpTo(now);
    if (inWindow && c.batchSentUs >= m_plan.measureStartUs) {
        const int status = c.parser.statusCode();
        ++m_current.requests;
        ++m_requestsSinceSample;
        m_current.latency.record(now - c.batchSentUs);
        m_current.status.add(status);
        if (status < 200 || status > 399) ++m_current.errors.status;
    }
    --c.inFlight;
    if (!c.parser.keepAlive()) {
        recycle(c, false);
        return false;
    }
    if (c.inFlight == 0) {
        if (m_plan.stopRequested.load(std::memory_order_relaxed) || now >= m_plan.endUs) return false;
        startBatch(c);
        return c.state == Connection::State::Active;
    }
    c.parser.reset(m_plan.responseToHead);
    return true;
}

void Worker::onPeerClosed(Connection& c)
{
    if (c.inFlight > 0 && c.parser.started() && c.parser.finishOnEof() == ResponseParser::Result::Complete) {
        onResponse(c); // a body delimited by the close: keepAlive() is false, so this recycles
        return;
    }
    if (c.inFlight > 0) return fail(c, &ErrorCounts::read, {});
    recycle(c, false);
}

void Worker::fail(Connection& c, uint64_t ErrorCounts::*kind, const std::string& reason)
{
    const uint64_t now = monotonicNowUs();
    if (measuring(now)) ++(m_current.errors.*kind);
    if (kind == &ErrorCounts::tls && m_firstTlsError.empty()) m_firstTlsError = reason;
    if (kind == &ErrorCounts::connect && m_firstConnectError.empty()) m_firstConnectError = reason;
    recycle(c, kind == &ErrorCounts::connect || kind == &ErrorCounts::tls);
}

void Worker::recycle(Connection& c, bool backoff)
{
    const uint32_t index = indexOf(c);
    c.close();
    ++m_generation[index];
    const uint64_t now = monotonicNowUs();
    if (m_plan.stopRequested.load(std::memory_order_relaxed) || now >= m_plan.endUs) return;
    if (!backoff) return connect(index);
    c.retryAtUs = now + RETRY_BACKOFF_US;
    ++m_idleWaiting;
    m_nextRetryUs = std::min(m_nextRetryUs, c.retryAtUs);
}

void Worker::retryIdle(uint64_t nowUs)
{
    m_nextRetryUs = UINT64_MAX;
    for (uint32_t i = 0; i < m_connections.size() && m_idleWaiting > 0; ++i) {
        Connection& c = m_connections[i];
        if (c.state != Connection::State::Idle || c.retryAtUs == 0) continue;
        if (c.retryAtUs <= nowUs) {
            c.retryAtUs = 0;
            --m_idleWaiting;
            connect(i);
        } else {
            m_nextRetryUs = std::min(m_nextRetryUs, c.retryAtUs);
        }
    }
}

void Worker::setWriteInterest(Connection& c, bool on)
{
    if (c.writeInterest == on) return;
    epoll_event ev {};
    ev.events = on ? (EPOLLIN | EPOLLOUT) : EPOLLIN;
    ev.data.u64 = eventData(indexOf(c), m_generation[indexOf(c)]);
    epoll_ctl(m_epollFd, EPOLL_CTL_MOD, c.fd, &ev);
    c.writeInterest = on;
}

// Every 100 ms: per-thread Req/Sec sample (as wrk), request and connect timeouts.
void Worker::housekeeping(uint64_t nowUs)
{
    m_nextHousekeepingUs = nowUs + HOUSEKEEPING_US;
    if (measuring(nowUs) && nowUs > m_lastSampleUs) {
        if (m_lastSampleUs >= m_plan.measureStartUs)
            m_rates.perThreadRequestsPerS.push_back(
                static_cast<double>(m_requestsSinceSample) * 1e6 / static_cast<double>(nowUs - m_lastSampleUs));
        m_lastSampleUs = nowUs;
        m_requestsSinceSample = 0;
    }
    const RunConfig& cfg = m_plan.config;
    for (auto& c : m_connections) {
        switch (c.state) {
        case Connection::State::Active:
            if (c.inFlight > 0 && nowUs - c.batchSentUs > cfg.timeoutUs) {
                if (measuring(nowUs)) m_current.errors.timeout += c.inFlight;
                recycle(c, false);
            }
            break;
        case Connection::State::Connecting:
            if (nowUs - c.stateSinceUs > cfg.connectTimeoutUs)
                fail(c, &ErrorCounts::connect, "connection to " + m_plan.address.toString() + " timed out");
            break;
        case Connection::State::Handshaking:
            if (nowUs - c.stateSinceUs > cfg.connectTimeoutUs) fail(c, &ErrorCounts::tls, "TLS handshake timed out");
            break;
        case Connection::State::Idle:
            break;
        }
    }
}

void Worker::publishUpTo(uint64_t nowUs)
{
    while (nowUs >= m_nextTickUs) {
        publishCurrent();
        m_nextTickUs += m_plan.config.intervalUs;
    }
}

void Worker::publishCurrent()
{
    m_current.index = m_published.load(std::memory_order_relaxed);
    {
        std::lock_guard lock(m_queueMutex);
        m_queue.push_back(m_current);
    }
    m_published.store(m_current.index + 1, std::memory_order_release);
    m_current.requests = 0;
    m_current.bytes = 0;
    m_current.errors = {};
    m_current.status = {};
    m_current.latency.reset();
}

void Worker::takeInterval(uint32_t index, IntervalSnapshot& into)
{
    std::lock_guard lock(m_queueMutex);
    while (!m_queue.empty() && m_queue.front().index <= index) {
        const IntervalSnapshot& s = m_queue.front();
        into.requests += s.requests;
        into.bytes += s.bytes;
        into.errors += s.errors;
        into.status += s.status;
        into.latency.merge(s.latency);
        m_queue.pop_front();
    }
}

} // namespace wb
