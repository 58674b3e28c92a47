#pragma once
// What one request of a mix (--requests) got over the measured run: each worker
// keeps one per entry for the whole run (not per interval: a mix of thousands
// of entries must not multiply the interval records), the run controller adds
// them up when the run ends.

#include "stats/counters.h"
#include "stats/histogram.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace wb {

struct EntryStats
{
    /// Entries beyond this many keep their counts but no latency histogram: a histogram is
    /// ~30 KB, and a mix may have 65,535 entries (URL lists).
    static constexpr size_t MAX_WITH_HISTOGRAM = 1024;

    uint64_t requests = 0; ///< responses (any status)
    /// stream: streams the server reset; read, write,
    /// timeout, parse: charged to the oldest request in flight on the connection. Connect and
    /// TLS errors belong to no entry (no request was sent).
    ErrorCounts errors;
    std::vector<std::pair<int, uint64_t>> statusCodes; ///< by code, in order of first appearance
    std::unique_ptr<LatencyHistogram> latency; ///< null beyond MAX_WITH_HISTOGRAM (or before the first response)

    EntryStats() = default;
    EntryStats(EntryStats&&) = default;
    EntryStats& operator=(EntryStats&&) = default;
    EntryStats(const EntryStats& o)
        : requests(o.requests)
        , errors(o.errors)
        , statusCodes(o.statusCodes)
        , latency(o.latency ? std::make_unique<LatencyHistogram>(*o.latency) : nullptr)
    { }
    EntryStats& operator=(const EntryStats& o)
    {
        if (this != &o) *this = EntryStats(o);
        return *this;
    }

    void addResponse(int status, uint64_t latencyUs, bool withHistogram)
    {
        ++requests;
        addStatus(status, 1);
        if (!withHistogram) return;
        if (!latency) latency = std::make_unique<LatencyHistogram>();
        latency->record(latencyUs);
    }
    /// Responses outside 2xx/3xx.
    uint64_t non2xx() const { return non2xxOf(statusCodes); }
    void addStatus(int status, uint64_t count)
    {
        for (auto& [code, n] : statusCodes)
            if (code == status) {
                n += count;
                return;
            }
        statusCodes.emplace_back(status, count);
    }
    void add(const EntryStats& o)
    {
        requests += o.requests;
        errors += o.errors;
        for (const auto& [code, n] : o.statusCodes)
            addStatus(code, n);
        if (o.latency) {
            if (!latency) latency = std::make_unique<LatencyHistogram>();
            latency->merge(*o.latency);
        }
    }
};

} // namespace wb
