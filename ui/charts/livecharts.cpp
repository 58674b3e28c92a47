#include "charts/livecharts.h"

#include "charts/adaptiveyaxis.h"
#include "charts/chartcrosshair.h"
#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/intervalhistory.h"
#include "charts/niceaxis.h"

#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QMessageBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <limits>

namespace wb::ui {

namespace {

constexpr double MIN_X_RANGE_S = 10.0; // a run's first seconds do not stretch over the whole width
constexpr int X_MAX_INTERVALS = 10;
constexpr int Y_MAX_INTERVALS = 4;
const QList<int> PANEL_WEIGHTS = { 4, 5, 3 }; // rps, latency, errors: latency has the most lines

enum class Unit { Rate, Latency, PerSecond };

struct Line
{
    QLineSeries* series = nullptr;
    double IntervalPoint::*field = nullptr;
    bool openOnly = false; ///< shown in the open model only
};

} // namespace

struct LiveCharts::Impl
{
    struct Panel
    {
        QChartView* view = nullptr;
        QChart* chart = nullptr;
        QValueAxis* x = nullptr;
    };

    LiveCharts* q;
    IntervalHistory history;
    QTimer redrawTimer;
    QString title;
    QColor color { 0x4e, 0x79, 0xa7 };
    bool openModel = false;
    /// A whole stored run (setSeries): the x axis spans the run itself. Live
    /// runs keep at least MIN_X_RANGE_S so their first seconds do not stretch.
    bool stored = false;

    Panel rps, latency, errors;
    QValueAxis* rpsY = nullptr;
    QValueAxis* errorsY = nullptr;
    std::unique_ptr<AdaptiveYAxis> latencyY;
    QList<Line> rpsLines, latencyLines, errorLines;
    QList<QPointF> buffer;
    /// What the left edges were last aligned for (y scales, latency axis mode);
    /// empty after decorate(): aligning forces three synchronous chart layouts,
    /// so it runs only when a y axis' labels can have changed width.
    QString alignedFor;
    /// A timer redraw came while the charts were hidden (another tab): done on show.
    bool redrawPending = false;

    explicit Impl(LiveCharts* owner)
        : q(owner)
    { }

    Panel makePanel(const QString& chartTitle, const QString& objectName, Unit unit)
    {
        Panel p;
        p.chart = new QChart;
        styleChart(p.chart, chartTitle);
        p.view = new QChartView(p.chart, q);
        p.view->setObjectName(objectName);
        styleView(p.view);
        p.view->setMinimumHeight(120);
        // The view paints its background white: the chart's own white rectangle
        // under the plot would be a second fill of the whole panel per repaint.
        p.chart->setBackgroundVisible(false);
        p.x = new QValueAxis(p.chart);
        styleAxis(p.x); // the labels carry the unit ("30 s"): no axis title eating a panel's height
        autoHideLegend(p.chart);
        applyTimeAxis(p.x, MIN_X_RANGE_S, X_MAX_INTERVALS);
        p.chart->addAxis(p.x, Qt::AlignBottom);
        p.view->setContextMenuPolicy(Qt::CustomContextMenu);
        QObject::connect(p.view, &QWidget::customContextMenuRequested, q,
            [this, view = p.view](const QPoint& pos) { showContextMenu(view->mapToGlobal(pos)); });
        new ChartCrosshair(
            p.view, [](double x) { return QObject::tr("t = %1 s").arg(QString::number(x, 'f', 2)); },
            [unit](const QXYSeries*, double y) {
                return unit == Unit::Latency ? formatMs(y)
                    : unit == Unit::Rate     ? formatNumber(y) + QStringLiteral(" req/s")
                                             : formatNumber(y) + QStringLiteral("/s");
            });
        return p;
    }

