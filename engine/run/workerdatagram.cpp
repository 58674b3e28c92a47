// The worker's side of a datagram driver (HTTP/3 over QUIC): one connected UDP
// socket per connection on the same epoll loop, datagrams read and written in
// batches (recvmmsg; sendmsg with GSO, else sendmmsg), the QUIC handshake as the
// connection's connect phase, and the session's timers (QUIC's loss detection,
// acknowledgement delay, pacing, idle timeout) in a heap the loop honours beside
// its own. Everything else (the schedule, batches, timeouts, what is measured)
// is worker.cpp's, unchanged: a session is a session.

#include "common/clock.h"
#include "run/worker.h"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <sys/epoll.h>

namespace wb {

namespace {
// recvmmsg slots: a QUIC datagram is at most 1,452 bytes from a server that honours our
// max_udp_payload_size, but a server may send up to 65,527; larger ones are cut (and dropped
// by QUIC's authentication), which a server that probed the path never sends.
constexpr size_t SLOT_BYTES = 2048;
constexpr size_t SLOTS = 32; // 64 KB: the worker's read buffer
constexpr uint32_t DATAGRAM_TAG_GENERATION_BITS = 32;
} // namespace

void Worker::connectDatagram(uint32_t index)
{
    Connection& c = m_connections[index];
    const uint64_t now = monotonicNowUs();
    c.stateSinceUs = now;
    const SocketAddress* source = sourceFor(c);
    ++c.opened;
    if (!c.udp.open(m_address, source)) return fail(c, &ErrorCounts::connect, describeUdpError(errno, m_address));
    const SocketAddress& local = c.udp.local();
    if (auto st = c.session->onDatagramOpened(local.get(), local.length, m_address.get(), m_address.length, now); !st)
        return fail(c, &ErrorCounts::tls, st.error());
    epoll_event ev {};
    ev.events = EPOLLIN | m_edgeFlag; // EPOLLOUT only while a send would block
    ev.data.u64 = (static_cast<uint64_t>(m_generation[index]) << DATAGRAM_TAG_GENERATION_BITS) | index;
    epoll_ctl(m_epollFd, EPOLL_CTL_ADD, c.fd(), &ev);
    c.writeInterest = false;
    c.state = Connection::State::Handshaking;
    flushDatagrams(c); // the Initial
}

void Worker::onDatagramEvent(Connection& c, uint32_t events)
{
    if (c.state == Connection::State::Idle) return;
    const uint32_t index = indexOf(c);
    const uint32_t generation = m_generation[index];
    if ((events & EPOLLOUT) && c.writeInterest) setWriteInterest(c, false);
    ResponseHandler handler(*this, c);
    char* buffer = m_readBuffer.get();
    uint32_t lengths[SLOTS];
    for (;;) {
        size_t received = 0;
        const IoStatus st = c.udp.receive(buffer, SLOT_BYTES, SLOTS, lengths, received);
        if (st == IoStatus::Error) {
            // ECONNREFUSED: an ICMP port unreachable came back (nothing listens there now).
            c.session->onTransportError(describeUdpError(c.udp.lastErrno(), m_address));
            return failDatagram(c);
        }
        if (st != IoStatus::Ok) break;
        // Bytes count once the requests they answer were sent in the measured window; asked once
        // a batch (it walks the stream slots), so a batch across the warm-up's end counts whole.
        const bool measuredBytes = c.session->oldestInFlight().sentUs >= m_plan.measureStartUs;
        for (size_t i = 0; i < received; ++i) {
            if (measuredBytes) m_current.bytes += lengths[i];
            const bool handshaking = c.state == Connection::State::Handshaking;
            if (!settleDatagram(c, c.session->onRead(buffer + i * SLOT_BYTES, lengths[i], handler))) return;
            if (handshaking && c.session->ready()) {
                // The QUIC handshake (TLS 1.3 inside it) is this connection's connect phase.
                const uint64_t now = monotonicNowUs();
                if (measuring(now)) m_current.connectTime.record(now > c.stateSinceUs ? now - c.stateSinceUs : 0);
                startSession(c);
                if (generation != m_generation[index]) return;
            }
        }
        if (received < SLOTS) break; // drained: the next datagram raises a new edge
    }
    if (c.state != Connection::State::Active) {
        flushDatagrams(c); // handshake packets, acknowledgements
        return;
    }
    // New stream credit (MAX_STREAMS) may have come without a response: fill the streams again.
    const uint64_t now = monotonicNowUs();
    if (c.session->capacity() > 0 && !m_plan.stopRequested.load(std::memory_order_relaxed)) {
        if (m_plan.schedule) {
            if (now < m_plan.endUs || m_draining) sendDue(c, now);
        } else if (now >= m_plan.startUs && now < m_plan.endUs) {
            startBatch(c, c.session->capacity());
        }
        if (generation != m_generation[index]) return;
    }
    // What reading made (acknowledgements, the requests of the completions) leaves in one batch.
    flushDatagrams(c);
}

// Sends what the session has, batch by batch. Returns false when the connection failed (and
// was recycled). A batch the socket buffer refuses is dropped, not queued: QUIC counts those
// packets lost and sends their frames again, which is what a full buffer on a path means.
bool Worker::flushDatagrams(Connection& c)
{
    const uint64_t now = monotonicNowUs();
    for (;;) {
        size_t segmentBytes = 0;
        const std::span<const char> out = c.session->nextDatagrams(now, segmentBytes);
        if (out.empty()) break;
        size_t sent = 0;
        const IoStatus st = c.udp.send(out, segmentBytes, sent);
        if (st == IoStatus::WantWrite) {
            setWriteInterest(c, true);
            break;
        }
        if (st == IoStatus::Error) {
            c.session->onTransportError(describeUdpError(c.udp.lastErrno(), m_address));
            failDatagram(c);
            return false;
        }
    }
    armSessionTimer(c);
    return true;
}

// What a call into a datagram session came to. false: the connection is gone (closed or replaced).
bool Worker::settleDatagram(Connection& c, SessionResult result)
{
    switch (result) {
    case SessionResult::Ok:
    case SessionResult::OkWithOutput:
        return !retireIfIdle(c);
    case SessionResult::Stopped:
        return false;
    case SessionResult::Finished: // ended gracefully with nothing in flight (GOAWAY, idle, the server's close)
        ++m_reconnects;
        recycle(c, false);
        return false;
    case SessionResult::ProtocolError:
    case SessionResult::Truncated:
        break;
    }
    failDatagram(c);
    return false;
}

void Worker::failDatagram(Connection& c)
{
    const SessionFailure failure = c.session->failure();
    fail(c, failure.kind, failure.reason);
}

void Worker::armSessionTimer(Connection& c)
{
    uint64_t atUs = c.session->nextTimerUs();
    // A timer that is already due while the heap runs waits for the loop's next turn: the loop
    // must not spin on one connection.
    if (m_timersRunAtUs != 0 && atUs <= m_timersRunAtUs) atUs = m_timersRunAtUs + 1;
    if (atUs == c.timerUs) return;
    c.timerUs = atUs;
    if (atUs == UINT64_MAX) return;
    m_sessionTimers.push_back({ atUs, indexOf(c), m_generation[indexOf(c)] });
    std::push_heap(m_sessionTimers.begin(), m_sessionTimers.end(), std::greater<> {});
}

void Worker::runSessionTimers(uint64_t nowUs)
{
    m_timersRunAtUs = nowUs;
    while (!m_sessionTimers.empty() && m_sessionTimers.front().dueUs <= nowUs) {
        std::pop_heap(m_sessionTimers.begin(), m_sessionTimers.end(), std::greater<> {});
        const DueTimer t = m_sessionTimers.back();
        m_sessionTimers.pop_back();
        Connection& c = m_connections[t.index];
        // Stale: the socket was replaced, or the timer moved since this entry was pushed.
        if (t.generation != m_generation[t.index] || c.timerUs != t.dueUs || c.state == Connection::State::Idle)
            continue;
        c.timerUs = UINT64_MAX;
        ResponseHandler handler(*this, c);
        if (!settleDatagram(c, c.session->onTimer(nowUs, handler))) continue;
        flushDatagrams(c); // retransmissions, acknowledgements; arms the next timer
    }
    m_timersRunAtUs = 0;
}

} // namespace wb
