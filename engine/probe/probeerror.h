#pragma once
// Turns a failed curl transfer into one precise, human sentence: which phase
// failed, against which address, and why.

#include "probe/tlscapture.h"

#include <cstdint>
#include <string>

namespace wb {

/// Everything known about a failed transfer.
struct ProbeFailure
{
    int curlCode = 0; ///< CURLcode
    std::string curlText; ///< curl's error buffer (or curl_easy_strerror)
    int osErrno = 0; ///< CURLINFO_OS_ERRNO
    std::string host; ///< as in the URL
    std::string endpoint; ///< "127.0.0.1:9", "[::1]:443", or "host:port" before an address was known
    bool tls = false; ///< https
    // curl's cumulative timers: 0 = that phase was not reached
    uint64_t dnsUs = 0;
    uint64_t connectUs = 0;
    uint64_t tlsUs = 0;
    uint64_t requestSentUs = 0;
    uint64_t firstByteUs = 0;
    uint64_t bodyBytes = 0;
    uint64_t timeoutUs = 0;
    uint64_t connectTimeoutUs = 0;
    std::string caFile;
    const TlsCapture* capture = nullptr;
};

/// "connection refused by 127.0.0.1:9", "timed out after 5 s waiting for the first byte", ...
std::string describeFailure(const ProbeFailure& failure);

/// A time limit as people say it: "5 s", "300 ms", "1.5 s", "250 us".
std::string formatLimit(uint64_t us);

} // namespace wb
