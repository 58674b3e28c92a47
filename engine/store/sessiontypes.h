#pragma once
// The records a session holds: targets, load profiles, runs with their
// summary, interval series, status codes and histograms.
//
// Conventions: ids are SQLite row ids (0 = none); timestamps are milliseconds
// since the Unix epoch, UTC (0 = unknown); latencies are microseconds; a NaN
// double means "not known" (an imported wrk report has no p75, a closed-model
// run no service time) and is stored as NULL.

#include "common/clock.h"
#include "prometheus/exposition/scraperecord.h"
#include "run/runconfig.h"
#include "run/runresult.h"
#include "stats/counters.h"
#include "stats/entrystats.h"
#include "stats/histogram.h"
#include "stats/intervalrecord.h"
#include "stats/latencysummary.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

struct RunResult;

/// Where a run is in its life. Stored as its lower-case name.
enum class RunStatus {
    Running, ///< being written by a live process
    Completed, ///< ran for its whole duration
    Stopped, ///< stopped early by the user; the data covers what completed
    Interrupted, ///< the writing process died (crash, SIGKILL, reboot); the intervals written are kept
    /// Never started (target unreachable, TLS error, ...), or stopped by a script's error (with the
    /// figures measured until then); see RunRecord::error
    Failed,
    Imported, ///< read from a wrk/wrk2 log
};

const char* runStatusName(RunStatus status);
std::optional<RunStatus> runStatusFromName(const std::string& name);

/// Where a run sits in an A-vs-B experiment (engine/experiment): which
/// experiment, which cell of its load matrix, which repetition. A run made
/// outside an experiment has experimentId 0 and the indexes -1.
struct ExperimentSlot
{
    int64_t experimentId = 0;
    int cellIndex = -1; ///< 0-based, into the plan's list of load levels
    int repetition = -1; ///< 0-based
    bool operator==(const ExperimentSlot&) const = default;
};

/// Where an experiment is in its life. Stored as its lower-case name.
enum class ExperimentStatus {
    Planned, ///< created, no run made yet
    Running, ///< a live process is running it
    Completed, ///< every run of the plan completed
    Stopped, ///< stopped by the user; can be resumed
    Interrupted, ///< the running process died; can be resumed
    Failed, ///< a run could not start (target unreachable...); see ExperimentRecord::error
};

const char* experimentStatusName(ExperimentStatus status);
std::optional<ExperimentStatus> experimentStatusFromName(const std::string& name);

/// What an experiment is. Stored as its lower-case name (schema 8; 'plan' before).
enum class ExperimentKind {
    Plan, ///< a plan the runner makes runs for (its runs point back at it)
    Study, ///< stored runs gathered after the fact, nothing run (engine/experiment/study.h)
    Capacity, ///< a capacity search: its trials are runs (engine/capacity/capacityrecord.h)
};

const char* experimentKindName(ExperimentKind kind);

/// A run of a study, with the cell it was given (study_runs).
struct StudyRunLink
{
    int64_t runId = 0;
    std::string group; ///< "" when the study has no groups
    std::string variant; ///< a target name or a variant tag
};

/// A trial of a capacity search as stored (capacity_trials): what was run and the verdict the
/// search was told, so that the search can be replayed and go on. engine/capacity reads and
/// writes it (capacityrecord.h); the store keeps it as fields.
struct CapacityTrialRow
{
    int target = 0; ///< index into the search's targets
    int64_t runId = 0; ///< 0: not stored (or deleted since)
    double ratePerS = 0;
    uint64_t durationUs = 0;
    bool final = false;
    bool passed = false;
    bool loaderLimited = false;
    std::string loaderReason;
    std::string failedSlo;
    std::string sloJson = "[]"; ///< the verdicts, as runs.slo
    double elapsedS = 0;
};

/// One row of the experiments table. The plan is kept as the JSON it was
/// created from (engine/experiment parses it), so the store does not depend on
/// the experiment library.
struct ExperimentRecord
{
    int64_t id = 0;
    std::string name;
    std::string planJson; ///< a plan, or a study's definition (kind Study)
    ExperimentKind kind = ExperimentKind::Plan;
    ExperimentStatus status = ExperimentStatus::Planned;
    int64_t createdAtMs = 0;
    int64_t startedAtMs = 0; ///< when it was last started or resumed
    int64_t finishedAtMs = 0; ///< when it last ended (completed, stopped, failed)
    std::string hostName; ///< where it was last run
    std::string error; ///< why it failed
    std::string notes;
};

