#pragma once
// HTTP/2 behind the ClientSession seam with a framing layer of our own: what a load generator sends and receives, and
// nothing else. libnghttp2's general session (http2session.h, kept as the reference) costs a load generator a stream
// map, two HPACK contexts, priority bookkeeping and ~10 KB a connection for streams it never serves. Here each
// request's header block is HPACK-encoded once per run (valid on every stream), and responses are read frame by frame
// from the worker's buffer, header blocks through libnghttp2's own HPACK inflater. Errors are treated as libnghttp2's
// session treats them: a framing or flow-control breach ends the connection (GOAWAY), a malformed response resets its
// stream, unknown frame types are ignored (RFC 9113 5.5). The rules in full: docs/ARCHITECTURE.md, "The protocol seam".

#include "http/hpackblock.h"
#include "http/http2fields.h"
#include "http/responsecapture.h"
#include "run/clientsession.h"
#include "run/protocoldriver.h"
#include "run/responseobserver.h"
#include "run/runconfig.h"
#include "run/streamtable.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

struct nghttp2_hd_inflater;

namespace wb {

/// One request of the run, ready to send: its header block and body.
struct Http2FrameEntry
{
    Http2Fields fields;
    std::string headerBlock; ///< HPACK, encoded once (valid on any connection)
    HpackIndexedBlocks indexed; ///< the pair through the dynamic table (a run of this one request only)
    std::string body;
    bool head = false; ///< a HEAD request: its response's content-length has no body behind it
    void build(const RequestSpec& request);
};

/// One stream slot of a session: a request in flight, or free (id 0).
struct Http2FrameStream
{
    InFlightRequest request;
    int32_t id = 0; ///< 0 = free
    int status = 0; ///< :status of the response, once its headers arrived
    int64_t sendWindow = 0; ///< what the server's flow control lets us send on this stream
    uint32_t bodySent = 0; ///< request body bytes written
    uint32_t receivedUnacknowledged = 0; ///< DATA bytes received since our last WINDOW_UPDATE for the stream
    int64_t contentLength = -1; ///< the response's content-length (-1: none)
    uint64_t dataBytes = 0; ///< response body bytes received
    uint64_t firstByteUs = 0; ///< when the read began that brought the response's HEADERS (0 = none yet)
    bool finalHeaders = false; ///< a final (non-1xx) header block arrived; another one is a trailer
    std::unique_ptr<Http2FrameEntry> built; ///< a request built for this send (null: an entry of the table)

    bool taken() const { return id != 0; }
    /// A stream given up is closed at once (its later frames are dropped), so every taken one is in flight.
    bool inFlight() const { return id != 0; }
};

/// What every session of a worker shares: the requests, the settings, the preamble.
class Http2FrameRequests
{
public:
    Http2FrameRequests(const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer);

    std::vector<Http2FrameEntry> entries;
    ResponseObserver* observer = nullptr; ///< sees each response (null: no field is kept)
    uint32_t streams = 1; ///< wanted per connection
    uint32_t streamWindow = 0; ///< SETTINGS_INITIAL_WINDOW_SIZE we send
    uint32_t connectionWindow = 0;
    uint32_t headerTableBytes = 0; ///< SETTINGS_HEADER_TABLE_SIZE we send
    /// One request for the whole run, its fields fit the server's default table: its first send on a
    /// connection adds them to the server's table, the others name them by index.
    bool indexedBlocks = false;
    std::string preamble; ///< connection preface, our SETTINGS and the connection window's WINDOW_UPDATE
    /// The lowest SETTINGS_MAX_CONCURRENT_STREAMS a server sent below `streams` (0 = never lower).
    uint32_t lowestServerLimit = 0;
    /// Connections whose server did not start its first header block after our smaller
    /// SETTINGS_HEADER_TABLE_SIZE with a table size update: decoded with HPACK's 4,096 bytes.
    uint64_t tableSizeUpdatesMissing = 0;
};

class Http2FrameSession final : public ClientSession
{
public:
    Http2FrameSession(Http2FrameRequests& requests, Http2FrameStream* slots, ResponseCapture* captures = nullptr);
    ~Http2FrameSession() override;
    Http2FrameSession(const Http2FrameSession&) = delete;
    Http2FrameSession& operator=(const Http2FrameSession&) = delete;

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

