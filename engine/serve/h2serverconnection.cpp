#include "serve/h2serverconnection.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <utility>

namespace wb::serve {

namespace {

constexpr uint64_t MAX_H2_ECHO = 64ull * 1024 * 1024;

H2ServerConnection& self(void* p)
{
    return *static_cast<H2ServerConnection*>(p);
}

struct Callbacks
{
    nghttp2_session_callbacks* callbacks = nullptr;
    Callbacks()
    {
        nghttp2_session_callbacks_new(&callbacks);
        nghttp2_session_callbacks_set_on_begin_headers_callback(
            callbacks, [](nghttp2_session*, const nghttp2_frame* f, void* u) {
                if (f->hd.type == NGHTTP2_HEADERS && f->headers.cat == NGHTTP2_HCAT_REQUEST)
                    self(u).onBeginStream(f->hd.stream_id);
                return 0;
            });
        nghttp2_session_callbacks_set_on_header_callback(callbacks,
            [](nghttp2_session*, const nghttp2_frame* f, const uint8_t* name, size_t nameLength, const uint8_t* value,
                size_t valueLength, uint8_t, void* u) {
                self(u).onHeader(f->hd.stream_id, { reinterpret_cast<const char*>(name), nameLength },
                    { reinterpret_cast<const char*>(value), valueLength });
                return 0;
            });
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(
            callbacks, [](nghttp2_session*, uint8_t, int32_t stream, const uint8_t* data, size_t size, void* u) {
                self(u).onData(stream, data, size);
                return 0;
            });
        nghttp2_session_callbacks_set_on_frame_recv_callback(
            callbacks, [](nghttp2_session*, const nghttp2_frame* f, void* u) {
                if ((f->hd.type == NGHTTP2_HEADERS || f->hd.type == NGHTTP2_DATA)
                    && (f->hd.flags & NGHTTP2_FLAG_END_STREAM))
                    self(u).onRequestComplete(f->hd.stream_id, 0);
                return 0;
            });
        nghttp2_session_callbacks_set_on_stream_close_callback(
            callbacks, [](nghttp2_session*, int32_t stream, uint32_t, void* u) {
                self(u).onStreamClose(stream);
                return 0;
            });
    }
    ~Callbacks() { nghttp2_session_callbacks_del(callbacks); }
};

const Callbacks& callbacks()
{
    static const Callbacks c;
    return c;
}

} // namespace

bool startsHttp2Preface(std::string_view bytes)
{
    static constexpr std::string_view PREFACE = NGHTTP2_CLIENT_MAGIC;
    const size_t n = std::min(bytes.size(), PREFACE.size());
    return n > 0 && bytes.substr(0, n) == PREFACE.substr(0, n);
}

H2ServerConnection::H2ServerConnection(const Responder& responder, int64_t delayNs, Admissions* admission)
    : m_responder(responder)
    , m_delayNs(delayNs)
    , m_admission(admission)
{
    nghttp2_session_server_new(&m_session, callbacks().callbacks, this);
    const nghttp2_settings_entry settings[] = { { NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 1000 } };
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
}

H2ServerConnection::~H2ServerConnection()
{
    nghttp2_session_del(m_session);
}

bool H2ServerConnection::receive(const char* data, size_t size, int64_t nowNs)
{
    m_nowNs = nowNs;
    const ssize_t n = nghttp2_session_mem_recv(m_session, reinterpret_cast<const uint8_t*>(data), size);
    return n >= 0 && !finished();
}

void H2ServerConnection::takeOutput(std::string& out)
{
    for (;;) {
        const uint8_t* frames = nullptr;
        const ssize_t n = nghttp2_session_mem_send(m_session, &frames);
        if (n <= 0) return;
        out.append(reinterpret_cast<const char*>(frames), static_cast<size_t>(n));
    }
}

bool H2ServerConnection::finished() const
{
    return !nghttp2_session_want_read(m_session) && !nghttp2_session_want_write(m_session);
}

uint64_t H2ServerConnection::takeAnswered()
{
    return std::exchange(m_answered, 0);
}

void H2ServerConnection::onBeginStream(int32_t stream)
{
    m_streams[stream] = Stream {};
}

void H2ServerConnection::onHeader(int32_t stream, std::string_view name, std::string_view value)
{
    auto it = m_streams.find(stream);
    if (it == m_streams.end()) return;
    if (name == ":path")
        detail::parseRoute(value, it->second.request);
    else if (name == ":method")
        it->second.request.head = value == "HEAD";
}

void H2ServerConnection::onData(int32_t stream, const uint8_t* data, size_t size)
{
    auto it = m_streams.find(stream);
    if (it == m_streams.end() || it->second.request.route != Route::Echo) return;
    if (it->second.echo.size() + size > MAX_H2_ECHO) {
        nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, stream, NGHTTP2_REFUSED_STREAM);
        return;
    }
    it->second.echo.append(reinterpret_cast<const char*>(data), size);
}