/// A named endpoint that runs are made against ("GKE NEG", "NodePort").
struct Target
{
    int64_t id = 0;
    std::string name; ///< unique in the session
    std::string url; ///< as typed (imported reports may hold URLs that do not parse)
    std::string method = "GET";
    std::vector<Header> headers;
    std::string body;
    TlsOptions tls;
    HttpVersion httpVersion = HttpVersion::Http1; ///< HTTP/2 is h2 by ALPN over https, h2c over http
    /// A request mix file (--requests) sent instead of the one request above; its entries must go
    /// to the URL's origin. Empty: none. Read when a run starts, so edits to the file count.
    std::string requestMix;
    MixOrder mixOrder = MixOrder::RoundRobin;
    /// A wrk Lua script (-s) the runs of this target run; empty: none. Read when a run starts,
    /// as the mix file is; its text then goes with the run's configuration.
    std::string script;
    std::vector<std::string> scriptArgs; ///< the script's init(args) (what follows `--` under wrk)
    std::vector<std::string> tags; ///< e.g. "NEG", "NodePort", "Ambassador", "Service"
    std::string notes;
    int64_t createdAtMs = 0;
    /// The target's own metrics its runs read (--scrape; the GUI's Metrics field); none by default.
    ScrapeSpec scrape;
};

/// A named load shape, independent of the target: threads, connections,
/// duration, rate, stages... (RunConfig's request and tls are not used).
struct LoadProfile
{
    int64_t id = 0;
    std::string name; ///< unique in the session
    RunConfig load;
    std::string notes;
    int64_t createdAtMs = 0;
};

/// Per-thread request rate statistics (wrk's "Req/Sec" row).
struct ThreadRateSummary
{
    double mean = UNKNOWN, stdev = UNKNOWN, max = UNKNOWN, withinStdevPct = UNKNOWN;
};

/// The outcome numbers of a run (absent while it is running).
struct RunTotals
{
    double durationS = 0;
    uint64_t requests = 0;
    uint64_t bytes = 0;
    double requestsPerS = 0;
    double bytesPerS = 0;
    ErrorCounts errors; ///< requests without a usable answer (imported: wrk's socket errors)
    uint64_t non2xx = 0; ///< responses outside 2xx/3xx (imported: wrk's "Non-2xx or 3xx responses")
    LatencySummary latency; ///< corrected in the open model
    LatencySummary serviceLatency; ///< open model only (uncorrected)
    LatencySummary sendLag; ///< open model only: send time minus due time (the generator's own lateness)
    ThreadRateSummary threadRate;
    double targetRatePerS = UNKNOWN;
    uint64_t lateRequests = 0;
    uint64_t maxLagUs = 0;
    bool stoppedEarly = false;
    std::string firstTlsError;
    std::string firstConnectError;
    std::string
        protocol; ///< what the run spoke: "http/1.1", "h2", "h2c", "h3"; "" when unknown (imported, stored before v5)
    uint64_t reconnects = 0; ///< connections replaced after a graceful GOAWAY
    uint32_t serverStreamLimit = 0; ///< HTTP/2: the server's stream limit when lower than --streams, else 0
    // Connection phases under load (count 0 for imported runs and runs stored before v6).
    PhaseSummary connect; ///< TCP connects of every connection opened
    PhaseSummary tlsHandshake; ///< TLS handshakes of every connection opened
    PhaseSummary firstByte; ///< send to first response byte, per request
    std::vector<SloVerdict> slo; ///< the verdicts of config.slos (schema 6), in order
    std::string sloAbortedBy; ///< --slo-abort stopped the run: the budget spent (schema 7; "" otherwise)
    /// What the loader itself cost over the run (schema 11; not measured for imported runs and
    /// runs stored before): its saturation is the comparability check's and the tables' to name.
    LoaderCost loaderCost;
    QuicSummary quic; ///< HTTP/3: what QUIC did (schema 13: runs.quic); empty for other protocols
    ConnectionFacts connections; ///< the first parse failure, tolerated server behaviour (schema 15)
};

