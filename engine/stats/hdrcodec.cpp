#include "stats/hdrcodec.h"

#include "common/base64.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <zlib.h>

namespace wb {

namespace {

// HdrHistogram's V2 encodings. The cookie's second-lowest nibble holds the word size; V2
// writers set it to 1 (0x10: "ZigZag LEB128 words"), and readers compare the rest (cookie & ~0xf0).
constexpr uint32_t V2_COOKIE_BASE = 0x1c849303;
constexpr uint32_t V2_COMPRESSED_COOKIE_BASE = 0x1c849304;
constexpr uint32_t V2_COOKIE = V2_COOKIE_BASE | 0x10;
constexpr uint32_t V2_COMPRESSED_COOKIE = V2_COMPRESSED_COOKIE_BASE | 0x10;
constexpr uint32_t cookieBase(uint32_t cookie)
{
    return cookie & ~0xf0u;
}

// V2 header: cookie, payload length, normalizing index offset, significant digits (4 bytes
// each), lowest discernible value, highest trackable value (8 each), value ratio (a double).
constexpr size_t HEADER_BYTES = 40;
constexpr size_t COMPRESSED_HEADER_BYTES = 8; // cookie, length of the deflated bytes
constexpr size_t MAX_WORD_BYTES = 9; // ZigZag LEB128 of 64 bits: 8 x 7 bits, then 8
// Every word covers at least one counter, so no encoding of our layout is longer.
constexpr size_t MAX_PAYLOAD_BYTES = LatencyHistogram::BUCKET_COUNT * MAX_WORD_BYTES;

void putBigEndian(std::string& out, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t getBigEndian(const unsigned char* p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | p[i];
    return v;
}

// HdrHistogram's LEB128: 7 bits a byte with a continuation bit, but the ninth byte
// carries 8 bits, so 64 bits never take more than 9 bytes.
void putWord(std::string& out, int64_t value)
{
    uint64_t v = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63); // ZigZag
    for (int i = 0; i < 8; ++i) {
        if (v < 0x80) {
            out.push_back(static_cast<char>(v));
            return;
        }
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

// Returns false when the bytes end inside a word. zigzag is the raw (still ZigZag) value.
bool getWord(const unsigned char* p, size_t size, size_t& pos, uint64_t& zigzag)
{
    zigzag = 0;
    for (int i = 0; i < 9; ++i) {
        if (pos >= size) return false;
        const uint64_t byte = p[pos++];
        if (i == 8) {
            zigzag |= byte << 56;
            return true;
        }
        zigzag |= (byte & 0x7f) << (7 * i);
        if (!(byte & 0x80)) return true;
    }
    return true;
}

std::string uncompressedV2(const LatencyHistogram& h)
{
    const auto counts = h.bucketCounts();
    size_t used = counts.size();
    while (used > 0 && counts[used - 1] == 0)
        --used;
    // Zero runs are one negative word; a single zero is written as 0, as HdrHistogram does.
    std::string payload;
    payload.reserve(256);
    for (size_t i = 0; i < used;) {
        if (counts[i] != 0) {
            // A count above 2^63-1 cannot be a V2 word; it would take 2^63 requests.
            putWord(payload, static_cast<int64_t>(std::min<uint64_t>(counts[i], INT64_MAX)));
            ++i;
            continue;
        }
        size_t run = 1;
        while (i + run < used && counts[i + run] == 0)
            ++run;
        putWord(payload, run > 1 ? -static_cast<int64_t>(run) : 0);
        i += run;
    }
    std::string out;
    out.reserve(HEADER_BYTES + payload.size());
    putBigEndian(out, V2_COOKIE, 4);
    putBigEndian(out, payload.size(), 4);
    putBigEndian(out, 0, 4); // normalizing index offset
    putBigEndian(out, HDR_SIGNIFICANT_DIGITS, 4);
    putBigEndian(out, HDR_LOWEST_DISCERNIBLE_VALUE, 8);
    putBigEndian(out, LatencyHistogram::MAX_VALUE_US, 8);
    putBigEndian(out, std::bit_cast<uint64_t>(1.0), 8); // integer to double value conversion ratio
    out += payload;
    return out;
}


std::string hex(uint64_t v)
{
    return fmt::format("0x{:08x}", v);
}

// Inflates the V2 encoding: the 40-byte header first, checked, then exactly the payload it
// announces (bounded by our layout before a byte of it is inflated).
Result<LatencyHistogram> inflateAndDecode(const unsigned char* deflated, size_t size)
{
    z_stream z {};
    if (inflateInit(&z) != Z_OK) return Error { "cannot start zlib" };
    struct End
    {
        z_stream* z;
        ~End() { inflateEnd(z); }
    } end { &z };
    z.next_in = const_cast<unsigned char*>(deflated);
    z.avail_in = static_cast<uInt>(size);

    auto inflateInto = [&z](unsigned char* out, size_t want, const char* what) -> Status {
        z.next_out = out;
        z.avail_out = static_cast<uInt>(want);
        while (z.avail_out > 0) {
            const int rc = inflate(&z, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) break;
            if (rc == Z_OK) continue;
            if (rc == Z_BUF_ERROR) // no input left, no progress
                return Error { fmt::format("truncated: the compressed data ends inside the {}", what) };
            return Error { fmt::format("corrupt compressed data ({})", z.msg ? z.msg : "zlib error") };
        }
        if (z.avail_out > 0)
            return Error { fmt::format(
                "truncated: the compressed data ends {} bytes before the end of the {}", z.avail_out, what) };
        return {};
    };

    std::array<unsigned char, HEADER_BYTES> header {};
    if (Status st = inflateInto(header.data(), header.size(), "header"); !st) return Error { st.error() };
    const auto cookie = static_cast<uint32_t>(getBigEndian(&header[0], 4));
    const uint64_t payloadBytes = getBigEndian(&header[4], 4);
    const auto digits = static_cast<int32_t>(getBigEndian(&header[12], 4));
    const auto lowest = static_cast<int64_t>(getBigEndian(&header[16], 8));
    // Bytes 8..11, the normalizing index offset, are how Java stores a shifted histogram inside;
    // the payload holds the counters in value order whatever it is, so it is ignored, as
    // HdrHistogram_c and hdr-histogram-js (which always writes 1) do. Bytes 24..31, the highest
    // trackable value, may be another writer's own: any count above ours is refused below.
    // Bytes 32..39, the integer-to-double value ratio, only scale what a DoubleHistogram shows, and a
    // DoubleHistogram's encoding has a cookie of its own (hdr-histogram-js writes the integer 1 there).
    if (cookieBase(cookie) != V2_COOKIE_BASE)
        return Error { fmt::format(
            "the compressed data is not a V2 encoding (cookie {}, expected {})", hex(cookie), hex(V2_COOKIE)) };
    if (digits != HDR_SIGNIFICANT_DIGITS)
        return Error { fmt::format("a histogram of {} significant digits; ours have 2 (another bucket layout is "
                                   "refused, not rebinned)",
            digits) };
    if (lowest != HDR_LOWEST_DISCERNIBLE_VALUE)
        return Error { fmt::format("a histogram with lowest discernible value {}; ours have 1 (another bucket "
                                   "layout is refused, not rebinned)",
            lowest) };
    if (payloadBytes > MAX_PAYLOAD_BYTES)
        return Error { fmt::format("a payload of {} bytes is more than a histogram of our layout needs (at most {})",
            payloadBytes, MAX_PAYLOAD_BYTES) };

    std::string payload(payloadBytes, '\0');
    auto* p = reinterpret_cast<unsigned char*>(payload.data());
    if (Status st = inflateInto(p, payload.size(), "payload"); !st) return Error { st.error() };
    unsigned char extra = 0;
    z.next_out = &extra;
    z.avail_out = 1;
    const int rc = inflate(&z, Z_FINISH);
    if (z.avail_out == 0) // a byte past the payload came out (the stream may even have ended with it)
        return Error { fmt::format(
            "the compressed data holds more than the {}-byte payload its header announces", payloadBytes) };
    if (rc != Z_STREAM_END) {
        if (rc == Z_DATA_ERROR) return Error { fmt::format("corrupt compressed data ({})", z.msg ? z.msg : "") };
        return Error { "truncated: the compressed data does not end where the payload does" };
    }
    if (z.avail_in != 0) return Error { fmt::format("{} bytes follow the end of the compressed data", z.avail_in) };

    LatencyHistogram h;
    uint64_t index = 0; // may run past our range inside a trailing zero run
    size_t pos = 0;
    while (pos < payload.size()) {
        const size_t at = pos;
        uint64_t zigzag = 0;
        if (!getWord(p, payload.size(), pos, zigzag))
            return Error { fmt::format("truncated payload: the word at byte {} is cut off", at) };
        if (zigzag & 1) { // negative: a run of (zigzag + 1) / 2 zeros
            const uint64_t run = (zigzag >> 1) + 1;
            index = run > UINT64_MAX - index ? UINT64_MAX : index + run;
            continue;
        }
        const uint64_t count = zigzag >> 1;
        if (count != 0) {
            if (index >= static_cast<uint64_t>(LatencyHistogram::BUCKET_COUNT))
                return Error { fmt::format("a count at counter {}, above the largest value we track ({} us)", index,
                    LatencyHistogram::MAX_VALUE_US) };
            if (!h.addToBucket(static_cast<int>(index), count)) return Error { "the counts add up to more than 2^64" };
        }
        if (index < UINT64_MAX) ++index;
    }
    return h;
}

} // namespace

std::string encodeHdrCompressed(const LatencyHistogram& h)
{
    const std::string raw = uncompressedV2(h);
    uLongf deflatedBytes = compressBound(static_cast<uLong>(raw.size()));
    std::string out(COMPRESSED_HEADER_BYTES + deflatedBytes, '\0');
    // zlib format (header and Adler-32), as Java's Deflater writes and every reader expects.
    const int rc = compress2(reinterpret_cast<Bytef*>(out.data() + COMPRESSED_HEADER_BYTES), &deflatedBytes,
        reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()), Z_DEFAULT_COMPRESSION);
    if (rc != Z_OK) return {}; // only on out-of-memory: compressBound() is always enough
    out.resize(COMPRESSED_HEADER_BYTES + deflatedBytes);
    std::string header;
    putBigEndian(header, V2_COMPRESSED_COOKIE, 4);
    putBigEndian(header, deflatedBytes, 4);
    out.replace(0, COMPRESSED_HEADER_BYTES, header);
    return out;
}

std::string encodeHdrBase64(const LatencyHistogram& h)
{
    return toBase64(encodeHdrCompressed(h));
}

Result<LatencyHistogram> decodeHdrBase64(std::string_view text)
{
    if (text.empty()) return Error { "an empty histogram string" };
    if (text.size() > HDR_MAX_BASE64_CHARS)
        return Error { fmt::format("a histogram string of {} characters is longer than any of our layout (at most {})",
            text.size(), HDR_MAX_BASE64_CHARS) };
    auto bytes = fromBase64(text);
    if (!bytes) return Error { bytes.error() };
    return decodeHdrCompressed(*bytes);
}

Result<LatencyHistogram> decodeHdrCompressed(std::string_view bytes)
{
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    if (bytes.size() < COMPRESSED_HEADER_BYTES)
        return Error { fmt::format(
            "truncated: {} bytes are shorter than the 8-byte header of a compressed histogram", bytes.size()) };
    const auto cookie = static_cast<uint32_t>(getBigEndian(p, 4));
    if (cookieBase(cookie) != V2_COMPRESSED_COOKIE_BASE) {
        const char* hint = cookieBase(cookie) == V2_COOKIE_BASE ? " (an uncompressed V2 encoding)"
            : (cookie & 0xffffff00u) == 0x1c849300u             ? " (an older HdrHistogram encoding)"
                                                                : "";
        return Error { fmt::format("not a compressed HdrHistogram V2 encoding: cookie {}{}, expected {} (\"HISTF\")",
            hex(cookie), hint, hex(V2_COMPRESSED_COOKIE)) };
    }
    const uint64_t deflatedBytes = getBigEndian(p + 4, 4);
    const size_t follow = bytes.size() - COMPRESSED_HEADER_BYTES;
    if (deflatedBytes > follow)
        return Error { fmt::format(
            "truncated: the header announces {} compressed bytes, {} follow", deflatedBytes, follow) };
    if (deflatedBytes < follow)
        return Error { fmt::format(
            "{} bytes follow the {} compressed bytes the header announces", follow - deflatedBytes, deflatedBytes) };
    return inflateAndDecode(p + COMPRESSED_HEADER_BYTES, follow);
}

} // namespace wb
