#pragma once
// Everything of a TimePlot that is not a line: where the title, legend and plot
// area go in a rectangle, and painting the white background, grid, axes, tick
// labels, title and legend. Drawn once into the plot's pixmap per scale, size
// or look, never for a new point; and straight into the image on PNG export.

#include "charts/plotaxes.h"

#include <QList>
#include <QRect>
#include <QString>

class QPainter;

namespace wb::ui {

struct PlotLine;

/// What the frame shows.
struct PlotFrame
{
    QString title;
    const QList<PlotLine>* lines = nullptr; ///< the legend lists the visible ones
    PlotYScale yScale;
    PlotTimeAxis timeAxis;
    int yLabelWidthPx = 0; ///< room left of the plot for the y labels (at least the widest)
};

/// Where the parts go in `target`.
struct PlotGeometry
{
    QRectF plot; ///< the plot area: lines are clipped to it
    QRectF title;
    QRectF legend; ///< empty when the legend does not fit on one line (it is hidden then)
};

PlotGeometry plotGeometry(const QRect& target, const PlotFrame& frame);
/// Width of the widest y tick label of a scale.
int yLabelWidthPx(const PlotYScale& scale);
/// Paints the background, grid, axes, labels, title and legend (everything but the lines).
void paintPlotFrame(QPainter& painter, const QRect& target, const PlotGeometry& geometry, const PlotFrame& frame);

} // namespace wb::ui
