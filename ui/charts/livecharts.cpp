#include "charts/livecharts.h"

#include "charts/adaptiveyaxis.h"
#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/intervalhistory.h"
#include "charts/niceaxis.h"
#include "charts/timeplot.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

namespace wb::ui {

namespace {

constexpr double MIN_X_RANGE_S = 10.0; // a run of unknown length: its first seconds do not stretch
constexpr int X_MAX_INTERVALS = 10;
constexpr int Y_MAX_INTERVALS = 4;
constexpr int LATENCY_Y_MAX_INTERVALS = 5;
const QList<int> PANEL_WEIGHTS = { 4, 5, 3 }; // rps, latency, errors: latency has the most lines

struct Line
{
    TimePlot* plot = nullptr;
    int index = -1;
    double IntervalPoint::*field = nullptr;
    bool openOnly = false; ///< shown in the open model only
};

} // namespace

struct LiveCharts::Impl
{
    LiveCharts* q;
    IntervalHistory history;
    QTimer redrawTimer;
    QString title;
    QColor color { 0x4e, 0x79, 0xa7 };
    bool openModel = false;
    /// A whole stored run (setSeries): the x axis spans the run itself. Live
    /// runs keep at least MIN_X_RANGE_S so their first seconds do not stretch.
    bool stored = false;
    /// A live run's measured seconds as planned (0: not known): the time axis's width from the start.
    double plannedS = 0;
    /// The latency axis is log (see AdaptiveYAxis for when and why).
    bool latencyLog = false;

    TimePlot* rps = nullptr;
    TimePlot* latency = nullptr;
    TimePlot* errors = nullptr;
    TimePlot* companion = nullptr; ///< alignWith()
    QList<Line> rpsLines, latencyLines, errorLines;
    /// A timer redraw came while the charts were hidden (another tab): done on show.
    bool redrawPending = false;

    explicit Impl(LiveCharts* owner)
        : q(owner)
    { }

    TimePlot* makePlot(const QString& plotTitle, const QString& objectName, TimePlot::ValueFormatter formatValue)
    {
        auto* p = new TimePlot(plotTitle, q);
        p->setObjectName(objectName);
        p->setHoverFormat(
            [](double x) { return QObject::tr("t = %1 s").arg(QString::number(x, 'f', 2)); }, std::move(formatValue));
        p->setContextMenuPolicy(Qt::CustomContextMenu);
        QObject::connect(p, &QWidget::customContextMenuRequested, q,
            [this, p](const QPoint& pos) { showContextMenu(p->mapToGlobal(pos)); });
        return p;
    }

    static void addLine(TimePlot* p, QList<Line>& lines, const char* key, double IntervalPoint::*field, bool openOnly)
    {
        lines.append({ p, p->addLine(QLatin1String(key)), field, openOnly });
    }

    void build()
    {
        rps = makePlot(QObject::tr("Requests/s"), QStringLiteral("rpsPlot"),
            [](double y) { return formatNumber(y) + QStringLiteral(" req/s"); });
        latency = makePlot(
            QObject::tr("Latency (ms)"), QStringLiteral("latencyPlot"), [](double y) { return formatMs(y); });
        errors = makePlot(QObject::tr("Errors/s"), QStringLiteral("errorsPlot"),
            [](double y) { return formatNumber(y) + QStringLiteral("/s"); });

        addLine(rps, rpsLines, "rps", &IntervalPoint::requestsPerS, false);
        addLine(rps, rpsLines, "targetRate", &IntervalPoint::targetRatePerS, true);
        // Service time first so the corrected latency is drawn on top of it.
        addLine(latency, latencyLines, "serviceP50", &IntervalPoint::serviceP50Ms, true);
        addLine(latency, latencyLines, "serviceP90", &IntervalPoint::serviceP90Ms, true);
        addLine(latency, latencyLines, "serviceP99", &IntervalPoint::serviceP99Ms, true);
        addLine(latency, latencyLines, "p50", &IntervalPoint::p50Ms, false);
        addLine(latency, latencyLines, "p90", &IntervalPoint::p90Ms, false);
        addLine(latency, latencyLines, "p99", &IntervalPoint::p99Ms, false);
        addLine(errors, errorLines, "errors", &IntervalPoint::errorsPerS, false);
        addLine(errors, errorLines, "non2xx", &IntervalPoint::non2xxPerS, false);

        auto* layout = new QVBoxLayout(q);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        layout->addWidget(rps, PANEL_WEIGHTS[0]);
        layout->addWidget(latency, PANEL_WEIGHTS[1]);
        layout->addWidget(errors, PANEL_WEIGHTS[2]);

        redrawTimer.setSingleShot(true);
        redrawTimer.setInterval(REDRAW_INTERVAL_MS);
        QObject::connect(&redrawTimer, &QTimer::timeout, q, [this] { redrawIfVisible(); });
    }

    /// Names, pens and visibility for the current run (colours follow the run's target colour).
    void decorate()
    {
        rps->setLineLook(rpsLines[0].index, title.isEmpty() ? QObject::tr("Requests/s") : title, linePen(color, 2.0));
        rps->setLineLook(
            rpsLines[1].index, QObject::tr("Target rate"), linePen(chartcolors::TARGET_RATE, 1.0, Qt::DashLine));

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
            // 1 px dashes: the raster engine's fast cosmetic path (wider dashes go through the dasher and stroker).
            // Told apart by their strokes, not only by a shade (and so in a grey print of the PNG):
            // p99 solid and widest, p90 dashed, p50 dotted; the service times dash-dotted.
            { QObject::tr("service p50"), shade(p50Color, 0.15), 1.0, Qt::DashDotLine },
            { QObject::tr("service p90"), color, 1.0, Qt::DashDotLine },
            { QObject::tr("service p99"), p99Color, 1.0, Qt::DashDotLine },
            { QObject::tr("p50"), shade(color, 0.1), 1.0, Qt::DotLine }, // a pale dotted line would vanish
            { QObject::tr("p90"), color, 1.0, Qt::DashLine },
            { QObject::tr("p99"), p99Color, 2.0, Qt::SolidLine },
        };
        for (qsizetype i = 0; i < latencyLines.size(); ++i) {
            const auto& look = latencyLooks[i];
            latency->setLineLook(latencyLines[i].index, look.name, linePen(look.color, look.width, look.style));
        }
        errors->setLineLook(errorLines[0].index, QObject::tr("errors"), linePen(chartcolors::ERRORS, 2.0));
        errors->setLineLook(errorLines[1].index, QObject::tr("non-2xx"), linePen(chartcolors::NON2XX, 2.0));

