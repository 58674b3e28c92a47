#pragma once
// The small values a run hands to the pages. The run thread queues the engine's
// IntervalRecord as it is; the UI thread turns it into a chart point with the same
// function as a stored interval (models/runseries.h), so one rule holds for both.

#include "charts/chartdata.h"
#include "store/sessiontypes.h"

#include <QMetaType>
#include <QString>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wb::ui {

/// One interval of the running run, as the run header, the badge and the live charts show it.
struct LiveInterval
{
    IntervalPoint point;
    double startS = 0;
    int64_t startUnixMs = 0; ///< wall clock at startS (0: unknown)
    uint64_t requests = 0; ///< responses completed in the interval (any status)
    uint64_t errors = 0; ///< socket, TLS and parse errors (not non-2xx responses)
    uint64_t non2xx = 0; ///< responses outside 2xx/3xx
    uint32_t connections = 0;
    /// A run of several loaders: each loader's req/s in the interval, by index (empty otherwise).
    std::vector<double> loaderRequestsPerS;
    /// --backend-from: each backend's responses in the interval, by name, as the fold merged them
    /// (empty otherwise); the names that appeared in no interval yet are the strip's to remember.
    std::vector<std::pair<std::string, uint64_t>> backendRequests;
};

/// The live view of an interval record whose chart point is `point`.
inline LiveInterval liveIntervalOf(const IntervalRecord& r, const IntervalPoint& point)
{
    LiveInterval live;
    live.point = point;
    live.startS = r.startS;
    live.startUnixMs = r.startUnixMs;
    live.requests = r.requests;
    live.errors = r.transportErrors();
    live.non2xx = r.non2xx();
    live.connections = r.connections;
    const double durationS = r.durationS();
    for (uint64_t n : r.loaderRequests)
        live.loaderRequestsPerS.push_back(durationS > 0 ? static_cast<double>(n) / durationS : 0.0);
    for (const BackendRecord& b : r.backends)
        live.backendRequests.emplace_back(b.name, b.requests);
    return live;
}

/// How a run ended, with its headline numbers.
struct RunOutcome
{
    RunStatus status = RunStatus::Failed; ///< Completed, Stopped, or Failed (never started)
    int64_t runId = 0; ///< 0 when nothing was stored (cancelled during the probe, or storage failed)
    QString error; ///< why the run did not start
    /// The pre-run probe (RunSetup::probeFirst) failed: no load was sent and nothing
    /// was stored; error is the probe's reason. The UI offers "Run anyway".
    bool probeFailed = false;
    /// The pre-run probe that passed, as ProbeResult::toJsonText() (RunSetup::probeFirst).
    QString probeJson;
    QString storageWarning; ///< the run happened but was not stored whole
    bool cancelled = false; ///< stopped before the load started: nothing ran, nothing stored
    double durationS = 0;
    uint64_t requests = 0;
    double requestsPerS = 0;
    double p50Us = UNKNOWN;
    double p99Us = UNKNOWN;
    uint64_t errors = 0; ///< socket, TLS and parse errors
    uint64_t non2xx = 0;
    /// Open model: the generator's send lag was a noticeable part of the latency (generatorlag.h).
    QString generatorLagWarning;
    /// The loader had no CPU to spare: the figures may measure it rather than the target
    /// (report/loadersaturation.h), with its numbers; "" otherwise.
    QString loaderWarning;
    std::vector<SloVerdict> slo; ///< one verdict per SLO of the profile, judged when the run ended
    QString sloAbortedBy; ///< the SLO whose error budget was spent when it stopped the run ("" otherwise)
    /// A wrk script: what it printed (setup(), done(); kept with the run), and an error in done(),
    /// which comes after the run was stored.
    QString scriptOutput;
    QString scriptDoneError;
    /// Failed while it ran (a script's Lua error, in error): what was measured is above and stored.
    bool failedWhileRunning = false;
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::LiveInterval)
Q_DECLARE_METATYPE(wb::ui::RunOutcome)
