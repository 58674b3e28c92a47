#pragma once
// The one set of rules for what a request may carry, wherever it came from: the
// CLI's -H and -X, a request mix, a configuration read from a stored run, a pod's
// ConfigMap or an agent's network. Whatever passes is sent as it is, so a byte
// that would end a header line, a method that is a whole request line, or a
// Content-Length that disagrees with the body would smuggle a request of the
// sender's choosing to the target (or, through a proxy, to another host).

#include "common/result.h"
#include "http/request.h"

#include <cstdint>
#include <string_view>

namespace wb {

/// The largest body a request may carry (as a request mix's body files).
inline constexpr uint64_t MAX_REQUEST_BODY_BYTES = 100ull * 1024 * 1024;

/// A header name: 1 to 256 bytes of the RFC 9110 token set (no ':', space or control byte).
Status checkHeaderName(std::string_view name);
/// A header value: no CR, LF, NUL or other control byte but HTAB (RFC 9110 field-value;
/// bytes >= 0x80 pass, bytes are bytes), at most 64 KiB.
Status checkHeaderValue(std::string_view value);
/// A method: 1 to 32 upper-case letters (GET, POST, PROPFIND...), never a request line.
Status checkMethod(std::string_view method);
/// A request target in origin form: '/' then visible ASCII only, at most 64 KiB.
Status checkRequestTarget(std::string_view target);
/// The whole request: method, target, host, every header, the body's size, and framing
/// headers that agree with the body (a given Content-Length equals its size; no
/// Transfer-Encoding, because the body is sent as it is, never chunked).
Status checkRequestSpec(const RequestSpec& request);

} // namespace wb
