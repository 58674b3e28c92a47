#include "run/http2/http2session.h"

#include "common/clock.h"

#include <algorithm>
#include <cstring>

namespace wb {

namespace {

constexpr size_t OUTPUT_CHUNK_BYTES = 64 * 1024; // more waits for the next write
// Streams open before the server's SETTINGS arrive: nghttp2's own assumption (it holds more
// back), so a server that allows fewer refuses none of them.
constexpr uint32_t NGHTTP2_INITIAL_SERVER_LIMIT = 100;

Http2Session& sessionOf(void* userData)
{
    return *static_cast<Http2Session*>(userData);
}

// Unobserved (no ResponseObserver): only the status matters, and every other field returns here.
int onStatusCallback(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name, size_t nameLength,
    const uint8_t* value, size_t valueLength, uint8_t, void* userData)
{
    if (frame->hd.type == NGHTTP2_HEADERS && nameLength == 7 && valueLength == 3
        && std::memcmp(name, ":status", 7) == 0)
        sessionOf(userData).onStatus(frame->hd.stream_id, value, nullptr);
    return 0;
}

// Observed: every field goes to the stream's capture.
int onHeaderCallback(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name, size_t nameLength,
    const uint8_t* value, size_t valueLength, uint8_t, void* userData)
{
    if (frame->hd.type == NGHTTP2_HEADERS)
        sessionOf(userData).onHeader(
            frame->hd.stream_id, name, nameLength, value, valueLength, frame->headers.cat == NGHTTP2_HCAT_HEADERS);
    return 0;
}

int onDataChunkCallback(nghttp2_session*, uint8_t, int32_t streamId, const uint8_t* data, size_t length, void* userData)
{
    sessionOf(userData).onData(streamId, data, length);
    return 0;
}

int onFrameRecvCallback(nghttp2_session*, const nghttp2_frame* frame, void* userData)
{
    sessionOf(userData).onFrame(*frame);
    return 0;
}

int onFrameSendCallback(nghttp2_session*, const nghttp2_frame* frame, void* userData)
{
    if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR)
        sessionOf(userData).onConnectionError(frame->goaway.error_code);
    return 0;
}

int onStreamCloseCallback(nghttp2_session*, int32_t streamId, uint32_t errorCode, void* userData)
{
    sessionOf(userData).onStreamClose(streamId, errorCode);
    return 0;
}

ssize_t readBodyCallback(nghttp2_session*, int32_t streamId, uint8_t* buffer, size_t length, uint32_t* flags,
    nghttp2_data_source*, void* userData)
{
    return sessionOf(userData).readBody(streamId, buffer, length, flags);
}

nghttp2_nv fieldOf(const Header& h)
{
    // The strings live in Http2Requests::fields for the whole run: nghttp2 need not copy them.
    return { reinterpret_cast<uint8_t*>(const_cast<char*>(h.name.data())),
        reinterpret_cast<uint8_t*>(const_cast<char*>(h.value.data())), h.name.size(), h.value.size(),
        NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE };
}

} // namespace

void Http2RequestEntry::build(const RequestSpec& request)
{
    fields = buildHttp2Fields(request);
    body = request.body;
    headerBlock.clear();
    for (const Header& h : fields.fields)
        headerBlock.push_back(fieldOf(h));
}

Http2Requests::Http2Requests(
    const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* responseObserver)
    : entries(table.size())
    , observer(responseObserver)
    , streams(config.streams)
    , streamWindow(static_cast<int32_t>((1u << config.windowBits) - 1))
    , connectionWindow(static_cast<int32_t>((1u << config.connectionWindowBits) - 1))
    // libnghttp2's session cannot decode a server that acknowledges a smaller table and omits the
    // table size update (RFC 7541 4.2), as many do: the reference keeps HPACK's default table.
    , headerTableBytes(std::max<uint32_t>(config.headerTableBytes, 4096))
{
    for (size_t i = 0; i < table.size(); ++i)
        entries[i].build(table[i]);
    nghttp2_session_callbacks_new(&callbacks);
    // Two header callbacks, so that the unobserved run (the usual one) pays for the status only.
    nghttp2_session_callbacks_set_on_header_callback(callbacks, observer ? onHeaderCallback : onStatusCallback);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameRecvCallback);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamCloseCallback);
    nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSendCallback);
    // Body bytes are looked at only when an observer asks for them: without this callback
    // nghttp2 consumes DATA frames without calling out.
    if (observer && observer->wantsBody())
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunkCallback);
    nghttp2_option_new(&options);
    // Closed streams are kept only for the priority tree, which a load generator does not use.
    nghttp2_option_set_no_closed_streams(options, 1);
}

