#include "charts/timeplot.h"

#include "charts/charthover.h"
#include "charts/chartstyle.h"
#include "charts/plotframe.h"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

namespace wb::ui {

TimePlot::TimePlot(const QString& title, QWidget* parent)
    : QWidget(parent)
    , m_title(title)
    , m_formatX([](double t) { return QStringLiteral("t = %1 s").arg(QString::number(t, 'f', 2)); })
    , m_formatValue([](double v) { return formatNumber(v); })
    , m_naturalYLabelWidthPx(yLabelWidthPx(m_yScale))
    , m_shownX(std::numeric_limits<double>::quiet_NaN())
{
    // paintEvent covers every pixel of what it is asked to repaint from the
    // pixmap: no background fill under it (of this widget or of its parents).
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
}

int TimePlot::addLine(const QString& key)
{
    PlotLine l;
    l.key = key;
    l.name = key;
    m_lines.append(l);
    invalidate();
    return static_cast<int>(m_lines.size() - 1);
}

int TimePlot::lineIndex(const QString& key) const
{
    for (qsizetype i = 0; i < m_lines.size(); ++i)
        if (m_lines[i].key == key) return static_cast<int>(i);
    return -1;
}

void TimePlot::setLineLook(int index, const QString& name, const QPen& pen)
{
    PlotLine& l = m_lines[index];
    if (l.name == name && l.pen == pen) return;
    l.name = name;
    l.pen = pen;
    invalidate();
}

void TimePlot::setLineVisible(int index, bool visible)
{
    if (m_lines[index].visible == visible) return;
    m_lines[index].visible = visible;
    invalidate(); // the legend changes too
}

void TimePlot::setPoints(int index, QList<QPointF> points)
{
    PlotLine& l = m_lines[index];
    const qsizetype drawn = l.drawnCount;
    // Extended rather than replaced: the drawn points are still there, unchanged.
    const bool extends
        = drawn <= points.size() && std::equal(l.points.cbegin(), l.points.cbegin() + drawn, points.cbegin());
    const bool changed = points.size() != l.points.size() || !extends;
    l.points = std::move(points);
    if (!changed || !l.visible) return;
    if (!extends) {
        invalidate();
        return;
    }
    if (!m_cacheValid) return;
    // Only the new segments' rectangle is repainted; paintEvent draws them into the pixmap first.
    const QPolygonF added = polyline(l, plotRect(), std::max(0, l.drawnCount - 1));
    const qreal pad = std::max<qreal>(l.pen.widthF(), 1) + 2;
    update(added.boundingRect().adjusted(-pad, -pad, pad, pad).toAlignedRect()
        & plotRect().toAlignedRect().adjusted(-2, -2, 2, 2));
}

void TimePlot::setYScale(const PlotYScale& scale)
{
    if (scale == m_yScale) return;
    m_yScale = scale;
    m_naturalYLabelWidthPx = yLabelWidthPx(scale);
    invalidate();
}

void TimePlot::setTimeAxis(const PlotTimeAxis& axis)
{
    if (axis == m_timeAxis) return;
    m_timeAxis = axis;
    invalidate();
}

int TimePlot::naturalYLabelWidthPx() const
{
    return m_naturalYLabelWidthPx;
}

void TimePlot::setYLabelWidthPx(int widthPx)
{
    if (widthPx == m_yLabelWidthPx) return;
    m_yLabelWidthPx = widthPx;
    invalidate();
}

void TimePlot::setHoverFormat(XFormatter formatX, ValueFormatter formatValue)
{
    m_formatX = std::move(formatX);
    m_formatValue = std::move(formatValue);
}

void TimePlot::invalidate()
{
    m_cacheValid = false;
    m_plotRect = QRectF();
    for (PlotLine& l : m_lines) {
        l.drawnCount = 0;
        l.drawnLengthPx = 0;
    }
    update();
}

QRectF TimePlot::plotRect() const
{
    if (m_plotRect.isNull())
        m_plotRect = plotGeometry(rect(), { m_title, &m_lines, m_yScale, m_timeAxis, m_yLabelWidthPx }).plot;
    return m_plotRect;
}

QPointF TimePlot::positionOf(QPointF value) const
{
    const QRectF plot = plotRect();
    return { xPixel(m_timeAxis, plot, value.x()), yPixel(m_yScale, plot, value.y()) };
}

QPolygonF TimePlot::polyline(const PlotLine& line, const QRectF& plot, int from) const
{
    QPolygonF poly;
    poly.reserve(line.points.size() - from);
    for (qsizetype i = from; i < line.points.size(); ++i) {
        const QPointF& p = line.points[i];
        poly.append(QPointF(xPixel(m_timeAxis, plot, p.x()), yPixel(m_yScale, plot, p.y())));
    }
    return poly;
}

namespace {

/// About how far a pen's dash pattern advances along a polyline, so that new
/// segments go on with the dashes where the drawn ones stopped. Pens up to 1 px
/// take the raster engine's cosmetic stroker, which steps the pattern along each
/// segment's major axis; wider pens go through the dasher, which measures the
/// Euclidean length. (Not to the pixel: the stroker's own rounding is not
/// reproduced, so a dashed line drawn in pieces has its dashes a little shifted.)
double patternLengthPx(const QPolygonF& poly, const QPen& pen)
{
    const bool cosmetic = pen.widthF() <= 1.0;
    double length = 0;
    for (qsizetype i = 1; i < poly.size(); ++i) {
        const double dx = std::abs(poly[i].x() - poly[i - 1].x());
        const double dy = std::abs(poly[i].y() - poly[i - 1].y());
        length += cosmetic ? std::max(dx, dy) : std::hypot(dx, dy);
    }
    return length;
}

void prepareLinePainter(QPainter& painter, const QRectF& plot)
{
    painter.setRenderHint(QPainter::Antialiasing);
    // A line on the bottom or top of the scale keeps its full width over the frame's edge lines.
    painter.setClipRect(plot.adjusted(-1, -2, 2, 2));
}

} // namespace

void TimePlot::drawLines(QPainter& painter, const QRectF& plot) const
{
    painter.save();
    prepareLinePainter(painter, plot);
    for (const PlotLine& l : m_lines) {
        if (!l.visible || l.points.size() < 2) continue;
        painter.setPen(l.pen);
        painter.drawPolyline(polyline(l, plot, 0));
    }
    painter.restore();
}

void TimePlot::paintTo(QPainter& painter, const QRect& target) const
{
    const PlotFrame frame { m_title, &m_lines, m_yScale, m_timeAxis, m_yLabelWidthPx };
    const PlotGeometry g = plotGeometry(target, frame);
    paintPlotFrame(painter, target, g, frame);
    drawLines(painter, g.plot);
}

void TimePlot::rebuildCache()
{
    const qreal dpr = devicePixelRatioF();
    if (m_cache.size() != size() * dpr || m_cache.devicePixelRatio() != dpr) {
        m_cache = QPixmap(size() * dpr);
        m_cache.setDevicePixelRatio(dpr);
    }
    {
        QPainter painter(&m_cache);
        paintTo(painter, rect());
    }
    const QRectF plot = plotRect();
    for (PlotLine& l : m_lines) {
        l.drawnCount = l.visible ? static_cast<int>(l.points.size()) : 0;
        l.drawnLengthPx = l.visible ? patternLengthPx(polyline(l, plot, 0), l.pen) : 0;
    }
    m_cacheValid = true;
    ++m_fullRepaints;
}

bool TimePlot::hasUndrawnSegments() const
{
    for (const PlotLine& l : m_lines)
        if (l.visible && l.drawnCount < l.points.size()) return true;
    return false;
}

void TimePlot::drawNewSegments()
{
    QPainter painter(&m_cache);
    const QRectF plot = plotRect();
    prepareLinePainter(painter, plot);
    // In line order, as a whole repaint would: the corrected latency over the service time.
    for (PlotLine& l : m_lines) {
        if (!l.visible || l.drawnCount >= l.points.size()) continue;
        const QPolygonF added = polyline(l, plot, std::max(0, l.drawnCount - 1));
        if (added.size() >= 2) {
            QPen pen = l.pen;
            // The dash pattern goes on where the drawn part of the line ended (offsets are in pen widths).
            if (pen.style() != Qt::SolidLine) pen.setDashOffset(l.drawnLengthPx / std::max<qreal>(pen.widthF(), 1));
            painter.setPen(pen);
            painter.drawPolyline(added);
            l.drawnLengthPx += patternLengthPx(added, l.pen);
        }
        l.drawnCount = static_cast<int>(l.points.size());
    }
    ++m_segmentRepaints;
}

void TimePlot::paintEvent(QPaintEvent* event)
{
    if (!m_cacheValid || m_cache.size() != size() * devicePixelRatioF())
        rebuildCache();
    else if (hasUndrawnSegments())
        drawNewSegments();
    QPainter painter(this);
    const QRect r = event->rect();
    const qreal dpr = m_cache.devicePixelRatio();
    painter.drawPixmap(r.topLeft(), m_cache, QRectF(QPointF(r.topLeft()) * dpr, QSizeF(r.size()) * dpr));
    if (!std::isnan(m_shownX)) {
        const QRectF plot = plotRect();
        const double x = std::floor(xPixel(m_timeAxis, plot, m_shownX)) + 0.5;
        painter.setPen(QPen(chartcolors::AXIS_LINE, 1, Qt::DashLine));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
}

void TimePlot::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    invalidate();
}

double TimePlot::snappedX(double timeS) const
{
    // The measured point nearest to the mouse on any line.
    double best = timeS;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const PlotLine& l : m_lines) {
        if (!l.visible) continue;
        const qsizetype i = nearestPointIndex(l.points, timeS);
        if (i >= 0 && std::abs(l.points[i].x() - timeS) < bestDistance) {
            bestDistance = std::abs(l.points[i].x() - timeS);
            best = l.points[i].x();
        }
    }
    return best;
}

