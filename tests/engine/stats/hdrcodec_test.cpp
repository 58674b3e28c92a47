// HdrHistogram V2 compressed encoding: our histograms round-trip exactly, and the
// decoder refuses what is not a histogram of our layout with one clear sentence.

#include "stats/hdrcodec.h"
#include "common/base64.h"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <zlib.h>

using namespace wb;

namespace {

// Counters equal, and min/max/sum equal once the exact totals are restored.
void expectRoundTrip(const LatencyHistogram& h)
{
    const std::string text = encodeHdrBase64(h);
    ASSERT_EQ(text.rfind("HISTF", 0), 0u) << text;
    auto decoded = decodeHdrBase64(text);
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    EXPECT_EQ(decoded->count(), h.count());
    EXPECT_TRUE(std::equal(h.bucketCounts().begin(), h.bucketCounts().end(), decoded->bucketCounts().begin()));
    ASSERT_TRUE(decoded->setExactTotals(h.minUs(), h.maxUs(), h.sumUs()));
    EXPECT_TRUE(*decoded == h);
    EXPECT_EQ(decoded->valueAtPercentileUs(99), h.valueAtPercentileUs(99));
}

std::string bigEndian(uint64_t v, int bytes)
{
    std::string out;
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return out;
}

struct Header
{
    uint32_t cookie = 0x1c849313;
    int32_t offset = 0;
    int32_t digits = 2;
    int64_t lowest = 1;
    int64_t highest = LatencyHistogram::MAX_VALUE_US;
    double ratio = 1.0;
};

// A V2 encoding made by hand (header + the given payload words), deflated and wrapped.
std::string handMade(const std::string& payload, Header h = {}, int64_t payloadLength = -1)
{
    std::string raw = bigEndian(h.cookie, 4)
        + bigEndian(payloadLength < 0 ? payload.size() : static_cast<uint64_t>(payloadLength), 4)
        + bigEndian(static_cast<uint32_t>(h.offset), 4) + bigEndian(static_cast<uint32_t>(h.digits), 4)
        + bigEndian(static_cast<uint64_t>(h.lowest), 8) + bigEndian(static_cast<uint64_t>(h.highest), 8);
    uint64_t ratioBits = 0;
    std::memcpy(&ratioBits, &h.ratio, 8);
    raw += bigEndian(ratioBits, 8) + payload;
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string deflated(size, '\0');
    compress2(reinterpret_cast<Bytef*>(deflated.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
        static_cast<uLong>(raw.size()), 6);
    deflated.resize(size);
    return bigEndian(0x1c849314, 4) + bigEndian(deflated.size(), 4) + deflated;
}

// ZigZag LEB128 words as HdrHistogram writes them.
std::string words(std::initializer_list<int64_t> values)
{
    std::string out;
    for (int64_t value : values) {
        uint64_t v = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
        for (int i = 0; i < 8 && v >= 0x80; ++i) {
            out.push_back(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        out.push_back(static_cast<char>(v));
    }
    return out;
}

void expectRefused(const Result<LatencyHistogram>& r, const std::string& part)
{
    ASSERT_FALSE(r.ok()) << "expected a refusal saying: " << part;
    EXPECT_NE(r.error().find(part), std::string::npos) << r.error();
    EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
}

} // namespace

TEST(HdrCodec, EmptyHistogram)
{
    LatencyHistogram h;
    expectRoundTrip(h);
    auto decoded = decodeHdrBase64(encodeHdrBase64(h));
    ASSERT_TRUE(decoded.ok());
    EXPECT_TRUE(decoded->empty());
    EXPECT_EQ(decoded->minUs(), 0u);
    EXPECT_EQ(decoded->maxUs(), 0u);
}

TEST(HdrCodec, OneValue)
{
    for (uint64_t v : { 0ull, 1ull, 255ull, 256ull, 1000ull, 123456ull }) {
        LatencyHistogram h;
        h.record(v);
        expectRoundTrip(h);
    }
}

TEST(HdrCodec, OctaveEdgesAndTheLargestValue)
{
    LatencyHistogram h;
    for (int bits = 0; bits <= LatencyHistogram::MAX_VALUE_BITS; ++bits) {
        const uint64_t edge = uint64_t { 1 } << bits;
        h.record(edge - 1);
        h.record(std::min(edge, LatencyHistogram::MAX_VALUE_US));
        h.record(std::min(edge + 1, LatencyHistogram::MAX_VALUE_US));
    }
    h.record(LatencyHistogram::MAX_VALUE_US);
    expectRoundTrip(h);
    // The last counter is the last one HdrHistogram(1, 2^36-1, 2) has.
    EXPECT_NE(h.bucketCounts().back(), 0u);
}

TEST(HdrCodec, HugeCounts)
{
    LatencyHistogram h;
    h.recordN(1, uint64_t { 1 } << 62);
    h.recordN(70'000, (uint64_t { 1 } << 40) + 12345);
    h.recordN(LatencyHistogram::MAX_VALUE_US, 3);
    expectRoundTrip(h);
}

TEST(HdrCodec, RandomHistograms)
{
    std::mt19937_64 rng(15);
    for (int round = 0; round < 200; ++round) {
        LatencyHistogram h;
        const int n = static_cast<int>(rng() % 2000);
        const int scaleBits = static_cast<int>(rng() % 36);
        for (int i = 0; i < n; ++i) {
            const uint64_t v = rng() % ((uint64_t { 1 } << scaleBits) + 1);
            h.recordN(v, 1 + rng() % 3);
        }
        expectRoundTrip(h);
    }
}

TEST(HdrCodec, EncodesTheHeaderOfOurLayout)
{
    LatencyHistogram h;
    h.record(100);
    // The first 8 bytes: the compressed cookie 0x1c849314 and the deflated length.
    const std::string bytes = encodeHdrCompressed(h);
    ASSERT_GE(bytes.size(), 8u);
    EXPECT_EQ(bytes.substr(0, 4), std::string("\x1c\x84\x93\x14", 4));
    EXPECT_EQ(toBase64(bytes), encodeHdrBase64(h));
    // A payload made by hand in HdrHistogram's words: 100 zeros, then one count.
    auto r = decodeHdrCompressed(handMade(words({ -100, 1 })));
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_TRUE(std::equal(h.bucketCounts().begin(), h.bucketCounts().end(), r->bucketCounts().begin()));
}

TEST(HdrCodec, AcceptsAnotherHighestTrackableValueAndSingleZeros)
{
    Header header;
    header.highest = 2; // hdr-histogram-js's auto-resizing default
    auto r = decodeHdrCompressed(handMade(words({ 0, 3, 0, 0, 5 }), header));
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->count(), 8u);
    EXPECT_EQ(r->minUs(), 1u);
    EXPECT_EQ(r->maxUs(), 4u);
    EXPECT_EQ(r->sumUs(), 3u * 1 + 5u * 4);
}

TEST(HdrCodec, BucketEstimatesUntilExactTotals)
{
    LatencyHistogram h;
    h.record(1000); // bucket 1000..1003
    h.record(1001);
    auto r = decodeHdrBase64(encodeHdrBase64(h));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->minUs(), 1000u);
    EXPECT_EQ(r->maxUs(), 1003u);
    EXPECT_EQ(r->sumUs(), 2 * 1002u);
    // Totals that cannot belong to these buckets are refused, and nothing changes.
    EXPECT_FALSE(r->setExactTotals(999, 1001, 2001));
    EXPECT_FALSE(r->setExactTotals(1000, 1004, 2001));
    EXPECT_FALSE(r->setExactTotals(1000, 1001, 1999));
    EXPECT_FALSE(r->setExactTotals(1000, 1001, 2003));
    EXPECT_FALSE(r->setExactTotals(1001, 1000, 2001));
    EXPECT_EQ(r->maxUs(), 1003u);
    EXPECT_TRUE(r->setExactTotals(1000, 1001, 2001));
    EXPECT_TRUE(*r == h);
    LatencyHistogram empty;
    EXPECT_FALSE(empty.setExactTotals(1, 1, 1));
    EXPECT_TRUE(empty.setExactTotals(0, 0, 0));
}

TEST(HdrCodecRefusal, Base64)
{
    expectRefused(decodeHdrBase64(""), "empty histogram string");
    expectRefused(decodeHdrBase64("HISTF*AAA"), "bad base64: '*' at character 6");
    expectRefused(decodeHdrBase64(std::string("HIST\x01", 5)), "bad base64: byte 0x01 at character 5");
    expectRefused(decodeHdrBase64("HISTFAAAA"), "bad base64: a length of 9 characters is impossible");
    expectRefused(decodeHdrBase64("HISTF"), "bad base64: a length of 5 characters is impossible");
    expectRefused(decodeHdrBase64("HIS="), "truncated: 2 bytes");
    expectRefused(decodeHdrBase64("HISTFA=A"), "bad base64");
    expectRefused(decodeHdrBase64(std::string(HDR_MAX_BASE64_CHARS + 1, 'A')), "longer than any of our layout");
    // Padding may be left out.
    LatencyHistogram h;
    h.record(7);
    std::string text = encodeHdrBase64(h);
    while (text.back() == '=')
        text.pop_back();
    EXPECT_TRUE(decodeHdrBase64(text).ok());
}

TEST(HdrCodecRefusal, Cookies)
{
    expectRefused(decodeHdrCompressed("HIST"), "truncated: 4 bytes are shorter than the 8-byte header");
    expectRefused(decodeHdrBase64("AAAAAAAAAAA="), "not a compressed HdrHistogram V2 encoding: cookie 0x00000000");
    // The uncompressed V2 encoding and V1 are told apart.
    std::string bytes = encodeHdrCompressed(LatencyHistogram {});
    bytes[3] = 0x13;
    expectRefused(decodeHdrCompressed(bytes), "(an uncompressed V2 encoding)");
    bytes[3] = 0x02;
    expectRefused(decodeHdrCompressed(bytes), "(an older HdrHistogram encoding)");
    // The inner cookie must be the uncompressed V2 one.
    Header header;
    header.cookie = 0x1c849312;
    expectRefused(decodeHdrCompressed(handMade("", header)), "not a V2 encoding (cookie 0x1c849312");
}

TEST(HdrCodecRefusal, OtherLayouts)
{
    Header digits3;
    digits3.digits = 3;
    expectRefused(decodeHdrCompressed(handMade(words({ 1 }), digits3)), "a histogram of 3 significant digits");
    Header lowest1000;
    lowest1000.lowest = 1000;
    expectRefused(
        decodeHdrCompressed(handMade(words({ 1 }), lowest1000)), "a histogram with lowest discernible value 1000");
    // The normalizing index offset says how Java stores the counters, not what they are
    // (hdr-histogram-js always writes 1): the payload is in value order either way.
    Header shifted;
    shifted.offset = 1;
    auto r = decodeHdrCompressed(handMade(words({ -5, 1 }), shifted));
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->minUs(), 5u);
    // Nor does the value ratio (hdr-histogram-js writes the integer 1 there, not the double).
    Header ratio;
    ratio.ratio = 5e-324;
    EXPECT_TRUE(decodeHdrCompressed(handMade(words({ 1 }), ratio)).ok());
}

TEST(HdrCodecRefusal, SizesAndTruncation)
{
    // A payload longer than any of our layout is refused before it is inflated.
    expectRefused(decodeHdrCompressed(handMade("", {}, 1'000'000'000)), "a payload of 1000000000 bytes is more");
    // The header announces more payload than the stream holds.
    expectRefused(decodeHdrCompressed(handMade(words({ 5 }), {}, 10)), "truncated: the compressed data ends");
    expectRefused(decodeHdrCompressed(handMade(words({ 5, 6 }), {}, 1)), "holds more than the 1-byte payload");
    // A word cut off at the end of the payload.
    expectRefused(decodeHdrCompressed(handMade(std::string("\x02\x80", 2))), "truncated payload: the word at byte 1");
    // Compressed bytes cut short, or followed by more.
    std::string good = handMade(words({ -300, 7 }));
    expectRefused(decodeHdrCompressed(good.substr(0, good.size() - 3)), "truncated: the header announces");
    expectRefused(decodeHdrCompressed(good + "xy"), "2 bytes follow");
    std::string shortStream = good.substr(0, good.size() - 3);
    const uint32_t n = static_cast<uint32_t>(shortStream.size() - 8);
    shortStream.replace(4, 4, bigEndian(n, 4));
    expectRefused(decodeHdrCompressed(shortStream), "truncated");
    std::string corrupt = good;
    corrupt[8] = 0x00; // the zlib header
    expectRefused(decodeHdrCompressed(corrupt), "corrupt compressed data");
}

TEST(HdrCodecRefusal, CountsPastOurRange)
{
    const int64_t n = LatencyHistogram::BUCKET_COUNT;
    // A count at the first counter past ours.
    expectRefused(decodeHdrCompressed(handMade(words({ -n, 1 }))), "a count at counter 3840, above the largest value");
    // Zeros past the end are harmless; the last counter of ours is fine.
    EXPECT_TRUE(decodeHdrCompressed(handMade(words({ -(n - 1), 1, -1000 }))).ok());
    // A zero run of 2^63 does not wrap the index around.
    expectRefused(decodeHdrCompressed(handMade(words({ INT64_MIN, INT64_MIN, 1 }))), "above the largest value");
    // Counts that add up past 2^64.
    expectRefused(decodeHdrCompressed(handMade(words({ INT64_MAX, INT64_MAX, INT64_MAX }))), "more than 2^64");
}
