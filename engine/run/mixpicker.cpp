#include "run/mixpicker.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wb {

namespace {

// The parser refuses longer mixes; entries are uint16_t indexes on the send path.
constexpr size_t MAX_ENTRIES = std::numeric_limits<uint16_t>::max();

__extension__ typedef unsigned __int128 Uint128; // GCC and Clang; __extension__ keeps -Wpedantic quiet

uint64_t splitmix64(uint64_t& state)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

} // namespace

MixRandom::MixRandom(uint64_t seed, uint64_t stream)
{
    // The stream number is hashed before it meets the seed, so nearby (seed, stream)
    // pairs (seed 1 stream 0, seed 0 stream 1) do not start from nearby states.
    uint64_t streamState = stream;
    uint64_t state = seed ^ splitmix64(streamState);
    for (uint64_t& s : m_s)
        s = splitmix64(state); // splitmix64 is a bijection of its state: the four words are never all zero
}

uint64_t MixRandom::next()
{
    const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

uint64_t MixRandom::below(uint64_t bound)
{
    // The high word of x * bound is uniform in [0, bound) once the low words below
    // 2^64 mod bound are rejected (Lemire 2019); the division runs only on the rare
    // draw that might need rejecting.
    Uint128 product = static_cast<Uint128>(next()) * bound;
    uint64_t low = static_cast<uint64_t>(product);
    if (low < bound) {
        const uint64_t reject = (0 - bound) % bound;
        while (low < reject) {
            product = static_cast<Uint128>(next()) * bound;
            low = static_cast<uint64_t>(product);
        }
    }
    return static_cast<uint64_t>(product >> 64);
}

MixTable::MixTable(const std::vector<double>& weights, MixOrder order)
    : m_order(order)
    , m_size(std::clamp<size_t>(weights.size(), 1, MAX_ENTRIES))
{
    // Weights become integers (32 bits relative to the largest) and the alias table is
    // built in integers, so the table, and with it every pick, is the same on every
    // platform: no floating-point rounding decides which bucket an entry spills into.
    double largest = 0;
    for (size_t i = 0; i < weights.size() && i < m_size; ++i)
        if (std::isfinite(weights[i]) && weights[i] > largest) largest = weights[i];
    m_scaled.assign(m_size, 1);
    if (largest > 0) {
        for (size_t i = 0; i < m_size; ++i) {
            const double w = i < weights.size() ? weights[i] : 0;
            if (!(std::isfinite(w) && w > 0)) {
                m_scaled[i] = 0;
                continue;
            }
            // At least 1: a weight a billion times smaller than the largest is still sent now and then.
            m_scaled[i] = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(std::ldexp(w / largest, 32))));
        }
    }
    for (uint64_t s : m_scaled)
        m_total += s; // <= 65535 * 2^32 < 2^48: no overflow

    // Vose's alias method: n buckets of m_total each; entry i brings n * scaled[i].
    // A bucket that is short takes its remainder from one that has too much. The sums
    // are exact, so what is left over at the end fills its bucket exactly.
    const uint64_t n = m_size;
    std::vector<uint64_t> amount(m_size);
    std::vector<uint16_t> small, large;
    for (size_t i = 0; i < m_size; ++i) {
        amount[i] = m_scaled[i] * n;
        (amount[i] < m_total ? small : large).push_back(static_cast<uint16_t>(i));
    }
    m_threshold.assign(m_size, m_total);
    m_alias.resize(m_size);
    for (size_t i = 0; i < m_size; ++i)
        m_alias[i] = static_cast<uint16_t>(i);
    while (!small.empty() && !large.empty()) {
        const uint16_t s = small.back();
        small.pop_back();
        const uint16_t l = large.back();
        m_threshold[s] = amount[s];
        m_alias[s] = l;
        amount[l] -= m_total - amount[s];
        if (amount[l] < m_total) {
            large.pop_back();
            small.push_back(l);
        }
    }
    // Whatever remains holds exactly m_total: its threshold stays m_total (always itself).
}

double MixTable::probability(size_t i) const
{
    if (i >= m_size) return 0;
    if (m_order != MixOrder::Weighted) return 1.0 / static_cast<double>(m_size);
    return static_cast<double>(m_scaled[i]) / static_cast<double>(m_total);
}

uint16_t MixTable::pickWeighted(MixRandom& random) const
{
    const auto bucket = static_cast<size_t>(random.below(m_size));
    return random.below(m_total) < m_threshold[bucket] ? static_cast<uint16_t>(bucket) : m_alias[bucket];
}

MixPicker::MixPicker(const MixTable& table, uint64_t seed, uint32_t connectionIndex)
    : m_table(&table)
    , m_random(seed, connectionIndex)
    , m_next(static_cast<uint32_t>(connectionIndex % table.size()))
{ }

uint16_t MixPicker::next()
{
    if (m_table == nullptr || m_table->size() == 1) return 0;
    switch (m_table->order()) {
    case MixOrder::RoundRobin: {
        const auto index = static_cast<uint16_t>(m_next);
        if (++m_next == m_table->size()) m_next = 0;
        return index;
    }
    case MixOrder::Random:
        return static_cast<uint16_t>(m_random.below(m_table->size()));
    case MixOrder::Weighted:
        return m_table->pickWeighted(m_random);
    }
    return 0;
}

} // namespace wb