QString TimePlot::textAt(double timeS) const
{
    const bool any = std::any_of(
        m_lines.cbegin(), m_lines.cend(), [](const PlotLine& l) { return l.visible && !l.points.isEmpty(); });
    if (!any) return {};
    const double at = snappedX(timeS);
    QString text = QStringLiteral("<b>%1</b>").arg(m_formatX(at).toHtmlEscaped());
    for (const PlotLine& l : m_lines) {
        if (!l.visible) continue;
        const qsizetype i = nearestPointIndex(l.points, at);
        if (i < 0) continue;
        // A line without data there (a shorter line) is left out rather than shown with its last value.
        const QList<QPointF>& pts = l.points;
        const double halfStep
            = pts.size() > 1 ? (pts.back().x() - pts.front().x()) / (2.0 * static_cast<double>(pts.size() - 1)) : 0;
        if (at < pts.front().x() - halfStep - 1e-9 || at > pts.back().x() + halfStep + 1e-9) continue;
        text += QStringLiteral("<br><span style=\"color:%1\">&#9632;</span> %2: %3")
                    .arg(l.pen.color().name(), l.name.toHtmlEscaped(), m_formatValue(pts[i].y()).toHtmlEscaped());
    }
    return text;
}

QRect TimePlot::crosshairRect(double timeS) const
{
    const QRectF plot = plotRect();
    const int x = static_cast<int>(std::floor(xPixel(m_timeAxis, plot, timeS)));
    return QRect(x - 1, static_cast<int>(plot.top()) - 1, 3, static_cast<int>(plot.height()) + 3);
}

