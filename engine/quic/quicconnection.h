#pragma once
// The one adapter over ngtcp2 0.12 (QUIC, with GnuTLS for the TLS 1.3 handshake: Debian 12's OpenSSL 3.0 has no QUIC
// API) and nghttp3 0.8 (HTTP/3 framing, QPACK). Both are pre-1.0 APIs, so every call to them is in quicconnection.cpp
// and quictls.cpp and none of their types is in this header: a later version is a change of those two files. A
// QuicConnection is one client connection: datagrams in (receive), a GSO batch out (write), an expiry for loss
// detection, acknowledgement delay, pacing and idle timeout (expiryUs/onExpiry), and HTTP/3 requests told to
// QuicStreamEvents. It has no socket and no clock of its own (the caller passes the time), so it runs in a worker's
// epoll loop, the pre-run check's poll loop and a fuzzer alike.

#include "common/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <utility>
#include <vector>

namespace wb {

struct QuicConnRef; // how GnuTLS's callbacks find the connection (quicconnection.cpp)

/// Certificate credentials of the QUIC connections of a worker (GnuTLS: loaded once).
class QuicTlsContext
{
public:
    /// caFile: PEM CA certificates; empty = the system's trust store. verifyPeer false = -k.
    static Result<std::shared_ptr<QuicTlsContext>> create(bool verifyPeer, const std::string& caFile);
    ~QuicTlsContext();
    QuicTlsContext(const QuicTlsContext&) = delete;
    QuicTlsContext& operator=(const QuicTlsContext&) = delete;
    bool verifyPeer() const { return m_verifyPeer; }
    void* credentials() const { return m_credentials; } ///< gnutls_certificate_credentials_t

private:
    QuicTlsContext() = default;
    void* m_credentials = nullptr;
    bool m_verifyPeer = true;
};

/// How a QUIC connection ended, as far as the client can tell.
enum class QuicEnd : uint8_t {
    None, ///< still open
    HandshakeFailed, ///< TLS refused (certificate, ALPN, an alert of either side) or the server closed during the
                     ///< handshake
    HandshakeTimeout, ///< no handshake within the handshake timeout (nothing answers on UDP)
    Unreachable, ///< the kernel said nothing listens there (ICMP port unreachable)
    VersionNegotiation, ///< the server speaks no QUIC version we offer
    IdleTimeout, ///< nothing heard within the idle timeout
    PeerClosed, ///< the server sent CONNECTION_CLOSE (with its error code)
    StatelessReset, ///< the server answered with a stateless reset (it lost the connection's state)
    ProtocolError, ///< the server's packets or frames broke QUIC or HTTP/3: we closed it
};
/// "handshake_failed", "idle_timeout", ... (the names of reports and JSON).
const char* quicEndName(QuicEnd end);
constexpr size_t QUIC_END_KINDS = 9;

struct QuicEndInfo
{
    QuicEnd kind = QuicEnd::None;
    uint64_t code = 0; ///< the error code of a CONNECTION_CLOSE (transport or application), or 0
    bool application = false; ///< code is an HTTP/3 error code (else a QUIC transport error)
    std::string reason; ///< one sentence
    /// Closed without an error (H3_NO_ERROR or NO_ERROR from the peer, or an idle timeout):
    /// not a failure of the requests that were answered.
    bool graceful() const;
};

/// A request's header fields (lower-case names, pseudo fields first) and body; the bytes live
/// with the caller as long as the stream is open.
struct QuicRequest
{
    std::vector<std::pair<std::string_view, std::string_view>> fields;
    std::string_view body;
};

/// What happens on request streams, by the pointer given to QuicConnection::submit().
class QuicStreamEvents
{
public:
    /// The response's :status (1xx included).
    virtual void onStatus(void* stream, int status) = 0;
    /// Every other response field, only when the connection was opened with observeFields.
    virtual void onField(void* stream, std::string_view name, std::string_view value) = 0;
    /// Body bytes, only when the connection was opened with observeBody.
    virtual void onBody(void* stream, const uint8_t* data, size_t length) = 0;
    /// The response ended (the server's FIN after the whole response).
    virtual void onResponseEnd(void* stream) = 0;
    /// The stream is closed, after onResponseEnd or without it (reset: appError is the code).
    virtual void onStreamClose(void* stream, uint64_t appError) = 0;
    /// The server sent GOAWAY: streams from firstUnprocessed on were not processed.
    virtual void onGoaway(int64_t firstUnprocessed) = 0;
    /// The request body of a stream (asked while sending it).
    virtual std::string_view bodyOf(void* stream) = 0;

protected:
    ~QuicStreamEvents() = default;
};

/// What a connection learnt, for the report.
struct QuicFacts
{
    uint32_t version = 0; ///< the negotiated QUIC version (1 = RFC 9000)
    std::string alpn; ///< "h3"
    bool earlyData = false; ///< 0-RTT was accepted (never: we do not offer it)
    uint64_t streamsBidiLimit = 0; ///< the server's initial_max_streams_bidi
    uint64_t lostPackets = 0; ///< packets with our STREAM frames declared lost (ngtcp2_conn_get_stream_loss_count)
    uint64_t ptoCount = 0; ///< probe timeouts that fired (successive PTOs added up)
};

struct QuicOptions
{
    bool observeFields = false;
    bool observeBody = false;
    uint64_t idleTimeoutUs = 30'000'000;
    uint64_t handshakeTimeoutUs = 2'000'000;
};

class QuicConnection
{
public:
    /// The ALPN id of HTTP/3.
    static constexpr const char* ALPN = "h3";
    /// The largest datagram write() makes.
    static constexpr size_t MAX_DATAGRAM_BYTES = 1452;

