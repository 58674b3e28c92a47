#pragma once
// The protocol seam of a worker (docs/ARCHITECTURE.md, "The protocol seam"): one ClientSession per connection speaks
// the wire protocol (made by the run's ProtocolDriver); the worker owns everything else (sockets, epoll, time keeping,
// the open-model schedule, timeouts, statistics). The session tells the worker through a CompletionHandler each time a
// request got its response. Nothing here assumes that responses come in order, that every frame is a request, or that
// the output is a slice of a pre-built batch; calls are per read, per write or per response, never per byte.

#include "common/result.h"
#include "run/requestsource.h"
#include "run/responseobserver.h"
#include "stats/counters.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <sys/socket.h>

namespace wb {

/// Due and send times of one request in flight.
struct InFlightRequest
{
    uint64_t dueUs = 0; ///< when the schedule wanted it sent (closed loop: = sentUs)
    uint64_t sentUs = 0; ///< when it was handed to the session for sending
    uint16_t entry = 0; ///< which request of the run's mix (0 without a mix)
    bool head = false; ///< HTTP/1.1: a HEAD request, its response has no body (set by the session)
};

/// One request that got its response.
struct Completion
{
    InFlightRequest request;
    int status = 0; ///< the response's status code (0 when reset)
    bool closing = false; ///< the connection cannot carry another request after this response
    bool reset = false; ///< HTTP/2, HTTP/3: the server reset the stream: no response, the connection goes on
    uint64_t firstByteUs = 0; ///< when the read began that brought the response's first byte (0 when reset)
    ResponseNote note = {}; ///< what the response observer noted (its defaults when none is set)
};

/// Receives completions while the session parses. It may call back into the
/// session (submit, write). Returns false when it closed or replaced the
/// connection: the session has been reset and must return Stopped at once.
class CompletionHandler
{
public:
    virtual bool onCompletion(const Completion& completion) = 0;

protected:
    ~CompletionHandler() = default;
};

/// What became of the input handed to a session.
enum class SessionResult : uint8_t {
    Ok, ///< everything was consumed; the connection goes on (or, after end of file, closes cleanly)
    OkWithOutput, ///< as Ok, and reading made output of the session's own (HTTP/2: SETTINGS ack, PING reply)
    Stopped, ///< the completion handler closed or replaced the connection: touch nothing more
    ProtocolError, ///< the peer's bytes are not the protocol (or answer nothing that was asked)
    Truncated, ///< end of file while requests were in flight: they will never complete
    Finished, ///< the server ended the session gracefully (HTTP/2 GOAWAY) and nothing is left in flight: reconnect
};

/// Why a datagram session's connection ended with requests lost (after ProtocolError or Truncated):
/// the error kind they count as, and one sentence.
struct SessionFailure
{
    uint64_t ErrorCounts::*kind = &ErrorCounts::parse;
    std::string reason;
};

/// Requests that timed out in ClientSession::expire().
struct Expiry
{
    uint32_t timedOut = 0; ///< requests given up (each counts as a timeout)
    bool closeConnection = false; ///< the connection is unusable (HTTP/1.1: the answers queue behind them)
};

class ClientSession
{
public:
    virtual ~ClientSession() = default;

    /// A new transport is ready (TCP connected, TLS handshake done). Forgets the
    /// previous connection's state; may queue output of its own (e.g. a preface).
    virtual void onConnected() = 0;
    /// The connection is gone: everything in flight is forgotten.
    virtual void reset() = 0;

    /// How many more requests the session takes now. The open model submits only
    /// while the session has no output pending: a request queued behind a blocked
    /// write would carry a send time that is not when it went out.
    virtual uint32_t capacity() const = 0;
    /// Queues one request (what the worker's RequestSource picked: an entry of the table
    /// the session serialised before the run, or a request built for this send); its bytes
    /// become pending output. At most capacity() of them.
    virtual void submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick) = 0;

