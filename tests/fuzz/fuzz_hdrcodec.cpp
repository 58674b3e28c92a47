// libFuzzer target for the HdrHistogram decoder (untrusted "HISTF..." strings from other
// loaders' JSON and logs). The input is tried as base64 text and as the compressed bytes.
// Checked:
//   - a refusal is one non-empty line;
//   - a decoded histogram's count is the sum of its buckets, min <= max, both within range;
//   - it encodes again to a string that decodes to the very same counters.
// A violation traps.

#include "stats/hdrcodec.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

void checkDecoded(const wb::Result<wb::LatencyHistogram>& r)
{
    if (!r) {
        check(!r.error().empty() && r.error().find('\n') == std::string::npos);
        return;
    }
    const wb::LatencyHistogram& h = *r;
    uint64_t total = 0;
    for (uint64_t c : h.bucketCounts())
        total += c;
    check(total == h.count());
    check(h.minUs() <= h.maxUs() && h.maxUs() <= wb::LatencyHistogram::MAX_VALUE_US);
    auto again = wb::decodeHdrBase64(wb::encodeHdrBase64(h));
    check(again.ok() && again->bucketCounts().size() == h.bucketCounts().size());
    for (size_t i = 0; i < h.bucketCounts().size(); ++i)
        check(again->bucketCounts()[i] == h.bucketCounts()[i]);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    checkDecoded(wb::decodeHdrBase64(input));
    checkDecoded(wb::decodeHdrCompressed(input));
    return 0;
}
