#pragma once
// What a run's connections met that no interval carries, for the report, the JSON
// and the store: an end-of-run fact (RunEnd::connections), mergeable over workers
// and loaders. Behaviour of the server's that we tolerate is counted here, so the
// report can say it once instead of failing or hiding it.

#include <cstdint>
#include <string>

namespace wb {

struct ConnectionFacts
{
    /// Why the first response that could not be parsed failed, in one sentence ("" = none failed).
    std::string firstParseError;
    /// HTTP/2: connections whose server acknowledged our SETTINGS_HEADER_TABLE_SIZE below 4,096
    /// bytes but sent no table size update (RFC 7541 4.2) and went on with HPACK's 4,096-byte
    /// table, which we then decoded with (up to 4 KB more a connection).
    uint64_t hpackTableKept = 0;
    /// Connections closed on purpose to open new ones (--conn-requests, --conn-lifetime) while measuring.
    uint64_t churnCloses = 0;

    bool empty() const { return firstParseError.empty() && hpackTableKept == 0 && churnCloses == 0; }
    /// Another worker's or loader's facts of the same run: counts summed, the first error kept.
    void merge(const ConnectionFacts& o)
    {
        if (firstParseError.empty()) firstParseError = o.firstParseError;
        hpackTableKept += o.hpackTableKept;
        churnCloses += o.churnCloses;
    }
    bool operator==(const ConnectionFacts&) const = default;
};

} // namespace wb