    QLineSeries* addLine(Panel& p, QList<Line>& lines, const char* objectName, double IntervalPoint::*field,
        bool openOnly, QAbstractAxis* y)
    {
        auto* s = new QLineSeries;
        s->setObjectName(QLatin1String(objectName));
        p.chart->addSeries(s);
        s->attachAxis(p.x);
        if (y) s->attachAxis(y);
        lines.append({ s, field, openOnly });
        return s;
    }

    void build()
    {
        rps = makePanel(QObject::tr("Requests/s"), QStringLiteral("rpsChartView"), Unit::Rate);
        latency = makePanel(QObject::tr("Latency (ms)"), QStringLiteral("latencyChartView"), Unit::Latency);
        errors = makePanel(QObject::tr("Errors/s"), QStringLiteral("errorsChartView"), Unit::PerSecond);

        rpsY = new QValueAxis(rps.chart);
        styleAxis(rpsY);
        rps.chart->addAxis(rpsY, Qt::AlignLeft);
        addLine(rps, rpsLines, "rps", &IntervalPoint::requestsPerS, false, rpsY);
        addLine(rps, rpsLines, "targetRate", &IntervalPoint::targetRatePerS, true, rpsY);

        latencyY = std::make_unique<AdaptiveYAxis>(latency.chart, QString());
        // Service time first so the corrected latency is drawn on top of it.
        addLine(latency, latencyLines, "serviceP50", &IntervalPoint::serviceP50Ms, true, nullptr);
        addLine(latency, latencyLines, "serviceP90", &IntervalPoint::serviceP90Ms, true, nullptr);
        addLine(latency, latencyLines, "serviceP99", &IntervalPoint::serviceP99Ms, true, nullptr);
        addLine(latency, latencyLines, "p50", &IntervalPoint::p50Ms, false, nullptr);
        addLine(latency, latencyLines, "p90", &IntervalPoint::p90Ms, false, nullptr);
        addLine(latency, latencyLines, "p99", &IntervalPoint::p99Ms, false, nullptr);
        for (const Line& l : std::as_const(latencyLines))
            latencyY->addSeries(l.series);

        errorsY = new QValueAxis(errors.chart);
        styleAxis(errorsY);
        errors.chart->addAxis(errorsY, Qt::AlignLeft);
        addLine(errors, errorLines, "errors", &IntervalPoint::errorsPerS, false, errorsY);
        addLine(errors, errorLines, "non2xx", &IntervalPoint::non2xxPerS, false, errorsY);

        auto* layout = new QVBoxLayout(q);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        layout->addWidget(rps.view, PANEL_WEIGHTS[0]);
        layout->addWidget(latency.view, PANEL_WEIGHTS[1]);
        layout->addWidget(errors.view, PANEL_WEIGHTS[2]);

        redrawTimer.setSingleShot(true);
        redrawTimer.setInterval(REDRAW_INTERVAL_MS);
        QObject::connect(&redrawTimer, &QTimer::timeout, q, [this] { redrawIfVisible(); });
    }

