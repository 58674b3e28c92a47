#pragma once
// Latency against throughput, the "knee" chart: achieved requests/s on x, latency
// on y (linear from zero, log when the values span more than 100x, as the other
// latency charts), p50 solid and p99 dashed, one colour per variant (experiments and studies)
// or one line through a stage run's stages (run details). Where a line turns up
// steeply, the target has stopped taking more load. Fed with a plain struct so the
// pages need no QtCharts (engine/experiment/kneecurve.h makes the points).

#include <QColor>
#include <QPointF>
#include <QSize>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <memory>

class QChart;

namespace wb::ui {

struct KneeChartData
{
    struct Series
    {
        QString name;
        QColor color;
        QVector<QPointF> p50; ///< (req/s, ms), in level or stage order
        QVector<QPointF> p99;
        QStringList labels; ///< per point: the level or stage, for the tooltip
    };
    QVector<Series> series;
    bool empty() const { return series.isEmpty(); }
};

class KneeChart : public QWidget
{
    Q_OBJECT
public:
    static constexpr const char* VIEW = "kneeView";

    explicit KneeChart(QWidget* parent = nullptr);
    ~KneeChart() override;

    void setData(const KneeChartData& data);
    const KneeChartData& data() const;
    QChart* chart() const;

    /// Renders the chart into a PNG (size: the widget's when invalid).
    bool exportPng(const QString& path, QSize size = {}, QString* error = nullptr) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace wb::ui
