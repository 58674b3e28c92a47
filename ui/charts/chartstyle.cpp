#include "charts/chartstyle.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <cmath>

namespace wb::ui {

QFont chartFont(qreal pointSize, bool bold)
{
    QFont f = QApplication::font();
    f.setPointSizeF(pointSize);
    f.setBold(bold);
    return f;
}

QLocale chartLocale()
{
    // Group separators regardless of the system locale (C/POSIX has none), so
    // 34893 reads as 34,893 in the labels as well as in the tooltips.
    return QLocale(QLocale::English, QLocale::UnitedStates);
}

void styleChart(QChart* chart, const QString& title)
{
    chart->setTheme(QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation); // live data: animations only cost frames
    chart->setBackgroundRoundness(0);
    chart->setBackgroundBrush(Qt::white);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setMargins(QMargins(CHART_MARGIN_LEFT, 2, 14, 5));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setLocalizeNumbers(true);
    chart->setLocale(chartLocale());

    chart->setTitle(title);
    chart->setTitleFont(chartFont(10, true));
    chart->setTitleBrush(chartcolors::TEXT);

    QLegend* legend = chart->legend();
    legend->setAlignment(Qt::AlignTop);
    legend->setFont(chartFont(8.5));
    legend->setLabelColor(chartcolors::TEXT);
    legend->setMarkerShape(QLegend::MarkerShapeFromSeries); // lines show their dash pattern
    legend->setBackgroundVisible(false);
    legend->setContentsMargins(0, 0, 0, 0);
}

void styleAxis(QAbstractAxis* axis, const QString& title)
{
    axis->setLabelsFont(chartFont(8));
    axis->setLabelsColor(chartcolors::AXIS_LABEL);
    // Cosmetic 1 px pens: the raster engine draws them with its line rasterizer,
    // where a non-cosmetic pen under antialiasing goes through the path stroker.
    const auto hairline = [](const QColor& color) {
        QPen pen(color, 1);
        pen.setCosmetic(true);
        return pen;
    };
    axis->setGridLinePen(hairline(chartcolors::GRID));
    axis->setMinorGridLinePen(hairline(chartcolors::MINOR_GRID));
    axis->setLinePen(hairline(chartcolors::AXIS_LINE));
    axis->setTitleText(title);
    axis->setTitleFont(chartFont(8.5));
    axis->setTitleBrush(chartcolors::AXIS_LABEL);
    axis->setTitleVisible(!title.isEmpty());
}

void styleView(QChartView* view)
{
    view->setRenderHint(QPainter::Antialiasing);
    view->setRenderHint(QPainter::TextAntialiasing);
    view->setFrameShape(QFrame::NoFrame);
    view->setBackgroundBrush(Qt::white);
    view->setRubberBand(QChartView::NoRubberBand);
    // The view fills its background itself: no fill of the viewport (and of the
    // widgets under it) before each paint.
    view->viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    // Chart items move on every layout: a BSP index would be rebuilt for each move.
    if (view->scene()) view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
}

QPen linePen(const QColor& color, qreal width, Qt::PenStyle style)
{
    QPen pen(color, width, style, Qt::RoundCap, Qt::RoundJoin);
    if (style == Qt::DashLine)
        pen.setDashPattern({ 4.0, 2.5 }); // in pen widths; Qt's default dashes are too long for thin lines
    return pen;
}

void setLinePen(QLineSeries* series, const QColor& color, qreal width, Qt::PenStyle style)
{
    series->setPen(linePen(color, width, style));
}

void autoHideLegend(QChart* chart)
{
    QObject::connect(chart, &QGraphicsWidget::geometryChanged, chart, [chart] { updateLegendFit(chart); });
    updateLegendFit(chart);
}

void updateLegendFit(QChart* chart)
{
    QLegend* legend = chart->legend();
    const QFontMetricsF metrics(legend->font());
    // Per marker: the symbol (about one line high), the gap to the label and the
    // spacing to the next marker; measured from Qt 6.4's legend layout, rounded up.
    const qreal perMarker = metrics.height() * 1.6 + 12;
    qreal needed = 24;
    for (QLegendMarker* m : legend->markers()) {
        // The series' visibility, not the marker item's: new items are shown only by the next layout.
        if (m->series() && m->series()->isVisible()) needed += metrics.horizontalAdvance(m->label()) + perMarker;
    }
    legend->setVisible(needed <= chart->size().width());
}

QColor tint(const QColor& color, double amount)
{
    const auto mix = [amount](int c) { return static_cast<int>(std::lround(c + (255 - c) * amount)); };
    return QColor(mix(color.red()), mix(color.green()), mix(color.blue()));
}

QColor shade(const QColor& color, double amount)
{
    const auto mix = [amount](int c) { return static_cast<int>(std::lround(c * (1.0 - amount))); };
    return QColor(mix(color.red()), mix(color.green()), mix(color.blue()));
}

QString formatNumber(double value)
{
    const double magnitude = std::abs(value);
    const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
    return chartLocale().toString(value, 'f', decimals);
}

QString formatMs(double ms)
{
    const double magnitude = std::abs(ms);
    const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
    return chartLocale().toString(ms, 'f', decimals) + QStringLiteral(" ms");
}

} // namespace wb::ui