    /// Names, pens and visibility for the current run (colours follow the run's target colour).
    void decorate()
    {
        QLineSeries* const rpsLine = rpsLines[0].series;
        rpsLine->setName(title.isEmpty() ? QObject::tr("Requests/s") : title);
        setLinePen(rpsLine, color, 2.0);
        rpsLines[1].series->setName(QObject::tr("Target rate"));
        setLinePen(rpsLines[1].series, chartcolors::TARGET_RATE, 1.0, Qt::DashLine);

        // Shades of the run colour: the median lightest, the tail darkest (the eye goes to the darkest line).
        const QColor p50Color = tint(color, 0.5);
        const QColor p99Color = shade(color, 0.3);
        const struct
        {
            QString name;
            QColor color;
            qreal width;
            Qt::PenStyle style;
        } latencyLooks[] = {
            // 1 px: dashed pens wider than a pixel go through Qt's path dasher and
            // stroker, which costs ~15 ms per 2,000-point line; 1 px dashes take
            // the raster engine's fast cosmetic path (~1 ms).
            { QObject::tr("service p50"), shade(p50Color, 0.15), 1.0, Qt::DashLine },
            { QObject::tr("service p90"), color, 1.0, Qt::DashLine },
            { QObject::tr("service p99"), p99Color, 1.0, Qt::DashLine },
            { QObject::tr("p50"), p50Color, 2.0, Qt::SolidLine },
            { QObject::tr("p90"), color, 2.0, Qt::SolidLine },
            { QObject::tr("p99"), p99Color, 2.0, Qt::SolidLine },
        };
        for (qsizetype i = 0; i < latencyLines.size(); ++i) {
            latencyLines[i].series->setName(latencyLooks[i].name);
            setLinePen(latencyLines[i].series, latencyLooks[i].color, latencyLooks[i].width, latencyLooks[i].style);
        }
        errorLines[0].series->setName(QObject::tr("errors"));
        setLinePen(errorLines[0].series, chartcolors::ERRORS, 2.0);
        errorLines[1].series->setName(QObject::tr("non-2xx"));
        setLinePen(errorLines[1].series, chartcolors::NON2XX, 2.0);

        for (const QList<Line>* lines : { &rpsLines, &latencyLines, &errorLines })
            for (const Line& l : *lines)
                l.series->setVisible(!l.openOnly || openModel);
        for (const Panel* p : { &rps, &latency, &errors })
            updateLegendFit(p->chart);
        alignedFor.clear();
    }

    void fill(const Line& line, bool positiveOnly)
    {
        // A hidden line stays empty: replacing nothing with nothing would still repaint the chart.
        if (!line.series->isVisible() && line.series->count() == 0) return;
        buffer.clear();
        if (line.series->isVisible()) {
            const QVector<IntervalPoint>& pts = history.points();
            buffer.reserve(pts.size());
            for (const IntervalPoint& p : pts) {
                const double v = p.*(line.field);
                if (!positiveOnly || v > 0) buffer.append(QPointF(p.endS, v));
            }
        }
        line.series->replace(buffer);
    }

    /// Largest value of the visible lines (and smallest positive one).
    void valueRange(const QList<Line>& lines, double& minPositive, double& max) const
    {
        minPositive = std::numeric_limits<double>::infinity();
        max = 0;
        for (const Line& l : lines) {
            if (!l.series->isVisible()) continue;
            for (const IntervalPoint& p : history.points()) {
                const double v = p.*(l.field);
                max = std::max(max, v);
                if (v > 0) minPositive = std::min(minPositive, v);
            }
        }
    }

    /// The y scales as text: equal keys mean equal label widths.
    QString yScalesKey() const
    {
        const auto range = [](const QAbstractAxis* axis) {
            if (const auto* v = qobject_cast<const QValueAxis*>(axis))
                return QStringLiteral("%1:%2:%3:%4")
                    .arg(v->min())
                    .arg(v->max())
                    .arg(v->tickCount())
                    .arg(v->labelFormat());
            if (const auto* l = qobject_cast<const QLogValueAxis*>(axis))
                return QStringLiteral("log%1:%2").arg(l->min()).arg(l->max());
            return QString();
        };
        return range(rpsY) + QLatin1Char('|') + range(latencyY->current()) + QLatin1Char('|') + range(errorsY);
    }

