#include "run/worker.h"

#include "common/clock.h"
#include "net/eventwait.h"
#include "net/socket.h"
#include "run/shard.h"
#include "run/stages.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace wb {

namespace {
constexpr size_t READ_BUFFER_BYTES = 64 * 1024;
constexpr int MAX_EVENTS = 512;
constexpr uint64_t HOUSEKEEPING_US = 100'000; // wrk samples Req/Sec every 100 ms
constexpr uint64_t RETRY_BACKOFF_US = 10'000; // after a failed connect, so a refusing server is not spun on
constexpr uint64_t LATE_THRESHOLD_US = 1'000; // "late": sent more than this after its due time
constexpr uint32_t WAKE_TAG = UINT32_MAX;

// Time since `since`; 0 when `since` was taken after `now` (a connection opened
// during this housekeeping pass).
uint64_t elapsedUs(uint64_t sinceUs, uint64_t nowUs)
{
    return nowUs > sinceUs ? nowUs - sinceUs : 0;
}

uint64_t eventData(uint32_t index, uint32_t generation)
{
    return (static_cast<uint64_t>(generation) << 32) | index;
}
} // namespace

Worker::Worker(const LoadPlan& plan, unsigned workerIndex, unsigned connectionCount)
    : m_plan(plan)
    , m_connections(connectionCount)
    , m_generation(connectionCount, 0)
    , m_workerIndex(workerIndex)
    , m_enabledConnections(connectionCount)
    , m_readBuffer(new char[READ_BUFFER_BYTES])
{
    // What each connection sends: a mix's connections pick from streams of their own, named
    // by their global slots, so the choices do not depend on how they are spread over threads.
    m_address = plan.hooks.connectAddress ? plan.hooks.connectAddress(workerIndex, plan.address) : plan.address;
    std::vector<uint32_t> slots(connectionCount);
    for (uint32_t i = 0; i < connectionCount; ++i)
        slots[i] = static_cast<uint32_t>(globalSlotOf(m_connections[i]));
    m_source = makeRequestSource(plan, workerIndex, slots);
    m_delays = !plan.schedule && m_source->delays(); // the open model's schedule alone says when
    m_sourceMayStop = m_source->buildsPerSend(); // only a source that builds each request can fail building it
    m_sourceStops = m_source->mayStop();
    if (plan.config.responses > 0) m_responsesLeft = evenShare(plan.config.responses, plan.config.threads, workerIndex);
    ResponseObserver* observer = plan.hooks.responseObserver ? plan.hooks.responseObserver(workerIndex) : nullptr;
    // Only a run that asks for notes observes responses for them: otherwise the sessions keep
    // no header bytes and no body, as before the seam (docs/PERFORMANCE.md).
    if (plan.config.notesResponses()) {
        m_noter = std::make_unique<ResponseNoter>(plan.config.backendFrom, plan.config.upstreamTime, observer);
        observer = m_noter.get();
        m_current.backends.limit = plan.config.backendFrom.maxBackends;
    }
    // The protocol is the run's driver's: the worker only asks it for the sessions.
    m_sessions = plan.driver->makePool(plan.config, !plan.schedule, *m_source, observer, connectionCount);
    for (uint32_t i = 0; i < connectionCount; ++i)
        m_connections[i].session = &m_sessions->session(i);
    if (plan.tls)
        for (auto& c : m_connections)
            c.tls = std::make_unique<TlsTransport>();
    if (plan.mix) m_entries.resize(plan.config.mix.entries.size());
    if (plan.config.stagesAreConnections && !plan.config.stages.empty()) m_enabledConnections = 0;
    // Plain sockets are edge-triggered: level-triggered epoll keeps every reported socket on
    // its ready list and polls it again on the next wait, one more tcp_poll() per response.
    // A short read() drains the socket, so the next response raises a new edge. TLS stays
    // level-triggered: OpenSSL may leave bytes in the socket after filling its record buffer.
    m_edgeFlag = plan.tls ? 0u : static_cast<uint32_t>(EPOLLET);
    // UDP sockets too: a short recvmmsg drains the socket, and every datagram raises an edge.
    m_datagram = plan.driver->transport() == TransportKind::Datagram;
    if (m_datagram) m_edgeFlag = static_cast<uint32_t>(EPOLLET);
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
    if (m_epollFd < 0 || m_wakeFd < 0)
        return Error { std::string("cannot create event loop: ") + std::strerror(errno) };
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
    // The default 50 us timer slack would be the open model's scheduling error; 1 us is what the
    // kernel can do. (Only this thread is affected.)
    if (m_plan.schedule) prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    m_spinUs = m_plan.schedule ? m_plan.config.sendSpinUs : 0;
    m_nextTickUs = m_plan.measureStartUs + m_plan.config.intervalUs;
    m_nextHousekeepingUs = monotonicNowUs() + HOUSEKEEPING_US;
    m_lastSampleUs = m_plan.measureStartUs;
    for (uint32_t i = 0; i < m_connections.size(); ++i) {
        m_connections[i].nextSequence = 0;
        m_connections[i].nextDueUs = dueUsOf(globalSlotOf(m_connections[i]));
        if (i < m_enabledConnections) connect(i);
    }
    if (m_enabledConnections < m_connections.size()) applyConnectionRamp(monotonicNowUs());

    epoll_event events[MAX_EVENTS];
    uint64_t iterationUs = 0; // when the loop's current pass began
    bool spun = false; // the previous pass only polled, waiting for a due send (--send-spin)
    for (;;) {
        uint64_t now = monotonicNowUs();
        // The spin's time is the loader's waiting, not its work (LoaderCost::workerSpinUs): a
        // pass that ended in an empty poll before a due send.
        if (spun && m_cost.started()) m_current.loaderCost.workerSpinUs += now - iterationUs;
        iterationUs = now;
        if (m_plan.stopRequested.load(std::memory_order_relaxed) || now >= m_plan.endUs || countReached()) break;
        // Due sends first: publishing an interval, housekeeping and retries can wait a few
        // microseconds; a due send that waits shows up as the target's latency.
        if (!m_timers.empty() && m_timers.front().dueUs <= now) runDueTimers(now);
        if (!m_held.empty() && now >= m_plan.startUs) releaseHeld();
        if (now >= m_nextTickUs) publishUpTo(now);
        if (now >= m_nextHousekeepingUs) housekeeping(now);
        if (now >= m_nextRetryUs) retryIdle(now);
        if (!m_sessionTimers.empty() && m_sessionTimers.front().dueUs <= now) runSessionTimers(now);

        uint64_t wakeAtUs = std::min({ m_plan.endUs, m_nextTickUs, m_nextHousekeepingUs, m_nextRetryUs });
        if (!m_timers.empty()) wakeAtUs = std::min(wakeAtUs, m_timers.front().dueUs);
        if (!m_sessionTimers.empty()) wakeAtUs = std::min(wakeAtUs, m_sessionTimers.front().dueUs);
        if (!m_held.empty()) wakeAtUs = std::min(wakeAtUs, m_plan.startUs);
        now = monotonicNowUs();
        uint64_t waitUs = wakeAtUs > now ? wakeAtUs - now : 0;
        bool spinning = false;
        if (m_spinUs > 0 && !m_timers.empty()) {
            // Waking from a sleep takes tens of microseconds (more from a deep idle state, or
            // on a VM): sleep until m_spinUs before the next due send, then poll without
            // sleeping. The CPU is spent only in that last stretch before a send.
            const uint64_t dueUs = m_timers.front().dueUs;
            const uint64_t untilDueUs = dueUs > now ? dueUs - now : 0;
            const uint64_t sleepUs = untilDueUs > m_spinUs ? untilDueUs - m_spinUs : 0;
            if (sleepUs < waitUs) {
                waitUs = sleepUs;
                spinning = sleepUs == 0;
            }
        }
        const int n = waitForEvents(m_epollFd, events, MAX_EVENTS, static_cast<int64_t>(waitUs) * 1000);
        spun = spinning && n == 0;
        for (int i = 0; i < n; ++i) {
            // Nothing is read after a stop: every response read is counted (a script's response()
            // saw it), so the rest of the batch stays unread.
            if (m_plan.stopRequested.load(std::memory_order_relaxed) || countReached()) break;
            const auto index = static_cast<uint32_t>(events[i].data.u64);
            const auto generation = static_cast<uint32_t>(events[i].data.u64 >> 32);
            if (index == WAKE_TAG) continue; // only there to interrupt the wait
            if (generation != m_generation[index]) continue; // event for a socket closed earlier in this batch
            onEvent(index, events[i].events);
            // Open model: a batch of responses can take longer than the gap between two due
            // sends; sends due meanwhile go out now, not after the whole batch.
            if (m_plan.schedule && !m_timers.empty()) {
                const uint64_t t = monotonicNowUs();
                if (m_timers.front().dueUs <= t) runDueTimers(t);
            }
        }
    }

    // -n: the share is counted; what is still in flight is not waited for (as at a stop).
    if (m_plan.schedule && !m_plan.stopRequested.load() && !countReached()) drain(events, MAX_EVENTS);

    // Data of the last, possibly partial, interval (none when the run ended on a boundary).
    const uint64_t endUs
        = std::min({ monotonicNowUs(), m_plan.endUs, m_plan.stopAtUs.load(), m_plan.countedAtUs.load() });
    publishUpTo(endUs);
    if (measuring(endUs) && endUs > m_nextTickUs - m_plan.config.intervalUs) publishCurrent();
    for (auto& c : m_connections)
        c.close();
    m_finished.store(true, std::memory_order_release);
}