/// One row of the runs table.
struct RunRecord
{
    int64_t id = 0;
    int64_t targetId = 0;
    std::string targetName;
    int64_t profileId = 0;
    std::string profileName; ///< snapshot of the profile's name when the run was made
    RunConfig config; ///< the full configuration (a re-run uses it as is)
    std::string url; ///< as typed or as the log printed it
    std::string configJson;
    RunStatus status = RunStatus::Running;
    int64_t createdAtMs = 0;
    int64_t startedAtMs = 0; ///< load start (0 for imported runs: the log does not say)
    int64_t finishedAtMs = 0;
    std::string engineVersion; ///< "0.1.0"; "wrk" or "wrk2" for imported runs
    std::string hostName; ///< where the load ran ("" when unknown)
    unsigned cpuCount = 0;
    std::string notes;
    std::vector<std::string> tags;
    std::string error; ///< why a run failed
    std::string source; ///< imported: "file:first-last" lines
    std::string commandLine; ///< imported: the wrk command line above the report
    std::string probeJson; ///< the probe made just before the run (ProbeResult JSON), empty when none
    std::string scriptOutput; ///< what the run's wrk script printed (done()'s report); schema 12
    bool hasTotals = false; ///< false while running (and for runs that failed before any load)
    RunTotals totals;
    ExperimentSlot experiment; ///< the experiment cell and repetition this run belongs to, if any
};

/// A percentile row printed by wrk (--latency) or wrk2 (the spectrum).
struct PercentileRow
{
    double percentile = 0; ///< 0..100
    double valueUs = 0;
    uint64_t totalCount = 0; ///< wrk2 spectrum only
};

/// Everything stored about one run.
struct RunData
{
    RunRecord run;
    std::vector<IntervalRecord> intervals;
    std::vector<std::pair<int, uint64_t>> statusCodes; ///< non-zero counts, by code
    std::optional<LatencyHistogram> latency; ///< the final histogram (absent for imported runs)
    std::optional<LatencyHistogram> serviceLatency; ///< open model only
    std::optional<LatencyHistogram> connect; ///< connection phases (absent before v6 and for imported runs)
    std::optional<LatencyHistogram> tlsHandshake;
    std::optional<LatencyHistogram> firstByte;
    std::vector<PercentileRow> latencyDistribution; ///< imported: wrk's "Latency Distribution"
    std::vector<PercentileRow> spectrum; ///< imported: wrk2's "Detailed Percentile spectrum"
    /// A request mix: what each entry got (run.config.mix.entries[i] is entry i); empty without one.
    std::vector<EntryStats> entries;
    /// A run made by several loaders (engine/fleet): one row each, by index; empty otherwise.
    std::vector<LoaderSummary> loaders;
    /// The target's own metrics read during the run (--scrape); empty when it scraped none.
    ScrapeRecord scrape;
};

/// Which runs RunRepository::list() returns. Empty fields do not filter.
struct RunFilter
{
    std::string targetName;
    std::vector<std::string> tags; ///< a run matches when it or its target carries every one
    std::optional<RunStatus> status;
    int64_t experimentId = 0; ///< only runs of this experiment
};

/// What the recorder writes when a run starts.
struct NewRun
{
    int64_t targetId = 0;
    int64_t profileId = 0;
    std::string profileName;
    RunConfig config;
    int64_t startedAtMs = 0;
    std::vector<std::string> tags;
    std::string notes;
    ExperimentSlot experiment;
    std::string probeJson; ///< ProbeResult::toJsonText() of the probe made just before, or empty
};

/// What the recorder writes when a run ends.
struct FinishedRun
{
    RunStatus status = RunStatus::Completed;
    int64_t finishedAtMs = 0;
    RunTotals totals;
    std::vector<std::pair<int, uint64_t>> statusCodes;
    std::string latencyHistogram; ///< serialize() blobs
    std::string serviceHistogram;
    std::string connectHistogram;
    std::string tlsHandshakeHistogram;
    std::string firstByteHistogram;
    std::vector<EntryStats> entries; ///< a request mix: per entry
    std::vector<std::string> entryLabels; ///< their labels, for the table's readers
    std::vector<LoaderSummary> loaders; ///< a run made by several loaders: one row each
    std::string error; ///< status Failed: why (RunResult::failure)

    static FinishedRun of(const RunResult& result, int64_t finishedAtMs);
};

} // namespace wb
