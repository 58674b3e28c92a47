#pragma once
// HTTP/3 behind the ClientSession seam, over QUIC (engine/quic's adapter; docs/HTTP3.md). A session is one QUIC
// connection on one connected UDP socket that the worker owns: the worker hands it each datagram (onRead), sends the
// datagrams it makes (nextDatagrams, a GSO batch) and wakes it at its timers (nextTimerUs/onTimer). The handshake is
// the session's own: the worker waits for ready() and counts it as the connection's connect time. Streams work as in
// HTTP/2, within the server's stream credit: a reset stream is a `reset` completion, one refused (H3_REQUEST_REJECTED)
// or left unprocessed by a GOAWAY keeps its due time and is sent again, and a timed-out one is cancelled
// (RESET_STREAM + STOP_SENDING), its slot freed when QUIC closes it.

#include "http/http2fields.h"
#include "http/responsecapture.h"
#include "quic/quicconnection.h"
#include "run/clientsession.h"
#include "run/http3/quicsummary.h"
#include "run/protocoldriver.h"
#include "run/runconfig.h"
#include "run/streamtable.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace wb {

/// One request ready for QUIC: its fields (the HTTP/2 rules: RFC 9114 4.2) and body.
struct Http3RequestEntry
{
    Http2Fields fields;
    std::string body;
    QuicRequest request; ///< views into fields and body: the entry must not move once built
    void build(const RequestSpec& spec);
};

/// One stream slot of a session: a request in flight, or free (id -1).
struct Http3Stream
{
    InFlightRequest request;
    int64_t id = -1;
    int status = 0;
    bool ended = false; ///< the whole response arrived
    bool cancelled = false; ///< timed out (or left by a GOAWAY): cancelled by us, no longer counted
    uint64_t firstByteUs = 0;
    std::unique_ptr<Http3RequestEntry> built; ///< a request built for this send (null: an entry of the table)

    bool taken() const { return id >= 0; }
    bool inFlight() const { return id >= 0 && !cancelled; }
};

/// What every HTTP/3 session of a worker shares.
class Http3Requests
{
public:
    Http3Requests(const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer);
    std::deque<Http3RequestEntry> entries; ///< a deque: entries never move (their views point into them)
    ResponseObserver* observer = nullptr;
    uint32_t streams = 1;
    std::string serverName;
    QuicOptions options;
    std::shared_ptr<QuicTlsContext> tls; ///< null when the credentials could not be loaded (tlsError says why)
    std::string tlsError;
    std::vector<char> sendBuffer; ///< one batch of datagrams, shared: a batch is sent before the next is made
    uint32_t lowestServerLimit = 0; ///< the lowest initial_max_streams_bidi below `streams` (0 = never lower)
    QuicSummary summary; ///< handshakes, ends, version (loss counts are added from the sessions at the end)
};

class Http3Session final : public ClientSession, private QuicStreamEvents
{
public:
    Http3Session(Http3Requests& requests, Http3Stream* slots, ResponseCapture* captures);
    Http3Session(const Http3Session&) = delete;
    Http3Session& operator=(const Http3Session&) = delete;

    void onConnected() override { }
    void reset() override;
    Status onDatagramOpened(const sockaddr* local, socklen_t localLength, const sockaddr* remote,
        socklen_t remoteLength, uint64_t nowUs) override;
    bool ready() const override { return m_quic.handshakeDone() && !m_quic.ended(); }

    uint32_t capacity() const override;
    void submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick) override;

    std::span<const char> pendingOutput() override { return {}; }
    std::span<const char> onWritten(size_t) override { return {}; }
    std::span<const char> nextDatagrams(uint64_t nowUs, size_t& segmentBytes) override;
    std::span<const char> closingDatagrams(uint64_t nowUs) override;

    SessionResult onRead(const char* data, size_t length, CompletionHandler& handler) override;
    SessionResult onEof(CompletionHandler&) override { return SessionResult::Truncated; }
    uint64_t nextTimerUs() const override { return m_quic.expiryUs(); }
    SessionResult onTimer(uint64_t nowUs, CompletionHandler& handler) override;
    void onTransportError(const std::string& reason) override;
    SessionFailure failure() const override { return m_failure; }

    uint32_t inFlight() const override { return m_streams.inFlight(); }
    InFlightRequest oldestInFlight() const override;
    Expiry expire(uint64_t nowUs, uint64_t timeoutUs) override;
    void forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const override;

    /// Loss counts of this session's connections so far.
    QuicFacts facts() const { return m_quic.facts(); }
    const QuicConnection& connection() const { return m_quic; }

private:
    // QuicStreamEvents
    void onStatus(void* stream, int status) override;
    void onField(void* stream, std::string_view name, std::string_view value) override;
    void onBody(void* stream, const uint8_t* data, size_t length) override;
    void onResponseEnd(void* stream) override;
    void onStreamClose(void* stream, uint64_t appError) override;
    void onGoaway(int64_t firstUnprocessed) override;
    std::string_view bodyOf(void* stream) override;

    /// Hands the completions of the last call into QUIC to the worker; then what became of it.
    SessionResult settle(bool alive, CompletionHandler& handler);
    SessionResult ended();
    void noteHandshake();
    void leaveUnprocessed();
    const Http3RequestEntry& entryOf(const Http3Stream& slot) const
    {
        return slot.built ? *slot.built : m_requests->entries[slot.request.entry];
    }

    Http3Requests* m_requests;
    StreamTable<Http3Stream> m_streams;
    QuicConnection m_quic;
    std::vector<Completion> m_done; ///< completions of the current call, handed over after the library returned
    std::vector<Completion> m_dispatching;
    SessionFailure m_failure;
    bool m_holdOutput = false; ///< while completions are handed over: their requests leave in one batch
    bool m_goaway = false;
    int64_t m_goawayFrom = INT64_MAX; ///< a GOAWAY's first unprocessed stream, until acted on
    bool m_handshakeNoted = false;
    bool m_endNoted = false;
    uint64_t m_readAtUs = 0;
};

/// The sessions of one worker and their stream slots.
class Http3SessionPool final : public SessionPool
{
public:
    Http3SessionPool(
        const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer, size_t sessions);
    ClientSession& session(size_t i) override { return m_sessions[i]; }
    size_t size() const override { return m_sessions.size(); }
    uint32_t serverStreamLimit() const override { return m_requests.lowestServerLimit; }
    /// What the worker's connections learnt about QUIC, loss counts included.
    QuicSummary quicSummary() const override;

private:
    Http3Requests m_requests;
    StreamSlots<Http3Stream> m_slots;
    std::deque<Http3Session> m_sessions;
};

} // namespace wb
