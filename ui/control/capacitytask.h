#pragma once
// One capacity search (engine/capacity/capacityrunner.h) on its own thread, for "Find capacity…":
// the same search as `wrkbench-cli capacity`, stored in the session as an experiment of kind
// capacity with every trial a run linked to it. A BackgroundJob: what each trial showed arrives on
// the UI thread as progress(), the report as finished().

#include "capacity/capacityreport.h"
#include "capacity/capacitysearch.h"
#include "control/backgroundjob.h"
#include "run/runconfig.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <string>
#include <utility>
#include <vector>

namespace wb::ui {

/// A trial about to start (judged = false) or judged.
struct CapacityTrialEvent
{
    int target = 0; ///< index among the search's targets
    QString label; ///< "A", "B"...
    unsigned number = 0; ///< from 1
    double ratePerS = 0;
    double durationS = 0;
    double budgetLeftS = 0;
    bool judged = false;
    bool passed = false;
    bool loaderLimited = false;
    QString verdicts; ///< "p99 12.3ms<50ms ok; errors 0%<0.1% ok"
    QString loaderReason;
    double p50Ms = 0, p99Ms = 0;
    double lowerPerS = 0, upperPerS = 0; ///< the target's bracket after the trial (0: none yet)
};

struct CapacityTaskResult
{
    bool ok = false; ///< the search ran to its end or was stopped; false: it could not start or a trial failed
    bool stopped = false;
    QString error;
    int64_t searchId = 0; ///< the stored experiment (0: it could not be stored)
    CapacityReport report; ///< what was measured, a failed or stopped search's too
};

class CapacityTask : public QObject
{
    Q_OBJECT
public:
    static constexpr int DRAIN_MS = 100;

    explicit CapacityTask(QObject* parent = nullptr);
    /// Stops a search still going and waits for it.
    ~CapacityTask() override = default;

    /// Searches `targets` (URL and configuration each; their SLOs the thresholds) with `options`,
    /// stored in the session at sessionPath, each trial a run of its session target
    /// (`sessionTargetIds`, by index), named `name` (empty: from the URLs); `warmupGiven`: each
    /// trial warms up first, as the CLI's --warmup. False when one is already running.
    bool start(const QString& sessionPath, std::vector<std::pair<std::string, RunConfig>> targets,
        std::vector<int64_t> sessionTargetIds, const CapacityOptions& options, std::string name = {},
        bool warmupGiven = false);
    /// The trial running ends at once; the search stops and finished() says what was measured.
    void stop();
    bool waitForFinished(int timeoutMs = 30'000);
    bool isActive() const { return m_job.isRunning(); }

signals:
    void progress(const wb::ui::CapacityTrialEvent& event);
    void finished(const wb::ui::CapacityTaskResult& result);

private:
    BackgroundJob<CapacityTaskResult, CapacityTrialEvent> m_job;
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::CapacityTrialEvent)
Q_DECLARE_METATYPE(wb::ui::CapacityTaskResult)
