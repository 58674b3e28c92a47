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

} // namespace wb
