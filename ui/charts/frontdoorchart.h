#pragma once
// The front door's own share (--upstream-time) as a chart: the total time, the upstream's and
// the front door's, p50, p90 and p99 as bars side by side (three distributions: percentiles do
// not add, so they are never stacked), and below them the mean split as one stacked bar, because
// means do add: over the responses that stated an upstream time, mean total = mean upstream +
// mean front door. Painted with QPainter from a plain struct (the run details fill it).

#include <QColor>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QVector>
#include <QWidget>

namespace wb::ui {

struct FrontDoorChartData
{
    struct Side
    {
        QString name; ///< "Latency" (or "Service time"), "Upstream", "Front door"
        QColor color;
        double p50Ms = 0, p90Ms = 0, p99Ms = 0, meanMs = 0;
        quint64 responses = 0;
    };
    QVector<Side> sides; ///< the total first, then upstream and front door
    bool hasMeanSplit = false; ///< some response stated an upstream time
    double meanUpstreamMs = 0; ///< the two parts of the mean split
    double meanFrontDoorMs = 0;
    bool empty() const { return sides.isEmpty(); }
};

class FrontDoorChart : public QWidget
{
    Q_OBJECT
public:
    explicit FrontDoorChart(QWidget* parent = nullptr);

    void setData(const FrontDoorChartData& data);
    const FrontDoorChartData& data() const { return m_data; }

    /// The percentiles drawn, in group order.
    static constexpr double PERCENTILES[] = { 50, 90, 99 };
    /// Where the bar of a percentile (0..2, PERCENTILES) and side (data().sides index) is drawn,
    /// and the value it stands for: its height is value / scaleMaxMs() of the plot's height.
    QRectF barRect(int group, int side) const;
    double barValueMs(int group, int side) const;
    /// The top of the bars' scale (a round number at or above the highest bar).
    double scaleMaxMs() const;
    /// The mean split's two parts (0 upstream, 1 front door), side by side in one bar whose whole
    /// width is the mean total.
    QRectF splitRect(int part) const;
    /// The line under the split: "Mean 2.52 ms = upstream 2.30 ms + front door 0.22 ms (8.8 % front door)".
    QString splitText() const;

    QSize sizeHint() const override { return { 520, 300 }; }
    QSize minimumSizeHint() const override { return { 320, 220 }; }

    /// Renders the chart into a PNG (size: the widget's when invalid).
    bool exportPng(const QString& path, QSize size = {}, QString* error = nullptr);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Layout
    {
        QRectF plot; ///< the bars' area (values 0 .. scaleMax bottom to top)
        QRectF split; ///< the mean split's bar
    };
    Layout layout(QSize size) const;
    QRectF barIn(const QRectF& plot, int group, int side) const;
    void paint(QPainter& p, QSize size) const;

    FrontDoorChartData m_data;
};

} // namespace wb::ui