    explicit QuicConnection(QuicStreamEvents& events);
    ~QuicConnection();
    QuicConnection(const QuicConnection&) = delete;
    QuicConnection& operator=(const QuicConnection&) = delete;

    /// Starts a handshake on the path local -> remote (a connected UDP socket's two ends).
    /// serverName: SNI and certificate name (an IP address is checked but not sent as SNI).
    Status open(const QuicTlsContext& tls, const std::string& serverName, const sockaddr* local, socklen_t localLength,
        const sockaddr* remote, socklen_t remoteLength, uint64_t nowUs, const QuicOptions& options);
    /// Frees everything (a closed connection sends nothing more).
    void close();
    bool isOpen() const { return m_conn != nullptr; }
    bool handshakeDone() const { return m_handshakeDone && m_h3 != nullptr; }
    /// Over (end() says why): nothing more is sent or received.
    bool ended() const { return m_end.kind != QuicEnd::None; }
    const QuicEndInfo& end() const { return m_end; }

    /// One datagram from the server. false: the connection ended (end()).
    bool receive(const uint8_t* data, size_t length, uint64_t nowUs);
    /// The socket said nothing listens (ECONNREFUSED): the connection ends as Unreachable.
    void onUnreachable(const std::string& reason);
    /// Datagrams to send, written into buffer (at most capacity bytes): every one segmentBytes
    /// long but the last, which may be shorter (a GSO batch). 0: nothing to send now.
    size_t write(uint8_t* buffer, size_t capacity, size_t& segmentBytes, uint64_t nowUs);
    /// A connection we end while it is fine (the run is over, a connection ramp closes it): one
    /// CONNECTION_CLOSE (H3_NO_ERROR after the handshake, NO_ERROR during it) into buffer, so
    /// the server frees the connection now instead of at its idle timeout. 0: nothing to say
    /// (not open, already ended, or said before).
    size_t writeClose(uint8_t* buffer, size_t capacity, uint64_t nowUs);
    /// When onExpiry must run (monotonic µs; UINT64_MAX: never).
    uint64_t expiryUs() const;
    /// Runs the timers that expired. false: the connection ended (an idle or handshake timeout).
    bool onExpiry(uint64_t nowUs);

    /// Request streams the server allows us to open now.
    uint64_t streamsLeft() const;
    /// Opens a stream for request; -1 when no stream may be opened (or the connection failed).
    int64_t submit(const QuicRequest& request, void* stream);
    /// Gives a request up: RESET_STREAM and STOP_SENDING with H3_REQUEST_CANCELLED. The stream
    /// closes (onStreamClose) once the server acknowledges.
    void cancel(int64_t streamId);

    /// What the connection negotiated (version, ALPN, limits), and the loss counts of this object's
    /// connections so far (they add up over reconnects).
    QuicFacts facts() const;
    void* nativeConnection() const; ///< ngtcp2_conn, for GnuTLS's callbacks

    // The libraries' callbacks land here (C functions in quicconnection.cpp).
    struct Callbacks;
    friend struct Callbacks;

private:
    void fail(QuicEnd kind, std::string reason);
    /// Our one CONNECTION_CLOSE (a local error's, or writeClose's) into buffer; its length.
    size_t writeConnectionClose(uint8_t* buffer, size_t capacity, bool application, uint64_t code, uint64_t nowUs);
    void endFromLibrary(int error);
    bool setUpHttp3();
    std::string tlsFailure() const;

    QuicStreamEvents& m_events;
    void* m_conn = nullptr; ///< ngtcp2_conn
    void* m_h3 = nullptr; ///< nghttp3_conn
    void* m_tls = nullptr; ///< gnutls_session_t
    std::unique_ptr<QuicConnRef> m_ref; ///< what GnuTLS's callbacks find the connection by
    QuicOptions m_options;
    std::string m_serverName; ///< what the TLS session verifies the certificate against, as long as it lives
    QuicEndInfo m_end;
    bool m_handshakeDone = false;
    bool m_statelessReset = false;
    bool m_closeWritten = false; ///< our CONNECTION_CLOSE went out (after a local error, or writeClose)
    uint64_t m_closeCode = 0; ///< what we close with after a local error
    bool m_closeApplication = false;
    uint64_t m_lostPackets = 0;
    uint64_t m_ptoCount = 0;
    size_t m_lastPto = 0;
};

} // namespace wb