void TimePlot::showCrosshairAt(const QPoint& pos)
{
    const QRectF plot = plotRect();
    const QString text = plot.contains(pos) ? textAt(timeAtPixel(m_timeAxis, plot, pos.x())) : QString();
    if (text.isEmpty()) {
        hideCrosshair();
        return;
    }
    const double x = snappedX(timeAtPixel(m_timeAxis, plot, pos.x()));
    if (x != m_shownX) {
        // Only the old and the new column are repainted: the rest comes from the pixmap.
        if (!std::isnan(m_shownX)) update(crosshairRect(m_shownX));
        m_shownX = x;
        update(crosshairRect(x));
    }
    QToolTip::showText(mapToGlobal(pos + QPoint(14, 10)), text, this);
}

void TimePlot::hideCrosshair()
{
    if (!std::isnan(m_shownX)) update(crosshairRect(m_shownX));
    m_shownX = std::numeric_limits<double>::quiet_NaN();
    QToolTip::hideText();
}

void TimePlot::mouseMoveEvent(QMouseEvent* event)
{
    showCrosshairAt(event->position().toPoint());
    QWidget::mouseMoveEvent(event);
}

void TimePlot::leaveEvent(QEvent* event)
{
    hideCrosshair();
    QWidget::leaveEvent(event);
}

} // namespace wb::ui
