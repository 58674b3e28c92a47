#include "run/http2/http2framesession.h"

#include "common/clock.h"
#include "http/hpackblock.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <fmt/format.h>
#include <nghttp2/nghttp2.h>

namespace wb {

namespace {

// RFC 9113 section 6 frame types, flags and section 7 error codes.
enum FrameType : uint8_t {
    DATA = 0x0,
    HEADERS = 0x1,
    PRIORITY = 0x2,
    RST_STREAM = 0x3,
    SETTINGS = 0x4,
    PUSH_PROMISE = 0x5,
    PING = 0x6,
    GOAWAY = 0x7,
    WINDOW_UPDATE = 0x8,
    CONTINUATION = 0x9,
};
constexpr uint8_t END_STREAM = 0x1;
constexpr uint8_t ACK = 0x1;
constexpr uint8_t END_HEADERS = 0x4;
constexpr uint8_t PADDED = 0x8;
constexpr uint8_t PRIORITY_FLAG = 0x20;

constexpr uint32_t NO_ERROR = 0x0;
constexpr uint32_t PROTOCOL_ERROR = 0x1;
constexpr uint32_t FLOW_CONTROL_ERROR = 0x3;
constexpr uint32_t FRAME_SIZE_ERROR = 0x6;
constexpr uint32_t REFUSED_STREAM = 0x7;
constexpr uint32_t CANCEL = 0x8;
constexpr uint32_t COMPRESSION_ERROR = 0x9;
constexpr uint32_t ENHANCE_YOUR_CALM = 0xb;

constexpr uint32_t DEFAULT_WINDOW = 65'535;
constexpr uint32_t MAX_WINDOW = 0x7FFF'FFFF;
constexpr uint32_t DEFAULT_MAX_FRAME_BYTES = 16'384; // what we accept: we never raise SETTINGS_MAX_FRAME_SIZE
constexpr uint32_t FRAME_HEADER_BYTES = 9;
constexpr uint32_t DEFAULT_TABLE_BYTES = 4'096; // HPACK's table until a SETTINGS_HEADER_TABLE_SIZE says otherwise
// Streams open before the server's SETTINGS arrive (libnghttp2's assumption too, so a
// server that allows fewer refuses none of them).
constexpr uint32_t INITIAL_SERVER_LIMIT = 100;
// Acknowledgements and resets the server made us queue without reading them: past this it
// floods (libnghttp2 gives up at the same count).
constexpr uint32_t MAX_QUEUED_CONTROL_FRAMES = 1000;
// A header block is at most this long across its CONTINUATION frames.
constexpr size_t MAX_HEADER_BLOCK_BYTES = 256 * 1024;
// A buffer that grew past this for one frame or block is given back (10,000 connections).
constexpr size_t KEPT_BUFFER_BYTES = 1024;

uint32_t read24(const uint8_t* p)
{
    return (uint32_t { p[0] } << 16) | (uint32_t { p[1] } << 8) | p[2];
}

uint32_t read32(const uint8_t* p)
{
    return (uint32_t { p[0] } << 24) | (uint32_t { p[1] } << 16) | (uint32_t { p[2] } << 8) | p[3];
}

void put32(char* p, uint32_t v)
{
    p[0] = static_cast<char>(v >> 24);
    p[1] = static_cast<char>(v >> 16);
    p[2] = static_cast<char>(v >> 8);
    p[3] = static_cast<char>(v);
}

void appendFrameHeader(std::string& out, uint32_t length, uint8_t type, uint8_t flags, int32_t streamId)
{
    char h[FRAME_HEADER_BYTES];
    h[0] = static_cast<char>(length >> 16);
    h[1] = static_cast<char>(length >> 8);
    h[2] = static_cast<char>(length);
    h[3] = static_cast<char>(type);
    h[4] = static_cast<char>(flags);
    put32(h + 5, static_cast<uint32_t>(streamId));
    out.append(h, sizeof h);
}

void appendSetting(std::string& out, uint16_t id, uint32_t value)
{
    char s[6] = { static_cast<char>(id >> 8), static_cast<char>(id) };
    put32(s + 2, value);
    out.append(s, sizeof s);
}

// What RFC 9113 8.2.1 allows in a field name: lower-case token characters (a table: names are
// checked in every response).
constexpr std::array<bool, 256> NAME_BYTES = [] {
    std::array<bool, 256> t {};
    for (int c = 'a'; c <= 'z'; ++c)
        t[c] = true;
    for (int c = '0'; c <= '9'; ++c)
        t[c] = true;
    for (char c : std::string_view("!#$%&'*+-.^_`|~"))
        t[static_cast<uint8_t>(c)] = true;
    return t;
}();

bool validName(const uint8_t* name, size_t length)
{
    bool ok = length > 0;
    for (size_t i = 0; i < length; ++i)
        ok &= NAME_BYTES[name[i]];
    return ok;
}

// RFC 9113 8.2.1: no NUL, CR or LF in a value.
constexpr std::array<bool, 256> VALUE_BYTES = [] {
    std::array<bool, 256> t {};
    t.fill(true);
    t['\0'] = t['\r'] = t['\n'] = false;
    return t;
}();

bool validValue(const uint8_t* value, size_t length)
{
    bool ok = true;
    for (size_t i = 0; i < length; ++i)
        ok &= VALUE_BYTES[value[i]];
    return ok;
}

bool is(const nghttp2_nv& nv, std::string_view name)
{
    return nv.namelen == name.size() && std::memcmp(nv.name, name.data(), name.size()) == 0;
}

} // namespace

void Http2FrameEntry::build(const RequestSpec& request)
{
    fields = buildHttp2Fields(request);
    headerBlock = encodeStaticHpackBlock(fields.fields);
    body = request.body;
    head = methodHasNoResponseBody(request.method);
}

Http2FrameRequests::Http2FrameRequests(
    const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* responseObserver)
    : entries(table.size())
    , observer(responseObserver)
    , streams(config.streams)
    , streamWindow((1u << config.windowBits) - 1)
    , connectionWindow((1u << config.connectionWindowBits) - 1)
    , headerTableBytes(config.headerTableBytes)
{
    for (size_t i = 0; i < table.size(); ++i)
        entries[i].build(table[i]);
    // With a mix the entries would compete for the table and their indices depend on the order
    // they go out in: mixes keep the static blocks.
    if (entries.size() == 1) {
        entries[0].indexed = encodeIndexedHpackBlocks(entries[0].fields.fields);
        indexedBlocks = entries[0].indexed.tableBytes > 0 && entries[0].indexed.tableBytes <= DEFAULT_TABLE_BYTES;
    }
    preamble = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    appendFrameHeader(preamble, 3 * 6, SETTINGS, 0, 0);
    appendSetting(preamble, 0x2, 0); // SETTINGS_ENABLE_PUSH: no pushes
    appendSetting(preamble, 0x4, streamWindow); // SETTINGS_INITIAL_WINDOW_SIZE
    appendSetting(preamble, 0x1, headerTableBytes); // SETTINGS_HEADER_TABLE_SIZE
    if (connectionWindow > DEFAULT_WINDOW) {
        appendFrameHeader(preamble, 4, WINDOW_UPDATE, 0, 0);
        char increment[4];
        put32(increment, connectionWindow - DEFAULT_WINDOW);
        preamble.append(increment, 4);
    }
}

Http2FrameSession::Http2FrameSession(Http2FrameRequests& requests, Http2FrameStream* slots, ResponseCapture* captures)
    : m_requests(&requests)
    , m_streams(slots, captures, requests.streams)
{ }

Http2FrameSession::~Http2FrameSession()
{
    if (m_inflater) nghttp2_hd_inflate_del(m_inflater);
}

void Http2FrameSession::onConnected()
{
    reset();
    m_connected = true;
    m_output = m_requests->preamble;
    // Requests a GOAWAY refused go first, with the due times they had.
    m_streams.sendRefused(*this, monotonicNowUs());
}

void Http2FrameSession::reset()
{
    if (m_inflater) nghttp2_hd_inflate_del(m_inflater);
    m_inflater = nullptr;
    m_streams.clear();
    m_output.clear();
    m_outputOffset = 0;
    m_partial.clear();
    m_block.clear();
    m_blockStream = 0;
    m_blockEndStream = false;
    m_nextStreamId = 1;
    m_connectionSendWindow = DEFAULT_WINDOW;
    m_peerStreamWindow = DEFAULT_WINDOW;
    m_peerMaxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    m_connectionReceived = 0;
    m_serverLimit = INITIAL_SERVER_LIMIT;
    m_controlQueued = 0;
    m_done.clear();
    m_connected = false;
    m_holdOutput = false;
    m_goaway = false;
    m_settingsReceived = false;
    m_tableSizeUpdateDue = false;
    m_http1Answer = false;
    m_failed = false;
    m_errorCode = NO_ERROR;
    m_frameType = 0;
    m_receivedAny = false;
    m_bodiesBlocked = false;
    m_tableLoaded = false;
    m_tableSizeUpdate = false;
    m_serverTableBytes = DEFAULT_TABLE_BYTES;
}

uint32_t Http2FrameSession::capacity() const
{
    if (!m_connected || m_goaway || m_failed) return 0;
    const uint32_t limit = std::min(m_requests->streams, m_serverLimit);
    return limit > m_streams.active() ? limit - m_streams.active() : 0;
}

void Http2FrameSession::submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick)
{
    Http2FrameStream* slot = m_streams.freeSlot();
    if (!slot || !m_connected) return; // capacity() said no
    if (m_nextStreamId < 0 || static_cast<uint32_t>(m_nextStreamId) > MAX_WINDOW) {
        m_failed = true; // out of stream ids (2^31 per connection): this connection is done
        return;
    }
    slot->request = { dueUs, sentUs, pick.entry };
    slot->id = m_nextStreamId;
    m_nextStreamId += 2;
    slot->sendWindow = m_peerStreamWindow;
    if (pick.built) {
        // Built for this send: its header block lives with the stream until the stream closes.
        slot->built = std::make_unique<Http2FrameEntry>();
        slot->built->build(*pick.built);
    }
    m_streams.opened(*slot);
    const Http2FrameEntry& e = entryOf(*slot);
    std::string_view block = e.headerBlock;
    std::string updated; // a block behind a table size update: once per connection at most
    if (!slot->built && m_requests->indexedBlocks && m_serverTableBytes >= DEFAULT_TABLE_BYTES) {
        block = m_tableLoaded ? e.indexed.repeat : e.indexed.first;
        m_tableLoaded = true;
    } else if (m_tableSizeUpdate) {
        updated = '\x20' + e.headerBlock; // a size update to 0 (RFC 7541 6.3): at most what the server allows
        block = updated;
        m_tableSizeUpdate = false;
    }
    const uint8_t endStream = e.body.empty() ? END_STREAM : 0;
    if (block.size() <= m_peerMaxFrameBytes) {
        appendFrameHeader(m_output, static_cast<uint32_t>(block.size()), HEADERS, END_HEADERS | endStream, slot->id);
        m_output += block;
    } else {
        // Longer than the server's frames: HEADERS, then CONTINUATION frames (RFC 9113 6.10).
        size_t offset = 0;
        while (offset < block.size()) {
            const size_t n = std::min<size_t>(m_peerMaxFrameBytes, block.size() - offset);
            const bool last = offset + n == block.size();
            const uint8_t type = offset == 0 ? HEADERS : CONTINUATION;
            const uint8_t flags = static_cast<uint8_t>((last ? END_HEADERS : 0) | (offset == 0 ? endStream : 0));
            appendFrameHeader(m_output, static_cast<uint32_t>(n), type, flags, slot->id);
            m_output.append(block.substr(offset, n));
            offset += n;
        }
    }
    if (!e.body.empty()) sendBody(*slot);
}

