#pragma once
// HTTP/1.1 behind the ClientSession seam: pipelining, responses in order.
// A session is small (no buffer of its own): its output is a slice of the
// pre-built batch all sessions of a worker share, its requests in flight sit
// in a ring slice handed to it by Http1SessionPool, and responses are parsed
// straight from the worker's shared read buffer.

#include "http/request.h"
#include "http/responsecapture.h"
#include "http/responseparser.h"
#include "run/clientsession.h"
#include "run/protocoldriver.h"
#include "run/responseobserver.h"

#include <string>
#include <vector>

namespace wb {

/// What every HTTP/1.1 session of a worker reads: the request bytes and how to pipeline.
struct Http1Requests
{
    std::string batch; ///< `depth` + 1 copies of the serialised request: any run of them is one write
    size_t requestBytes = 0; ///< length of one request in batch
    uint32_t depth = 1; ///< requests in flight per connection (--pipeline)
    bool responseToHead = false; ///< HEAD responses carry no body
    /// Closed loop (wrk): a batch of `depth` goes out when every response of the previous one
    /// has arrived. Open model: a request goes out whenever one is due and a slot is free.
    bool batchWhenIdle = true;
    /// A request mix: every entry serialised once. A session writes an entry straight from
    /// here when it is all there is to send (one request in flight: no copy), and copies the
    /// entries it pipelines behind each other into its own buffer. Empty without a mix.
    std::vector<std::string> entries;
    /// Requests built per send (RequestPick::built) are serialised into a session's own buffer
    /// like pipelined mix entries; a source that builds them always gets `entries`.
    std::vector<uint8_t> entryIsHead; ///< per entry: a HEAD request (its response has no body)
    bool mixed() const { return !entries.empty(); }
    ResponseObserver* observer = nullptr; ///< sees each response (null: nothing is kept)

    /// One request (the batch), or entries when `requests` has more than one or when
    /// requests are built per send.
    static Http1Requests build(
        const std::vector<RequestSpec>& requests, uint32_t depth, bool closedLoop, bool buildsPerSend = false);
};

class Http1Session final : public ClientSession
{
public:
    /// The ALPN protocol id this session speaks.
    static constexpr const char* ALPN = "http/1.1";

    /// ring: `requests.depth` slots owned by the caller, for this session alone.
    Http1Session(const Http1Requests& requests, InFlightRequest* ring)
        : m_requests(&requests)
        , m_ring(ring)
    { }

    /// Keeps each response's fields (and body, if capture.wantBody) in capture and hands them
    /// to the requests' observer. Set by the pool, only while observed.
    void observeInto(ResponseCapture* capture) { m_parser.setCapture(capture); }

    void onConnected() override;
    void reset() override;

    uint32_t capacity() const override;
    void submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick) override;

    std::span<const char> pendingOutput() override
    {
        if (!m_requests->mixed()) return { m_requests->batch.data() + m_writeOffset, m_writeTarget - m_writeOffset };
        const std::string& out = m_view ? *m_view : m_mixOutput;
        return { out.data() + m_writeOffset, out.size() - m_writeOffset };
    }
    std::span<const char> onWritten(size_t n) override;

    SessionResult onRead(const char* data, size_t length, CompletionHandler& handler) override;
    SessionResult onEof(CompletionHandler& handler) override;

    uint32_t inFlight() const override { return m_inFlight; }
    InFlightRequest oldestInFlight() const override { return m_inFlight > 0 ? m_ring[m_ringHead] : InFlightRequest {}; }
    Expiry expire(uint64_t nowUs, uint64_t timeoutUs) override;
    void forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const override;
    SessionFailure failure() const override;

private:
    /// The response at the head of the ring ended: hands it over, oldest request first.
    bool complete(CompletionHandler& handler);
    /// Whether the response now awaited (the ring's head) answers a HEAD request.
    bool headAwaitsNoBody() const;
    void submitMixed(const RequestPick& pick);
    void appendOutput(const std::string& bytes);

    const Http1Requests* m_requests;
    InFlightRequest* m_ring; ///< requests in flight, oldest at m_ringHead
    uint32_t m_inFlight = 0; ///< requests submitted whose responses are pending
    uint32_t m_ringHead = 0;
    // Pending output is batch[m_writeOffset, m_writeTarget), m_writeOffset inside the first copy.
    // The requests not yet written whole are at most those in flight and one answered early
    // (its server read its head and answered before its body was all sent); capacity() keeps
    // the slice inside the batch's `depth` + 1 identical copies even when a server lies.
    size_t m_writeOffset = 0;
    size_t m_writeTarget = 0;
    uint64_t m_firstByteUs = 0; ///< when the read began that brought the current response's first byte
    // A mix: pending output is m_view[m_writeOffset..] (one entry, not copied) or
    // m_mixOutput[m_writeOffset..] (requests pipelined behind each other).
    const std::string* m_view = nullptr;
    std::string m_mixOutput;
    ResponseParser m_parser; ///< its capture (set while observed) is this session's slot in the pool
};

/// The sessions of one worker and their ring slices, in two allocations.
class Http1SessionPool final : public SessionPool
{
public:
    /// captures: when requests.observer is set, each session keeps its response in one of its own.
    Http1SessionPool(Http1Requests requests, size_t sessions);
    Http1SessionPool(const Http1SessionPool&) = delete;
    Http1SessionPool& operator=(const Http1SessionPool&) = delete;

    Http1Session& operator[](size_t i) { return m_sessions[i]; }
    ClientSession& session(size_t i) override { return m_sessions[i]; }
    size_t size() const override { return m_sessions.size(); }

private:
    Http1Requests m_requests;
    std::vector<InFlightRequest> m_ring;
    std::vector<ResponseCapture> m_captures; ///< one per session while observed, else empty
    std::vector<Http1Session> m_sessions;
};

} // namespace wb