// Open model, after the end: no new requests, but the responses to requests due
// before the end are still awaited (up to the request timeout). Dropping them
// would hide exactly the stalls the open model exists to show: a server that
// hangs through the end of the run would look fast. What never arrives counts
// as a timeout.
void Worker::drain(epoll_event* events, int maxEvents)
{
    m_draining = true;
    const uint64_t deadlineUs = m_plan.endUs + m_plan.config.timeoutUs;
    const uint64_t endUs = m_plan.endUs;
    // A worker its script stopped sends nothing more: only its requests in flight are awaited.
    const bool stopped = threadStopped();
    auto waiting = [&] {
        return std::any_of(m_connections.begin(), m_connections.end(), [endUs, stopped](const Connection& c) {
            return c.session->inFlight() > 0 || (!stopped && c.nextDueUs < endUs);
        });
    };
    // Connections that were blocked at the end send their backlog now.
    for (auto& c : m_connections)
        if (c.state == Connection::State::Active) sendDue(c, monotonicNowUs());
    while (waiting() && !m_plan.stopRequested.load(std::memory_order_relaxed)) {
        uint64_t now = monotonicNowUs();
        if (now >= deadlineUs) break;
        // QUIC keeps acknowledging and recovering losses while the last answers come.
        if (!m_sessionTimers.empty() && m_sessionTimers.front().dueUs <= now) runSessionTimers(now);
        now = monotonicNowUs();
        uint64_t waitUs = std::min<uint64_t>(deadlineUs > now ? deadlineUs - now : 0, HOUSEKEEPING_US);
        if (!m_sessionTimers.empty())
            waitUs = std::min(waitUs, m_sessionTimers.front().dueUs > now ? m_sessionTimers.front().dueUs - now : 0);
        const int n = waitForEvents(m_epollFd, events, maxEvents, static_cast<int64_t>(waitUs) * 1000);
        for (int i = 0; i < n; ++i) {
            const auto index = static_cast<uint32_t>(events[i].data.u64);
            if (index == WAKE_TAG || static_cast<uint32_t>(events[i].data.u64 >> 32) != m_generation[index]) continue;
            onEvent(index, events[i].events);
        }
    }
    for (auto& c : m_connections) {
        c.session->forEachInFlight([&](const InFlightRequest& r) {
            if (r.dueUs < m_plan.measureStartUs || r.dueUs >= endUs) return;
            ++m_current.errors.timeout;
            if (!m_entries.empty()) ++m_entries[r.entry].errors.timeout;
        });
        // Due in the window but never sent: the connection stayed blocked until the deadline.
        while (!stopped && c.nextDueUs < endUs) {
            if (c.nextDueUs >= m_plan.measureStartUs) ++m_current.errors.timeout;
            ++c.nextSequence;
            c.nextDueUs = dueUsOf(globalSlotOf(c) + c.nextSequence * m_plan.config.connections);
        }
    }
}

