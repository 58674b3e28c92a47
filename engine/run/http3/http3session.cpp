#include "run/http3/http3session.h"

#include "common/clock.h"

#include <algorithm>

namespace wb {

namespace {
constexpr size_t SEND_BUFFER_BYTES = 64 * 1024; // one GSO send: the kernel takes at most 64 KB
constexpr uint64_t H3_REQUEST_REJECTED = 0x010b; // RFC 9114 8.1: not processed, safe to send again
constexpr uint64_t MIN_IDLE_TIMEOUT_US = 30'000'000;

SessionFailure failureOf(const QuicEndInfo& end)
{
    switch (end.kind) {
    case QuicEnd::HandshakeFailed:
    case QuicEnd::VersionNegotiation:
        return { &ErrorCounts::tls, end.reason };
    case QuicEnd::HandshakeTimeout:
    case QuicEnd::Unreachable:
        return { &ErrorCounts::connect, end.reason };
    case QuicEnd::IdleTimeout:
    case QuicEnd::PeerClosed:
    case QuicEnd::StatelessReset:
        return { &ErrorCounts::read, end.reason };
    case QuicEnd::ProtocolError:
    case QuicEnd::None:
        break;
    }
    return { &ErrorCounts::parse, end.reason };
}
} // namespace

void Http3RequestEntry::build(const RequestSpec& spec)
{
    fields = buildHttp2Fields(spec);
    body = spec.body;
    request.fields.clear();
    for (const Header& h : fields.fields)
        request.fields.emplace_back(h.name, h.value);
    request.body = body;
}

Http3Requests::Http3Requests(
    const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* responseObserver)
    : observer(responseObserver)
    , streams(config.streams)
    , serverName(config.request.url.host)
    , sendBuffer(SEND_BUFFER_BYTES)
{
    for (const RequestSpec& spec : table)
        entries.emplace_back().build(spec);
    options.observeFields = observer != nullptr;
    options.observeBody = observer && observer->wantsBody();
    // The handshake has the connect timeout; an idle connection is kept at least as long as a
    // request may take, so a slow answer ends as a timeout, not as an idle close.
    options.handshakeTimeoutUs = config.connectTimeoutUs;
    options.idleTimeoutUs = std::max(MIN_IDLE_TIMEOUT_US, 2 * config.timeoutUs);
    auto context = QuicTlsContext::create(config.tls.verifyPeer, config.tls.caFile);
    if (context)
        tls = *context;
    else
        tlsError = context.error();
}

Http3Session::Http3Session(Http3Requests& requests, Http3Stream* slots, ResponseCapture* captures)
    : m_requests(&requests)
    , m_streams(slots, captures, requests.streams)
    , m_quic(*this)
{ }

void Http3Session::reset()
{
    m_quic.close();
    m_streams.clear();
    m_done.clear();
    m_failure = {};
    m_holdOutput = false;
    m_goaway = false;
    m_goawayFrom = INT64_MAX;
    m_handshakeNoted = false;
    m_endNoted = false;
}

Status Http3Session::onDatagramOpened(
    const sockaddr* local, socklen_t localLength, const sockaddr* remote, socklen_t remoteLength, uint64_t nowUs)
{
    reset();
    if (!m_requests->tls) return Error { m_requests->tlsError };
    return m_quic.open(
        *m_requests->tls, m_requests->serverName, local, localLength, remote, remoteLength, nowUs, m_requests->options);
}

uint32_t Http3Session::capacity() const
{
    if (!ready() || m_goaway) return 0;
    const uint64_t room = std::min<uint64_t>(m_streams.size() - m_streams.taken(), m_quic.streamsLeft());
    return static_cast<uint32_t>(room);
}

void Http3Session::submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick)
{
    Http3Stream* slot = m_streams.freeSlot();
    if (!slot) return; // capacity() said no
    *slot = {};
    slot->request = { dueUs, sentUs, pick.entry };
    if (pick.built) {
        slot->built = std::make_unique<Http3RequestEntry>();
        slot->built->build(*pick.built);
    }
    const int64_t id = m_quic.submit(entryOf(*slot).request, slot);
    if (id < 0) {
        // No stream after all (the connection failed meanwhile): the request keeps its due time.
        m_streams.refuse(*slot);
        *slot = {};
        return;
    }
    slot->id = id;
    m_streams.opened(*slot);
}

