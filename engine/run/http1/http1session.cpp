#include "run/http1/http1session.h"

#include "common/clock.h"

#include <algorithm>

namespace wb {

Http1Requests Http1Requests::build(
    const std::vector<RequestSpec>& requests, uint32_t depth, bool closedLoop, bool buildsPerSend)
{
    Http1Requests r;
    if (requests.size() > 1 || buildsPerSend) {
        for (const RequestSpec& request : requests) {
            r.entries.push_back(buildRequest(request));
            r.entryIsHead.push_back(methodHasNoResponseBody(request.method));
        }
        r.depth = depth;
        r.batchWhenIdle = closedLoop;
        return r;
    }
    const RequestSpec& request = requests.front();
    const std::string one = buildRequest(request);
    // One copy more than the pipeline holds: a server may answer a request before reading all
    // of it (a body it does not want), and the next requests queue behind its unwritten rest.
    r.batch.reserve(one.size() * (depth + 1));
    for (uint32_t i = 0; i <= depth; ++i)
        r.batch += one;
    r.requestBytes = one.size();
    r.depth = depth;
    r.responseToHead = methodHasNoResponseBody(request.method);
    r.batchWhenIdle = closedLoop;
    return r;
}

void Http1Session::onConnected()
{
    reset();
}

void Http1Session::reset()
{
    if (ResponseCapture* capture = m_parser.capture()) capture->clear();
    m_inFlight = 0;
    m_ringHead = 0;
    m_writeOffset = 0;
    m_writeTarget = 0;
    m_view = nullptr;
    m_mixOutput.clear();
    m_parser.reset(m_requests->responseToHead);
}

bool Http1Session::headAwaitsNoBody() const
{
    if (!m_requests->mixed()) return m_requests->responseToHead;
    return m_inFlight > 0 && m_ring[m_ringHead].head;
}

uint32_t Http1Session::capacity() const
{
    const uint32_t room
        = m_requests->batchWhenIdle ? (m_inFlight == 0 ? m_requests->depth : 0) : m_requests->depth - m_inFlight;
    if (m_requests->mixed()) return room;
    // Unwritten requests (answered or not) hold copies of the batch: the pending slice must
    // stay inside it, even against a server that answers what it has not read.
    const size_t freeCopies = (m_requests->batch.size() - m_writeTarget) / m_requests->requestBytes;
    return static_cast<uint32_t>(std::min<size_t>(room, freeCopies));
}

void Http1Session::submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick)
{
    InFlightRequest& slot = m_ring[(m_ringHead + m_inFlight) % m_requests->depth];
    slot = { dueUs, sentUs, pick.entry };
    ++m_inFlight;
    if (m_requests->mixed()) return submitMixed(pick);
    m_writeTarget += m_requests->requestBytes;
}

void Http1Session::submitMixed(const RequestPick& pick)
{
    InFlightRequest& slot = m_ring[(m_ringHead + m_inFlight - 1) % m_requests->depth];
    slot.head = !pick.wire.empty() ? pick.wireHead
        : pick.built               ? methodHasNoResponseBody(pick.built->method)
                                   : m_requests->entryIsHead[pick.entry];
    // The response awaited next may now be this request's: a HEAD one has no body.
    if (m_inFlight == 1) m_parser.reset(slot.head);
    if (pick.built || !pick.wire.empty()) {
        // Built for this send: into the session's own buffer (serialised here, once, unless it
        // came as wire bytes).
        if (m_view) {
            m_mixOutput.assign(m_view->data() + m_writeOffset, m_view->size() - m_writeOffset);
            m_view = nullptr;
            m_writeOffset = 0;
        }
        if (!pick.wire.empty())
            m_mixOutput.append(pick.wire);
        else
            m_mixOutput += buildRequest(*pick.built);
        return;
    }
    appendOutput(m_requests->entries[pick.entry]);
}

void Http1Session::appendOutput(const std::string& bytes)
{
    if (!m_view && m_mixOutput.empty()) {
        m_view = &bytes; // all there is to send: written from the shared entry, not copied
        m_writeOffset = 0;
        return;
    }
    if (m_view) {
        // Pipelined behind a request still being written: both go out of one buffer.
        m_mixOutput.assign(m_view->data() + m_writeOffset, m_view->size() - m_writeOffset);
        m_view = nullptr;
        m_writeOffset = 0;
    }
    m_mixOutput += bytes;
}

