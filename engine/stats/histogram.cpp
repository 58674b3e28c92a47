#include "stats/histogram.h"

#include <algorithm>
#include <cmath>

namespace wb {

uint64_t LatencyHistogram::lowestOf(int index)
{
    if (index < 2 * SUB_BUCKET_HALF) return static_cast<uint64_t>(index);
    const int shift = index / SUB_BUCKET_HALF - 1;
    const uint64_t sub = static_cast<uint64_t>(index - shift * SUB_BUCKET_HALF);
    return sub << shift;
}

uint64_t LatencyHistogram::widthOf(int index)
{
    if (index < 2 * SUB_BUCKET_HALF) return 1;
    return uint64_t { 1 } << (index / SUB_BUCKET_HALF - 1);
}

// Midpoint of a bucket: the value that minimises the worst-case error.
static double midpointOf(int index)
{
    return static_cast<double>(LatencyHistogram::lowestOf(index))
        + static_cast<double>(LatencyHistogram::widthOf(index) - 1) / 2.0;
}

void LatencyHistogram::merge(const LatencyHistogram& other)
{
    if (other.m_total == 0) return;
    for (int i = 0; i < BUCKET_COUNT; ++i)
        m_counts[i] += other.m_counts[i];
    m_total += other.m_total;
    m_sumUs += other.m_sumUs;
    m_minUs = std::min(m_minUs, other.m_minUs);
    m_maxUs = std::max(m_maxUs, other.m_maxUs);
}

bool LatencyHistogram::addToBucket(int index, uint64_t count)
{
    if (index < 0 || index >= BUCKET_COUNT) return false;
    if (count == 0) return true;
    const uint64_t low = lowestOf(index);
    const uint64_t high = low + widthOf(index) - 1;
    uint64_t total = 0, part = 0, sum = 0;
    if (__builtin_add_overflow(m_total, count, &total)) return false;
    // The sum is an estimate here; past 2^64 it stays at the largest value rather than wrapping.
    if (__builtin_mul_overflow(low + widthOf(index) / 2, count, &part) || __builtin_add_overflow(m_sumUs, part, &sum))
        sum = UINT64_MAX;
    m_counts[static_cast<size_t>(index)] += count;
    m_total = total;
    m_sumUs = sum;
    m_minUs = std::min(m_minUs, low);
    m_maxUs = std::max(m_maxUs, high);
    return true;
}

bool LatencyHistogram::setExactTotals(uint64_t minUs, uint64_t maxUs, uint64_t sumUs)
{
    if (m_total == 0) return minUs == 0 && maxUs == 0 && sumUs == 0;
    int first = 0, last = BUCKET_COUNT - 1;
    while (!m_counts[static_cast<size_t>(first)])
        ++first;
    while (!m_counts[static_cast<size_t>(last)])
        --last;
    if (minUs > maxUs || indexOf(minUs) != first || indexOf(maxUs) != last || maxUs > MAX_VALUE_US) return false;
    // The sum lies between every value at its bucket's lowest and every value at its highest,
    // with the extremes pinned to min and max (one value each, at least).
    __extension__ using Wide = unsigned __int128; // n values of up to 2^36 each: past 64 bits
    Wide lowSum = 0, highSum = 0;
    for (int i = first; i <= last; ++i) {
        const uint64_t n = m_counts[static_cast<size_t>(i)];
        if (!n) continue;
        lowSum += static_cast<Wide>(std::max(lowestOf(i), minUs)) * n;
        highSum += static_cast<Wide>(std::min(lowestOf(i) + widthOf(i) - 1, maxUs)) * n;
    }
    if (sumUs < lowSum || sumUs > highSum) return false;
    m_minUs = minUs;
    m_maxUs = maxUs;
    m_sumUs = sumUs;
    return true;
}

void LatencyHistogram::reset()
{
    if (m_total == 0) return;
    m_counts.fill(0);
    m_total = 0;
    m_sumUs = 0;
    m_minUs = UINT64_MAX;
    m_maxUs = 0;
}

double LatencyHistogram::meanUs() const
{
    return m_total ? static_cast<double>(m_sumUs) / static_cast<double>(m_total) : 0.0;
}

double LatencyHistogram::stdevUs() const
{
    if (m_total < 2) return 0.0;
    const double mean = meanUs();
    double sumSq = 0.0;
    for (int i = 0; i < BUCKET_COUNT; ++i) {
        if (!m_counts[i]) continue;
        const double d = midpointOf(i) - mean;
        sumSq += d * d * static_cast<double>(m_counts[i]);
    }
    // Sample standard deviation, as wrk reports it.
    return std::sqrt(sumSq / static_cast<double>(m_total - 1));
}

double LatencyHistogram::percentWithinStdev(double k) const
{
    if (m_total == 0) return 0.0;
    const double mean = meanUs();
    const double stdev = stdevUs();
    const double lower = mean - k * stdev;
    const double upper = mean + k * stdev;
    uint64_t within = 0;
    for (int i = 0; i < BUCKET_COUNT; ++i) {
        if (!m_counts[i]) continue;
        const double v = midpointOf(i);
        if (v >= lower && v <= upper) within += m_counts[i];
    }
    return 100.0 * static_cast<double>(within) / static_cast<double>(m_total);
}

uint64_t LatencyHistogram::valueAtPercentileUs(double p) const
{
    if (m_total == 0) return 0;
    p = std::clamp(p, 0.0, 100.0);
    // The rank of the value: ceil(p% of all), less one ulp first, because p / 100 is rarely exact
    // (99.9 / 100 * 2000 is 1998.0000000000002, and the 1999th value is not p99.9 of 2000).
    // HdrHistogram does the same, so both read the same bucket.
    const double rank = p / 100.0 * static_cast<double>(m_total);
    auto target = static_cast<uint64_t>(std::ceil(rank - (std::nextafter(rank, INFINITY) - rank)));
    target = std::clamp<uint64_t>(target, 1, m_total);
    uint64_t cumulative = 0;
    for (int i = 0; i < BUCKET_COUNT; ++i) {
        cumulative += m_counts[i];
        if (cumulative >= target) {
            const auto mid = static_cast<uint64_t>(std::llround(midpointOf(i)));
            return std::clamp(mid, minUs(), m_maxUs);
        }
    }
    return m_maxUs;
}

uint64_t LatencyHistogram::countAtOrBelow(uint64_t valueUs) const
{
    const int last = indexOf(std::min(valueUs, MAX_VALUE_US));
    uint64_t sum = 0;
    for (int i = 0; i <= last; ++i)
        sum += m_counts[i];
    return sum;
}

void LatencyHistogram::forEachBucket(const std::function<void(const Bucket&)>& f) const
{
    for (int i = 0; i < BUCKET_COUNT; ++i) {
        if (!m_counts[i]) continue;
        f(Bucket { lowestOf(i), lowestOf(i) + widthOf(i) - 1, m_counts[i] });
    }
}

// Encoding: magic byte, version, then pairs (gap to next non-empty index, count)
// as LEB128 varints, then min, max and sum. A loopback run has a few hundred
// non-empty buckets, so a stored histogram is typically well under 2 KB.
static constexpr unsigned char ENCODING_MAGIC = 0xB7;
static constexpr unsigned char ENCODING_VERSION = 1;

static void putVarint(std::string& out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7F) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

static bool getVarint(const std::string& in, size_t& pos, uint64_t& v)
{
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= in.size()) return false;
        const auto byte = static_cast<unsigned char>(in[pos++]);
        v |= static_cast<uint64_t>(byte & 0x7F) << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

std::string LatencyHistogram::serialize() const
{
    std::string out;
    out.push_back(static_cast<char>(ENCODING_MAGIC));
    out.push_back(static_cast<char>(ENCODING_VERSION));
    int previous = -1;
    uint64_t buckets = 0;
    for (int i = 0; i < BUCKET_COUNT; ++i)
        buckets += m_counts[i] != 0;
    putVarint(out, buckets);
    for (int i = 0; i < BUCKET_COUNT; ++i) {
        if (!m_counts[i]) continue;
        putVarint(out, static_cast<uint64_t>(i - previous));
        putVarint(out, m_counts[i]);
        previous = i;
    }
    putVarint(out, minUs());
    putVarint(out, m_maxUs);
    putVarint(out, m_sumUs);
    return out;
}

bool LatencyHistogram::deserialize(const std::string& bytes)
{
    LatencyHistogram h;
    size_t pos = 0;
    if (bytes.size() < 2 || static_cast<unsigned char>(bytes[0]) != ENCODING_MAGIC
        || static_cast<unsigned char>(bytes[1]) != ENCODING_VERSION)
        return false;
    pos = 2;
    uint64_t buckets = 0;
    if (!getVarint(bytes, pos, buckets) || buckets > BUCKET_COUNT) return false;
    int64_t index = -1;
    for (uint64_t b = 0; b < buckets; ++b) {
        uint64_t gap = 0, count = 0;
        if (!getVarint(bytes, pos, gap) || !getVarint(bytes, pos, count) || gap == 0 || count == 0) return false;
        index += static_cast<int64_t>(gap);
        if (index >= BUCKET_COUNT) return false;
        h.m_counts[static_cast<size_t>(index)] = count;
        h.m_total += count;
    }
    uint64_t minUs = 0, maxUs = 0, sumUs = 0;
    if (!getVarint(bytes, pos, minUs) || !getVarint(bytes, pos, maxUs) || !getVarint(bytes, pos, sumUs)) return false;
    if (pos != bytes.size() || minUs > maxUs) return false;
    h.m_minUs = h.m_total ? minUs : UINT64_MAX;
    h.m_maxUs = maxUs;
    h.m_sumUs = sumUs;
    *this = h;
    return true;
}

} // namespace wb