    void redraw()
    {
        redrawTimer.stop();
        redrawPending = false;
        double minPositive = 0, max = 0;

        // The latency mode comes first: the log axis cannot show values <= 0.
        valueRange(latencyLines, minPositive, max);
        const bool log = latencyY->update(minPositive, max > 0 ? max : 1.0);
        for (const Line& l : std::as_const(latencyLines))
            fill(l, log);

        for (const Line& l : std::as_const(rpsLines))
            fill(l, false);
        valueRange(rpsLines, minPositive, max);
        applyScale(rpsY, niceScale(0, std::max(max * 1.08, 10.0), Y_MAX_INTERVALS));

        for (const Line& l : std::as_const(errorLines))
            fill(l, false);
        valueRange(errorLines, minPositive, max);
        // An idle errors chart reads 0..4 with whole-number ticks rather than 0.00..1.00.
        applyScale(errorsY, niceScale(0, std::max(max * 1.08, 4.0), Y_MAX_INTERVALS));

        const double lastS = history.isEmpty() ? 0.0 : history.points().back().endS;
        const double xMaxS = stored && lastS > 0 ? lastS : std::max(lastS, MIN_X_RANGE_S);
        for (Panel* p : { &rps, &latency, &errors })
            applyTimeAxis(p->x, xMaxS, X_MAX_INTERVALS);

        const QString key = yScalesKey();
        if (key != alignedFor) {
            // After decorate() the legends changed too; otherwise only an axis did.
            alignPlotAreas({ rps.chart, latency.chart, errors.chart },
                alignedFor.isEmpty() ? ChartRelayout::All : ChartRelayout::Pending);
            alignedFor = key;
        }
        for (Panel* p : { &rps, &latency, &errors })
            cacheGridLines(p->chart);
    }

    /// The timer's redraw: charts nobody can see wait until they are shown.
    void redrawIfVisible()
    {
        if (q->isVisible())
            redraw();
        else
            redrawPending = true;
    }

    void scheduleRedraw()
    {
        if (!redrawTimer.isActive()) redrawTimer.start();
    }

    void showContextMenu(const QPoint& globalPos)
    {
        QMenu menu(q);
        menu.addAction(QObject::tr("Export PNG…"), q, [this] { exportWithDialog(); });
        menu.exec(globalPos);
    }

    void exportWithDialog()
    {
        QString path = QFileDialog::getSaveFileName(q, QObject::tr("Export PNG"),
            (title.isEmpty() ? QStringLiteral("live") : title) + QStringLiteral(".png"),
            QObject::tr("PNG images (*.png)"));
        if (path.isEmpty()) return;
        if (!path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) path += QStringLiteral(".png");
        QString error;
        if (!q->exportPng(path, {}, &error)) QMessageBox::warning(q, QObject::tr("Export failed"), error);
    }
};

LiveCharts::LiveCharts(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>(this))
{
    d->build();
    d->decorate();
    d->redraw();
}

LiveCharts::~LiveCharts() = default;

void LiveCharts::reset(const QString& title, const QColor& color, bool openModel)
{
    d->history.clear();
    d->stored = false;
    d->title = title;
    if (color.isValid()) d->color = color;
    d->openModel = openModel;
    d->decorate();
    d->redraw();
}

void LiveCharts::appendInterval(const IntervalPoint& point)
{
    d->history.append(point);
    d->scheduleRedraw();
}

void LiveCharts::setSeries(const RunSeries& series)
{
    d->title = series.label;
    if (series.color.isValid()) d->color = series.color;
    d->openModel = series.openModel;
    d->stored = true;
    d->decorate();
    d->history.assign(series.intervals);
    d->redraw();
}

int LiveCharts::pointCount() const
{
    return d->history.size();
}

void LiveCharts::redrawNow()
{
    d->redraw();
}

void LiveCharts::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (d->redrawPending) d->redraw();
}

bool LiveCharts::exportPng(const QString& path, QSize size, QString* error) const
{
    if (d->redrawTimer.isActive() || d->redrawPending) d->redraw(); // the file shows every interval received so far
    const QSize imageSize = size.isValid() && !size.isEmpty() ? size : this->size();
    const QList<int> heights = splitByWeights(imageSize.height(), PANEL_WEIGHTS);
    QList<ChartSlot> placements;
    int y = 0;
    const Impl::Panel* panels[] = { &d->rps, &d->latency, &d->errors };
    for (int i = 0; i < 3; ++i) {
        placements.append({ panels[i]->chart, QRect(0, y, imageSize.width(), heights[i]) });
        y += heights[i];
    }
    return savePng(renderCharts(placements, imageSize, true), path, error);
}

} // namespace wb::ui
