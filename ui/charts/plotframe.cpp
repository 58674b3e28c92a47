#include "charts/plotframe.h"

#include "charts/chartstyle.h"
#include "charts/timeplot.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

// The same margins, fonts and sizes the QtCharts charts use (styleChart), so
// the live view and the Compare tab look like one product.
constexpr int MARGIN_TOP_PX = 2;
constexpr int MARGIN_RIGHT_PX = 14;
constexpr int MARGIN_BOTTOM_PX = 5;
constexpr int TICK_PX = 4; ///< tick marks outside the plot, and the gap between them and the labels
constexpr int LEGEND_SAMPLE_PX = 18; ///< the short stretch of line before each legend label
constexpr int LEGEND_GAP_PX = 5; ///< between a sample and its label
constexpr int LEGEND_SPACING_PX = 16; ///< between two legend entries
constexpr qreal TITLE_POINT_SIZE = 10;
constexpr qreal LEGEND_POINT_SIZE = 8.5;
constexpr qreal LABEL_POINT_SIZE = 8;

QList<const PlotLine*> legendLines(const PlotFrame& frame)
{
    QList<const PlotLine*> out;
    if (frame.lines)
        for (const PlotLine& l : *frame.lines)
            if (l.visible) out.append(&l);
    return out;
}

qreal legendWidthPx(const QList<const PlotLine*>& lines, const QFontMetricsF& metrics)
{
    qreal width = 0;
    for (const PlotLine* l : lines)
        width += LEGEND_SAMPLE_PX + LEGEND_GAP_PX + metrics.horizontalAdvance(l->name);
    return width + LEGEND_SPACING_PX * std::max<qsizetype>(0, lines.size() - 1);
}

/// A pixel-centred coordinate: 1 px lines without antialiasing land on one pixel row or column.
double crisp(double v)
{
    return std::floor(v) + 0.5;
}

} // namespace

int yLabelWidthPx(const PlotYScale& scale)
{
    const QFontMetricsF metrics(chartFont(LABEL_POINT_SIZE));
    qreal widest = 0;
    for (const PlotTick& t : yTicks(scale))
        widest = std::max(widest, metrics.horizontalAdvance(t.label));
    return static_cast<int>(std::ceil(widest));
}

PlotGeometry plotGeometry(const QRect& target, const PlotFrame& frame)
{
    PlotGeometry g;
    const QFontMetricsF titleMetrics(chartFont(TITLE_POINT_SIZE, true));
    const QFontMetricsF legendMetrics(chartFont(LEGEND_POINT_SIZE));
    const QFontMetricsF labelMetrics(chartFont(LABEL_POINT_SIZE));
    qreal top = target.top() + MARGIN_TOP_PX;
    if (!frame.title.isEmpty()) {
        g.title = QRectF(target.left(), top, target.width(), titleMetrics.height());
        top = g.title.bottom() + 2;
    }
    // One line or nothing: a cut legend ("#21 N...") says less than none.
    const QList<const PlotLine*> lines = legendLines(frame);
    const qreal legendWidth = legendWidthPx(lines, legendMetrics);
    if (!lines.isEmpty() && legendWidth + 24 <= target.width()) {
        g.legend = QRectF(target.left() + (target.width() - legendWidth) / 2, top, legendWidth, legendMetrics.height());
        top = g.legend.bottom() + 2;
    }
    // Half a label above the plot: the top y label is centred on the top edge.
    top += labelMetrics.height() / 2;
    const qreal left
        = target.left() + CHART_MARGIN_LEFT + std::max(frame.yLabelWidthPx, yLabelWidthPx(frame.yScale)) + 2 * TICK_PX;
    const qreal bottom = target.bottom() + 1 - MARGIN_BOTTOM_PX - labelMetrics.height() - 2 * TICK_PX;
    const qreal right = target.right() + 1 - MARGIN_RIGHT_PX;
    g.plot = QRectF(QPointF(std::round(left), std::round(top)), QPointF(std::round(right), std::round(bottom)));
    if (g.plot.width() < 1) g.plot.setWidth(1);
    if (g.plot.height() < 1) g.plot.setHeight(1);
    return g;
}

