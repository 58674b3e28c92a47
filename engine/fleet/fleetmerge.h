#pragma once
// Many loaders, one run: merges the loaders' interval streams into one series
// and their end records into one end, then folds them like any run
// (run/runfold.h). Counts, errors and status codes are summed; histograms are
// added bucket by bucket (HdrHistogram layout on both sides), so the merged
// percentiles are those of all requests together, not an average of the
// loaders' percentiles; a mix's entries are merged the same way.
//
// Intervals are aligned on their wall-clock start: a loader that started one
// interval late contributes to the next merged interval. A merged interval is
// handed to the observers once every loader still running has passed it, so a
// coordinator keeps only the intervals some loader has not reached yet.

#include "common/result.h"
#include "run/runfold.h"
#include "run/runobserver.h"
#include "stats/snapshot.h"
#include "wire/loaderstream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

class FleetMerge
{
public:
    /// whole: the run's configuration (every loader's share adds up to it); loaders: how many.
    /// commonStartUnixMs: the start the loaders were given (0: the earliest loader's start).
    FleetMerge(RunConfig whole, unsigned loaders, int64_t commonStartUnixMs);

    void addObserver(RunObserver* observer) { m_observers.push_back(observer); }
    /// Keep the merged intervals in the result (a JSON report or a live view needs them); the
    /// store gets each one as it is merged either way. Call before the first interval.
    void keepIntervals(bool keep) { m_fold = RunFold(m_whole, keep); }

    /// A loader says who it is. Refused (one sentence) when it belongs to another run: another
    /// configuration, another loader count, an index out of range or seen twice.
    Status started(const LoaderIdentity& identity);
    void interval(unsigned loader, const IntervalRecord& interval);
    /// The loader's end record; intervalRequests: the requests its intervals hold, as it said
    /// (UINT64_MAX: not said), checked against what arrived.
    void finished(unsigned loader, const RunEnd& end, uint64_t intervalRequests = UINT64_MAX);
    /// The loader ended without a result (died, lost, refused): what it measured so far stays.
    void failed(unsigned loader, const std::string& why);

    /// Calls onStarted on the observers (once, before the first interval).
    void announce();
    /// Merges what is left and returns the run (every loader finished or failed, or the run was
    /// stopped: stopped is then true). Observers get onFinished.
    RunResult finish(bool stopped);

    bool allEnded() const;
    const std::vector<LoaderSummary>& loaders() const { return m_rows; }
    const RunConfig& config() const { return m_whole; }
    /// What the merge noticed (late intervals, other engine versions).
    const std::vector<std::string>& warnings() const { return m_warnings; }

private:
    struct Loader
    {
        bool started = false;
        bool ended = false;
        std::optional<RunEnd> end;
        int64_t passed = -1; ///< the highest merged index it contributed to
    };
    struct Pending
    {
        IntervalSnapshot sum;
        std::vector<uint64_t> loaderRequests; ///< by loader index
        double targetRatePerS = 0;
        bool any = false;
    };

    int64_t mergedIndexOf(int64_t startUnixMs) const;
    void publishReady();
    void publish(int64_t index, Pending& pending);

    RunConfig m_whole;
    unsigned m_count;
    int64_t m_commonStartUnixMs;
    uint64_t m_intervalUs;
    std::string m_configJson; ///< the run's (CA file path aside), which every loader's must match
    std::vector<Loader> m_loaders;
    std::vector<LoaderSummary> m_rows;
    std::map<int64_t, Pending> m_pending; ///< merged index -> what has arrived of it
    int64_t m_nextEmit = 0;
    std::vector<RunObserver*> m_observers;
    bool m_announced = false;
    RunFold m_fold;
    std::vector<std::string> m_warnings;
};

} // namespace wb