Http2Requests::~Http2Requests()
{
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_option_del(options);
}

Http2Session::Http2Session(Http2Requests& requests, Http2Stream* slots, ResponseCapture* captures)
    : m_requests(&requests)
    , m_streams(slots, captures, requests.streams)
{ }

Http2Session::~Http2Session()
{
    if (m_session) nghttp2_session_del(m_session);
}

void Http2Session::onConnected()
{
    reset();
    m_requests->memory.newClientSession(&m_session, m_requests->callbacks, this, m_requests->options);
    const nghttp2_settings_entry settings[] = {
        { NGHTTP2_SETTINGS_ENABLE_PUSH, 0 },
        { NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, static_cast<uint32_t>(m_requests->streamWindow) },
        { NGHTTP2_SETTINGS_HEADER_TABLE_SIZE, m_requests->headerTableBytes },
    };
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
    nghttp2_session_set_local_window_size(m_session, NGHTTP2_FLAG_NONE, 0, m_requests->connectionWindow);
    // Requests a GOAWAY refused go first, with the due times they had.
    const uint64_t now = monotonicNowUs();
    m_streams.sendRefused(*this, now);
}

void Http2Session::reset()
{
    if (m_session) nghttp2_session_del(m_session); // its callbacks do not run from here
    m_session = nullptr;
    m_streams.clear();
    m_serverLimit = NGHTTP2_INITIAL_SERVER_LIMIT;
    m_output.clear();
    m_outputOffset = 0;
    m_done.clear();
    m_goaway = false;
    m_settingsReceived = false;
    m_http1Answer = false;
    m_errorCode = 0;
    m_failed = false;
    m_receivedAny = false;
    m_holdOutput = false;
}

uint32_t Http2Session::capacity() const
{
    if (!m_session || m_goaway || m_failed) return 0;
    const uint32_t limit = std::min(m_requests->streams, m_serverLimit);
    return limit > m_streams.taken() ? limit - m_streams.taken() : 0;
}

void Http2Session::submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick)
{
    Http2Stream* slot = m_streams.freeSlot();
    if (!slot || !m_session) return; // capacity() said no
    *slot = { { dueUs, sentUs, pick.entry }, -1, 0, 0, false, 0, nullptr };
    if (pick.built) {
        // Built for this send: its header block lives with the stream until the stream closes.
        slot->built = std::make_unique<Http2RequestEntry>();
        slot->built->build(*pick.built);
    }
    send(*slot);
}

void Http2Session::send(Http2Stream& slot)
{
    nghttp2_data_provider body {};
    body.read_callback = readBodyCallback;
    const Http2RequestEntry& e = entryOf(slot);
    const int32_t id = nghttp2_submit_request(
        m_session, nullptr, e.headerBlock.data(), e.headerBlock.size(), e.body.empty() ? nullptr : &body, &slot);
    if (id < 0) {
        // Out of stream ids (2^31 per connection) or memory: this connection is done.
        slot = {};
        m_failed = true;
        return;
    }
    slot.id = id;
    m_streams.opened(slot);
}

