#pragma once
// Which backend answered (--backend-from): per backend, what it served and how fast,
// in fixed, bounded memory, merged exactly by name over workers, intervals and loaders.
//
// A worker keeps a BackendBreakdown in its interval measurements, indexed by the
// position of the name in its own name table (run/responsenotes.h): recording is a
// vector index, no lookup. Merging (another worker's, another loader's, the next
// interval's) goes by name. At most `limit` names are kept; responses of any further
// name count under OTHER_BACKEND, so a body that changes on every request cannot eat
// memory (each name costs one latency histogram, ~30 KB, while it is in use).

#include "stats/histogram.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// The bucket of every backend past the limit.
inline constexpr const char* OTHER_BACKEND = "(other)";
/// Distinct backends kept by default (--max-backends).
inline constexpr unsigned DEFAULT_MAX_BACKENDS = 256;

/// What one backend served.
struct BackendStats
{
    uint64_t requests = 0; ///< responses it sent (any status); a subset of the run's requests
    uint64_t non2xx = 0; ///< of those, statuses outside 2xx/3xx (as ErrorCounts::status)
    LatencyHistogram latency; ///< the same latency the run records (corrected in the open model)
    double firstSeenS = -1; ///< its first response, seconds since measurement began (-1: none)
    double lastSeenS = -1; ///< its last response

    void add(const BackendStats& o);
    /// One response, seen `atS` seconds into the measurement.
    void record(uint64_t latencyUs, bool non2xxStatus, double atS)
    {
        ++requests;
        if (non2xxStatus) ++non2xx;
        latency.record(latencyUs);
        if (firstSeenS < 0 || atS < firstSeenS) firstSeenS = atS;
        if (atS > lastSeenS) lastSeenS = atS;
    }
};

struct BackendBreakdown
{
    std::vector<std::string> names; ///< parallel to stats
    std::vector<BackendStats> stats;
    uint64_t unnamed = 0; ///< responses that named no backend (header absent, no match, empty body)
    unsigned limit = DEFAULT_MAX_BACKENDS; ///< names a merge keeps (--max-backends); the lower of two wins

    bool empty() const { return names.empty() && unnamed == 0; }
    /// The stats at a worker's name-table index, growing the table with the names up to it.
    BackendStats& at(size_t index, const std::vector<std::string>& nameTable)
    {
        if (index >= stats.size()) grow(index, nameTable);
        return stats[index];
    }
    /// Adds another breakdown by name; names past `limit` go to OTHER_BACKEND.
    void add(const BackendBreakdown& o);
    void clear()
    {
        names.clear();
        stats.clear();
        unnamed = 0;
    }
    /// Responses named by some backend (OTHER_BACKEND included).
    uint64_t namedRequests() const;

private:
    void grow(size_t index, const std::vector<std::string>& nameTable);
};

/// One backend of one interval as a record carries it (histogram serialised).
struct BackendRecord
{
    std::string name;
    uint64_t requests = 0;
    uint64_t non2xx = 0;
    double firstSeenS = -1;
    double lastSeenS = -1;
    std::string latencyHistogram; ///< LatencyHistogram::serialize()
    bool operator==(const BackendRecord&) const = default;
};

/// The non-empty backends of a breakdown as records, one per name, in name order.
std::vector<BackendRecord> backendRecordsOf(const BackendBreakdown& b);
/// The inverse: back into a breakdown (names in the records' order).
BackendBreakdown backendBreakdownOf(const std::vector<BackendRecord>& records, uint64_t unnamed);

} // namespace wb
