#pragma once
// Hovering a time chart: a vertical line follows the mouse over the plot area,
// snapped to the nearest measured point, and one tooltip lists every visible
// line's value there ("t = 4.0 s: p50 0.21 ms, p90 0.40 ms, p99 1.9 ms"). The
// user does not have to find a 2 px line with the pointer, and reads all
// lines at one moment together.

#include <QObject>
#include <QString>
#include <functional>

class QChartView;
class QGraphicsLineItem;
class QXYSeries;

namespace wb::ui {

class ChartCrosshair : public QObject
{
    Q_OBJECT
public:
    /// The x value as the tooltip's heading ("t = 4.0 s", "p99.9").
    using XFormatter = std::function<QString(double x)>;
    /// One line's value ("12,345 req/s", "1.92 ms").
    using ValueFormatter = std::function<QString(const QXYSeries* series, double y)>;

    /// Watches `view` (its viewport's mouse moves); owned by the view.
    ChartCrosshair(QChartView* view, XFormatter formatX, ValueFormatter formatValue);

    /// The tooltip at the measured point nearest to x on any visible line (value
    /// coordinates), listing each line that has data there: rich text, empty
    /// when no line has data.
    QString textAt(double x) const;
    /// Where the line is, in x value coordinates; NaN while hidden.
    double shownX() const { return m_shownX; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    const QXYSeries* referenceSeries() const;
    double snappedX(double x) const;
    void showAt(const QPoint& viewportPos);
    void hide();

    QChartView* m_view;
    XFormatter m_formatX;
    ValueFormatter m_formatValue;
    QGraphicsLineItem* m_line = nullptr;
    double m_shownX;
};

} // namespace wb::ui
