#pragma once
// Hover tooltips for chart series: the value under the mouse, snapped to the
// nearest data point (the hovered() position itself is an interpolated spot on
// the line, not a measurement).

#include <QList>
#include <QPointF>
#include <QString>
#include <functional>

class QBarSet;
class QXYSeries;

namespace wb::ui {

/// Formats the tooltip of one data point (rich text allowed).
using PointFormatter = std::function<QString(const QPointF& point)>;

/// Shows a tooltip with format(nearest point) while the mouse is over the series.
void attachHoverTooltip(QXYSeries* series, PointFormatter format);
/// Shows a tooltip with format(category index) while the mouse is over a bar of the set.
void attachBarTooltip(QBarSet* set, std::function<QString(int index)> format);

/// Index of the point whose x is nearest to `x` (points sorted by x), -1 if none.
qsizetype nearestPointIndex(const QList<QPointF>& points, double x);

} // namespace wb::ui