std::span<const char> Http1Session::onWritten(size_t n)
{
    m_writeOffset += n;
    if (m_requests->mixed()) {
        const std::string& out = m_view ? *m_view : m_mixOutput;
        if (m_writeOffset == out.size()) {
            m_view = nullptr;
            m_mixOutput.clear();
            m_writeOffset = 0;
        }
        return pendingOutput();
    }
    // Fully written: the next requests start again at the front of the batch. Partly written:
    // the copies written whole are dropped from the front (the batch repeats one request, so
    // the slice reads the same one copy earlier), leaving room for requests queued behind.
    if (m_writeOffset == m_writeTarget) {
        m_writeOffset = m_writeTarget = 0;
    } else if (m_writeOffset >= m_requests->requestBytes) {
        const size_t whole = m_writeOffset / m_requests->requestBytes * m_requests->requestBytes;
        m_writeOffset -= whole;
        m_writeTarget -= whole;
    }
    return pendingOutput();
}

SessionResult Http1Session::onRead(const char* data, size_t length, CompletionHandler& handler)
{
    size_t offset = 0;
    uint64_t readAtUs = 0; // taken once per read, and only when a response begins in it
    while (offset < length) {
        if (!m_parser.started()) {
            if (readAtUs == 0) readAtUs = monotonicNowUs();
            m_firstByteUs = readAtUs;
        }
        size_t used = 0;
        const auto r = m_parser.feed(data + offset, length - offset, used);
        offset += used;
        if (r == ResponseParser::Result::NeedMore) return SessionResult::Ok;
        // A response to nothing that was asked is as wrong as a malformed one.
        if (r == ResponseParser::Result::Error || m_inFlight == 0) return SessionResult::ProtocolError;
        if (!complete(handler)) return SessionResult::Stopped;
    }
    return SessionResult::Ok;
}

SessionFailure Http1Session::failure() const
{
    // Read right after onRead() said ProtocolError, before the connection is recycled.
    if (*m_parser.errorReason() != '\0')
        return { &ErrorCounts::parse, std::string("the response could not be parsed: ") + m_parser.errorReason() };
    return { &ErrorCounts::parse, "the server sent a response when no request was waiting for one" };
}

SessionResult Http1Session::onEof(CompletionHandler& handler)
{
    if (m_inFlight == 0) return SessionResult::Ok; // an idle close (stray bytes before it do not matter)
    if (m_parser.started() && m_parser.finishOnEof() == ResponseParser::Result::Complete)
        return complete(handler) ? SessionResult::Ok : SessionResult::Stopped; // a body delimited by the close
    return SessionResult::Truncated;
}

bool Http1Session::complete(CompletionHandler& handler)
{
    Completion done { m_ring[m_ringHead], m_parser.statusCode(), !m_parser.keepAlive() };
    done.firstByteUs = m_firstByteUs;
    if (m_requests->observer)
        done.note = observeResponse(*m_requests->observer, *m_parser.capture(), done.request.entry, done.status);
    m_ringHead = (m_ringHead + 1) % m_requests->depth;
    --m_inFlight;
    // Ready for the next response before the handler runs: it may submit and write at once.
    m_parser.reset(headAwaitsNoBody());
    return handler.onCompletion(done);
}

Expiry Http1Session::expire(uint64_t nowUs, uint64_t timeoutUs)
{
    if (m_inFlight == 0) return {};
    // A request handed over after `nowUs` was taken (during the caller's pass) is 0 old.
    const uint64_t sentUs = m_ring[m_ringHead].sentUs;
    const uint64_t ageUs = nowUs > sentUs ? nowUs - sentUs : 0;
    // Responses come in order: everything queued behind the oldest is lost with it.
    if (ageUs > timeoutUs) return { m_inFlight, true };
    return {};
}

void Http1Session::forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const
{
    for (uint32_t i = 0; i < m_inFlight; ++i)
        visit(m_ring[(m_ringHead + i) % m_requests->depth]);
}

Http1SessionPool::Http1SessionPool(Http1Requests requests, size_t sessions)
    : m_requests(std::move(requests))
    , m_ring(sessions * m_requests.depth)
{
    m_sessions.reserve(sessions);
    if (m_requests.observer) {
        m_captures.resize(sessions);
        for (ResponseCapture& capture : m_captures) {
            capture.wantBody = m_requests.observer->wantsBody();
            capture.bodyLimit = m_requests.observer->bodyBytesWanted();
        }
    }
    for (size_t i = 0; i < sessions; ++i) {
        m_sessions.emplace_back(m_requests, m_ring.data() + i * m_requests.depth);
        if (m_requests.observer) m_sessions.back().observeInto(&m_captures[i]);
    }
}

} // namespace wb
