#pragma once
// The charts of the Experiments tab, side by side: requests/s per load level as
// grouped bars (one bar per target in its colour, an error bar of ± 1 sd across
// repetitions), and latency against load level (p50 solid, p99 dashed, one
// colour per target). Fed with a plain struct so that the pages need no QtCharts.

#include <QColor>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <memory>

namespace wb::ui {

struct ExperimentChartData
{
    struct Series
    {
        QString target;
        QColor color;
        /// One value per level; NaN when unknown (no completed run, or sd of one run).
        QVector<double> rpsMean, rpsSd, p50Ms, p99Ms;
    };
    QStringList levels; ///< the x categories, in plan order
    QVector<Series> targets;
};

class ExperimentCharts : public QWidget
{
    Q_OBJECT
public:
    /// Object names of the chart views and of the error-bar series (one per target and level).
    static constexpr const char* BARS_VIEW = "experimentBarsView";
    static constexpr const char* LATENCY_VIEW = "experimentLatencyView";
    static constexpr const char* ERROR_BAR = "errorBar";

    explicit ExperimentCharts(QWidget* parent = nullptr);
    ~ExperimentCharts() override;

    void setData(const ExperimentChartData& data);
    const ExperimentChartData& data() const;

    /// Renders both charts side by side into one PNG (size: the widget's when invalid).
    bool exportPng(const QString& path, QSize size = {}, QString* error = nullptr) const;
    /// Renders one chart ("bars" or "latency") into a PNG.
    bool exportChartPng(const QString& which, const QString& path, QSize size = {}, QString* error = nullptr) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace wb::ui