std::span<const char> Http3Session::nextDatagrams(uint64_t nowUs, size_t& segmentBytes)
{
    segmentBytes = 0;
    if (m_holdOutput) return {};
    std::vector<char>& buffer = m_requests->sendBuffer;
    const size_t n = m_quic.write(reinterpret_cast<uint8_t*>(buffer.data()), buffer.size(), segmentBytes, nowUs);
    return { buffer.data(), n };
}

std::span<const char> Http3Session::closingDatagrams(uint64_t nowUs)
{
    std::vector<char>& buffer = m_requests->sendBuffer;
    const size_t n = m_quic.writeClose(reinterpret_cast<uint8_t*>(buffer.data()), buffer.size(), nowUs);
    return { buffer.data(), n };
}

SessionResult Http3Session::onRead(const char* data, size_t length, CompletionHandler& handler)
{
    if (!m_quic.isOpen()) return SessionResult::ProtocolError;
    m_readAtUs = 0;
    const bool alive = m_quic.receive(reinterpret_cast<const uint8_t*>(data), length, monotonicNowUs());
    return settle(alive, handler);
}

SessionResult Http3Session::onTimer(uint64_t nowUs, CompletionHandler& handler)
{
    if (!m_quic.isOpen()) return SessionResult::ProtocolError;
    m_readAtUs = 0;
    return settle(m_quic.onExpiry(nowUs), handler);
}

void Http3Session::onTransportError(const std::string& reason)
{
    m_quic.onUnreachable(reason);
    ended();
}

SessionResult Http3Session::settle(bool alive, CompletionHandler& handler)
{
    if (alive && !m_handshakeNoted && m_quic.handshakeDone()) noteHandshake();
    if (alive && m_goawayFrom != INT64_MAX) leaveUnprocessed();
    // Completions are handed over after the library returned (its callbacks must not re-enter
    // it); what the handler submits meanwhile leaves in one batch, after the last datagram.
    m_dispatching.swap(m_done);
    m_done.clear();
    m_holdOutput = true;
    for (const Completion& done : m_dispatching)
        if (!handler.onCompletion(done)) return SessionResult::Stopped; // reset() has run
    m_holdOutput = false;
    m_dispatching.clear();
    if (!alive) return ended();
    if (!m_goaway && m_streams.hasRefused() && ready()) m_streams.sendRefused(*this, monotonicNowUs());
    if (m_goaway && m_streams.active() == 0) return SessionResult::Finished;
    return SessionResult::Ok;
}

// The connection is over: counted by how it ended; requests in flight make it a failure.
SessionResult Http3Session::ended()
{
    const QuicEndInfo& end = m_quic.end();
    if (!m_endNoted) {
        m_endNoted = true;
        const auto kind = static_cast<size_t>(end.kind);
        if (kind >= 1 && kind <= QuicSummary::END_KINDS) ++m_requests->summary.ends[kind - 1];
        if (!end.graceful() && m_requests->summary.firstEnd.empty()) m_requests->summary.firstEnd = end.reason;
    }
    m_failure = failureOf(end);
    // An established connection whose server went away (ICMP unreachable) lost what it had in
    // flight, as a connection reset does: a read error. Only a new connection's is a connect error.
    if (end.kind == QuicEnd::Unreachable && m_handshakeNoted) m_failure.kind = &ErrorCounts::read;
    // A connection that carried requests and ended with none in flight is replaced, as after an
    // HTTP/2 GOAWAY; one that never finished its handshake failed.
    if (m_handshakeNoted && m_streams.active() == 0) return SessionResult::Finished;
    return SessionResult::ProtocolError;
}

void Http3Session::noteHandshake()
{
    m_handshakeNoted = true;
    Http3Requests& shared = *m_requests;
    const QuicFacts facts = m_quic.facts();
    ++shared.summary.handshakes;
    if (shared.summary.version == 0) shared.summary.version = facts.version;
    if (shared.summary.alpn.empty()) shared.summary.alpn = facts.alpn;
    if (facts.streamsBidiLimit < shared.streams
        && (shared.lowestServerLimit == 0 || facts.streamsBidiLimit < shared.lowestServerLimit))
        shared.lowestServerLimit = static_cast<uint32_t>(facts.streamsBidiLimit);
}