uint64_t Worker::dueUsOf(uint64_t globalSequence) const
{
    if (!m_plan.schedule) return 0;
    const double dueS = m_plan.schedule->dueTimeS(globalSequence);
    if (dueS < 0) return UINT64_MAX;
    return m_plan.startUs + static_cast<uint64_t>(std::llround(dueS * 1e6));
}

const SocketAddress* Worker::sourceFor(Connection& c) const
{
    if (m_plan.sources.empty()) return nullptr;
    // Turning with each connection the slot opens, so churn spreads every slot over every address.
    return &m_plan.sources[(globalSlotOf(c) + c.opened) % m_plan.sources.size()];
}

void Worker::connect(uint32_t index)
{
    if (m_datagram) return connectDatagram(index);
    Connection& c = m_connections[index];
    c.tcp.setFd(openTcpSocket(m_address.family()));
    c.stateSinceUs = monotonicNowUs();
    if (c.fd() < 0) return fail(c, &ErrorCounts::connect, describeConnectError(errno, m_address));
    const SocketAddress* source = sourceFor(c);
    ++c.opened;
    if (source && !bindSource(c.fd(), *source))
        return fail(c, &ErrorCounts::connect, describeConnectError(errno, m_address));
    const IoStatus st = startConnect(c.fd(), m_address);
    if (st == IoStatus::Error && errno == EADDRNOTAVAIL) return outOfPorts(c, source);
    if (st == IoStatus::Error) return fail(c, &ErrorCounts::connect, describeConnectError(errno, m_address));
    epoll_event ev {};
    ev.events = EPOLLIN | EPOLLOUT | m_edgeFlag;
    ev.data.u64 = eventData(index, m_generation[index]);
    epoll_ctl(m_epollFd, EPOLL_CTL_ADD, c.fd(), &ev);
    c.writeInterest = true;
    c.state = Connection::State::Connecting;
    if (st == IoStatus::Ok) onConnected(c);
}

void Worker::onEvent(uint32_t index, uint32_t events)
{
    Connection& c = m_connections[index];
    if (m_datagram) return onDatagramEvent(c, events);
    switch (c.state) {
    case Connection::State::Connecting:
        finishConnect(c);
        break;
    case Connection::State::Handshaking:
        continueHandshake(c);
        break;
    case Connection::State::Active:
        if ((events & EPOLLOUT) && c.writePending() && !afterWritable(c)) return;
        if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) onReadable(c);
        break;
    case Connection::State::Idle:
        break;
    }
}

// A blocked write goes on. Open model: once it is out, the requests that came due behind it
// go (sendDue sends nothing behind a blocked write); without this a connection whose answers
// all arrived while its write was blocked (a server that answers before reading a body) would
// have nothing left to wake it. Returns false when the connection failed (and was recycled).
bool Worker::afterWritable(Connection& c)
{
    if (!flushWrite(c)) return false;
    if (!c.dueBehindWrite || c.writePending()) return true;
    c.dueBehindWrite = false;
    if (m_plan.stopRequested.load(std::memory_order_relaxed)) return true;
    const uint64_t now = monotonicNowUs();
    if (now >= m_plan.endUs && !m_draining) return true;
    return sendDue(c, now);
}

void Worker::finishConnect(Connection& c)
{
    if (const int err = connectResult(c.fd())) {
        if (err == EADDRNOTAVAIL) return outOfPorts(c, sourceFor(c));
        return fail(c, &ErrorCounts::connect, describeConnectError(err, m_address));
    }
    onConnected(c);
}