void Http2FrameSession::sendBody(Http2FrameStream& slot)
{
    const std::string& body = entryOf(slot).body;
    while (slot.bodySent < body.size()) {
        const int64_t window = std::min(slot.sendWindow, m_connectionSendWindow);
        if (window <= 0) {
            m_bodiesBlocked = true;
            return;
        }
        const size_t n = std::min<size_t>(
            { body.size() - slot.bodySent, static_cast<size_t>(window), size_t { m_peerMaxFrameBytes } });
        const bool last = slot.bodySent + n == body.size();
        appendFrameHeader(m_output, static_cast<uint32_t>(n), DATA, last ? END_STREAM : 0, slot.id);
        m_output.append(body, slot.bodySent, n);
        slot.bodySent += static_cast<uint32_t>(n);
        slot.sendWindow -= static_cast<int64_t>(n);
        m_connectionSendWindow -= static_cast<int64_t>(n);
    }
}

void Http2FrameSession::sendBlockedBodies()
{
    if (!m_bodiesBlocked) return;
    m_bodiesBlocked = false;
    for (uint32_t i = 0; i < m_streams.size(); ++i) {
        Http2FrameStream& s = m_streams[i];
        if (s.taken() && s.bodySent < entryOf(s).body.size()) sendBody(s);
    }
}

