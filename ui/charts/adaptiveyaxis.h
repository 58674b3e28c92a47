#pragma once
// A latency y axis that is linear while the values are comparable and switches
// to base-10 log when they are not.
//
// Why not always log: on a log axis p50 = 2.9 ms and p99 = 4.1 ms sit almost on
// top of each other, and a 30% regression is hard to see; engineers read those
// differences on a linear scale from zero. Why not always linear: when a tail
// spike of 800 ms shares the chart with a 2 ms median, the median is crushed
// onto the x axis. So the axis goes log when max/min spans more than 100x (two
// decades) and comes back to linear below 50x; the gap is hysteresis, so a live
// chart does not flip back and forth on every tick near the threshold.

#include <QList>

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QLogValueAxis;
class QValueAxis;

namespace wb::ui {

/// The rule above as a function, for plots without a QtCharts axis: the mode for
/// data in [minPositive, max] (minPositive: the smallest value > 0) when the
/// axis is in log mode now (`currentlyLog`) or not.
bool wantsLogScale(bool currentlyLog, double minPositive, double max);

class AdaptiveYAxis
{
public:
    static constexpr double LOG_ABOVE_RATIO = 100.0;
    static constexpr double LINEAR_BELOW_RATIO = 50.0;

    /// Creates both axes (owned by the chart); the linear one is shown first.
    AdaptiveYAxis(QChart* chart, const QString& title);

    /// Series that follow this axis (attached to whichever axis is current).
    void addSeries(QAbstractSeries* series);
    void clearSeries();

    /// Decides the mode for data in [minPositive, max] (minPositive: the smallest
    /// value > 0; values <= 0 cannot be drawn on the log axis and are left out by
    /// the caller) and sets the range. Returns true when in log mode.
    bool update(double minPositive, double max);
    /// The mode update() would choose for these values, given the current mode.
    bool wantsLog(double minPositive, double max) const;

    bool isLog() const { return m_log; }
    QAbstractAxis* current() const;
    QValueAxis* linearAxis() const { return m_linear; }
    QLogValueAxis* logAxis() const { return m_logAxis; }

private:
    void switchTo(bool log);

    QChart* m_chart;
    QValueAxis* m_linear;
    QLogValueAxis* m_logAxis;
    QList<QAbstractSeries*> m_series;
    bool m_log = false;
};

} // namespace wb::ui