    bool settingsReceived() const { return m_settingsReceived; }
    uint32_t serverLimit() const { return m_serverLimit; }
    bool answeredWithHttp1() const { return m_http1Answer; }
    SessionFailure failure() const override;
    std::span<const char> farewell() override;

private:
    /// Every complete frame of the input; false after a connection error.
    bool consume(const uint8_t* data, size_t length);
    bool onFrame(const uint8_t* frame);
    bool onData(const uint8_t* payload, uint32_t length, uint8_t flags, int32_t streamId);
    bool onHeaders(const uint8_t* payload, uint32_t length, uint8_t flags, int32_t streamId);
    bool onContinuation(const uint8_t* payload, uint32_t length, uint8_t flags, int32_t streamId);
    bool onSettings(const uint8_t* payload, uint32_t length, uint8_t flags);
    bool onWindowUpdate(const uint8_t* payload, uint32_t length, int32_t streamId);
    void onGoaway(int32_t lastStreamId);
    void onReset(int32_t streamId, uint32_t errorCode);
    /// A whole header block of a stream (after CONTINUATION, if any).
    bool decodeBlock(int32_t streamId, const uint8_t* block, size_t length, bool endStream);
    bool connectionError(uint32_t errorCode);
    void streamError(Http2FrameStream& slot, uint32_t errorCode);
    /// The response counts: a completion with its status (and the observer's note).
    void succeed(Http2FrameStream& slot);
    void writeReset(int32_t streamId, uint32_t errorCode);
    void writeWindowUpdate(int32_t streamId, uint32_t increment);
    /// The response ended (END_STREAM): a completion, or a stream error when it is malformed.
    void complete(Http2FrameStream& slot);
    /// Writes as much of the slot's request body as the flow-control windows allow.
    void sendBody(Http2FrameStream& slot);
    void sendBlockedBodies();
    void writeControl(uint8_t type, uint8_t flags, int32_t streamId, const void* payload, uint32_t length);
    /// A stream id of ours that is open; null for a closed or never opened one.
    Http2FrameStream* slotOf(int32_t streamId) const { return m_streams.find(streamId); }
    /// Whether the server may name this stream: one we opened (open or closed since).
    bool opened(int32_t streamId) const { return (streamId & 1) && streamId < m_nextStreamId; }
    const Http2FrameEntry& entryOf(const Http2FrameStream& slot) const
    {
        return slot.built ? *slot.built : m_requests->entries[slot.request.entry];
    }

    Http2FrameRequests* m_requests;
    StreamTable<Http2FrameStream> m_streams;
    nghttp2_hd_inflater* m_inflater = nullptr; ///< made at the first header block of a connection
    std::string m_output; ///< frames to write, from m_outputOffset
    size_t m_outputOffset = 0;
    std::string m_partial; ///< the start of a frame the last read cut off
    std::string m_block; ///< a header block continued in CONTINUATION frames
    int32_t m_blockStream = 0; ///< the stream m_block belongs to (0: no block open)
    bool m_blockEndStream = false;
    int32_t m_nextStreamId = 1;
    int64_t m_connectionSendWindow = 0;
    int64_t m_peerStreamWindow = 0; ///< the server's SETTINGS_INITIAL_WINDOW_SIZE
    uint32_t m_peerMaxFrameBytes = 0;
    uint32_t m_connectionReceived = 0; ///< DATA bytes received since our last connection WINDOW_UPDATE
    uint32_t m_serverLimit = 0; ///< the server's SETTINGS_MAX_CONCURRENT_STREAMS (100 until they arrive)
    uint32_t m_controlQueued = 0; ///< acknowledgements and resets queued since the output was last empty
    std::vector<Completion> m_done; ///< completions of the current read, handed over after it
    std::vector<Completion> m_dispatching;
    bool m_connected = false;
    bool m_holdOutput = false; ///< while completions are handed over: their requests go out in one write
    bool m_goaway = false;
    bool m_settingsReceived = false;
    /// Our table is below HPACK's default and acknowledged: the next header block shows whether the
    /// server shrank its table (a table size update first) or kept the default.
    bool m_tableSizeUpdateDue = false;
    bool m_http1Answer = false;
    bool m_failed = false; ///< a connection error: the connection is unusable
    uint8_t m_frameType = 0; ///< the type of the frame being read (what a connection error names)
    uint32_t m_errorCode = 0; ///< the connection error we sent in GOAWAY (0: none, or a flood)
    bool m_receivedAny = false;
    bool m_bodiesBlocked = false; ///< a request body waits for a window
    bool m_tableLoaded = false; ///< the indexed pair's first block went out on this connection
    bool m_tableSizeUpdate = false; ///< the next block starts with a table size update to 0 (RFC 7541 4.2)
    /// The server's SETTINGS_HEADER_TABLE_SIZE (4,096 until it says); below that, static blocks only.
    uint32_t m_serverTableBytes = 0;
    uint64_t m_readAtUs = 0; ///< the current read's clock, taken when a response first needs it (0 = not yet)
};

/// The sessions of one worker and their stream slots.
class Http2FrameSessionPool final : public SessionPool
{
public:
    Http2FrameSessionPool(
        const RunConfig& config, const std::vector<RequestSpec>& table, ResponseObserver* observer, size_t sessions);
    Http2FrameSession& operator[](size_t i) { return m_sessions[i]; }
    ClientSession& session(size_t i) override { return m_sessions[i]; }
    size_t size() const override { return m_sessions.size(); }
    uint32_t serverStreamLimit() const override { return m_requests.lowestServerLimit; }
    ConnectionFacts connectionFacts() const override { return { {}, m_requests.tableSizeUpdatesMissing }; }

private:
    Http2FrameRequests m_requests;
    StreamSlots<Http2FrameStream> m_slots;
    std::deque<Http2FrameSession> m_sessions; ///< a deque: sessions are neither copied nor moved
};

} // namespace wb
