#pragma once
// The final outcome of a run: what the reports, the JSON file and the store
// are made from.

#include "run/connectionfacts.h"
#include "run/http3/quicsummary.h"
#include "run/runconfig.h"
#include "stats/counters.h"
#include "stats/entrystats.h"
#include "stats/histogram.h"
#include "stats/intervalrecord.h"
#include "stats/ratesamples.h"
#include "stats/snapshot.h"

#include <string>
#include <vector>

namespace wb {

/// One loader of a run made by several (engine/fleet): its share and what it measured.
struct LoaderSummary
{
    unsigned index = 0; ///< its shard index
    std::string host; ///< where it ran (host name, pod name or agent address)
    unsigned connections = 0; ///< its share
    uint64_t requests = 0;
    uint64_t errors = 0; ///< transport errors (IntervalRecord::transportErrors)
    double requestsPerS = 0;
    double startOffsetMs = 0; ///< its measurement start minus the run's (the common start)
    std::string clock; ///< its wall clock's state (systemClockNote)
    std::string state; ///< "completed", "stopped", or why it ended early ("died: ...")
    /// What the loader itself cost over its intervals (its workers, its process, its machine), so
    /// a loader that lagged because it had no CPU to spare says so.
    LoaderCost cost;
};

/// Loaders whose measurement starts spread wider than this are flagged (their clocks disagree,
/// or one started late).
constexpr double LOADER_START_SPREAD_WARN_MS = 100;

/// The run's totals are the Measurements of all its intervals added up (the
/// open-model fields stay empty in the closed model). Made by one fold only
/// (run/runfold.h), wherever the run was measured.
struct RunResult : Measurements
{
    RunConfig config;
    std::string engineVersion;
    double durationS = 0; ///< measured time (warm-up excluded)
    double targetRatePerS = 0; ///< open model: average requested rate over the measured time
    RateSamples threadRates;
    std::vector<IntervalRecord> intervals;
    int64_t measureStartUnixMs = 0; ///< wall clock when measurement began (after warm-up)
    bool stoppedEarly = false; ///< stopped by the user or a signal before the duration elapsed
    std::string firstTlsError; ///< reason of the first TLS handshake failure, if any
    std::string firstConnectError; ///< reason of the first connect failure, if any
    std::string protocol; ///< what was spoken: "http/1.1", "h2" (by ALPN) or "h2c" (prior knowledge)
    uint64_t reconnects = 0; ///< HTTP/2: connections replaced after the server's graceful GOAWAY
    /// Responses to requests sent during the warm-up (--warmup): they reached the target but are
    /// in no figure of the run.
    uint64_t warmupRequests = 0;
    /// HTTP/2: the lowest SETTINGS_MAX_CONCURRENT_STREAMS a server sent when lower than
    /// config.streams (the run used that many streams per connection); 0 when it never limited it.
    uint32_t serverStreamLimit = 0;
    QuicSummary quic; ///< HTTP/3: what QUIC did (run/http3/quicsummary.h); empty otherwise
    ConnectionFacts connections; ///< what the connections met: parse failures, tolerated server behaviour
    std::vector<SloVerdict> slo; ///< one verdict per config.slos, in order
    /// A request mix: what each entry got (config.mix.entries[i] is entry i); empty without one.
    std::vector<EntryStats> entries;
    std::string sloAbortedBy; ///< --slo-abort: the budget that was spent ("" when the run was not aborted)
    /// Why the run failed while it ran: a script's Lua error (message and traceback) stopped it; the
    /// figures cover what was measured until then. "" when it did not fail.
    std::string failure;
    /// A run made by several loaders: one row each, by index; empty for a run of one process.
    std::vector<LoaderSummary> loaders;

    double requestsPerS() const { return durationS > 0 ? static_cast<double>(requests) / durationS : 0.0; }
    double bytesPerS() const { return durationS > 0 ? static_cast<double>(bytes) / durationS : 0.0; }
};

} // namespace wb
