#pragma once
// Who wants to see the responses, not only count them: wrk's Lua
// `response(status, headers, body)`, "which backend answered". A worker has at
// most one observer (the caller's, per worker: its thread alone calls it).
//
// Without an observer nothing is kept: the HTTP/1.1 parser skips bodies and
// header bytes as it always did, HTTP/2 registers no body callback. With one,
// each session copies the header block (and the body, if wantsBody()) of the
// response it is reading into a ResponseCapture of its own, and hands it over
// when the response is complete, before the worker records it.

#include "http/responsecapture.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace wb {

/// One complete response as an observer sees it; the views die with the call.
struct ObservedResponse
{
    uint16_t entry = 0; ///< which request of the run it answers
    int status = 0;
    std::span<const HeaderField> headers; ///< in the order received; HTTP/2 without pseudo fields
    std::string_view body; ///< decoded from chunks; empty unless the observer wantsBody()
};

/// What the worker records beside a response, when the run asks (--backend-from,
/// --upstream-time): the observer reduces the response to this while its bytes are still
/// there, the session carries it in the Completion, the worker records it with the latency
/// (for HTTP/2 the two happen at different times, so the note travels, not the bytes).
struct ResponseNote
{
    static constexpr uint16_t NO_BACKEND = UINT16_MAX;
    uint16_t backend = NO_BACKEND; ///< index in the worker's backend name table; NO_BACKEND: none named
    bool upstreamKnown = false; ///< the response said how long its upstream took
    uint64_t upstreamUs = 0; ///< that time, when known
};

class ResponseObserver
{
public:
    virtual ~ResponseObserver() = default;
    /// Asked once, when the sessions are made: keep the bodies too (they cost a copy each).
    virtual bool wantsBody() const { return false; }
    /// With wantsBody(): at most this many bytes of each body are kept (the rest is skipped).
    virtual size_t bodyBytesWanted() const { return SIZE_MAX; }
    /// A response is complete. Called from inside the session while it reads (for
    /// the reference HTTP/2 session, inside nghttp2's callback): it must not call
    /// into the session or the worker.
    virtual void onResponse(const ObservedResponse& response) = 0;
    /// What the worker should record beside this response (called right after onResponse).
    virtual ResponseNote note(const ObservedResponse&) { return {}; }
};

/// Hands a session's capture to the observer and empties the capture; returns the observer's note.
inline ResponseNote observeResponse(ResponseObserver& observer, ResponseCapture& capture, uint16_t entry, int status)
{
    capture.splitFields();
    const ObservedResponse response { entry, status, capture.fields, capture.body };
    observer.onResponse(response);
    const ResponseNote note = observer.note(response);
    capture.clear();
    return note;
}

/// A stream-based session pool's captures: one per stream slot, as the observer wants them
/// (none without an observer: nothing is kept).
inline std::vector<ResponseCapture> capturesFor(const ResponseObserver* observer, size_t slots)
{
    std::vector<ResponseCapture> captures(observer ? slots : 0);
    for (ResponseCapture& capture : captures) {
        capture.wantBody = observer->wantsBody();
        capture.bodyLimit = observer->bodyBytesWanted();
    }
    return captures;
}

} // namespace wb