void Http3Session::onStatus(void* stream, int status)
{
    auto* slot = static_cast<Http3Stream*>(stream);
    if (slot->cancelled) return;
    if (slot->firstByteUs == 0) {
        // The read that brought the response's HEADERS: its clock is taken once per read.
        if (m_readAtUs == 0) m_readAtUs = monotonicNowUs();
        slot->firstByteUs = m_readAtUs;
    }
    if (ResponseCapture* capture = m_streams.captureOf(*slot); capture && (status >= 200 || slot->status == 0))
        capture->head.clear(); // a new header block: the fields of a 1xx before it are not the response's
    if (status >= 200 || slot->status == 0) slot->status = status; // a final status wins over 1xx
}

void Http3Session::onField(void* stream, std::string_view name, std::string_view value)
{
    auto* slot = static_cast<Http3Stream*>(stream);
    ResponseCapture* capture = m_streams.captureOf(*slot);
    if (!capture || slot->cancelled || name.empty() || name[0] == ':') return;
    // Kept as HTTP/1.1 lines, so one splitter serves every protocol (nghttp3 refuses CR and LF in fields).
    capture->head.append(name);
    capture->head += ": ";
    capture->head.append(value);
    capture->head += "\r\n";
}

void Http3Session::onBody(void* stream, const uint8_t* data, size_t length)
{
    auto* slot = static_cast<Http3Stream*>(stream);
    if (ResponseCapture* capture = m_streams.captureOf(*slot); capture && !slot->cancelled)
        capture->appendBody(reinterpret_cast<const char*>(data), length);
}

void Http3Session::onResponseEnd(void* stream)
{
    static_cast<Http3Stream*>(stream)->ended = true;
}

void Http3Session::onStreamClose(void* stream, uint64_t appError)
{
    auto* slot = static_cast<Http3Stream*>(stream);
    if (slot->id < 0) return;
    if (slot->inFlight()) {
        if (slot->ended && slot->status > 0)
            m_done.push_back(m_streams.answered(*slot, m_requests->observer, slot->status));
        else if (appError == H3_REQUEST_REJECTED)
            m_streams.refuse(*slot);
        else
            m_done.push_back({ slot->request, 0, false, true });
    }
    m_streams.close(*slot);
}

void Http3Session::onGoaway(int64_t firstUnprocessed)
{
    m_goaway = true;
    m_goawayFrom = std::min(m_goawayFrom, firstUnprocessed); // acted on once the library returned
}

// Streams from the GOAWAY's id on were not processed (RFC 9114 5.2): sent again on the next connection.
void Http3Session::leaveUnprocessed()
{
    const int64_t from = m_goawayFrom;
    m_goawayFrom = INT64_MAX;
    for (uint32_t i = 0; i < m_streams.size(); ++i) {
        Http3Stream& s = m_streams[i];
        if (s.id < from || !s.inFlight()) continue;
        m_streams.refuse(s);
        m_streams.cancel(s);
        m_quic.cancel(s.id);
    }
}

std::string_view Http3Session::bodyOf(void* stream)
{
    return entryOf(*static_cast<Http3Stream*>(stream)).body;
}

InFlightRequest Http3Session::oldestInFlight() const
{
    return m_streams.oldest();
}

Expiry Http3Session::expire(uint64_t nowUs, uint64_t timeoutUs)
{
    return m_streams.expire(nowUs, timeoutUs, [this](Http3Stream& s) {
        // The stream is given up, the connection kept: its slot frees when QUIC closes the stream.
        m_quic.cancel(s.id);
        m_streams.cancel(s);
    });
}

void Http3Session::forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const
{
    m_streams.forEachInFlight(visit);
}

Http3SessionPool::Http3SessionPool(
    const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer, size_t sessions)
    : m_requests(config, table, observer)
    , m_slots(observer, sessions, config.streams)
{
    for (size_t i = 0; i < sessions; ++i)
        m_sessions.emplace_back(m_requests, m_slots.slotsOf(i), m_slots.capturesOf(i));
}

QuicSummary Http3SessionPool::quicSummary() const
{
    QuicSummary out = m_requests.summary;
    for (const Http3Session& s : m_sessions) {
        const QuicFacts facts = s.facts();
        out.lostPackets += facts.lostPackets;
        out.probeTimeouts += facts.ptoCount;
    }
    return out;
}

} // namespace wb