void paintPlotFrame(QPainter& painter, const QRect& target, const PlotGeometry& g, const PlotFrame& frame)
{
    painter.save();
    painter.fillRect(target, Qt::white);
    const QRectF& plot = g.plot;

    // Grid and axes: 1 px, without antialiasing (crisp, and the raster engine's cheapest lines).
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QList<PlotTick> yt = yTicks(frame.yScale);
    const QList<PlotTick> xt = timeTicks(frame.timeAxis);
    for (const bool minor : { true, false }) {
        painter.setPen(QPen(minor ? chartcolors::MINOR_GRID : chartcolors::GRID, 0));
        for (const PlotTick& t : yt)
            if (t.label.isEmpty() == minor) {
                const double y = crisp(yPixel(frame.yScale, plot, t.value));
                painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
            }
    }
    for (const PlotTick& t : xt) {
        const double x = crisp(xPixel(frame.timeAxis, plot, t.value));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    painter.setPen(QPen(chartcolors::AXIS_LINE, 0));
    const double axisX = crisp(plot.left());
    const double axisY = crisp(plot.bottom());
    painter.drawLine(QPointF(axisX, plot.top()), QPointF(axisX, axisY));
    painter.drawLine(QPointF(axisX, axisY), QPointF(plot.right(), axisY));
    for (const PlotTick& t : yt)
        if (!t.label.isEmpty()) {
            const double y = crisp(yPixel(frame.yScale, plot, t.value));
            painter.drawLine(QPointF(axisX - TICK_PX, y), QPointF(axisX, y));
        }
    for (const PlotTick& t : xt) {
        const double x = crisp(xPixel(frame.timeAxis, plot, t.value));
        painter.drawLine(QPointF(x, axisY), QPointF(x, axisY + TICK_PX));
    }

    // Texts.
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setFont(chartFont(LABEL_POINT_SIZE));
    painter.setPen(chartcolors::AXIS_LABEL);
    const QFontMetricsF labelMetrics(painter.font());
    const qreal labelHeight = labelMetrics.height();
    for (const PlotTick& t : yt) {
        if (t.label.isEmpty()) continue;
        const double y = yPixel(frame.yScale, plot, t.value);
        painter.drawText(
            QRectF(target.left(), y - labelHeight / 2, plot.left() - 2 * TICK_PX - target.left(), labelHeight),
            Qt::AlignRight | Qt::AlignVCenter, t.label);
    }
    for (const PlotTick& t : xt) {
        const double x = xPixel(frame.timeAxis, plot, t.value);
        painter.drawText(
            QRectF(x - 60, plot.bottom() + 2 * TICK_PX, 120, labelHeight), Qt::AlignHCenter | Qt::AlignTop, t.label);
    }
    if (!g.title.isEmpty()) {
        painter.setFont(chartFont(TITLE_POINT_SIZE, true));
        painter.setPen(chartcolors::TEXT);
        painter.drawText(g.title, Qt::AlignHCenter | Qt::AlignVCenter, frame.title);
    }
    if (!g.legend.isEmpty()) {
        painter.setFont(chartFont(LEGEND_POINT_SIZE));
        const QFontMetricsF metrics(painter.font());
        qreal x = g.legend.left();
        const double midY = crisp(g.legend.center().y());
        for (const PlotLine* l : legendLines(frame)) {
            painter.setRenderHint(QPainter::Antialiasing, true);
            painter.setPen(l->pen);
            painter.drawLine(QPointF(x + 1, midY), QPointF(x + LEGEND_SAMPLE_PX - 1, midY));
            x += LEGEND_SAMPLE_PX + LEGEND_GAP_PX;
            painter.setPen(chartcolors::TEXT);
            const qreal w = metrics.horizontalAdvance(l->name);
            painter.drawText(
                QRectF(x, g.legend.top(), w + 2, g.legend.height()), Qt::AlignLeft | Qt::AlignVCenter, l->name);
            x += w + LEGEND_SPACING_PX;
        }
    }
    painter.restore();
}

} // namespace wb::ui
