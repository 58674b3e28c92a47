#pragma once
// HTTP/2 behind the ClientSession seam, on libnghttp2 (h2load's design): many
// streams per connection, responses in any order. The worker hands over the
// bytes it reads (nghttp2_session_mem_recv) and writes what the session
// produces (nghttp2_session_mem_send, coalesced into one buffer, so frames
// made by one read go out in one write). No threads, no blocking calls.
//
// Requests are submitted from one header block built once per worker
// (http/http2fields.h). A stream the server resets is a `reset` completion; a
// stream refused by a GOAWAY keeps its due time and is sent again on the next
// connection; a timed-out stream is reset with RST_STREAM(CANCEL) and the
// connection kept.

#include "http/http2fields.h"
#include "http/responsecapture.h"
#include "run/clientsession.h"
#include "run/http2/http2memory.h"
#include "run/protocoldriver.h"
#include "run/responseobserver.h"
#include "run/runconfig.h"
#include "run/streamtable.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <nghttp2/nghttp2.h>
#include <string>
#include <vector>

namespace wb {

/// One request ready for nghttp2: its header block and body.
struct Http2RequestEntry
{
    Http2Fields fields;
    std::vector<nghttp2_nv> headerBlock; ///< points into `fields` (no copies per request)
    std::string body;
    /// Built in place (headerBlock points into fields: the entry must not move afterwards).
    void build(const RequestSpec& request);
};

/// One stream slot of a session: a request in flight, or free (id 0).
struct Http2Stream
{
    InFlightRequest request;
    int32_t id = 0; ///< nghttp2's stream id; 0 = free
    int status = 0; ///< :status of the response, once its headers arrived
    uint32_t bodySent = 0; ///< request body bytes handed to nghttp2
    bool cancelled = false; ///< timed out: reset by us, no longer counted
    uint64_t firstByteUs = 0; ///< when the read began that brought the response's HEADERS (0 = none yet)
    std::unique_ptr<Http2RequestEntry> built; ///< a request built for this send (null: an entry of the table)

    bool taken() const { return id != 0; }
    bool inFlight() const { return id != 0 && !cancelled; }
};

/// What every HTTP/2 session of a worker shares: the request, the settings, the callbacks.
class Http2Requests
{
public:
    /// table: the requests of the worker's RequestSource; observer: sees every response (or null).
    Http2Requests(const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer);
    ~Http2Requests();
    Http2Requests(const Http2Requests&) = delete;
    Http2Requests& operator=(const Http2Requests&) = delete;

    /// One request of the run (a mix has several).
    using Entry = Http2RequestEntry;
    std::vector<Entry> entries; ///< never moved once built: headerBlock points into it
    ResponseObserver* observer = nullptr; ///< sees each response (null: no field is kept)
    /// The fields of the first request (warnings about dropped headers read them).
    const Http2Fields& fields() const { return entries.front().fields; }
    uint32_t streams = 1; ///< wanted per connection
    int32_t streamWindow = 0; ///< SETTINGS_INITIAL_WINDOW_SIZE we send
    int32_t connectionWindow = 0;
    uint32_t headerTableBytes = 0; ///< SETTINGS_HEADER_TABLE_SIZE we send
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_option* options = nullptr;
    Http2SessionMemory memory; ///< the sessions' allocator: one frame buffer for all of them
    /// The lowest SETTINGS_MAX_CONCURRENT_STREAMS a server sent below `streams` (0 = never lower).
    uint32_t lowestServerLimit = 0;
};

class Http2Session final : public ClientSession
{
public:
    /// The ALPN protocol id this session speaks.
    static constexpr const char* ALPN = "h2";

    /// slots: `requests.streams` slots owned by the caller, for this session alone; captures:
    /// as many, parallel to them, when the requests are observed (else null).
    Http2Session(Http2Requests& requests, Http2Stream* slots, ResponseCapture* captures = nullptr);
    ~Http2Session() override;
    Http2Session(const Http2Session&) = delete;
    Http2Session& operator=(const Http2Session&) = delete;

    void onConnected() override;
    void reset() override;

    uint32_t capacity() const override;
    void submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick) override;

