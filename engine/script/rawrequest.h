#pragma once
// What a Lua request() returns, back in C++: one or more HTTP/1.1 requests as
// wire text (wrk.format's output, or anything a script wrote by hand). wrk
// writes the string as it is; wrkbench parses it into RequestSpecs so that one
// string can be sent over HTTP/1.1 or HTTP/2 (--http2) alike.

#include "common/result.h"
#include "http/request.h"

#include <string_view>
#include <vector>

namespace wb {

/// Parses `text` as requests back to back (several: wrk pipelines them). Each takes
/// its body from Content-Length (none without it); `base` gives the scheme, host and
/// port of the run. The error names what is wrong and where ("request 2: no request line").
Result<std::vector<RequestSpec>> parseRawRequests(std::string_view text, const Url& base);

/// One request of a request() string, in place: its bytes are text.substr(offset, length).
struct RawRequestView
{
    size_t offset = 0;
    size_t length = 0;
    bool head = false; ///< its response has no body (HEAD)
};

/// The fast path of a script's HTTP/1.1 requests: whether `text` can go on the wire as it is,
/// checked by the same rules as parseRawRequests and checkRequestSpec but without building
/// anything (each call reuses `out`'s capacity). True, with each request's place in `out`,
/// only when sending the text as it is sends what parseRawRequests + buildRequest would: every
/// line ends in CRLF and every request names its Host. False otherwise, and then
/// parseRawRequests says what is wrong, or builds what is sent.
bool scanWireRequests(std::string_view text, std::vector<RawRequestView>& out);

} // namespace wb
