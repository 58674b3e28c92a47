#pragma once
// The target probe: one request through libcurl, timed phase by phase (DNS,
// connect, TLS, request, first byte, body) with everything learnt on the way
// (addresses, HTTP version, ALPN, TLS, certificates, status, headers,
// redirects). Blocking and thread-safe: the CLI calls it directly, the GUI from
// a worker thread (with a cancel flag).

#include "common/result.h"
#include "http/request.h"
#include "probe/proberesult.h"
#include "run/runconfig.h" // TlsOptions only (header-only struct): the probe verifies like the engine

#include <atomic>
#include <cstdint>
#include <vector>

namespace wb {

struct ProbeOptions
{
    RequestSpec request;
    TlsOptions tls; ///< verify by default, --cacert, -k: as for a run
    uint64_t timeoutUs = 5'000'000; ///< whole request, per hop of a redirect chain
    uint64_t connectTimeoutUs = 5'000'000; ///< DNS + TCP connect + TLS handshake
    bool followRedirects = false; ///< a run never follows them, so by default neither does the probe
    unsigned maxRedirects = 10;
    /// Speak HTTP/2 as a --http2 run does: offer h2 by ALPN over https, h2c with prior
    /// knowledge over http. Off by default, as for a run: the probe sees what the run will see.
    bool allowHttp2 = false;
    /// Set from another thread to abandon the probe; it returns "cancelled"
    /// within ~20 ms (the transfer runs in a multi handle polled that often).
    const std::atomic<bool>* cancel = nullptr;
    /// The addresses request.url.host was resolved to by whoever allowed the target (an agent
    /// checks them against --allow). When set, curl connects to these alone (CURLOPT_RESOLVE,
    /// and a socket to any other address is refused), so a name that resolves differently a
    /// moment later (DNS rebinding) cannot take the probe elsewhere. Numeric, no brackets.
    std::vector<std::string> pinnedAddresses;
};

/// Sends the request on a fresh connection and waits for the whole response.
/// The error is one human sentence: "DNS lookup failed for api.example.test",
/// "connection refused by 127.0.0.1:9", "certificate has expired (notAfter
/// 2026-01-01)", "timed out after 5 s waiting for the first byte".
Result<ProbeResult> probe(const ProbeOptions& options);

/// count probes, each on its own fresh connection (and DNS lookup), one after
/// another; stops at the first error.
Result<std::vector<ProbeResult>> probeRepeated(const ProbeOptions& options, unsigned count);

} // namespace wb