    /// Bytes the session wants written, or an empty span.
    virtual std::span<const char> pendingOutput() = 0;
    /// The first n bytes of pendingOutput() went to the transport; returns what is left to write.
    virtual std::span<const char> onWritten(size_t n) = 0;
    bool hasOutput() { return !pendingOutput().empty(); }

    /// Feeds bytes read from the transport (the buffer is shared: nothing may
    /// point into it after the call). Completions go to the handler as they end;
    /// output the handler submits is the worker's to write, so it is no reason for OkWithOutput.
    virtual SessionResult onRead(const char* data, size_t length, CompletionHandler& handler) = 0;
    /// The peer closed the connection: completes a response delimited by the close.
    virtual SessionResult onEof(CompletionHandler& handler) = 0;

    /// We close a stream connection that is fine, on purpose (churn, a ramp going down), with
    /// nothing in flight: the bytes that tell the server first (HTTP/2: GOAWAY(NO_ERROR)); empty
    /// when the close says it (HTTP/1.1). Written best effort, just before the close.
    virtual std::span<const char> farewell() { return {}; }

    /// Requests sent whose responses are pending.
    virtual uint32_t inFlight() const = 0;
    /// The in-flight request sent first (all zero when none): what the bytes just read belong to.
    virtual InFlightRequest oldestInFlight() const = 0;
    /// Gives up the requests sent more than timeoutUs before nowUs.
    virtual Expiry expire(uint64_t nowUs, uint64_t timeoutUs) = 0;
    /// Every request in flight (the open model's drain counts those never answered).
    virtual void forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const = 0;

    // Timers of the session's own, for datagram transports (net/transport.h: QUIC's loss
    // detection, acknowledgement delay and idle timeout live in the QUIC library). A stream
    // session has none; the worker asks only when the run's driver says TransportKind::Datagram.

    /// When the session must run next without input (monotonic µs); UINT64_MAX = never. Asked
    /// again after every call into the session.
    virtual uint64_t nextTimerUs() const { return UINT64_MAX; }
    /// That time came: the session runs its timers (may make output, complete or give up
    /// requests; results as for onRead).
    virtual SessionResult onTimer(uint64_t /*nowUs*/, CompletionHandler& /*handler*/) { return SessionResult::Ok; }

    // A datagram session owns its handshake (QUIC's TLS is inside it) and makes its datagrams
    // when the worker sends: none of it is "pending output" (pendingOutput() stays empty), so
    // asking whether a write is pending never makes packets that nobody sends.

    /// A new connected UDP socket (its two ends: QUIC's path): the handshake starts, its first
    /// datagrams are ready for nextDatagrams(). An error is one sentence.
    virtual Status onDatagramOpened(const sockaddr* /*local*/, socklen_t /*localLength*/, const sockaddr* /*remote*/,
        socklen_t /*remoteLength*/, uint64_t /*nowUs*/)
    {
        return Error { "not a datagram session" };
    }
    /// The handshake is done: requests may be submitted (a stream session's transport did it).
    virtual bool ready() const { return true; }
    /// The next batch of datagrams to send, each segmentBytes long but the last; empty: none now.
    /// The span is valid until the next call into the session.
    virtual std::span<const char> nextDatagrams(uint64_t /*nowUs*/, size_t& segmentBytes)
    {
        segmentBytes = 0;
        return {};
    }
    /// We close a connection that is fine (the run ended, a ramp closed it): the datagrams that
    /// tell the server (QUIC's CONNECTION_CLOSE; a stream transport's close says it itself).
    /// Empty when there is nothing to say. Valid until the next call into the session.
    virtual std::span<const char> closingDatagrams(uint64_t /*nowUs*/) { return {}; }
    /// The socket failed (ECONNREFUSED: nothing listens); the session ends with that reason.
    virtual void onTransportError(const std::string& /*reason*/) { }
    /// After ProtocolError or Truncated from a datagram session: what happened.
    virtual SessionFailure failure() const { return {}; }
};

} // namespace wb
