#pragma once
// The small values a run hands to the UI thread. An IntervalSnapshot carries
// several 30 KB histograms; these carry the few numbers the UI shows.

#include "charts/chartdata.h"
#include "store/sessiontypes.h"

#include <QMetaType>
#include <QString>
#include <cstdint>

namespace wb::ui {

/// One merged interval, reduced to what the run header and live charts show.
struct LiveInterval
{
    IntervalPoint point;
    double startS = 0;
    uint64_t requests = 0; ///< responses completed in the interval (any status)
    uint64_t errors = 0; ///< socket, TLS and parse errors (not non-2xx responses)
    uint64_t non2xx = 0; ///< responses outside 2xx/3xx
    uint32_t connections = 0;
};

/// How a run ended, with its headline numbers.
struct RunOutcome
{
    RunStatus status = RunStatus::Failed; ///< Completed, Stopped, or Failed (never started)
    int64_t runId = 0; ///< 0 when nothing was stored (cancelled during the probe, or storage failed)
    QString error; ///< why the run did not start
    /// The pre-run probe (RunPlan::probeFirst) failed: no load was sent and nothing
    /// was stored; error is the probe's reason. The UI offers "Run anyway".
    bool probeFailed = false;
    /// The pre-run probe that passed, as ProbeResult::toJsonText() (RunPlan::probeJson).
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
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::LiveInterval)
Q_DECLARE_METATYPE(wb::ui::RunOutcome)
