#pragma once
// A run's result is a fold: its interval records added up, plus one end-of-run record (RunEnd) for what no interval
// carries. Every place that makes a RunResult calls this one fold: the run controller, FleetMerge (many loaders) and
// the store's crash recovery (intervals only: the end is what a dead process can no longer say). So adding a field to
// a run is one change, and nothing else assembles a result (docs/ARCHITECTURE.md, "One wire library, one fold").

#include "run/connectionfacts.h"
#include "run/http3/quicsummary.h"
#include "run/runresult.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// What a run adds to its intervals. Mergeable: the ends of several loaders of one run merge
/// into the end of the whole run.
struct RunEnd
{
    std::string engineVersion; ///< "" = this build's
    std::string protocol; ///< what was spoken ("http/1.1", "h2", "h2c", "h3"); "" = the configuration's
    double measuredS = 0; ///< how long it measured (0: the intervals say; loaders: the longest)
    int64_t measureStartUnixMs = 0; ///< wall clock when measurement began (0: from the first interval)
    bool stoppedEarly = false;
    uint64_t reconnects = 0; ///< HTTP/2: connections replaced after a graceful GOAWAY
    uint32_t serverStreamLimit = 0; ///< HTTP/2: the lowest stream limit a server set below --streams
    /// Responses to requests sent during the warm-up: they reached the target but are in no figure.
    uint64_t warmupRequests = 0;
    std::string firstTlsError;
    std::string firstConnectError;
    std::string sloAbortedBy; ///< --slo-abort: the budget that ended the run
    /// Why the run failed while it ran (a script's Lua error: message and traceback); "" when it did not.
    std::string failure;
    /// Every thread's 100 ms Req/Sec samples (wrk's Thread Stats), from a loader of an older build
    /// only: they travel in the intervals now (IntervalRecord::threadRateSamples).
    RateSamples threadRates;
    std::vector<EntryStats> entries; ///< a request mix: per entry, by index
    std::vector<LoaderSummary> loaders; ///< a run of several loaders: one row each, by index
    QuicSummary quic; ///< HTTP/3: what QUIC did (handshakes, loss, how connections ended); empty otherwise
    ConnectionFacts connections; ///< the first parse failure, server behaviour we tolerated

    /// Adds another loader's end of the same run: counts summed, samples and rows joined,
    /// the first error kept, the lowest stream limit, the longest measurement.
    void merge(const RunEnd& other);
};

/// The end a finished run would have written: fold(result's intervals, runEndOf(result)) gives
/// the result back.
RunEnd runEndOf(const RunResult& result);

class RunFold
{
public:
    /// keepIntervals: keep the records in the result (reports and live views want them; a
    /// coordinator that only stores may drop them).
    explicit RunFold(const RunConfig& config, bool keepIntervals = true);

    /// Adds one interval: `decoded` is the record's measurements, when the caller has them
    /// (saves decoding its histograms again).
    void add(const IntervalSnapshot& decoded, IntervalRecord record);
    void add(IntervalRecord record);

    /// The totals so far (the SLO budgets are judged on them during the run).
    const RunResult& sofar() const { return m_result; }
    /// Where the last interval added ends, seconds since measurement began.
    double lastEndS() const { return m_lastEndS; }

    /// The result: the intervals' totals, the end's fields, the duration, the requested rate
    /// and the SLO verdicts. The fold is spent afterwards.
    RunResult finish(const RunEnd& end);

private:
    RunResult m_result;
    bool m_keepIntervals;
    double m_lastEndS = 0;
    double m_plannedRequests = 0; ///< open model: the schedule's requests over the intervals
    int64_t m_firstStartUnixMs = 0;
};

} // namespace wb
