// The QUIC / HTTP/3 adapter: every call to ngtcp2 0.12 and nghttp3 0.8 (see the header).
// The structure follows the libraries' own client examples of that era (ngtcp2's
// GnuTLS client, h2load's HTTP/3 client): ngtcp2 owns the connection, nghttp3 the
// HTTP/3 layer above it, and each library's callbacks feed the other.

#include "quic/quicconnection.h"

#include "quic/quictls.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>

namespace wb {

struct QuicConnRef
{
    ngtcp2_crypto_conn_ref ref;
};

namespace {

constexpr size_t CID_BYTES = 18;
constexpr size_t MAX_STREAM_VECTORS = 16;
constexpr size_t MAX_REQUEST_FIELDS = 64;

ngtcp2_conn* ngConn(void* p)
{
    return static_cast<ngtcp2_conn*>(p);
}
nghttp3_conn* h3Conn(void* p)
{
    return static_cast<nghttp3_conn*>(p);
}
uint64_t toNs(uint64_t us)
{
    return us * 1000;
}

ngtcp2_conn* connOfRef(ngtcp2_crypto_conn_ref* ref)
{
    return ngConn(static_cast<QuicConnection*>(ref->user_data)->nativeConnection());
}

std::string_view viewOf(nghttp3_rcbuf* buffer)
{
    const nghttp3_vec v = nghttp3_rcbuf_get_buf(buffer);
    return { reinterpret_cast<const char*>(v.base), v.len };
}

} // namespace

// The libraries' callbacks: C functions that land in the connection (their user data).
struct QuicConnection::Callbacks
{
    static QuicConnection& of(void* userData) { return *static_cast<QuicConnection*>(userData); }

    // ngtcp2 -------------------------------------------------------------------------------
    static void random(uint8_t* dest, size_t length, const ngtcp2_rand_ctx*) { quicRandom(dest, length); }

    static int newConnectionId(ngtcp2_conn*, ngtcp2_cid* cid, uint8_t* token, size_t length, void*)
    {
        quicRandom(cid->data, length);
        cid->datalen = length;
        quicRandom(token, NGTCP2_STATELESS_RESET_TOKENLEN);
        return 0;
    }

    static int handshakeCompleted(ngtcp2_conn*, void* userData)
    {
        of(userData).m_handshakeDone = true;
        return 0;
    }

    // HTTP/3 starts once the 1-RTT keys are there (the server's transport parameters are known).
    static int receiveKey(ngtcp2_conn*, ngtcp2_crypto_level level, void* userData)
    {
        if (level != NGTCP2_CRYPTO_LEVEL_APPLICATION) return 0;
        return of(userData).setUpHttp3() ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
    }

