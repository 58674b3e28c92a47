#pragma once
// Chooses which entry of a request mix a connection sends next. The table is
// built once per run and shared read-only by every worker; each connection has
// its own picker (no shared state, no locks on the send path), and next() is
// O(1) whatever the number of entries.
//
// The random orders use a generator written here (splitmix64 to seed,
// xoshiro256** to draw) and integer arithmetic only, so a seed gives the same
// sequence on every platform and standard library (std::uniform_*_distribution
// does not promise that).

#include "run/mixorder.h"

#include <cstdint>
#include <vector>

namespace wb {

/// xoshiro256** (Blackman and Vigna), seeded through splitmix64. Small, fast,
/// and its output is defined bit for bit.
class MixRandom
{
public:
    MixRandom() = default;
    /// One independent stream per (seed, stream): connections draw from stream = their index.
    MixRandom(uint64_t seed, uint64_t stream);
    uint64_t next();
    /// Uniform in [0, bound), bound > 0, without modulo bias (Lemire's multiply-and-reject).
    uint64_t below(uint64_t bound);

private:
    uint64_t m_s[4] = { 1, 2, 3, 4 };
};

/// What every picker of a run shares: the order and, for Weighted, the alias table
/// (Vose) of the weights. Immutable once built; must outlive its pickers.
class MixTable
{
public:
    /// weights: one per entry, each finite and > 0 (the mix parser guarantees it),
    /// at most 65535 (MAX_REQUEST_MIX_ENTRIES). A weight that is not finite and > 0
    /// counts as 0 (never chosen by Weighted); all of them so, or none given, makes
    /// every entry equally likely (an empty list means one entry).
    MixTable(const std::vector<double>& weights, MixOrder order);

    MixOrder order() const { return m_order; }
    size_t size() const { return m_size; }
    /// The exact probability with which Weighted picks entry i (its weight rounded to
    /// 32 bits relative to the largest); Random and RoundRobin give each 1/size().
    double probability(size_t i) const;

private:
    friend class MixPicker;
    uint16_t pickWeighted(MixRandom& random) const;

    MixOrder m_order;
    size_t m_size = 1;
    uint64_t m_total = 0; ///< every bucket holds m_total; an entry's share is its scaled weight / m_total
    std::vector<uint64_t> m_scaled; ///< integer weights (for probability())
    std::vector<uint64_t> m_threshold; ///< bucket i picks i when a draw below m_total is < m_threshold[i]
    std::vector<uint16_t> m_alias; ///< ... and m_alias[i] otherwise
};

/// One connection's chooser. Default-constructed it always picks entry 0 (a run
/// without a mix).
class MixPicker
{
public:
    MixPicker() = default;
    /// Round-robin starts at connectionIndex % size so the connections spread over the
    /// entries from the first request on; the random orders draw from the stream
    /// (seed, connectionIndex): the same seed gives every connection the same sequence again.
    MixPicker(const MixTable& table, uint64_t seed, uint32_t connectionIndex);
    uint16_t next();

private:
    const MixTable* m_table = nullptr;
    MixRandom m_random;
    uint32_t m_next = 0; ///< round-robin position
};

} // namespace wb
