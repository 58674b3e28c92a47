#pragma once
// The Live tab: the run header and the three live charts, fed by RunTask.
// It keeps receiving while another tab is shown, so a run can be followed
// from anywhere.

#include "control/runevents.h"

#include <QColor>
#include <QTimer>
#include <QWidget>

namespace wb::ui {

class BackendStrip;
class LiveCharts;
class TargetMetricsView;
class LoaderStrip;
class RunHeader;
class RunTask;
struct RunSetup;

class LivePage : public QWidget
{
    Q_OBJECT
public:
    explicit LivePage(RunTask* task, QWidget* parent = nullptr);

    /// What Run would do now, shown while no run is going (the window asks only then).
    void setHint(const QString& text);
    /// The selected target and what Run would do with it, while no run is going: the header
    /// follows the selection (a finished run's numbers stay until the selection or the load changes).
    void showSelected(const QString& target, const QColor& color, const QString& hint);
    /// A run's probe asked from its first remote loader, before its RunTask starts.
    void beginRemoteProbe(const RunSetup& setup);
    /// That probe ended the run before it started (cancelled or failed).
    void endRemoteProbe(const RunOutcome& outcome);

    RunHeader* header() const { return m_header; }
    LiveCharts* charts() const { return m_charts; }
    BackendStrip* backends() const { return m_backends; }
    /// The target's metrics under the load curves (hidden while the run scrapes nothing).
    TargetMetricsView* targetMetrics() const { return m_metrics; }
    /// Intervals received during the current (or last) run.
    int intervalCount() const { return m_intervals; }

private:
    void begin(const RunSetup& setup);
    void phaseChanged();

    RunTask* m_task;
    RunHeader* m_header;
    LiveCharts* m_charts;
    LoaderStrip* m_loaders; ///< a run of several loaders: req/s per loader (hidden otherwise)
    BackendStrip* m_backends; ///< --backend-from: each backend's share (hidden otherwise)
    TargetMetricsView* m_metrics;
    QTimer m_clock; ///< moves the progress bar between intervals
    int m_intervals = 0;
    int64_t m_lastIntervalEndUnixMs = 0; ///< the running run's last interval's end (0: none yet)
    QString m_chartsTarget; ///< the target whose run the charts show ("" = none)
};

} // namespace wb::ui