void H2ServerConnection::onRequestComplete(int32_t stream, int64_t)
{
    auto it = m_streams.find(stream);
    if (it == m_streams.end()) return;
    Stream& s = it->second;
    if (s.request.route == Route::Silent) return; // never answered
    const int64_t admittedAfterNs
        = m_admission ? m_admission->admit(m_nowNs, s.request.route == Route::Capacity ? s.request.number : 0) : 0;
    if (admittedAfterNs < 0) { // --capacity: refused at once, the stream's answer is a 503
        s.request.route = Route::Status;
        s.request.status = 503;
        answer(stream, s);
        return;
    }
    const int64_t delayNs
        = admittedAfterNs + (s.request.route == Route::Delay ? int64_t(s.request.number) * 1'000'000 : m_delayNs);
    if (delayNs > 0) {
        s.dueNs = m_nowNs + delayNs;
        m_delayed.push_back(stream);
        return;
    }
    answer(stream, s);
}

void H2ServerConnection::releaseDue(int64_t nowNs)
{
    m_nowNs = nowNs;
    std::vector<int32_t> waiting;
    for (int32_t id : m_delayed) {
        auto it = m_streams.find(id);
        if (it == m_streams.end()) continue; // reset by the client meanwhile
        if (it->second.dueNs <= nowNs)
            answer(id, it->second);
        else
            waiting.push_back(id);
    }
    m_delayed.swap(waiting);
}

int64_t H2ServerConnection::nextDueNs() const
{
    int64_t next = 0;
    for (int32_t id : m_delayed)
        if (auto it = m_streams.find(id); it != m_streams.end() && (next == 0 || it->second.dueNs < next))
            next = it->second.dueNs;
    return next;
}

void H2ServerConnection::answer(int32_t id, Stream& s)
{
    static constexpr std::string_view BAD = "Bad Request\n";
    int status = 200;
    s.body = m_responder.body();
    switch (s.request.route) {
    case Route::Bytes:
        s.body = { nullptr, s.request.number, Body::Filler };
        break;
    case Route::Echo:
        s.body = { s.echo.data(), s.echo.size(), Body::Copied };
        break;
    case Route::BadParameter:
        s.body = { BAD.data(), BAD.size(), Body::Copied };
        status = 400;
        break;
    case Route::Status:
        status = s.request.status;
        break;
    default:
        break;
    }
    const bool noBody = status == 204 || status == 304 || s.request.head;
    char statusText[4] = {};
    std::to_chars(statusText, statusText + 3, status);
    char lengthText[24] = {};
    const size_t lengthSize
        = static_cast<size_t>(std::to_chars(lengthText, lengthText + 20, s.body.size).ptr - lengthText);
    auto field = [](const char* name, const char* value, size_t valueLength) {
        return nghttp2_nv { reinterpret_cast<uint8_t*>(const_cast<char*>(name)),
            reinterpret_cast<uint8_t*>(const_cast<char*>(value)), std::strlen(name), valueLength,
            NGHTTP2_NV_FLAG_NONE };
    };
    const std::string& upstream = m_responder.upstreamValue();
    const bool normal
        = s.request.route == Route::Default || s.request.route == Route::Delay || s.request.route == Route::Capacity;
    const nghttp2_nv fields[]
        = { field(":status", statusText, 3), field("server", "wrkbench", 8), field("content-type", "text/plain", 10),
              field("x-envoy-upstream-service-time", upstream.data(), upstream.size()),
              field("content-length", lengthText, lengthSize) };
    // The upstream time is a field of normal answers only, when standing in for a gateway.
    nghttp2_nv chosen[std::size(fields)];
    size_t count = 0;
    for (size_t i = 0; i < std::size(fields); ++i) {
        if (i == 3 && (upstream.empty() || !normal)) continue;
        chosen[count++] = fields[i];
    }
    nghttp2_data_provider provider {};
    provider.read_callback
        = [](nghttp2_session*, int32_t stream, uint8_t* buffer, size_t size, uint32_t* flags, nghttp2_data_source*,
              void* u) { return self(u).readBody(stream, buffer, size, flags); };
    const bool withLength = status != 204 && status != 304;
    nghttp2_submit_response(m_session, id, chosen, withLength ? count : count - 1, noBody ? nullptr : &provider);
    ++m_answered;
}

ssize_t H2ServerConnection::readBody(int32_t stream, uint8_t* buffer, size_t size, uint32_t* flags)
{
    auto it = m_streams.find(stream);
    if (it == m_streams.end()) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    Stream& s = it->second;
    const uint64_t n = std::min<uint64_t>(size, s.body.size - s.sent);
    if (s.body.kind == Body::Filler) {
        const char* pattern = fillerPattern() + s.sent % FILLER_PERIOD;
        std::memcpy(buffer, pattern, n); // the pattern holds FILLER_CHUNK + a period: a frame (<= 16 KiB) fits
    } else {
        std::memcpy(buffer, s.body.data + s.sent, n);
    }
    s.sent += n;
    if (s.sent == s.body.size) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
}

void H2ServerConnection::onStreamClose(int32_t stream)
{
    m_streams.erase(stream);
}

} // namespace wb::serve
