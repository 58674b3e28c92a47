#pragma once
// Latency histogram in the HdrHistogram layout: log-linear buckets with 128
// linear sub-buckets per power of two, so every recorded value is known to
// within 1/256 of itself (0.4%) from 0 to MAX_VALUE_US, in fixed memory
// (BUCKET_COUNT counters, ~30 KB) and with O(1) recording. Histograms merge by
// adding counters, so per-thread histograms combine exactly.

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace wb {

class LatencyHistogram
{
public:
    static constexpr int SUB_BUCKET_BITS = 7; // 128 sub-buckets per octave
    static constexpr int SUB_BUCKET_HALF = 1 << SUB_BUCKET_BITS;
    static constexpr int MAX_VALUE_BITS = 36; // 2^36 us ~ 19 h
    static constexpr uint64_t MAX_VALUE_US = (uint64_t { 1 } << MAX_VALUE_BITS) - 1;
    static constexpr int BUCKET_COUNT = (MAX_VALUE_BITS - 1 - SUB_BUCKET_BITS) * SUB_BUCKET_HALF + 2 * SUB_BUCKET_HALF;

    /// Records one value (microseconds). Values above MAX_VALUE_US are clamped.
    void record(uint64_t valueUs) { recordN(valueUs, 1); }
    void recordN(uint64_t valueUs, uint64_t count)
    {
        if (valueUs > MAX_VALUE_US) valueUs = MAX_VALUE_US;
        m_counts[indexOf(valueUs)] += count;
        m_total += count;
        m_sumUs += valueUs * count;
        if (valueUs < m_minUs) m_minUs = valueUs;
        if (valueUs > m_maxUs) m_maxUs = valueUs;
    }

    /// Adds every count of other into this histogram.
    void merge(const LatencyHistogram& other);
    void reset();

    uint64_t count() const { return m_total; }
    bool empty() const { return m_total == 0; }
    /// Exact smallest / largest recorded value; 0 when empty.
    uint64_t minUs() const { return m_total ? m_minUs : 0; }
    uint64_t maxUs() const { return m_maxUs; }
    /// Exact mean of the recorded values.
    double meanUs() const;
    /// Standard deviation from the bucket midpoints (within the bucket error).
    double stdevUs() const;
    /// Share (0..100) of values within mean +/- k*stdev, as wrk's "+/- Stdev" column.
    double percentWithinStdev(double k = 1.0) const;
    /// Value at percentile p (0..100): the smallest bucket whose cumulative count
    /// reaches ceil(p% of all), as its midpoint clamped to [min, max].
    uint64_t valueAtPercentileUs(double p) const;

    /// Number of recorded values in buckets up to and including valueUs's bucket.
    uint64_t countAtOrBelow(uint64_t valueUs) const;

    struct Bucket
    {
        uint64_t lowUs; // lowest value in the bucket
        uint64_t highUs; // highest value in the bucket
        uint64_t count;
    };
    /// Calls f for every non-empty bucket, lowest values first.
    void forEachBucket(const std::function<void(const Bucket&)>& f) const;

    /// The counters, bucket by bucket (index i holds values lowestOf(i) .. lowestOf(i) + widthOf(i) - 1).
    std::span<const uint64_t, BUCKET_COUNT> bucketCounts() const { return m_counts; }
    /// Adds count values to bucket index (0 <= index < BUCKET_COUNT), for decoders of
    /// bucket-exact encodings that do not carry the values themselves: min and max become
    /// the bucket's lowest and highest value, and the sum grows by count times its median
    /// value (HdrHistogram's convention), until setExactTotals() says otherwise.
    /// False, and nothing added, when the total count would pass 2^64 (the estimated sum
    /// stops at 2^64-1 instead).
    bool addToBucket(int index, uint64_t count);
    /// Replaces min, max and sum (estimates after addToBucket) by the exact values recorded
    /// elsewhere. False, and nothing changed, when they cannot belong to these buckets
    /// (min and max outside the first and last non-empty bucket, the sum outside what the
    /// buckets allow, anything on an empty histogram but zeros).
    bool setExactTotals(uint64_t minUs, uint64_t maxUs, uint64_t sumUs);
    /// Exact sum of the recorded values (or the bucket estimate after addToBucket).
    uint64_t sumUs() const { return m_sumUs; }
    /// Same counters, min, max and sum.
    bool operator==(const LatencyHistogram&) const = default;

    /// Compact, portable encoding (varint run-length of counters) for storage.
    std::string serialize() const;
    /// Inverse of serialize(); false when the bytes are not a valid encoding.
    bool deserialize(const std::string& bytes);

    static int indexOf(uint64_t valueUs)
    {
        // Values below 2*SUB_BUCKET_HALF are their own bucket; above, one octave
        // per SUB_BUCKET_HALF indices.
        const int msb = 63 - __builtin_clzll(valueUs | 1);
        const int shift = msb > SUB_BUCKET_BITS ? msb - SUB_BUCKET_BITS : 0;
        return shift * SUB_BUCKET_HALF + static_cast<int>(valueUs >> shift);
    }
    static uint64_t lowestOf(int index);
    static uint64_t widthOf(int index);

private:
    std::array<uint64_t, BUCKET_COUNT> m_counts {};
    uint64_t m_total = 0;
    uint64_t m_sumUs = 0;
    uint64_t m_minUs = UINT64_MAX;
    uint64_t m_maxUs = 0;
};

} // namespace wb