void Http2FrameSession::writeControl(
    uint8_t type, uint8_t flags, int32_t streamId, const void* payload, uint32_t length)
{
    appendFrameHeader(m_output, length, type, flags, streamId);
    if (length > 0) m_output.append(static_cast<const char*>(payload), length);
    ++m_controlQueued;
}

void Http2FrameSession::writeReset(int32_t streamId, uint32_t errorCode)
{
    char code[4];
    put32(code, errorCode);
    writeControl(RST_STREAM, 0, streamId, code, 4);
}

void Http2FrameSession::writeWindowUpdate(int32_t streamId, uint32_t increment)
{
    // Not a control frame the server made us owe: the flood count leaves it out.
    char bytes[4];
    put32(bytes, increment);
    appendFrameHeader(m_output, 4, WINDOW_UPDATE, 0, streamId);
    m_output.append(bytes, 4);
}

std::span<const char> Http2FrameSession::pendingOutput()
{
    if (m_holdOutput) return {};
    if (m_outputOffset == m_output.size() && m_outputOffset != 0) {
        m_output.clear();
        m_outputOffset = 0;
        m_controlQueued = 0;
    }
    return { m_output.data() + m_outputOffset, m_output.size() - m_outputOffset };
}

std::span<const char> Http2FrameSession::onWritten(size_t n)
{
    m_outputOffset += n;
    return pendingOutput();
}