ssize_t Http2Session::readBody(int32_t streamId, uint8_t* buffer, size_t length, uint32_t* flags)
{
    Http2Stream* slot = slotOf(streamId);
    if (!slot) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    const std::string& body = entryOf(*slot).body;
    const size_t n = std::min(length, body.size() - slot->bodySent);
    std::memcpy(buffer, body.data() + slot->bodySent, n);
    slot->bodySent += static_cast<uint32_t>(n);
    if (slot->bodySent == body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
}

std::span<const char> Http2Session::pendingOutput()
{
    if (m_holdOutput) return {};
    if (m_outputOffset == m_output.size()) {
        m_output.clear();
        m_outputOffset = 0;
    }
    while (m_session && m_output.size() < OUTPUT_CHUNK_BYTES && nghttp2_session_want_write(m_session)) {
        const uint8_t* frames = nullptr;
        const ssize_t n = nghttp2_session_mem_send(m_session, &frames);
        if (n <= 0) {
            if (n < 0) m_failed = true;
            break;
        }
        m_output.append(reinterpret_cast<const char*>(frames), static_cast<size_t>(n));
    }
    return { m_output.data() + m_outputOffset, m_output.size() - m_outputOffset };
}

std::span<const char> Http2Session::onWritten(size_t n)
{
    m_outputOffset += n;
    return pendingOutput();
}

SessionFailure Http2Session::failure() const
{
    if (m_http1Answer)
        return { &ErrorCounts::parse,
            "the server answered the HTTP/2 connection preface in HTTP/1.x (it does not speak HTTP/2 on this port)" };
    return { &ErrorCounts::parse,
        std::string("the server broke HTTP/2 (") + nghttp2_http2_strerror(m_errorCode) + ", as libnghttp2 found)" };
}

SessionResult Http2Session::onRead(const char* data, size_t length, CompletionHandler& handler)
{
    if (!m_session) return SessionResult::ProtocolError;
    if (!m_receivedAny && length > 0) {
        m_receivedAny = true;
        // An HTTP/1.x server answers the preface with a status line (often "400 Bad Request").
        if (length >= 5 && std::memcmp(data, "HTTP/", 5) == 0) {
            m_http1Answer = true;
            return SessionResult::ProtocolError;
        }
    }
    m_readAtUs = 0;
    const ssize_t used = nghttp2_session_mem_recv(m_session, reinterpret_cast<const uint8_t*>(data), length);
    // Hand the responses over after nghttp2 returned (its callbacks must not re-enter it). The
    // requests the handler submits meanwhile are written together, after the last one.
    m_dispatching.swap(m_done);
    m_done.clear();
    m_holdOutput = true;
    for (const Completion& done : m_dispatching)
        if (!handler.onCompletion(done)) return SessionResult::Stopped; // reset() has run
    m_holdOutput = false;
    m_dispatching.clear();
    // Streams the server refused without going away (over its limit) go out again at once.
    if (!m_goaway && m_streams.hasRefused()) m_streams.sendRefused(*this, monotonicNowUs());
    if (used < 0) return SessionResult::ProtocolError; // a flood, out of memory
    // nghttp2 answers a protocol error of the server's (bad framing, a WINDOW_UPDATE of 0)
    // with a GOAWAY of its own, which shows when its output is made: make it now.
    const bool output = hasOutput();
    if (m_failed) return SessionResult::ProtocolError;
    if (m_goaway && m_streams.active() == 0) return SessionResult::Finished;
    if (!nghttp2_session_want_read(m_session)) return m_goaway ? SessionResult::Finished : SessionResult::ProtocolError;
    return output ? SessionResult::OkWithOutput : SessionResult::Ok;
}

SessionResult Http2Session::onEof(CompletionHandler&)
{
    return m_streams.active() == 0 ? SessionResult::Ok : SessionResult::Truncated;
}

Http2Stream* Http2Session::slotOf(int32_t streamId) const
{
    if (!m_session) return nullptr;
    return static_cast<Http2Stream*>(nghttp2_session_get_stream_user_data(m_session, streamId));
}

void Http2Session::onHeader(
    int32_t streamId, const uint8_t* name, size_t nameLength, const uint8_t* value, size_t valueLength, bool trailer)
{
    const bool isStatus = nameLength == 7 && std::memcmp(name, ":status", 7) == 0 && valueLength == 3;
    Http2Stream* slot = slotOf(streamId);
    if (!slot || !m_streams.observed()) return;
    if (!trailer) {
        ResponseCapture& capture = *m_streams.captureOf(*slot);
        if (isStatus) {
            capture.head.clear(); // a new header block: the fields of a 1xx before it are not the response's
        } else if (nameLength > 0 && name[0] != ':') {
            // Kept as HTTP/1.1 lines so that one splitter serves both (nghttp2 has refused CR and LF in fields).
            capture.head.append(reinterpret_cast<const char*>(name), nameLength);
            capture.head += ": ";
            capture.head.append(reinterpret_cast<const char*>(value), valueLength);
            capture.head += "\r\n";
        }
    }
    if (isStatus) onStatus(streamId, value, slot);
}

void Http2Session::onStatus(int32_t streamId, const uint8_t* value, Http2Stream* slot)
{
    if (!slot) slot = slotOf(streamId);
    if (!slot) return;
    const int status = (value[0] - '0') * 100 + (value[1] - '0') * 10 + (value[2] - '0');
    if (slot->firstByteUs == 0) {
        // The read that brought the response's HEADERS: its clock is taken once, on the first response in it.
        if (m_readAtUs == 0) m_readAtUs = monotonicNowUs();
        slot->firstByteUs = m_readAtUs;
    }
    if (status >= 200 || slot->status == 0) slot->status = status; // a final status wins over 1xx
}

void Http2Session::onData(int32_t streamId, const uint8_t* data, size_t length)
{
    if (!m_streams.observed()) return;
    if (Http2Stream* slot = slotOf(streamId); slot && !slot->cancelled)
        m_streams.captureOf(*slot)->appendBody(reinterpret_cast<const char*>(data), length);
}

void Http2Session::onFrame(const nghttp2_frame& frame)
{
    switch (frame.hd.type) {
    case NGHTTP2_SETTINGS:
        if (frame.hd.flags & NGHTTP2_FLAG_ACK) return;
        m_settingsReceived = true;
        m_serverLimit = nghttp2_session_get_remote_settings(m_session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
        if (m_serverLimit < m_requests->streams
            && (m_requests->lowestServerLimit == 0 || m_serverLimit < m_requests->lowestServerLimit))
            m_requests->lowestServerLimit = m_serverLimit;
        return;
    case NGHTTP2_GOAWAY:
        m_goaway = true; // streams above its last-stream-id are closed as REFUSED_STREAM: sent again
        return;
    default:
        return;
    }
}

void Http2Session::onStreamClose(int32_t streamId, uint32_t errorCode)
{
    Http2Stream* slot = slotOf(streamId);
    if (!slot || slot->id == 0) return;
    if (slot->inFlight()) {
        if (errorCode == NGHTTP2_NO_ERROR && slot->status > 0)
            m_done.push_back(m_streams.answered(*slot, m_requests->observer, slot->status));
        else if (errorCode == NGHTTP2_REFUSED_STREAM)
            m_streams.refuse(*slot); // not processed by the server (RFC 9113 8.7): safe to send again
        else
            m_done.push_back({ slot->request, 0, false, true });
    }
    m_streams.close(*slot);
}

InFlightRequest Http2Session::oldestInFlight() const
{
    return m_streams.oldest();
}

Expiry Http2Session::expire(uint64_t nowUs, uint64_t timeoutUs)
{
    if (!m_session) return {};
    return m_streams.expire(nowUs, timeoutUs, [this](Http2Stream& s) {
        // The stream is given up, the connection kept: its slot frees when the reset is sent.
        nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, s.id, NGHTTP2_CANCEL);
        m_streams.cancel(s);
    });
}

void Http2Session::forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const
{
    m_streams.forEachInFlight(visit);
}

Http2SessionPool::Http2SessionPool(
    const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer, size_t sessions)
    : m_requests(config, table, observer)
    , m_slots(observer, sessions, config.streams)
{
    for (size_t i = 0; i < sessions; ++i)
        m_sessions.emplace_back(m_requests, m_slots.slotsOf(i), m_slots.capturesOf(i));
}

} // namespace wb