void Worker::onConnected(Connection& c)
{
    const uint64_t now = monotonicNowUs();
    if (measuring(now)) m_current.connectTime.record(elapsedUs(c.stateSinceUs, now));
    if (c.tls) {
        if (!c.tls->attach(*m_plan.tls, c.fd(), m_plan.serverName))
            return fail(c, &ErrorCounts::tls, c.tls->lastError());
        c.state = Connection::State::Handshaking;
        c.stateSinceUs = now;
        return continueHandshake(c);
    }
    startSession(c);
}

// The transport is ready: the session starts, and the first requests go out.
void Worker::startSession(Connection& c)
{
    const ProtocolDriver& driver = *m_plan.driver;
    if (driver.requiresAlpn() && c.tls && c.tls->negotiatedProtocol() != driver.alpn())
        return fail(c, &ErrorCounts::tls, std::string("the server did not select ") + driver.alpn() + " by ALPN");
    c.state = Connection::State::Active;
    armChurn(c);
    c.session->onConnected();
    // Output of the session's own (an HTTP/2 preface) first; HTTP/1.1 has none.
    if (c.session->hasOutput() && !flushWrite(c)) return;
    if (m_plan.schedule) {
        sendDue(c, monotonicNowUs()); // nothing is due before the load starts
    } else if (monotonicNowUs() < m_plan.startUs) {
        // Connected ahead of a common start: it waits, sending nothing that no figure would hold.
        m_held.push_back(indexOf(c));
    } else {
        startBatch(c, c.session->capacity());
    }
}

// The load starts: the connections that opened ahead of it send their first requests.
void Worker::releaseHeld()
{
    std::vector<uint32_t> held;
    held.swap(m_held);
    for (const uint32_t index : held) {
        Connection& c = m_connections[index];
        if (c.state == Connection::State::Active && c.session->inFlight() == 0) startBatch(c, c.session->capacity());
    }
}

bool Worker::threadStopped()
{
    if (!m_threadStopped && m_sourceStops && m_source->stopped()) m_threadStopped = true;
    return m_threadStopped;
}

