#include "stats/backends.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace wb {

void BackendStats::add(const BackendStats& o)
{
    if (o.requests == 0) return;
    requests += o.requests;
    non2xx += o.non2xx;
    latency.merge(o.latency);
    if (o.firstSeenS >= 0 && (firstSeenS < 0 || o.firstSeenS < firstSeenS)) firstSeenS = o.firstSeenS;
    lastSeenS = std::max(lastSeenS, o.lastSeenS);
}

void BackendBreakdown::grow(size_t index, const std::vector<std::string>& nameTable)
{
    const size_t from = stats.size();
    stats.resize(index + 1);
    names.resize(index + 1);
    for (size_t i = from; i <= index; ++i)
        names[i] = i < nameTable.size() ? nameTable[i] : std::string(OTHER_BACKEND);
}

void BackendBreakdown::add(const BackendBreakdown& o)
{
    limit = std::min(limit, o.limit);
    unnamed += o.unnamed;
    if (o.stats.empty()) return;
    // An interval merges a few workers' tables of a few names: a map of this side's
    // names, made once per merge, keeps it linear.
    std::unordered_map<std::string, size_t> where;
    where.reserve(names.size() + o.names.size());
    for (size_t i = 0; i < names.size(); ++i)
        where.emplace(names[i], i);
    for (size_t i = 0; i < o.stats.size(); ++i) {
        if (o.stats[i].requests == 0) continue; // a name this worker knows, silent in this interval
        auto it = where.find(o.names[i]);
        if (it == where.end()) {
            // Past the limit (other workers or loaders saw other names): the rest is "other",
            // whose slot is the last one the limit allows.
            const bool full = names.size() >= std::max(1u, limit);
            const std::string& name = full ? std::string(OTHER_BACKEND) : o.names[i];
            it = where.find(name);
            if (it == where.end()) {
                names.push_back(name);
                stats.emplace_back();
                it = where.emplace(name, names.size() - 1).first;
            }
        }
        stats[it->second].add(o.stats[i]);
    }
}

uint64_t BackendBreakdown::namedRequests() const
{
    return std::accumulate(
        stats.begin(), stats.end(), uint64_t { 0 }, [](uint64_t n, const BackendStats& s) { return n + s.requests; });
}

std::vector<BackendRecord> backendRecordsOf(const BackendBreakdown& given)
{
    // One record per name: a breakdown read from elsewhere (a record, the wire) may name a
    // backend twice; adding it to an empty one merges them.
    BackendBreakdown b;
    b.limit = given.limit;
    b.add(given);
    std::vector<BackendRecord> out;
    for (size_t i = 0; i < b.stats.size(); ++i) {
        const BackendStats& s = b.stats[i];
        if (s.requests == 0) continue;
        out.push_back({ b.names[i], s.requests, s.non2xx, s.firstSeenS, s.lastSeenS, s.latency.serialize() });
    }
    std::sort(out.begin(), out.end(), [](const BackendRecord& x, const BackendRecord& y) { return x.name < y.name; });
    return out;
}

BackendBreakdown backendBreakdownOf(const std::vector<BackendRecord>& records, uint64_t unnamed)
{
    BackendBreakdown b;
    b.unnamed = unnamed;
    b.names.reserve(records.size());
    b.stats.resize(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        const BackendRecord& r = records[i];
        b.names.push_back(r.name);
        BackendStats& s = b.stats[i];
        s.requests = r.requests;
        s.non2xx = r.non2xx;
        s.firstSeenS = r.firstSeenS;
        s.lastSeenS = r.lastSeenS;
        if (!r.latencyHistogram.empty() && !s.latency.deserialize(r.latencyHistogram)) s.latency.reset();
    }
    return b;
}

} // namespace wb