        for (const QList<Line>* lines : { &rpsLines, &latencyLines, &errorLines })
            for (const Line& l : *lines)
                l.plot->setLineVisible(l.index, !l.openOnly || openModel);
    }

    void fill(const Line& line, bool positiveOnly) const
    {
        QList<QPointF> points;
        if (line.plot->line(line.index).visible) {
            const QVector<IntervalPoint>& pts = history.points();
            points.reserve(pts.size());
            for (const IntervalPoint& p : pts) {
                const double v = p.*(line.field);
                if (!positiveOnly || v > 0) points.append(QPointF(p.endS, v));
            }
        }
        line.plot->setPoints(line.index, std::move(points));
    }

    /// Largest value of the visible lines (and smallest positive one).
    void valueRange(const QList<Line>& lines, double& minPositive, double& max) const
    {
        minPositive = std::numeric_limits<double>::infinity();
        max = 0;
        for (const Line& l : lines) {
            if (!l.plot->line(l.index).visible) continue;
            for (const IntervalPoint& p : history.points()) {
                const double v = p.*(l.field);
                max = std::max(max, v);
                if (v > 0) minPositive = std::min(minPositive, v);
            }
        }
    }

    /// One time axis for the three and the companion, and the widest y labels of them all set
    /// the left edge of all: their time axes line up.
    void align(const PlotTimeAxis& time)
    {
        int labelWidthPx = 0;
        for (TimePlot* p : { rps, latency, errors, companion })
            if (p) {
                p->setTimeAxis(time);
                labelWidthPx = std::max(labelWidthPx, p->naturalYLabelWidthPx());
            }
        for (TimePlot* p : { rps, latency, errors, companion })
            if (p) p->setYLabelWidthPx(labelWidthPx);
    }

    void redraw()
    {
        redrawTimer.stop();
        redrawPending = false;
        double minPositive = 0, max = 0;

        // The scales first: a plot that changes scale repaints whole, and is not
        // asked to draw the new segments on the old one first.
        valueRange(latencyLines, minPositive, max);
        latencyLog = wantsLogScale(latencyLog, minPositive, max > 0 ? max : 1.0);
        // Linear latency starts at zero so heights compare honestly; 8% headroom keeps the top line off the frame.
        latency->setYScale(latencyLog
                ? PlotYScale::decades(decadeRange(minPositive, max))
                : PlotYScale::linear(niceScale(0, max > 0 ? max * 1.08 : 1.0, LATENCY_Y_MAX_INTERVALS)));
        valueRange(rpsLines, minPositive, max);
        rps->setYScale(PlotYScale::linear(niceScale(0, std::max(max * 1.08, 10.0), Y_MAX_INTERVALS)));
        valueRange(errorLines, minPositive, max);
        // An idle errors chart reads 0..4 with whole-number ticks rather than 0.00..1.00.
        errors->setYScale(PlotYScale::linear(niceScale(0, std::max(max * 1.08, 4.0), Y_MAX_INTERVALS)));

        const double lastS = history.isEmpty() ? 0.0 : history.points().back().endS;
        const PlotTimeAxis time = stored && lastS > 0
            ? PlotTimeAxis::upTo(lastS, X_MAX_INTERVALS)
            : growingTimeAxis(lastS, plannedS > 0 ? plannedS : MIN_X_RANGE_S, X_MAX_INTERVALS);
        align(time);

        for (const QList<Line>* lines : { &rpsLines, &errorLines })
            for (const Line& l : *lines)
                fill(l, false);
        for (const Line& l : std::as_const(latencyLines))
            fill(l, latencyLog); // the log axis cannot show values <= 0
        emit q->redrawn();
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

void LiveCharts::reset(const QString& title, const QColor& color, bool openModel, double plannedS)
{
    d->history.clear();
    d->stored = false;
    d->plannedS = plannedS;
    d->title = title;
    if (color.isValid()) d->color = color;
    d->openModel = openModel;
    d->latencyLog = false;
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
    d->latencyLog = false;
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

void LiveCharts::alignWith(TimePlot* companion)
{
    d->companion = companion;
    realign();
}

void LiveCharts::realign()
{
    d->align(d->rps->timeAxis());
}

TimePlot* LiveCharts::plot(const QString& objectName) const
{
    for (TimePlot* p : { d->rps, d->latency, d->errors })
        if (p->objectName() == objectName) return p;
    return nullptr;
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
    QImage image(imageSize, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::TextAntialiasing);
        const QList<int> heights = splitByWeights(imageSize.height(), PANEL_WEIGHTS);
        int y = 0;
        const TimePlot* plots[] = { d->rps, d->latency, d->errors };
        for (int i = 0; i < 3; ++i) {
            plots[i]->paintTo(painter, QRect(0, y, imageSize.width(), heights[i]));
            y += heights[i];
        }
    }
    return savePng(image, path, error);
}

} // namespace wb::ui
