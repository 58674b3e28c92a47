#pragma once
// HdrHistogram's standard V2 compressed encoding of a LatencyHistogram, as base64 ("HISTF..."), which HdrHistogram_c,
// the Java HdrHistogram and hdr-histogram-js decode. Our layout is HdrHistogram's for lowest discernible value 1 and 2
// significant digits (unit 1 us), so counter i is written as counter i and decoded histograms of several loaders add
// up exactly (docs/ARCHITECTURE.md, "Histograms other tools read"). The encoding carries no exact min, max or sum: a
// decoded histogram has bucket estimates until setExactTotals() restores them (the JSON's histogram_totals).

#include "common/result.h"
#include "stats/histogram.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace wb {

/// What our encodings declare: HdrHistogram(lowest 1, highest MAX_VALUE_US, 2 digits).
constexpr int HDR_SIGNIFICANT_DIGITS = 2;
constexpr int64_t HDR_LOWEST_DISCERNIBLE_VALUE = 1;
/// The longest text decodeHdrBase64() reads: the base64 of the largest compressed
/// encoding our layout can need (every counter a full 9-byte word, deflated).
constexpr size_t HDR_MAX_BASE64_CHARS = 64 * 1024;

/// The V2 compressed encoding of h (zlib-deflated V2 encoding behind its own cookie and
/// length), base64 with padding.
std::string encodeHdrBase64(const LatencyHistogram& h);
/// The same bytes before base64 (what HdrHistogram's encodeIntoCompressedByteBuffer writes).
std::string encodeHdrCompressed(const LatencyHistogram& h);

/// Decodes a base64 V2 compressed HdrHistogram of our layout (any implementation's; its
/// highest trackable value may differ as long as no count lies above MAX_VALUE_US).
/// Refuses, with one sentence naming the problem, anything else: bad base64, another
/// cookie, another layout (digits or lowest value: we never rebin silently), sizes beyond our layout, truncated or
/// corrupt data, counts above our range or adding up past 2^64. Min, max and sum are the bucket estimates.
Result<LatencyHistogram> decodeHdrBase64(std::string_view text);
/// The same from the compressed bytes.
Result<LatencyHistogram> decodeHdrCompressed(std::string_view bytes);

} // namespace wb