SessionResult Http2FrameSession::onRead(const char* data, size_t length, CompletionHandler& handler)
{
    if (!m_connected) return SessionResult::ProtocolError;
    if (!m_receivedAny && length > 0) {
        m_receivedAny = true;
        // An HTTP/1.x server answers the preface with a status line (often "400 Bad Request").
        if (length >= 5 && std::memcmp(data, "HTTP/", 5) == 0) {
            m_http1Answer = true;
            return SessionResult::ProtocolError;
        }
    }
    m_readAtUs = 0;
    const bool ok = consume(reinterpret_cast<const uint8_t*>(data), length);
    // The responses are handed over once the read is parsed; the requests the handler submits
    // meanwhile are written together, after the last one.
    m_dispatching.swap(m_done);
    m_done.clear();
    m_holdOutput = true;
    for (const Completion& done : m_dispatching)
        if (!handler.onCompletion(done)) return SessionResult::Stopped; // reset() has run
    m_holdOutput = false;
    m_dispatching.clear();
    if (!ok || m_failed) return SessionResult::ProtocolError;
    // Streams the server refused without going away (over its limit) go out again at once.
    if (!m_goaway && m_streams.hasRefused()) m_streams.sendRefused(*this, monotonicNowUs());
    if (m_goaway && m_streams.active() == 0) return SessionResult::Finished;
    return hasOutput() ? SessionResult::OkWithOutput : SessionResult::Ok;
}

bool Http2FrameSession::consume(const uint8_t* data, size_t length)
{
    if (!m_partial.empty()) {
        // Complete the frame the last read cut off: its header first, then its payload.
        if (m_partial.size() < FRAME_HEADER_BYTES) {
            const size_t n = std::min(FRAME_HEADER_BYTES - m_partial.size(), length);
            m_partial.append(reinterpret_cast<const char*>(data), n);
            data += n;
            length -= n;
            if (m_partial.size() < FRAME_HEADER_BYTES) return true;
        }
        const uint32_t payload = read24(reinterpret_cast<const uint8_t*>(m_partial.data()));
        if (payload > DEFAULT_MAX_FRAME_BYTES) return connectionError(FRAME_SIZE_ERROR);
        const size_t n = std::min(FRAME_HEADER_BYTES + payload - m_partial.size(), length);
        m_partial.append(reinterpret_cast<const char*>(data), n);
        data += n;
        length -= n;
        if (m_partial.size() < FRAME_HEADER_BYTES + payload) return true;
        if (!onFrame(reinterpret_cast<const uint8_t*>(m_partial.data()))) return false;
        if (m_partial.capacity() > KEPT_BUFFER_BYTES)
            std::string().swap(m_partial);
        else
            m_partial.clear();
    }
    while (length >= FRAME_HEADER_BYTES) {
        const uint32_t payload = read24(data);
        if (payload > DEFAULT_MAX_FRAME_BYTES) return connectionError(FRAME_SIZE_ERROR);
        if (length < FRAME_HEADER_BYTES + payload) break;
        if (!onFrame(data)) return false;
        data += FRAME_HEADER_BYTES + payload;
        length -= FRAME_HEADER_BYTES + payload;
    }
    if (length > 0) m_partial.assign(reinterpret_cast<const char*>(data), length);
    return true;
}

bool Http2FrameSession::onFrame(const uint8_t* frame)
{
    const uint32_t length = read24(frame);
    const uint8_t type = frame[3];
    const uint8_t flags = frame[4];
    const auto streamId = static_cast<int32_t>(read32(frame + 5) & MAX_WINDOW);
    const uint8_t* payload = frame + FRAME_HEADER_BYTES;
    m_frameType = type;
    // A header block in progress admits nothing but its CONTINUATION frames (RFC 9113 6.10).
    if (m_blockStream != 0 && type != CONTINUATION) return connectionError(PROTOCOL_ERROR);
    switch (type) {
    case DATA:
        return onData(payload, length, flags, streamId);
    case HEADERS:
        return onHeaders(payload, length, flags, streamId);
    case CONTINUATION:
        return onContinuation(payload, length, flags, streamId);
    case PRIORITY:
        if (streamId == 0) return connectionError(PROTOCOL_ERROR);
        if (length != 5) return connectionError(FRAME_SIZE_ERROR);
        return true; // a load generator has no use for priorities
    case RST_STREAM:
        if (streamId == 0 || !opened(streamId)) return connectionError(PROTOCOL_ERROR);
        if (length != 4) return connectionError(FRAME_SIZE_ERROR);
        onReset(streamId, read32(payload));
        return true;
    case SETTINGS:
        if (streamId != 0) return connectionError(PROTOCOL_ERROR);
        return onSettings(payload, length, flags);
    case PUSH_PROMISE:
        return connectionError(PROTOCOL_ERROR); // our SETTINGS disabled push
    case PING:
        if (streamId != 0) return connectionError(PROTOCOL_ERROR);
        if (length != 8) return connectionError(FRAME_SIZE_ERROR);
        if (!(flags & ACK)) writeControl(PING, ACK, 0, payload, 8);
        break;
    case GOAWAY:
        if (streamId != 0) return connectionError(PROTOCOL_ERROR);
        if (length < 8) return connectionError(FRAME_SIZE_ERROR);
        onGoaway(static_cast<int32_t>(read32(payload) & MAX_WINDOW));
        return true;
    case WINDOW_UPDATE:
        return onWindowUpdate(payload, length, streamId);
    default:
        return true; // an extension's frame: ignored (RFC 9113 5.5)
    }
    if (m_controlQueued > MAX_QUEUED_CONTROL_FRAMES) {
        m_failed = true; // a flood of frames that each want an answer we cannot write
        return false;
    }
    return true;
}