    static int receiveStreamData(ngtcp2_conn* conn, uint32_t flags, int64_t streamId, uint64_t, const uint8_t* data,
        size_t length, void* userData, void*)
    {
        QuicConnection& self = of(userData);
        if (!self.m_h3) return 0;
        const nghttp3_ssize used = nghttp3_conn_read_stream(
            h3Conn(self.m_h3), streamId, data, length, (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0);
        if (used < 0) {
            self.m_closeCode = nghttp3_err_infer_quic_app_error_code(static_cast<int>(used));
            self.m_closeApplication = true;
            self.fail(QuicEnd::ProtocolError,
                std::string("the server's HTTP/3 broke the protocol: ") + nghttp3_strerror(static_cast<int>(used)));
            return NGTCP2_ERR_CALLBACK_FAILURE;
        }
        // What nghttp3 consumed of framing; the body bytes are credited in receiveData.
        ngtcp2_conn_extend_max_stream_offset(conn, streamId, static_cast<uint64_t>(used));
        ngtcp2_conn_extend_max_offset(conn, static_cast<uint64_t>(used));
        return 0;
    }

    static int ackedStreamData(ngtcp2_conn*, int64_t streamId, uint64_t, uint64_t length, void* userData, void*)
    {
        QuicConnection& self = of(userData);
        if (self.m_h3 && nghttp3_conn_add_ack_offset(h3Conn(self.m_h3), streamId, length) != 0)
            return NGTCP2_ERR_CALLBACK_FAILURE;
        return 0;
    }

    static int streamClose(
        ngtcp2_conn* conn, uint32_t flags, int64_t streamId, uint64_t appError, void* userData, void*)
    {
        QuicConnection& self = of(userData);
        if (ngtcp2_is_bidi_stream(streamId)) self.m_lostPackets += ngtcp2_conn_get_stream_loss_count(conn, streamId);
        if (!self.m_h3) return 0;
        if (!(flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET)) appError = NGHTTP3_H3_NO_ERROR;
        const int rv = nghttp3_conn_close_stream(h3Conn(self.m_h3), streamId, appError);
        if (rv != 0 && rv != NGHTTP3_ERR_STREAM_NOT_FOUND) {
            self.m_closeCode = nghttp3_err_infer_quic_app_error_code(rv);
            self.m_closeApplication = true;
            self.fail(QuicEnd::ProtocolError, std::string("HTTP/3 stream close failed: ") + nghttp3_strerror(rv));
            return NGTCP2_ERR_CALLBACK_FAILURE;
        }
        return 0;
    }

    // The server reset its side (RESET_STREAM) or asked us to stop (STOP_SENDING).
    static int streamReset(ngtcp2_conn*, int64_t streamId, uint64_t, uint64_t, void* userData, void*)
    {
        QuicConnection& self = of(userData);
        if (self.m_h3) nghttp3_conn_shutdown_stream_read(h3Conn(self.m_h3), streamId);
        return 0;
    }
    static int streamStopSending(ngtcp2_conn*, int64_t streamId, uint64_t, void* userData, void*)
    {
        return streamReset(nullptr, streamId, 0, 0, userData, nullptr);
    }

    static int extendMaxStreamData(ngtcp2_conn*, int64_t streamId, uint64_t, void* userData, void*)
    {
        QuicConnection& self = of(userData);
        if (self.m_h3 && nghttp3_conn_unblock_stream(h3Conn(self.m_h3), streamId) != 0)
            return NGTCP2_ERR_CALLBACK_FAILURE;
        return 0;
    }

    static int statelessReset(ngtcp2_conn*, const ngtcp2_pkt_stateless_reset*, void* userData)
    {
        of(userData).m_statelessReset = true;
        return 0;
    }

    // nghttp3 ------------------------------------------------------------------------------
    static int h3StreamClose(nghttp3_conn*, int64_t, uint64_t appError, void* userData, void* stream)
    {
        if (stream) of(userData).m_events.onStreamClose(stream, appError);
        return 0;
    }

    static void credit(QuicConnection& self, int64_t streamId, size_t length)
    {
        ngtcp2_conn_extend_max_stream_offset(ngConn(self.m_conn), streamId, length);
        ngtcp2_conn_extend_max_offset(ngConn(self.m_conn), length);
    }

    static int h3ReceiveData(
        nghttp3_conn*, int64_t streamId, const uint8_t* data, size_t length, void* userData, void* stream)
    {
        QuicConnection& self = of(userData);
        credit(self, streamId, length);
        if (stream && self.m_options.observeBody) self.m_events.onBody(stream, data, length);
        return 0;
    }

    static int h3DeferredConsume(nghttp3_conn*, int64_t streamId, size_t consumed, void* userData, void*)
    {
        credit(of(userData), streamId, consumed);
        return 0;
    }

    static int h3ReceiveHeader(nghttp3_conn*, int64_t, int32_t token, nghttp3_rcbuf* name, nghttp3_rcbuf* value,
        uint8_t, void* userData, void* stream)
    {
        QuicConnection& self = of(userData);
        if (!stream) return 0;
        if (token == NGHTTP3_QPACK_TOKEN__STATUS) {
            const std::string_view v = viewOf(value);
            if (v.size() == 3 && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
                self.m_events.onStatus(stream, (v[0] - '0') * 100 + (v[1] - '0') * 10 + (v[2] - '0'));
        } else if (self.m_options.observeFields) {
            self.m_events.onField(stream, viewOf(name), viewOf(value));
        }
        return 0;
    }

    static int h3EndStream(nghttp3_conn*, int64_t, void* userData, void* stream)
    {
        if (stream) of(userData).m_events.onResponseEnd(stream);
        return 0;
    }

    static int h3StopSending(nghttp3_conn*, int64_t streamId, uint64_t appError, void* userData, void*)
    {
        ngtcp2_conn_shutdown_stream_read(ngConn(of(userData).m_conn), streamId, appError);
        return 0;
    }

    static int h3ResetStream(nghttp3_conn*, int64_t streamId, uint64_t appError, void* userData, void*)
    {
        ngtcp2_conn_shutdown_stream_write(ngConn(of(userData).m_conn), streamId, appError);
        return 0;
    }

    static int h3Shutdown(nghttp3_conn*, int64_t id, void* userData)
    {
        of(userData).m_events.onGoaway(id);
        return 0;
    }

    static nghttp3_ssize readBody(
        nghttp3_conn*, int64_t, nghttp3_vec* vec, size_t count, uint32_t* flags, void* userData, void* stream)
    {
        // The whole body at once: it lives with the caller until the stream closes.
        const std::string_view body = stream ? of(userData).m_events.bodyOf(stream) : std::string_view {};
        *flags |= NGHTTP3_DATA_FLAG_EOF;
        if (count == 0 || body.empty()) return 0;
        vec[0].base = reinterpret_cast<uint8_t*>(const_cast<char*>(body.data()));
        vec[0].len = body.size();
        return 1;
    }
};

QuicConnection::QuicConnection(QuicStreamEvents& events)
    : m_events(events)
{ }

QuicConnection::~QuicConnection()
{
    close();
}

void* QuicConnection::nativeConnection() const
{
    return m_conn;
}

const char* quicEndName(QuicEnd end)
{
    switch (end) {
    case QuicEnd::None:
        return "none";
    case QuicEnd::HandshakeFailed:
        return "handshake_failed";
    case QuicEnd::HandshakeTimeout:
        return "handshake_timeout";
    case QuicEnd::Unreachable:
        return "unreachable";
    case QuicEnd::VersionNegotiation:
        return "version_negotiation";
    case QuicEnd::IdleTimeout:
        return "idle_timeout";
    case QuicEnd::PeerClosed:
        return "peer_closed";
    case QuicEnd::StatelessReset:
        return "stateless_reset";
    case QuicEnd::ProtocolError:
        return "protocol_error";
    }
    return "none";
}

bool QuicEndInfo::graceful() const
{
    if (kind == QuicEnd::IdleTimeout) return true;
    if (kind != QuicEnd::PeerClosed) return false;
    return application ? code == NGHTTP3_H3_NO_ERROR : code == NGTCP2_NO_ERROR;
}

Status QuicConnection::open(const QuicTlsContext& tls, const std::string& serverName, const sockaddr* local,
    socklen_t localLength, const sockaddr* remote, socklen_t remoteLength, uint64_t nowUs, const QuicOptions& options)
{
    close();
    m_options = options;
    m_end = {};
    m_handshakeDone = false;
    m_statelessReset = false;
    m_closeWritten = false;
    m_closeCode = 0;
    m_closeApplication = false;
    m_lastPto = 0;

    ngtcp2_callbacks callbacks {};
    callbacks.client_initial = ngtcp2_crypto_client_initial_cb;
    callbacks.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
    callbacks.encrypt = ngtcp2_crypto_encrypt_cb;
    callbacks.decrypt = ngtcp2_crypto_decrypt_cb;
    callbacks.hp_mask = ngtcp2_crypto_hp_mask_cb;
    callbacks.recv_retry = ngtcp2_crypto_recv_retry_cb;
    callbacks.update_key = ngtcp2_crypto_update_key_cb;
    callbacks.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
    callbacks.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
    callbacks.get_path_challenge_data = ngtcp2_crypto_get_path_challenge_data_cb;
    callbacks.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
    callbacks.rand = Callbacks::random;
    callbacks.get_new_connection_id = Callbacks::newConnectionId;
    callbacks.handshake_completed = Callbacks::handshakeCompleted;
    callbacks.recv_rx_key = Callbacks::receiveKey;
    callbacks.recv_stream_data = Callbacks::receiveStreamData;
    callbacks.acked_stream_data_offset = Callbacks::ackedStreamData;
    callbacks.stream_close = Callbacks::streamClose;
    callbacks.stream_reset = Callbacks::streamReset;
    callbacks.stream_stop_sending = Callbacks::streamStopSending;
    callbacks.extend_max_stream_data = Callbacks::extendMaxStreamData;
    callbacks.recv_stateless_reset = Callbacks::statelessReset;

    ngtcp2_cid dcid {}, scid {};
    dcid.datalen = CID_BYTES;
    quicRandom(dcid.data, dcid.datalen);
    scid.datalen = CID_BYTES;
    quicRandom(scid.data, scid.datalen);

    ngtcp2_settings settings;
    ngtcp2_settings_default(&settings);
    settings.initial_ts = toNs(nowUs);
    settings.handshake_timeout = toNs(options.handshakeTimeoutUs);
    settings.max_tx_udp_payload_size = MAX_DATAGRAM_BYTES;

    ngtcp2_transport_params params;
    ngtcp2_transport_params_default(&params);
    // A load client opens the request streams; the server opens its control and QPACK streams.
    params.initial_max_streams_bidi = 0;
    params.initial_max_streams_uni = 3;
    params.initial_max_stream_data_bidi_local = 256 * 1024;
    params.initial_max_stream_data_uni = 256 * 1024;
    params.initial_max_data = 1024 * 1024;
    params.max_idle_timeout = toNs(options.idleTimeoutUs);

    ngtcp2_path path {};
    path.local.addr = const_cast<sockaddr*>(local);
    path.local.addrlen = localLength;
    path.remote.addr = const_cast<sockaddr*>(remote);
    path.remote.addrlen = remoteLength;

    ngtcp2_conn* conn = nullptr;
    if (ngtcp2_conn_client_new(
            &conn, &dcid, &scid, &path, NGTCP2_PROTO_VER_V1, &callbacks, &settings, &params, nullptr, this)
        != 0)
        return Error { "cannot create a QUIC connection (ngtcp2)" };
    m_conn = conn;
    m_ref = std::make_unique<QuicConnRef>();
    m_ref->ref.get_conn = connOfRef;
    m_ref->ref.user_data = this;
    m_serverName = serverName; // GnuTLS keeps a pointer to the name it verifies, not a copy
    auto session = newQuicTlsSession(tls, m_serverName, &m_ref->ref);
    if (!session) {
        close();
        return Error { session.error() };
    }
    m_tls = *session;
    ngtcp2_conn_set_tls_native_handle(conn, m_tls);
    return {};
}

void QuicConnection::close()
{
    if (m_h3) nghttp3_conn_del(h3Conn(m_h3));
    m_h3 = nullptr;
    if (m_conn) ngtcp2_conn_del(ngConn(m_conn));
    m_conn = nullptr;
    deleteQuicTlsSession(m_tls);
    m_tls = nullptr;
    m_ref.reset();
    m_handshakeDone = false;
}

bool QuicConnection::setUpHttp3()
{
    if (m_h3) return true;
    nghttp3_callbacks callbacks {};
    callbacks.stream_close = Callbacks::h3StreamClose;
    callbacks.recv_data = Callbacks::h3ReceiveData;
    callbacks.deferred_consume = Callbacks::h3DeferredConsume;
    callbacks.recv_header = Callbacks::h3ReceiveHeader;
    callbacks.end_stream = Callbacks::h3EndStream;
    callbacks.stop_sending = Callbacks::h3StopSending;
    callbacks.reset_stream = Callbacks::h3ResetStream;
    callbacks.shutdown = Callbacks::h3Shutdown;
    nghttp3_settings settings;
    nghttp3_settings_default(&settings);
    // No dynamic QPACK table for the server's fields: nothing to keep per connection, and no
    // stream blocked on the encoder stream.
    settings.qpack_max_dtable_capacity = 0;
    settings.qpack_blocked_streams = 0;
    nghttp3_conn* h3 = nullptr;
    if (nghttp3_conn_client_new(&h3, &callbacks, &settings, nullptr, this) != 0) return false;
    m_h3 = h3;
    int64_t control = -1, encoder = -1, decoder = -1;
    ngtcp2_conn* conn = ngConn(m_conn);
    if (ngtcp2_conn_open_uni_stream(conn, &control, nullptr) != 0 || nghttp3_conn_bind_control_stream(h3, control) != 0
        || ngtcp2_conn_open_uni_stream(conn, &encoder, nullptr) != 0
        || ngtcp2_conn_open_uni_stream(conn, &decoder, nullptr) != 0
        || nghttp3_conn_bind_qpack_streams(h3, encoder, decoder) != 0) {
        fail(QuicEnd::ProtocolError, "the server allows no unidirectional streams for HTTP/3's control streams");
        return false;
    }
    return true;
}

void QuicConnection::fail(QuicEnd kind, std::string reason)
{
    if (m_end.kind != QuicEnd::None) return; // the first cause is the one to tell
    m_end.kind = kind;
    m_end.reason = std::move(reason);
}

std::string QuicConnection::tlsFailure() const
{
    return quicTlsFailure(m_tls, m_conn ? ngtcp2_conn_get_tls_alert(ngConn(m_conn)) : 0);
}

// An error ngtcp2 returned from reading or a timer: what happened, in one sentence.
void QuicConnection::endFromLibrary(int error)
{
    ngtcp2_conn* conn = ngConn(m_conn);
    switch (error) {
    case NGTCP2_ERR_DRAINING: {
        if (m_statelessReset) return fail(QuicEnd::StatelessReset, "the server answered with a stateless reset");
        ngtcp2_connection_close_error ccerr;
        ngtcp2_conn_get_connection_close_error(conn, &ccerr);
        m_end.code = ccerr.error_code;
        m_end.application = ccerr.type == NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION;
        std::string reason(reinterpret_cast<const char*>(ccerr.reason), ccerr.reasonlen);
        std::string text = "the server closed the connection with "
            + std::string(m_end.application ? "HTTP/3 error 0x" : "QUIC error 0x");
        char hex[20];
        std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(ccerr.error_code));
        text += hex;
        // CRYPTO_ERROR (0x100 + alert, RFC 9001 4.8): the server's TLS refused us.
        const bool crypto = !m_end.application && ccerr.error_code >= 0x100 && ccerr.error_code <= 0x1ff;
        if (crypto) text += " (TLS alert " + quicTlsAlertName(static_cast<uint8_t>(ccerr.error_code - 0x100)) + ")";
        if (!reason.empty()) text += ": " + reason;
        return fail(!m_handshakeDone || crypto ? QuicEnd::HandshakeFailed : QuicEnd::PeerClosed, text);
    }
    case NGTCP2_ERR_CRYPTO:
        return fail(QuicEnd::HandshakeFailed, tlsFailure());
    case NGTCP2_ERR_RECV_VERSION_NEGOTIATION:
    case NGTCP2_ERR_VERSION_NEGOTIATION_FAILURE:
        return fail(QuicEnd::VersionNegotiation, "the server speaks no QUIC version we offer (version 1)");
    case NGTCP2_ERR_IDLE_CLOSE:
        return fail(QuicEnd::IdleTimeout, "the QUIC connection was idle past its idle timeout");
    case NGTCP2_ERR_HANDSHAKE_TIMEOUT:
        return fail(QuicEnd::HandshakeTimeout, "no QUIC handshake within the connect timeout");
    default:
        m_closeCode = ngtcp2_err_infer_quic_transport_error_code(error);
        return fail(QuicEnd::ProtocolError, std::string("QUIC: ") + ngtcp2_strerror(error));
    }
}

bool QuicConnection::receive(const uint8_t* data, size_t length, uint64_t nowUs)
{
    if (!m_conn || ended()) return false;
    ngtcp2_path path = *ngtcp2_conn_get_path(ngConn(m_conn));
    ngtcp2_pkt_info info {};
    const int rv = ngtcp2_conn_read_pkt(ngConn(m_conn), &path, &info, data, length, toNs(nowUs));
    if (rv == 0) return !ended();
    // A packet ngtcp2 drops (undecryptable, a stray) is no reason to end the connection.
    if (rv == NGTCP2_ERR_DISCARD_PKT) return !ended();
    if (rv == NGTCP2_ERR_CALLBACK_FAILURE && ended()) return false; // our own callback said why
    if (rv == NGTCP2_ERR_CRYPTO && m_handshakeDone) {
        fail(QuicEnd::ProtocolError, "QUIC: TLS error after the handshake");
        return false;
    }
    endFromLibrary(rv);
    return false;
}

void QuicConnection::onUnreachable(const std::string& reason)
{
    fail(QuicEnd::Unreachable, reason);
}

size_t QuicConnection::write(uint8_t* buffer, size_t capacity, size_t& segmentBytes, uint64_t nowUs)
{
    segmentBytes = 0;
    if (!m_conn) return 0;
    ngtcp2_conn* conn = ngConn(m_conn);
    const uint64_t ts = toNs(nowUs);
    if (ended()) {
        // After a local error, one CONNECTION_CLOSE tells the server (never after a draining end).
        const bool local = m_end.kind == QuicEnd::ProtocolError || m_end.kind == QuicEnd::HandshakeFailed;
        if (!local || m_closeWritten || ngtcp2_conn_is_in_draining_period(conn)) return 0;
        segmentBytes = writeConnectionClose(buffer, capacity, m_closeApplication, m_closeCode, nowUs);
        return segmentBytes;
    }
    const size_t datagramBytes = std::min(ngtcp2_conn_get_path_max_tx_udp_payload_size(conn), MAX_DATAGRAM_BYTES);
    size_t used = 0;
    while (used + datagramBytes <= capacity) {
        int64_t streamId = -1;
        int fin = 0;
        nghttp3_vec vectors[MAX_STREAM_VECTORS];
        nghttp3_ssize count = 0;
        if (m_h3 && ngtcp2_conn_get_max_data_left(conn) > 0) {
            count = nghttp3_conn_writev_stream(h3Conn(m_h3), &streamId, &fin, vectors, MAX_STREAM_VECTORS);
            if (count < 0) {
                m_closeCode = nghttp3_err_infer_quic_app_error_code(static_cast<int>(count));
                m_closeApplication = true;
                fail(QuicEnd::ProtocolError, std::string("HTTP/3: ") + nghttp3_strerror(static_cast<int>(count)));
                return used;
            }
        }
        ngtcp2_ssize accepted = -1;
        uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE | (fin ? NGTCP2_WRITE_STREAM_FLAG_FIN : 0);
        ngtcp2_pkt_info info {};
        const ngtcp2_ssize n = ngtcp2_conn_writev_stream(conn, nullptr, &info, buffer + used, datagramBytes, &accepted,
            flags, streamId, reinterpret_cast<const ngtcp2_vec*>(vectors), static_cast<size_t>(count), ts);
        if (n < 0) {
            switch (n) {
            case NGTCP2_ERR_STREAM_DATA_BLOCKED:
                nghttp3_conn_block_stream(h3Conn(m_h3), streamId);
                continue;
            case NGTCP2_ERR_STREAM_SHUT_WR:
                nghttp3_conn_shutdown_stream_write(h3Conn(m_h3), streamId);
                continue;
            case NGTCP2_ERR_WRITE_MORE: // the packet has room for more streams' data
                nghttp3_conn_add_write_offset(h3Conn(m_h3), streamId, static_cast<size_t>(accepted));
                continue;
            default:
                m_closeCode = ngtcp2_err_infer_quic_transport_error_code(static_cast<int>(n));
                fail(QuicEnd::ProtocolError, std::string("QUIC: ") + ngtcp2_strerror(static_cast<int>(n)));
                return used;
            }
        }
        if (accepted >= 0 && m_h3) nghttp3_conn_add_write_offset(h3Conn(m_h3), streamId, static_cast<size_t>(accepted));
        if (n == 0) break; // nothing more now (or paced: expiryUs() says when)
        const auto bytes = static_cast<size_t>(n);
        if (segmentBytes == 0) segmentBytes = bytes;
        used += bytes;
        // GSO sends equal segments and a shorter last one: a shorter packet ends the batch.
        if (bytes < segmentBytes) break;
    }
    if (used > 0) ngtcp2_conn_update_pkt_tx_time(conn, ts);
    return used;
}

size_t QuicConnection::writeClose(uint8_t* buffer, size_t capacity, uint64_t nowUs)
{
    // A peer's close or any error has ended() the connection; only our own close is left to rule out.
    if (!m_conn || ended() || m_closeWritten) return 0;
    return handshakeDone() ? writeConnectionClose(buffer, capacity, true, NGHTTP3_H3_NO_ERROR, nowUs)
                           : writeConnectionClose(buffer, capacity, false, NGTCP2_NO_ERROR, nowUs);
}

size_t QuicConnection::writeConnectionClose(
    uint8_t* buffer, size_t capacity, bool application, uint64_t code, uint64_t nowUs)
{
    m_closeWritten = true;
    ngtcp2_connection_close_error ccerr;
    ngtcp2_connection_close_error_default(&ccerr);
    if (application)
        ngtcp2_connection_close_error_set_application_error(&ccerr, code, nullptr, 0);
    else
        ngtcp2_connection_close_error_set_transport_error(&ccerr, code, nullptr, 0);
    ngtcp2_pkt_info info {};
    const ngtcp2_ssize n = ngtcp2_conn_write_connection_close(
        ngConn(m_conn), nullptr, &info, buffer, std::min(capacity, MAX_DATAGRAM_BYTES), &ccerr, toNs(nowUs));
    return n > 0 ? static_cast<size_t>(n) : 0;
}

uint64_t QuicConnection::expiryUs() const
{
    if (!m_conn || ended()) return UINT64_MAX;
    const ngtcp2_tstamp ns = ngtcp2_conn_get_expiry(ngConn(m_conn));
    if (ns == UINT64_MAX) return UINT64_MAX;
    return (ns + 999) / 1000; // rounded up: waking before the expiry would find nothing to do
}

bool QuicConnection::onExpiry(uint64_t nowUs)
{
    if (!m_conn || ended()) return false;
    ngtcp2_conn* conn = ngConn(m_conn);
    const int rv = ngtcp2_conn_handle_expiry(conn, toNs(nowUs));
    ngtcp2_conn_stat stat;
    ngtcp2_conn_get_conn_stat(conn, &stat);
    if (stat.pto_count > m_lastPto) m_ptoCount += stat.pto_count - m_lastPto;
    m_lastPto = stat.pto_count;
    if (rv == 0) return true;
    endFromLibrary(rv);
    return false;
}

uint64_t QuicConnection::streamsLeft() const
{
    if (!m_conn || !handshakeDone() || ended()) return 0;
    return ngtcp2_conn_get_streams_bidi_left(ngConn(m_conn));
}

int64_t QuicConnection::submit(const QuicRequest& request, void* stream)
{
    if (!handshakeDone() || ended()) return -1;
    int64_t streamId = -1;
    if (ngtcp2_conn_open_bidi_stream(ngConn(m_conn), &streamId, stream) != 0) return -1;
    nghttp3_nv fields[MAX_REQUEST_FIELDS];
    const size_t count = std::min(request.fields.size(), MAX_REQUEST_FIELDS);
    for (size_t i = 0; i < count; ++i) {
        const auto& [name, value] = request.fields[i];
        fields[i] = { reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
            reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
            NGHTTP3_NV_FLAG_NONE };
    }
    nghttp3_data_reader body { Callbacks::readBody };
    if (nghttp3_conn_submit_request(
            h3Conn(m_h3), streamId, fields, count, request.body.empty() ? nullptr : &body, stream)
        != 0) {
        ngtcp2_conn_shutdown_stream(ngConn(m_conn), streamId, NGHTTP3_H3_INTERNAL_ERROR);
        return -1;
    }
    return streamId;
}

void QuicConnection::cancel(int64_t streamId)
{
    if (!m_conn || ended()) return;
    if (m_h3) nghttp3_conn_shutdown_stream_read(h3Conn(m_h3), streamId);
    ngtcp2_conn_shutdown_stream(ngConn(m_conn), streamId, NGHTTP3_H3_REQUEST_CANCELLED);
}

QuicFacts QuicConnection::facts() const
{
    QuicFacts f;
    f.lostPackets = m_lostPackets;
    f.ptoCount = m_ptoCount;
    if (!m_conn) return f;
    f.version = ngtcp2_conn_get_negotiated_version(ngConn(m_conn));
    f.alpn = quicTlsAlpn(m_tls);
    if (const ngtcp2_transport_params* remote = ngtcp2_conn_get_remote_transport_params(ngConn(m_conn)))
        f.streamsBidiLimit = remote->initial_max_streams_bidi;
    return f;
}

} // namespace wb