void Worker::continueHandshake(Connection& c)
{
    switch (c.tls->handshake()) {
    case IoStatus::Ok: {
        const uint64_t now = monotonicNowUs();
        if (measuring(now)) m_current.tlsHandshake.record(elapsedUs(c.stateSinceUs, now));
        return startSession(c);
    }
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

// Closed loop: as many requests as the session takes (its capacity()) go out at
// once (HTTP/1.1: the whole pipeline batch when the previous one is answered, as
// wrk does). Returns false when the connection failed (and was recycled).
bool Worker::startBatch(Connection& c, uint32_t requests)
{
    if (c.closeAfterResponse) return true; // retiring: what is in flight finishes, nothing more goes out
    if (threadStopped()) return true;
    if (m_delays) {
        // wrk's delay(): asked before each batch, and nothing goes out on the connection until it
        // has passed. A batch asked for meanwhile (HTTP/2: a stream freed by a timeout) is not a
        // second delay: what the session takes when the delay ends goes out then. The wait is a
        // timer of the loop (m_timers), never a sleep: the worker's other connections go on.
        if (c.delayedUntilUs != 0) return true;
        const uint64_t delayUs = m_source->delayUs(indexOf(c));
        if (m_plan.stopRequested.load(std::memory_order_relaxed)) return true; // delay() failed: send nothing
        if (delayUs > 0) {
            c.delayedUntilUs = monotonicNowUs() + delayUs;
            m_timers.push_back({ c.delayedUntilUs, indexOf(c), m_generation[indexOf(c)] });
            std::push_heap(m_timers.begin(), m_timers.end(), std::greater<> {});
            return true;
        }
    }
    return sendBatch(c, requests);
}

// The batch itself, after any delay.
bool Worker::sendBatch(Connection& c, uint32_t requests)
{
    if (c.closeAfterResponse) return true;
    const uint64_t now = monotonicNowUs();
    uint32_t sent = 0;
    for (requests = std::min(requests, c.requestsLeft); sent < requests; ++sent) {
        const RequestPick pick = m_source->next(indexOf(c));
        // A source that stopped the run while answering (a script's request() failed) answered
        // nothing worth sending: no request leaves after a stop. (A relaxed load: a plain read.)
        if (m_sourceMayStop && m_plan.stopRequested.load(std::memory_order_relaxed)) break;
        c.session->submit(now, now, pick);
    }
    spendRequests(c, sent);
    return flushWrite(c);
}

// Churn: a connection that has sent its share of requests takes no more, and is retired once
// its last answer is in (onResponse).
void Worker::spendRequests(Connection& c, uint32_t sent)
{
    if (c.requestsLeft == UINT32_MAX) return;
    c.requestsLeft -= std::min(sent, c.requestsLeft);
    if (c.requestsLeft == 0) c.closeAfterResponse = true;
}

// Draws this connection's share of requests and its lifetime (a pseudo-random draw per slot and
// per connection it opened, so runs repeat and the reconnects of different slots do not fall
// into step).
void Worker::armChurn(Connection& c)
{
    const ConnectionChurn& churn = m_plan.config.churn;
    if (!churn.enabled()) return;
    uint64_t x = (globalSlotOf(c) << 32) ^ c.opened ^ 0x9E37'79B9'7F4A'7C15ULL;
    auto next = [&x] {
        // splitmix64
        uint64_t z = (x += 0x9E37'79B9'7F4A'7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58'476D'1CE4'E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D0'49BB'1331'11EBULL;
        return z ^ (z >> 31);
    };
    if (churn.requestsMax > 0)
        c.requestsLeft = churn.requestsMin
            + static_cast<uint32_t>(next() % (uint64_t { churn.requestsMax } - churn.requestsMin + 1));
    if (churn.lifetimeMaxUs > 0)
        c.retireAtUs
            = monotonicNowUs() + churn.lifetimeMinUs + next() % (churn.lifetimeMaxUs - churn.lifetimeMinUs + 1);
}

bool Worker::retireIfIdle(Connection& c)
{
    if (c.state != Connection::State::Active || !c.closeAfterResponse || c.session->inFlight() > 0) return false;
    retire(c);
    return true;
}

// A connection that is fine is closed on purpose (churn, a ramp going down): the session says
// goodbye first where its protocol has a way (HTTP/2: GOAWAY), then a new connection takes the
// slot unless a ramp parked it.
void Worker::retire(Connection& c)
{
    if (indexOf(c) < m_enabledConnections && measuring(monotonicNowUs())) ++m_churnCloses;
    if (!m_datagram && !c.writePending()) {
        const std::span<const char> farewell = c.session->farewell();
        size_t written = 0;
        if (!farewell.empty()) c.transport().write(farewell.data(), farewell.size(), written);
    }
    recycle(c, false);
}

// connect() found no free local port (EADDRNOTAVAIL): every further connect would fail the same
// way, each a connect error that says nothing. The run stops, saying why and what helps.
void Worker::outOfPorts(Connection& c, const SocketAddress* source)
{
    if (!m_fatal.load(std::memory_order_relaxed)) {
        std::string range = "32768-60999";
        if (FILE* f = std::fopen("/proc/sys/net/ipv4/ip_local_port_range", "r")) {
            unsigned low = 0, high = 0;
            if (std::fscanf(f, "%u %u", &low, &high) == 2) range = std::to_string(low) + "-" + std::to_string(high);
            std::fclose(f);
        }
        std::string from = source ? source->toString() : std::string("this machine");
        if (const auto colon = from.rfind(':'); source && colon != std::string::npos) from.resize(colon);
        m_fatalError = "out of local ports: no free port from " + from + " to " + m_address.toString() + " (ports "
            + range
            + "; a closed connection holds its port for about 60 s in TIME_WAIT). Spread "
              "the connections over more source addresses (--source 127.0.0.2-127.0.0.9, or addresses of this "
              "machine), reopen connections less often (--conn-requests, --conn-lifetime), or widen "
              "net.ipv4.ip_local_port_range";
        m_fatal.store(true, std::memory_order_release);
    }
    c.close();
    ++m_generation[indexOf(c)];
}

// Open model: sends every request of this connection that is due (as many as
// the session takes), each with its own due time. A connection that is behind
// catches up at once; its later due times stay where they were. Nothing is
// submitted behind a blocked write: its send time would be a lie. Returns
// false when the connection failed (and was recycled).
bool Worker::sendDue(Connection& c, uint64_t nowUs)
{
    if (c.closeAfterResponse || threadStopped()) return true;
    if (c.writePending()) {
        c.dueBehindWrite = true;
        return true;
    }
    const uint32_t room = std::min(c.session->capacity(), c.requestsLeft);
    uint32_t added = 0;
    // While draining, only the backlog due before the end goes out.
    const uint64_t lastDueUs = m_draining ? m_plan.endUs - 1 : nowUs;
    while (added < room && c.nextDueUs <= std::min(nowUs, lastDueUs)) {
        c.session->submit(c.nextDueUs, nowUs, m_source->next(indexOf(c)));
        ++added;
        ++c.nextSequence;
        c.nextDueUs = dueUsOf(globalSlotOf(c) + c.nextSequence * m_plan.config.connections);
    }
    spendRequests(c, added);
    if (added > 0 && !flushWrite(c)) return false;
    scheduleNext(c);
    return true;
}

void Worker::scheduleNext(Connection& c)
{
    if (c.session->capacity() == 0 || c.closeAfterResponse || c.nextDueUs >= m_plan.endUs) return;
    m_timers.push_back({ c.nextDueUs, indexOf(c), m_generation[indexOf(c)] });
    std::push_heap(m_timers.begin(), m_timers.end(), std::greater<> {});
}

void Worker::runDueTimers(uint64_t nowUs)
{
    while (!m_timers.empty() && m_timers.front().dueUs <= nowUs) {
        std::pop_heap(m_timers.begin(), m_timers.end(), std::greater<> {});
        const DueTimer t = m_timers.back();
        m_timers.pop_back();
        Connection& c = m_connections[t.index];
        if (!m_plan.schedule) {
            // Closed model: a delay is over (stale when the socket was replaced meanwhile). A
            // latency is measured from the send, as wrk's: the delay is the script's, not the server's.
            if (t.generation != m_generation[t.index] || c.state != Connection::State::Active
                || c.delayedUntilUs != t.dueUs)
                continue;
            c.delayedUntilUs = 0;
            if (!m_plan.stopRequested.load(std::memory_order_relaxed) && !threadStopped() && c.session->capacity() > 0)
                sendBatch(c, c.session->capacity());
            continue;
        }
        // Stale entries (connection replaced, or already sent from a response) are dropped.
        if (t.generation != m_generation[t.index] || c.state != Connection::State::Active || c.nextDueUs != t.dueUs)
            continue;
        sendDue(c, nowUs);
    }
}

// Writes as much as the socket takes. Returns false when the connection
// failed (and was recycled). EPOLLOUT is registered only while a write is
// blocked, so a request costs one write() and no epoll_ctl().
bool Worker::flushWrite(Connection& c)
{
    if (m_datagram) return flushDatagrams(c);
    for (std::span<const char> output = c.session->pendingOutput(); !output.empty();) {
        size_t n = 0;
        switch (c.transport().write(output.data(), output.size(), n)) {
        case IoStatus::Ok:
            output = c.session->onWritten(n);
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
    // Output the session made while reading (HTTP/2: the requests that replace the answered
    // streams, WINDOW_UPDATEs) goes out once, after the last read: over TLS one read returns
    // one record, and a socket's worth of records would otherwise cost a write each.
    bool output = false;
    for (;;) {
        size_t n = 0;
        switch (c.transport().read(m_readBuffer.get(), READ_BUFFER_BYTES, n)) {
        case IoStatus::Ok:
            switch (consume(c, n)) {
            case Consumed::Gone:
                return;
            case Consumed::WithOutput:
                output = true;
                break;
            case Consumed::Done:
                break;
            }
            // A short read drained the socket: the next bytes raise a new edge (or, level-triggered, a new event).
            if (n < READ_BUFFER_BYTES && !c.transport().hasPendingInput()) break;
            continue;
        case IoStatus::WantRead:
            break;
        case IoStatus::WantWrite:
            setWriteInterest(c, true);
            break;
        case IoStatus::Closed:
            return onPeerClosed(c);
        case IoStatus::Error:
            return fail(c, &ErrorCounts::read, {});
        }
        break;
    }
    if (output && !c.writeInterest) flushWrite(c);
}

// Feeds freshly read bytes to the session. Gone: the connection was closed or
// replaced meanwhile (the rest of the buffer is then moot); WithOutput: the
// session has frames of its own to write (the caller writes them once).
Worker::Consumed Worker::consume(Connection& c, size_t length)
{
    // A measured request is in flight: the bytes belong to it (or to one after it).
    if (c.session->oldestInFlight().sentUs >= m_plan.measureStartUs) m_current.bytes += length;
    ResponseHandler handler(*this, c);
    switch (c.session->onRead(m_readBuffer.get(), length, handler)) {
    case SessionResult::Ok:
        return retireIfIdle(c) ? Consumed::Gone : Consumed::Done;
    case SessionResult::OkWithOutput: // HTTP/2 frames of its own; HTTP/1.1 never has any
        return retireIfIdle(c) ? Consumed::Gone : Consumed::WithOutput;
    case SessionResult::Stopped:
        return Consumed::Gone;
    case SessionResult::Finished: // a graceful GOAWAY: what it refused goes out on the next connection
        ++m_reconnects;
        recycle(c, false);
        return Consumed::Gone;
    case SessionResult::ProtocolError:
    case SessionResult::Truncated:
        break;
    }
    // The sentence is made once: a server that breaks every response breaks it the same way.
    if (m_firstParseError.empty()) m_firstParseError = c.session->failure().reason;
    fail(c, &ErrorCounts::parse, {});
    return Consumed::Gone;
}

bool Worker::onResponse(Connection& c, const Completion& done)
{
    if (countReached()) return false; // a later answer of the read that brought the last one counted
    const uint64_t now = monotonicNowUs();
    const InFlightRequest& request = done.request;
    // Every response read is counted, as the target served it and a script's response() saw
    // it: requests due in the measured window, whose responses may come after the end (the open
    // model's drain, and the main loop's last batch of events past the end in both models:
    // nginx logged 2,000 requests of a 2 s run at 1,000/s, the run counted 1,998) or after a
    // stop (the batch being read when it came; nothing is read after). Nothing is sent after
    // either, so these are the requests in flight then.
    const bool inWindow = request.dueUs < m_plan.endUs;
    if (inWindow && now >= m_nextTickUs && now < m_plan.endUs) publishUpTo(now);
    if (inWindow && request.dueUs >= m_plan.measureStartUs && done.reset) {
        ++m_current.errors.stream; // no response: not a request, not a latency
        if (!m_entries.empty()) ++m_entries[request.entry].errors.stream;
    } else if (inWindow && request.dueUs >= m_plan.measureStartUs) {
        const int status = done.status;
        ++m_current.requests;
        ++m_requestsSinceSample;
        m_current.latency.record(now - request.dueUs);
        if (!m_entries.empty())
            m_entries[request.entry].addResponse(
                status, now - request.dueUs, request.entry < EntryStats::MAX_WITH_HISTOGRAM);
        if (done.firstByteUs >= request.sentUs && done.firstByteUs != 0)
            m_current.firstByte.record(done.firstByteUs - request.sentUs);
        m_current.status.add(status);
        if (m_noter) recordNote(done.note, now - request.dueUs, now - request.sentUs, status, now);
        if (m_responsesLeft != UINT64_MAX && --m_responsesLeft == 0) shareCounted(now);
        if (m_plan.schedule) {
            m_current.serviceLatency.record(now - request.sentUs);
            const uint64_t lagUs = request.sentUs - request.dueUs;
            if (lagUs > LATE_THRESHOLD_US) ++m_current.lateRequests;
            m_current.maxLagUs = std::max(m_current.maxLagUs, lagUs);
            m_current.sendLag.record(lagUs);
        }
    } else if (inWindow && !done.reset) {
        ++m_warmupRequests; // sent during the warm-up: it reached the target, in no figure
    }
    // -n: this worker's share is counted. Nothing more is read (the loop ends) or sent.
    if (countReached()) return false;
    if (done.closing) {
        recycle(c, false);
        return false;
    }
    // Retiring: nothing more goes out. The close waits until the session has handed over every
    // answer of this read (retireIfIdle): an HTTP/2 read may complete several streams at once, and
    // the last to be handed over would be lost if the first closed the connection.
    if (c.closeAfterResponse) return true;
    if (m_plan.stopRequested.load(std::memory_order_relaxed)) return c.session->inFlight() > 0;
    if (m_plan.schedule && (now < m_plan.endUs || m_draining)) return sendDue(c, now);
    if (now >= m_plan.endUs) return c.session->inFlight() > 0;
    if (const uint32_t room = c.session->capacity(); room > 0) return startBatch(c, room);
    return true;
}

// -n: this worker has counted its share. The last worker to get there ends the run's measured
// time (RunController::run), at the latest of the shares' ends: before it publishes its last
// interval, so the controller merges that one with the right end.
void Worker::shareCounted(uint64_t nowUs)
{
    uint64_t latest = m_plan.lastShareUs.load();
    while (latest < nowUs && !m_plan.lastShareUs.compare_exchange_weak(latest, nowUs)) { }
    if (m_plan.sharesCounted.fetch_add(1) + 1 == m_plan.config.threads)
        m_plan.countedAtUs.store(std::max(latest, nowUs));
}

// Beside the response's latency: its backend (by the noter's name index, which the
// interval's breakdown shares) and its upstream/front-door split. The front door is
// the service time (send to complete) minus the upstream's: in the open model the
// corrected latency also holds the time a request waited for its turn here, which is
// ours, not the gateway's.
void Worker::recordNote(const ResponseNote& note, uint64_t latencyUs, uint64_t serviceUs, int status, uint64_t nowUs)
{
    if (m_plan.config.backendFrom.enabled()) {
        if (note.backend == ResponseNote::NO_BACKEND)
            ++m_current.backends.unnamed;
        else
            m_current.backends.at(note.backend, m_noter->names())
                .record(latencyUs, isNon2xx(status), static_cast<double>(nowUs - m_plan.measureStartUs) / 1e6);
    }
    if (m_plan.config.upstreamTime.enabled()) {
        if (!note.upstreamKnown) {
            ++m_current.upstreamMissing;
            return;
        }
        m_current.upstreamTime.record(note.upstreamUs);
        m_current.frontDoor.record(serviceUs > note.upstreamUs ? serviceUs - note.upstreamUs : 0);
    }
}

void Worker::onPeerClosed(Connection& c)
{
    ResponseHandler handler(*this, c);
    switch (c.session->onEof(handler)) {
    case SessionResult::Ok: // idle, or the last response was delimited by the close
    case SessionResult::OkWithOutput:
    case SessionResult::Finished:
        return recycle(c, false);
    case SessionResult::Stopped:
        return;
    case SessionResult::ProtocolError:
    case SessionResult::Truncated:
        return fail(c, &ErrorCounts::read, {});
    }
}

ConnectionFacts Worker::connectionFacts() const
{
    ConnectionFacts facts = m_sessions->connectionFacts();
    facts.firstParseError = m_firstParseError;
    facts.churnCloses = m_churnCloses;
    return facts;
}

void Worker::chargeEntry(const Connection& c, uint64_t ErrorCounts::*kind, uint64_t count)
{
    if (m_entries.empty() || c.state != Connection::State::Active || c.session->inFlight() == 0) return;
    m_entries[c.session->oldestInFlight().entry].errors.*kind += count;
}

void Worker::fail(Connection& c, uint64_t ErrorCounts::*kind, const std::string& reason)
{
    const uint64_t now = monotonicNowUs();
    if (measuring(now)) {
        ++(m_current.errors.*kind);
        chargeEntry(c, kind);
    }
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
    if (m_plan.stopRequested.load(std::memory_order_relaxed) || (now >= m_plan.endUs && !m_draining)) return;
    if (index >= m_enabledConnections) return; // parked by a connection ramp
    if (threadStopped()) return; // its script stopped the worker: nothing more to send
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
            if (i < m_enabledConnections) connect(i);
        } else {
            m_nextRetryUs = std::min(m_nextRetryUs, c.retryAtUs);
        }
    }
}

void Worker::setWriteInterest(Connection& c, bool on)
{
    if (c.writeInterest == on) return;
    epoll_event ev {};
    ev.events = (on ? (EPOLLIN | EPOLLOUT) : EPOLLIN) | m_edgeFlag;
    ev.data.u64 = eventData(indexOf(c), m_generation[indexOf(c)]);
    epoll_ctl(m_epollFd, EPOLL_CTL_MOD, c.fd(), &ev);
    c.writeInterest = on;
}

// Connection ramps (closed model): global slot s is open while s < target(t).
// This worker's slots are m_workerIndex + i * threads, so it keeps the first
// ceil((target - m_workerIndex) / threads) of its connections open.
void Worker::applyConnectionRamp(uint64_t nowUs)
{
    const RunConfig& cfg = m_plan.config;
    const uint64_t sinceStartUs = nowUs > m_plan.startUs ? nowUs - m_plan.startUs : 0;
    const double target = std::floor(stageTargetAt(cfg.stages, sinceStartUs) + 0.5);
    const double mine = std::ceil((target - m_workerIndex) / cfg.threads);
    const auto wanted = static_cast<unsigned>(std::clamp(mine, 0.0, static_cast<double>(m_connections.size())));
    const unsigned previous = m_enabledConnections;
    m_enabledConnections = wanted;
    for (unsigned i = previous; i < wanted; ++i) {
        m_connections[i].closeAfterResponse = false;
        if (m_connections[i].state == Connection::State::Idle) connect(i);
    }
    for (unsigned i = wanted; i < previous; ++i) {
        Connection& c = m_connections[i];
        if (c.state == Connection::State::Active && c.session->inFlight() > 0)
            c.closeAfterResponse = true; // let the request in flight finish
        else if (c.state != Connection::State::Idle)
            recycle(c, false);
    }
}

// Every 100 ms: per-thread Req/Sec sample (as wrk), ramps, request and connect timeouts.
void Worker::housekeeping(uint64_t nowUs)
{
    m_nextHousekeepingUs = nowUs + HOUSEKEEPING_US;
    // The thread's cost is measured from when measurement begins (not the connects ahead of a
    // common start, nor the warm-up), within one housekeeping period of it.
    if (!m_cost.started() && measuring(nowUs)) m_cost.start(nowUs);
    if (measuring(nowUs) && nowUs > m_lastSampleUs) {
        if (m_lastSampleUs >= m_plan.measureStartUs)
            m_current.threadRateSamples.push_back(
                static_cast<double>(m_requestsSinceSample) * 1e6 / static_cast<double>(nowUs - m_lastSampleUs));
        m_lastSampleUs = nowUs;
        m_requestsSinceSample = 0;
    }
    const RunConfig& cfg = m_plan.config;
    if (cfg.stagesAreConnections && !cfg.stages.empty()) applyConnectionRamp(nowUs);
    for (auto& c : m_connections) {
        switch (c.state) {
        case Connection::State::Active: {
            if (c.retireAtUs <= nowUs && !c.closeAfterResponse) {
                // Churn: its lifetime is over. What is in flight finishes first (onResponse).
                c.closeAfterResponse = true;
                if (c.session->inFlight() == 0) {
                    retire(c);
                    break;
                }
            }
            const InFlightRequest oldest = c.session->oldestInFlight();
            const Expiry expired = c.session->expire(nowUs, cfg.timeoutUs);
            if (expired.timedOut > 0 && measuring(nowUs)) {
                m_current.errors.timeout += expired.timedOut;
                if (!m_entries.empty()) m_entries[oldest.entry].errors.timeout += expired.timedOut;
            }
            if (expired.closeConnection) {
                recycle(c, false);
            } else if (expired.timedOut > 0) {
                // HTTP/2: the streams given up are reset on the wire (which frees their slots),
                // and new requests take their place on the same connection.
                if (!c.writeInterest && (m_datagram || c.session->hasOutput()) && !flushWrite(c)) break;
                if (m_plan.schedule)
                    sendDue(c, nowUs);
                else if (nowUs < m_plan.endUs && c.session->capacity() > 0)
                    startBatch(c, c.session->capacity());
            }
            break;
        }
        case Connection::State::Connecting:
            if (elapsedUs(c.stateSinceUs, nowUs) > cfg.connectTimeoutUs)
                fail(c, &ErrorCounts::connect, "connection to " + m_address.toString() + " timed out");
            break;
        case Connection::State::Handshaking:
            // QUIC's own handshake timeout (the connect timeout) usually fires first.
            if (elapsedUs(c.stateSinceUs, nowUs) > cfg.connectTimeoutUs)
                fail(c, m_datagram ? &ErrorCounts::connect : &ErrorCounts::tls,
                    m_datagram ? "no QUIC handshake within the connect timeout" : "TLS handshake timed out");
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
    uint32_t active = 0, inFlight = 0;
    for (const Connection& c : m_connections) {
        if (c.state != Connection::State::Active) continue;
        ++active;
        inFlight += c.session->inFlight();
    }
    m_current.connections = active;
    m_current.inFlight = inFlight;
    // Once per interval, on this thread: its CPU clock, run-queue wait and context switches.
    m_cost.takeInto(m_current.loaderCost, monotonicNowUs());
    {
        std::lock_guard lock(m_queueMutex);
        m_queue.push_back(m_current);
    }
    m_published.store(m_current.index + 1, std::memory_order_release);
    m_current.clearMeasurements();
}

void Worker::takeInterval(uint32_t index, IntervalSnapshot& into)
{
    std::lock_guard lock(m_queueMutex);
    while (!m_queue.empty() && m_queue.front().index <= index) {
        into.add(m_queue.front());
        m_queue.pop_front();
    }
}

} // namespace wb
