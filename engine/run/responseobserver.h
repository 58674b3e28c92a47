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

#include <cstdint>
#include <span>
#include <string_view>

namespace wb {

/// One complete response as an observer sees it; the views die with the call.
struct ObservedResponse
{
    uint16_t entry = 0; ///< which request of the run it answers
    int status = 0;
    std::span<const HeaderField> headers; ///< in the order received; HTTP/2 without pseudo fields
    std::string_view body; ///< decoded from chunks; empty unless the observer wantsBody()
};

class ResponseObserver
{
public:
    virtual ~ResponseObserver() = default;
    /// Asked once, when the sessions are made: keep the bodies too (they cost a copy each).
    virtual bool wantsBody() const { return false; }
    /// A response is complete. Called from inside the session (for HTTP/2, inside
    /// nghttp2's callback): it must not call into the session or the worker.
    virtual void onResponse(const ObservedResponse& response) = 0;
};

/// Hands a session's capture to the observer and empties the capture.
inline void observeResponse(ResponseObserver& observer, ResponseCapture& capture, uint16_t entry, int status)
{
    capture.splitFields();
    observer.onResponse({ entry, status, capture.fields, capture.body });
    capture.clear();
}

} // namespace wb
