#include "charts/charthover.h"

#include <QBarSet>
#include <QCursor>
#include <QToolTip>
#include <QXYSeries>
#include <algorithm>

namespace wb::ui {

qsizetype nearestPointIndex(const QList<QPointF>& points, double x)
{
    if (points.isEmpty()) return -1;
    const auto it = std::lower_bound(
        points.begin(), points.end(), x, [](const QPointF& p, double value) { return p.x() < value; });
    if (it == points.begin()) return 0;
    if (it == points.end()) return points.size() - 1;
    const auto before = it - 1;
    return (x - before->x() <= it->x() - x) ? (before - points.begin()) : (it - points.begin());
}

void attachHoverTooltip(QXYSeries* series, PointFormatter format)
{
    QObject::connect(
        series, &QXYSeries::hovered, series, [series, format = std::move(format)](const QPointF& point, bool entered) {
            if (!entered) {
                QToolTip::hideText();
                return;
            }
            const QList<QPointF> points = series->points();
            const qsizetype i = nearestPointIndex(points, point.x());
            if (i >= 0) QToolTip::showText(QCursor::pos(), format(points[i]));
        });
}

void attachBarTooltip(QBarSet* set, std::function<QString(int index)> format)
{
    QObject::connect(set, &QBarSet::hovered, set, [format = std::move(format)](bool entered, int index) {
        if (entered)
            QToolTip::showText(QCursor::pos(), format(index));
        else
            QToolTip::hideText();
    });
}

} // namespace wb::ui
