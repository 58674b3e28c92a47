#pragma once
// The pre-run check of an HTTP/2 target: on one connected socket (after the
// TLS handshake, if any), send the connection preface and our SETTINGS and
// wait for the server's SETTINGS. A server that answers with HTTP/1.1, closes,
// sends something that is not HTTP/2, or stays silent is refused here, with
// one sentence, before any load.

#include "common/result.h"
#include "run/runconfig.h"

#include <cstdint>

namespace wb {

class TlsTransport;

struct Http2Hello
{
    uint32_t maxConcurrentStreams = UINT32_MAX; ///< the server's SETTINGS_MAX_CONCURRENT_STREAMS (unlimited if absent)
};

/// fd: connected, non-blocking; tls: the finished handshake on it, or null for h2c.
Result<Http2Hello> exchangeHttp2Settings(const RunConfig& config, int fd, TlsTransport* tls, int timeoutMs);

} // namespace wb