    std::span<const char> pendingOutput() override;
    std::span<const char> onWritten(size_t n) override;

    SessionResult onRead(const char* data, size_t length, CompletionHandler& handler) override;
    SessionResult onEof(CompletionHandler& handler) override;

    uint32_t inFlight() const override { return m_streams.inFlight(); }
    InFlightRequest oldestInFlight() const override;
    Expiry expire(uint64_t nowUs, uint64_t timeoutUs) override;
    void forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const override;

    /// The server's SETTINGS arrived (the session is HTTP/2 for sure).
    bool settingsReceived() const { return m_settingsReceived; }
    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS (once settingsReceived()).
    uint32_t serverLimit() const { return m_serverLimit; }
    /// The server answered the connection preface with HTTP/1.x.
    bool answeredWithHttp1() const { return m_http1Answer; }
    SessionFailure failure() const override;

    // nghttp2's callbacks (C functions in the .cpp) land here.
    /// A field of a response, while observed. trailer: a header block after the body (kept from
    /// observers, like HTTP/1.1's trailers).
    void onHeader(int32_t streamId, const uint8_t* name, size_t nameLength, const uint8_t* value, size_t valueLength,
        bool trailer);
    /// The :status field (value: its 3 digits); slot: the stream's, when the caller found it already.
    void onStatus(int32_t streamId, const uint8_t* value, Http2Stream* slot);
    /// Body bytes of a stream (called only while an observer wants bodies).
    void onData(int32_t streamId, const uint8_t* data, size_t length);
    void onFrame(const nghttp2_frame& frame);
    void onStreamClose(int32_t streamId, uint32_t errorCode);
    /// We sent a GOAWAY with an error: the server broke the protocol, the connection is done.
    void onConnectionError(uint32_t errorCode)
    {
        m_failed = true;
        m_errorCode = errorCode;
    }
    ssize_t readBody(int32_t streamId, uint8_t* buffer, size_t length, uint32_t* flags);

private:
    Http2Stream* slotOf(int32_t streamId) const;
    void send(Http2Stream& slot);
    const Http2RequestEntry& entryOf(const Http2Stream& slot) const
    {
        return slot.built ? *slot.built : m_requests->entries[slot.request.entry];
    }

    Http2Requests* m_requests;
    StreamTable<Http2Stream> m_streams;
    nghttp2_session* m_session = nullptr;
    uint32_t m_serverLimit = 0; ///< the server's SETTINGS_MAX_CONCURRENT_STREAMS (nghttp2's 100 until they arrive)
    std::string m_output; ///< frames to write, from m_outputOffset
    size_t m_outputOffset = 0;
    std::vector<Completion> m_done; ///< completions of the current read, handed over after nghttp2 returns
    std::vector<Completion> m_dispatching;
    bool m_holdOutput = false; ///< while completions are handed over: their requests go out in one write
    bool m_goaway = false;
    bool m_settingsReceived = false;
    bool m_http1Answer = false;
    uint32_t m_errorCode = 0; ///< the error code of the GOAWAY libnghttp2 sent (0: none)
    bool m_failed = false; ///< nghttp2 failed (out of stream ids, memory): the connection is unusable
    bool m_receivedAny = false;
    uint64_t m_readAtUs = 0; ///< the current read's clock, taken when a response first needs it (0 = not yet)
};

/// The sessions of one worker and their stream slots.
class Http2SessionPool final : public SessionPool
{
public:
    Http2SessionPool(
        const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer, size_t sessions);
    Http2Session& operator[](size_t i) { return m_sessions[i]; }
    ClientSession& session(size_t i) override { return m_sessions[i]; }
    size_t size() const override { return m_sessions.size(); }
    uint32_t lowestServerLimit() const { return m_requests.lowestServerLimit; }
    uint32_t serverStreamLimit() const override { return m_requests.lowestServerLimit; }
    const Http2Fields& fields() const { return m_requests.fields(); }

private:
    Http2Requests m_requests;
    StreamSlots<Http2Stream> m_slots;
    std::deque<Http2Session> m_sessions; ///< a deque: sessions are neither copied nor moved
};

} // namespace wb
