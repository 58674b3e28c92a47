#pragma once
// The comparison charts for two or more runs: requests/s over time overlaid,
// the latency percentile spectrum on a logarithmic "nines" axis (50%, 90%, 99%,
// 99.9%, 99.99%, ...; x = 1/(1-p) on a log scale, y = latency in ms), and a
// bar chart of requests/s per run. One colour per run (its target's colour).

#include "charts/chartdata.h"

#include <QWidget>
#include <memory>

namespace wb::ui {

class CompareCharts : public QWidget
{
    Q_OBJECT
public:
    explicit CompareCharts(QWidget* parent = nullptr);
    ~CompareCharts() override;

    void setRuns(const QVector<RunSeries>& runs);
    int runCount() const;

    /// Renders all three charts into one PNG.
    bool exportPng(const QString& path, QSize size = {}, QString* error = nullptr) const;
    /// Renders one chart ("rps", "spectrum", "bars") into a PNG.
    bool exportChartPng(const QString& which, const QString& path, QSize size = {}, QString* error = nullptr) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// A stable, distinct colour for a target id (the same everywhere in the UI).
QColor colorForTarget(qint64 targetId);

} // namespace wb::ui