bool Http2FrameSession::onSettings(const uint8_t* payload, uint32_t length, uint8_t flags)
{
    if (flags & ACK) {
        if (length != 0) return connectionError(FRAME_SIZE_ERROR);
        // Our SETTINGS_HEADER_TABLE_SIZE is in force from here: the server's next header block
        // should shrink its table to it first (RFC 7541 4.2). Whether it does is seen there.
        m_tableSizeUpdateDue = m_requests->headerTableBytes < DEFAULT_TABLE_BYTES;
        return true;
    }
    if (length % 6 != 0) return connectionError(FRAME_SIZE_ERROR);
    if (!m_settingsReceived) m_serverLimit = UINT32_MAX; // unlimited unless these SETTINGS say otherwise
    for (uint32_t i = 0; i < length; i += 6) {
        const uint16_t id = static_cast<uint16_t>((payload[i] << 8) | payload[i + 1]);
        const uint32_t value = read32(payload + i + 2);
        switch (id) {
        case 0x2: // SETTINGS_ENABLE_PUSH: a server must not turn it on (RFC 9113 6.5.2)
            if (value != 0) return connectionError(PROTOCOL_ERROR);
            break;
        case 0x3: // SETTINGS_MAX_CONCURRENT_STREAMS
            m_serverLimit = value;
            break;
        case 0x4: { // SETTINGS_INITIAL_WINDOW_SIZE: applies to open streams too (6.9.2)
            if (value > MAX_WINDOW) return connectionError(FLOW_CONTROL_ERROR);
            const int64_t delta = int64_t { value } - m_peerStreamWindow;
            m_peerStreamWindow = value;
            for (uint32_t s = 0; s < m_streams.size(); ++s) {
                Http2FrameStream& stream = m_streams[s];
                if (!stream.taken()) continue;
                stream.sendWindow += delta;
                if (stream.sendWindow > MAX_WINDOW) return connectionError(FLOW_CONTROL_ERROR);
            }
            break;
        }
        case 0x5: // SETTINGS_MAX_FRAME_SIZE
            if (value < DEFAULT_MAX_FRAME_BYTES || value > 0xFF'FFFF) return connectionError(PROTOCOL_ERROR);
            m_peerMaxFrameBytes = value;
            break;
        case 0x1: // SETTINGS_HEADER_TABLE_SIZE: the server's decoder shrinks its table once we acknowledge
            if (value < m_serverTableBytes) {
                // Our next block says so first (RFC 7541 4.2); the static blocks need no table.
                m_serverTableBytes = value;
                m_tableSizeUpdate = true;
            }
            break;
        default: // MAX_HEADER_LIST_SIZE, unknown
            break;
        }
    }
    m_settingsReceived = true;
    if (m_serverLimit < m_requests->streams
        && (m_requests->lowestServerLimit == 0 || m_serverLimit < m_requests->lowestServerLimit))
        m_requests->lowestServerLimit = m_serverLimit;
    writeControl(SETTINGS, ACK, 0, nullptr, 0);
    sendBlockedBodies();
    if (m_controlQueued > MAX_QUEUED_CONTROL_FRAMES) {
        m_failed = true;
        return false;
    }
    return true;
}

bool Http2FrameSession::onWindowUpdate(const uint8_t* payload, uint32_t length, int32_t streamId)
{
    if (length != 4) return connectionError(FRAME_SIZE_ERROR);
    const uint32_t increment = read32(payload) & MAX_WINDOW;
    if (streamId == 0) {
        if (increment == 0) return connectionError(PROTOCOL_ERROR);
        m_connectionSendWindow += increment;
        if (m_connectionSendWindow > MAX_WINDOW) return connectionError(FLOW_CONTROL_ERROR);
        sendBlockedBodies();
        return true;
    }
    if (!opened(streamId)) return connectionError(PROTOCOL_ERROR);
    Http2FrameStream* slot = slotOf(streamId);
    if (!slot) return true; // closed on our side
    if (increment == 0) {
        streamError(*slot, PROTOCOL_ERROR);
        return true;
    }
    slot->sendWindow += increment;
    if (slot->sendWindow > MAX_WINDOW) {
        streamError(*slot, FLOW_CONTROL_ERROR);
        return true;
    }
    if (slot->bodySent < entryOf(*slot).body.size()) sendBody(*slot);
    return true;
}

bool Http2FrameSession::onData(const uint8_t* payload, uint32_t length, uint8_t flags, int32_t streamId)
{
    if (streamId == 0 || !opened(streamId)) return connectionError(PROTOCOL_ERROR);
    uint32_t padding = 0;
    if (flags & PADDED) {
        if (length < 1 || payload[0] >= length) return connectionError(PROTOCOL_ERROR);
        padding = payload[0] + 1u;
    }
    // Flow control counts the whole payload, padding too, on closed streams too (RFC 9113 6.9).
    m_connectionReceived += length;
    if (m_connectionReceived > std::max(m_requests->connectionWindow, DEFAULT_WINDOW))
        return connectionError(FLOW_CONTROL_ERROR);
    if (m_connectionReceived >= m_requests->connectionWindow / 2) {
        writeWindowUpdate(0, m_connectionReceived);
        m_connectionReceived = 0;
    }
    Http2FrameStream* slot = slotOf(streamId);
    if (!slot) return true; // a stream we reset or completed
    if (!slot->finalHeaders) {
        streamError(*slot, PROTOCOL_ERROR); // a body before the response's headers
        return true;
    }
    slot->receivedUnacknowledged += length;
    if (slot->receivedUnacknowledged > std::max(m_requests->streamWindow, DEFAULT_WINDOW)) {
        streamError(*slot, FLOW_CONTROL_ERROR);
        return true;
    }
    const uint32_t body = length - padding;
    slot->dataBytes += body;
    if (ResponseCapture* capture = m_streams.captureOf(*slot); capture && body > 0 && capture->wantBody)
        capture->appendBody(reinterpret_cast<const char*>(payload + (padding ? 1 : 0)), body);
    if (flags & END_STREAM) {
        complete(*slot);
    } else if (slot->receivedUnacknowledged >= m_requests->streamWindow / 2) {
        writeWindowUpdate(slot->id, slot->receivedUnacknowledged);
        slot->receivedUnacknowledged = 0;
    }
    return true;
}

bool Http2FrameSession::onHeaders(const uint8_t* payload, uint32_t length, uint8_t flags, int32_t streamId)
{
    // A server opens no streams (push is off): a HEADERS frame answers a stream of ours.
    if (streamId == 0 || !opened(streamId)) return connectionError(PROTOCOL_ERROR);
    uint32_t begin = 0;
    uint32_t end = length;
    if (flags & PADDED) {
        if (length < 1) return connectionError(FRAME_SIZE_ERROR);
        begin = 1;
        if (payload[0] >= length) return connectionError(PROTOCOL_ERROR);
        end -= payload[0];
    }
    if (flags & PRIORITY_FLAG) begin += 5;
    if (begin > end) return connectionError(FRAME_SIZE_ERROR);
    const bool endStream = flags & END_STREAM;
    if (flags & END_HEADERS) return decodeBlock(streamId, payload + begin, end - begin, endStream);
    m_block.assign(reinterpret_cast<const char*>(payload + begin), end - begin);
    m_blockStream = streamId;
    m_blockEndStream = endStream;
    return true;
}

bool Http2FrameSession::onContinuation(const uint8_t* payload, uint32_t length, uint8_t flags, int32_t streamId)
{
    if (m_blockStream == 0 || streamId != m_blockStream) return connectionError(PROTOCOL_ERROR);
    if (m_block.size() + length > MAX_HEADER_BLOCK_BYTES) return connectionError(ENHANCE_YOUR_CALM);
    m_block.append(reinterpret_cast<const char*>(payload), length);
    if (!(flags & END_HEADERS)) return true;
    m_blockStream = 0;
    const bool ok
        = decodeBlock(streamId, reinterpret_cast<const uint8_t*>(m_block.data()), m_block.size(), m_blockEndStream);
    if (m_block.capacity() > KEPT_BUFFER_BYTES)
        std::string().swap(m_block);
    else
        m_block.clear();
    return ok;
}

bool Http2FrameSession::decodeBlock(int32_t streamId, const uint8_t* block, size_t length, bool endStream)
{
    // HPACK's default table until the server shrinks it to ours.
    if (!m_inflater && nghttp2_hd_inflate_new(&m_inflater) != 0) return connectionError(COMPRESSION_ERROR);
    if (m_tableSizeUpdateDue) {
        // The first block after our smaller table was acknowledged. RFC 7541 4.2 has the server
        // start it with a table size update; widely deployed servers omit it and go on encoding
        // against the 4,096-byte table, which the inflater then keeps: refusing them would
        // measure nothing. A block that starts with the update (001xxxxx) gets our limit, which
        // the inflater enforces from there.
        m_tableSizeUpdateDue = false;
        if (length > 0 && (block[0] & 0xE0) == 0x20) {
            if (nghttp2_hd_inflate_change_table_size(m_inflater, m_requests->headerTableBytes) != 0)
                return connectionError(COMPRESSION_ERROR);
        } else {
            ++m_requests->tableSizeUpdatesMissing;
        }
    }
    Http2FrameStream* slot = slotOf(streamId);
    const bool trailer = slot && slot->finalHeaders;
    const bool observed = slot && m_streams.observed() && !trailer;
    if (observed)
        m_streams.captureOf(*slot)->head.clear(); // a new block: the fields of a 1xx before it are not the response's
    int status = 0;
    bool malformed = false;
    bool regularSeen = false;
    int64_t contentLength = -1;
    // Every block goes through the inflater, a stream's we dropped too: the table is the connection's.
    for (;;) {
        nghttp2_nv nv;
        int inflateFlags = 0;
        const ssize_t used = nghttp2_hd_inflate_hd2(m_inflater, &nv, &inflateFlags, block, length, 1);
        if (used < 0) return connectionError(COMPRESSION_ERROR);
        block += used;
        length -= static_cast<size_t>(used);
        if (inflateFlags & NGHTTP2_HD_INFLATE_EMIT) {
            if (nv.namelen > 0 && nv.name[0] == ':') {
                // The one pseudo-header field of a response, first and once (RFC 9113 8.3.2).
                if (trailer || regularSeen || status != 0 || !is(nv, ":status") || nv.valuelen != 3
                    || !std::all_of(nv.value, nv.value + 3, [](uint8_t c) { return c >= '0' && c <= '9'; }))
                    malformed = true;
                else
                    status = (nv.value[0] - '0') * 100 + (nv.value[1] - '0') * 10 + (nv.value[2] - '0');
            } else {
                regularSeen = true;
                if (!validName(nv.name, nv.namelen) || !validValue(nv.value, nv.valuelen)) {
                    malformed = true;
                } else if (is(nv, "content-length")) {
                    int64_t n = 0;
                    const bool digits = nv.valuelen > 0 && nv.valuelen <= 18
                        && std::all_of(nv.value, nv.value + nv.valuelen, [&n](uint8_t c) {
                               n = n * 10 + (c - '0');
                               return c >= '0' && c <= '9';
                           });
                    if (!digits || (contentLength >= 0 && contentLength != n))
                        malformed = true;
                    else
                        contentLength = n;
                } else if (is(nv, "connection") || is(nv, "transfer-encoding") || is(nv, "keep-alive")
                    || is(nv, "proxy-connection") || is(nv, "upgrade")) {
                    malformed = true; // connection-specific fields are malformed in HTTP/2 (8.2.2)
                }
                if (observed && !malformed) {
                    // Kept as HTTP/1.1 lines so that one splitter serves both.
                    ResponseCapture& capture = *m_streams.captureOf(*slot);
                    capture.head.append(reinterpret_cast<const char*>(nv.name), nv.namelen);
                    capture.head += ": ";
                    capture.head.append(reinterpret_cast<const char*>(nv.value), nv.valuelen);
                    capture.head += "\r\n";
                }
            }
        }
        if (inflateFlags & NGHTTP2_HD_INFLATE_FINAL) {
            nghttp2_hd_inflate_end_headers(m_inflater);
            break;
        }
        if (!(inflateFlags & NGHTTP2_HD_INFLATE_EMIT) && length == 0) break;
    }
    if (!slot) return true; // a stream we reset or completed: nothing more to do
    if (trailer) {
        if (!endStream) malformed = true; // a trailer section ends the stream (8.1)
    } else if (status < 100 || status == 101 || (status < 200 && endStream)) {
        malformed = true;
    }
    if (malformed) {
        streamError(*slot, PROTOCOL_ERROR);
        return true;
    }
    if (!trailer) {
        if (slot->firstByteUs == 0) {
            // The read that brought the response's HEADERS: its clock is taken once, on the first response in it.
            if (m_readAtUs == 0) m_readAtUs = monotonicNowUs();
            slot->firstByteUs = m_readAtUs;
        }
        if (status >= 200 || slot->status == 0) slot->status = status; // a final status wins over 1xx
        if (status >= 200) {
            slot->finalHeaders = true;
            slot->contentLength = contentLength;
        }
    }
    if (endStream) complete(*slot);
    return true;
}

void Http2FrameSession::complete(Http2FrameStream& slot)
{
    const bool noBody = entryOf(slot).head || slot.status == 204 || slot.status == 304;
    if (slot.contentLength >= 0 && !noBody && static_cast<uint64_t>(slot.contentLength) != slot.dataBytes) {
        streamError(slot, PROTOCOL_ERROR); // the body is not as long as the response said (8.1.1)
        return;
    }
    if (slot.bodySent < entryOf(slot).body.size()) {
        // Answered before the whole request went out: the rest is not wanted (8.1).
        writeReset(slot.id, NO_ERROR);
    }
    succeed(slot);
}

void Http2FrameSession::succeed(Http2FrameStream& slot)
{
    m_done.push_back(m_streams.answered(slot, m_requests->observer, slot.status));
    m_streams.close(slot);
}

void Http2FrameSession::onReset(int32_t streamId, uint32_t errorCode)
{
    Http2FrameStream* slot = slotOf(streamId);
    if (!slot) return; // closed already
    if (errorCode == NO_ERROR && slot->finalHeaders) {
        succeed(*slot); // "stop sending, here is the response" (8.1): counted as libnghttp2's session counts it
        return;
    }
    if (errorCode == REFUSED_STREAM)
        m_streams.refuse(*slot); // not processed by the server (RFC 9113 8.7): safe to send again
    else
        m_done.push_back({ slot->request, 0, false, true });
    m_streams.close(*slot);
}

void Http2FrameSession::onGoaway(int32_t lastStreamId)
{
    m_goaway = true;
    // Streams above the last one the server processes were not processed: sent again (6.8).
    for (uint32_t i = 0; i < m_streams.size(); ++i) {
        Http2FrameStream& s = m_streams[i];
        if (!s.taken() || s.id <= lastStreamId) continue;
        m_streams.refuse(s);
        m_streams.close(s);
    }
}

void Http2FrameSession::streamError(Http2FrameStream& slot, uint32_t errorCode)
{
    writeReset(slot.id, errorCode);
    m_done.push_back({ slot.request, 0, false, true });
    m_streams.close(slot);
}

std::span<const char> Http2FrameSession::farewell()
{
    // GOAWAY: the last stream the server opened (none: push is off), NO_ERROR.
    static constexpr char GOAWAY_NO_ERROR[] = { 0, 0, 8, GOAWAY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    return { GOAWAY_NO_ERROR, sizeof GOAWAY_NO_ERROR };
}

SessionFailure Http2FrameSession::failure() const
{
    // Read right after onRead() said ProtocolError, before the connection is recycled.
    if (m_http1Answer)
        return { &ErrorCounts::parse,
            "the server answered the HTTP/2 connection preface in HTTP/1.x (it does not speak HTTP/2 on this port)" };
    static constexpr const char* FRAME_NAMES[] = { "DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS",
        "PUSH_PROMISE", "PING", "GOAWAY", "WINDOW_UPDATE", "CONTINUATION" };
    const std::string frame = m_frameType < std::size(FRAME_NAMES) ? std::string(FRAME_NAMES[m_frameType]) + " frame"
                                                                   : fmt::format("frame of type {:#x}", m_frameType);
    switch (m_errorCode) {
    case COMPRESSION_ERROR:
        return { &ErrorCounts::parse, "the server's header block could not be decoded (HPACK, COMPRESSION_ERROR)" };
    case FRAME_SIZE_ERROR:
        return { &ErrorCounts::parse,
            "the server sent a " + frame + " of a size HTTP/2 does not allow (FRAME_SIZE_ERROR)" };
    case FLOW_CONTROL_ERROR:
        return { &ErrorCounts::parse,
            "the server sent more than our flow-control window allowed (FLOW_CONTROL_ERROR)" };
    case ENHANCE_YOUR_CALM:
        return { &ErrorCounts::parse, "the server sent a header block over 256 KB (ENHANCE_YOUR_CALM)" };
    case PROTOCOL_ERROR:
        return { &ErrorCounts::parse, "the server's " + frame + " broke HTTP/2's rules (PROTOCOL_ERROR)" };
    default:
        return { &ErrorCounts::parse,
            m_errorCode == NO_ERROR ? "the server flooded the connection with frames that each need an answer"
                                    : fmt::format("the server broke HTTP/2 (error code {:#x})", m_errorCode) };
    }
}

bool Http2FrameSession::connectionError(uint32_t errorCode)
{
    m_errorCode = errorCode;
    char goaway[8];
    put32(goaway, 0);
    put32(goaway + 4, errorCode);
    writeControl(GOAWAY, 0, 0, goaway, 8);
    m_failed = true;
    return false;
}

SessionResult Http2FrameSession::onEof(CompletionHandler&)
{
    return m_streams.active() == 0 ? SessionResult::Ok : SessionResult::Truncated;
}

InFlightRequest Http2FrameSession::oldestInFlight() const
{
    return m_streams.oldest();
}

Expiry Http2FrameSession::expire(uint64_t nowUs, uint64_t timeoutUs)
{
    if (!m_connected) return {};
    return m_streams.expire(nowUs, timeoutUs, [this](Http2FrameStream& s) {
        // The stream is given up, the connection kept: what the server still sends for it is dropped.
        writeReset(s.id, CANCEL);
        m_streams.close(s);
    });
}

void Http2FrameSession::forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const
{
    m_streams.forEachInFlight(visit);
}

Http2FrameSessionPool::Http2FrameSessionPool(
    const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer, size_t sessions)
    : m_requests(config, table, observer)
    , m_slots(observer, sessions, config.streams)
{
    for (size_t i = 0; i < sessions; ++i)
        m_sessions.emplace_back(m_requests, m_slots.slotsOf(i), m_slots.capturesOf(i));
}

} // namespace wb
