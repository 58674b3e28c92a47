#pragma once
// Three stacked time charts for one run: requests/s (and the target rate in the
// open model), latency p50/p90/p99 (plus service time in the open model), and
// errors and non-2xx responses per second. Used live (appendInterval, redrawn
// at most ~10 times a second by a coalescing timer, not at all while hidden) and for stored runs
// (setSeries). Each chart is a TimePlot, which draws only the new segments of a
// live run; axes rescale to the data; hovering shows values; the context menu exports PNG.

#include "charts/chartdata.h"

#include <QWidget>
#include <memory>

namespace wb::ui {

class TimePlot;

class LiveCharts : public QWidget
{
    Q_OBJECT
public:
    explicit LiveCharts(QWidget* parent = nullptr);
    ~LiveCharts() override;

    /// Clears everything and prepares for a new run of plannedS measured seconds: the time axis
    /// spans them from the start (a 2 s run fills the width); 0 (unknown) keeps 10 s at first.
    void reset(const QString& title, const QColor& color, bool openModel, double plannedS = 0);
    /// Adds one interval (cheap: the redraw is coalesced).
    void appendInterval(const IntervalPoint& point);
    /// Shows a whole stored run at once; the time axis spans the run (a 2 s run fills the width).
    void setSeries(const RunSeries& series);
    /// Points currently held per series (long runs are downsampled to a cap).
    int pointCount() const;
    /// Applies pending intervals to the charts now instead of at the next timer tick.
    void redrawNow();

    /// A plot drawn beside the three on their time axis (the target's metrics): it gets their time
    /// axis, and all four take the widest y labels so that their 0 s line up. Call realign() when
    /// it has redrawn (its labels may have changed width).
    void alignWith(TimePlot* companion);
    void realign();

    /// The three charts, top to bottom: "rpsPlot", "latencyPlot", "errorsPlot".
    TimePlot* plot(const QString& objectName) const;

    /// Redraws are coalesced to at most one per this many milliseconds.
    static constexpr int REDRAW_INTERVAL_MS = 100;

    /// Renders the three charts to a PNG of the widget's size (or `size` if valid).
    bool exportPng(const QString& path, QSize size = {}, QString* error = nullptr) const;

signals:
    /// The history was handed to the charts (once per coalesced redraw, reset or stored run).
    void redrawn();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace wb::ui
