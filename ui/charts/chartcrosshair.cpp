#include "charts/chartcrosshair.h"

#include "charts/charthover.h"
#include "charts/chartstyle.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLineItem>
#include <QMouseEvent>
#include <QToolTip>
#include <QXYSeries>
#include <cmath>
#include <limits>

namespace wb::ui {

namespace {

QList<const QXYSeries*> visibleLines(const QChart* chart)
{
    QList<const QXYSeries*> lines;
    for (const QAbstractSeries* s : chart->series())
        if (const auto* xy = qobject_cast<const QXYSeries*>(s); xy && xy->isVisible() && xy->count() > 0)
            lines.append(xy);
    return lines;
}

} // namespace

ChartCrosshair::ChartCrosshair(QChartView* view, XFormatter formatX, ValueFormatter formatValue)
    : QObject(view)
    , m_view(view)
    , m_formatX(std::move(formatX))
    , m_formatValue(std::move(formatValue))
    , m_shownX(std::numeric_limits<double>::quiet_NaN())
{
    view->viewport()->setMouseTracking(true);
    view->viewport()->installEventFilter(this);
}

const QXYSeries* ChartCrosshair::referenceSeries() const
{
    const QList<const QXYSeries*> lines = visibleLines(m_view->chart());
    return lines.isEmpty() ? nullptr : lines.front();
}

double ChartCrosshair::snappedX(double x) const
{
    // The measured point nearest to the mouse on any line: runs of different
    // lengths overlaid each keep their whole range reachable.
    double best = x;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const QXYSeries* s : visibleLines(m_view->chart())) {
        const QList<QPointF> points = s->points();
        const qsizetype i = nearestPointIndex(points, x);
        if (i >= 0 && std::abs(points[i].x() - x) < bestDistance) {
            bestDistance = std::abs(points[i].x() - x);
            best = points[i].x();
        }
    }
    return best;
}

QString ChartCrosshair::textAt(double x) const
{
    const QList<const QXYSeries*> lines = visibleLines(m_view->chart());
    if (lines.isEmpty()) return {};
    const double at = snappedX(x);
    QString text = QStringLiteral("<b>%1</b>").arg(m_formatX(at).toHtmlEscaped());
    for (const QXYSeries* s : lines) {
        const QList<QPointF> points = s->points();
        const qsizetype i = nearestPointIndex(points, at);
        if (i < 0) continue;
        // A line that has no data there (a shorter run, a spectrum ending at a lower
        // percentile) is left out rather than shown with its last value.
        const double halfStep = points.size() > 1
            ? (points.back().x() - points.front().x()) / (2.0 * static_cast<double>(points.size() - 1))
            : 0;
        if (at < points.front().x() - halfStep - 1e-9 || at > points.back().x() + halfStep + 1e-9) continue;
        text += QStringLiteral("<br><span style=\"color:%1\">&#9632;</span> %2: %3")
                    .arg(s->color().name(), s->name().toHtmlEscaped(), m_formatValue(s, points[i].y()).toHtmlEscaped());
    }
    return text;
}

bool ChartCrosshair::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport()) {
        if (event->type() == QEvent::MouseMove)
            showAt(static_cast<QMouseEvent*>(event)->position().toPoint());
        else if (event->type() == QEvent::Leave)
            hide();
    }
    return QObject::eventFilter(watched, event);
}

void ChartCrosshair::showAt(const QPoint& viewportPos)
{
    QChart* chart = m_view->chart();
    const QPointF chartPos = chart->mapFromScene(m_view->mapToScene(viewportPos));
    const QRectF plot = chart->plotArea();
    const QXYSeries* ref = referenceSeries();
    if (!ref || !plot.contains(chartPos)) {
        hide();
        return;
    }
    auto* series = const_cast<QXYSeries*>(ref); // QChart's mapping API takes a non-const series
    const double x = snappedX(chart->mapToValue(chartPos, series).x());
    const double lineX = chart->mapToPosition(QPointF(x, 0), series).x();
    if (!m_line) {
        m_line = new QGraphicsLineItem(chart);
        m_line->setPen(QPen(chartcolors::AXIS_LINE, 1, Qt::DashLine));
        m_line->setZValue(1000); // over the series
    }
    m_line->setLine(lineX, plot.top(), lineX, plot.bottom());
    m_line->show();
    m_shownX = x;
    QToolTip::showText(m_view->viewport()->mapToGlobal(viewportPos + QPoint(14, 10)), textAt(x), m_view->viewport());
}

void ChartCrosshair::hide()
{
    if (m_line) m_line->hide();
    m_shownX = std::numeric_limits<double>::quiet_NaN();
    QToolTip::hideText();
}

} // namespace wb::ui
