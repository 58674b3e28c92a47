// QtTest for the chart widgets (offscreen): live charts, comparison charts,
// hover tooltips and PNG export.

#include "charts/chartcrosshair.h"
#include "charts/charthover.h"
#include "charts/comparecharts.h"
#include "charts/intervalhistory.h"
#include "charts/livecharts.h"
#include "charts/niceaxis.h"
#include "charts/timeplot.h"
#include "chartsamples.h"
#include "testmain.h"

#include <QAbstractBarSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QGraphicsLineItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace wb::ui;
using wb::ui::samples::point;

namespace {

QChart* chartOf(const QWidget& w, const char* viewName)
{
    auto* view = w.findChild<QChartView*>(QLatin1String(viewName));
    return view ? view->chart() : nullptr;
}

TimePlot* plotOf(const LiveCharts& w, const char* plotName)
{
    TimePlot* plot = w.plot(QLatin1String(plotName));
    if (!plot) qFatal("no plot %s", plotName);
    return plot;
}

const PlotLine& lineOf(const LiveCharts& w, const char* plotName, const char* key)
{
    const TimePlot* plot = plotOf(w, plotName);
    const int i = plot->lineIndex(QLatin1String(key));
    if (i < 0) qFatal("no line %s in %s", key, plotName);
    return plot->line(i);
}

QList<QPointF> pointsOf(const LiveCharts& w, const char* plotName, const char* key)
{
    return lineOf(w, plotName, key).points;
}

QList<QLineSeries*> linesOf(const QWidget& w, const char* viewName)
{
    QList<QLineSeries*> out;
    for (QAbstractSeries* s : chartOf(w, viewName)->series())
        if (auto* l = qobject_cast<QLineSeries*>(s)) out.append(l);
    return out;
}

template<typename Axis> Axis* axisOf(QAbstractSeries* s, Qt::Orientation o)
{
    for (QAbstractAxis* a : s->attachedAxes())
        if (a->orientation() == o) return qobject_cast<Axis*>(a);
    return nullptr;
}

double maxY(const QList<QPointF>& pts)
{
    double m = -1;
    for (const QPointF& p : pts)
        m = std::max(m, p.y());
    return m;
}

/// Pixels within `tolerance` per channel of `color`.
int countColor(const QImage& image, const QColor& color, int tolerance)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const QRgb c = line[x];
            if (std::abs(qRed(c) - color.red()) <= tolerance && std::abs(qGreen(c) - color.green()) <= tolerance
                && std::abs(qBlue(c) - color.blue()) <= tolerance)
                ++n;
        }
    }
    return n;
}

/// The visible y axis of a chart (the adaptive axis keeps the idle one hidden).
QAbstractAxis* visibleYAxis(QChart* chart)
{
    for (QAbstractAxis* a : chart->axes(Qt::Vertical))
        if (a->isVisible()) return a;
    return nullptr;
}

/// Rendered y-axis labels of a widget whose plot area is `plot`: the number of
/// separate blocks of dark (text) pixels in the strip left of it. Tick marks
/// and the axis line are light grey, so only label glyphs count.
int yLabelBlocks(QWidget* widget, const QRect& plot)
{
    const QImage image = widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const int right = std::min(plot.left() - 8, image.width()); // clear of the axis line and its ticks
    int blocks = 0;
    bool inBlock = false;
    int blankRows = 0;
    for (int y = std::max(0, plot.top() - 10); y < std::min(image.height(), plot.bottom() + 10); ++y) {
        bool dark = false;
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < right && !dark; ++x)
            dark = qRed(line[x]) < 140 && qGreen(line[x]) < 140 && qBlue(line[x]) < 140;
        if (dark) {
            if (!inBlock) ++blocks;
            inBlock = true;
            blankRows = 0;
        } else if (inBlock && ++blankRows >= 3) {
            inBlock = false;
        }
    }
    return blocks;
}

int yLabelBlocks(QChartView* view)
{
    QCoreApplication::processEvents(); // the chart lays itself out on a posted event
    QChart* chart = view->chart();
    return yLabelBlocks(view, view->mapFromScene(chart->mapToScene(chart->plotArea())).boundingRect());
}

/// Decades a log axis spans (its range is a whole number of decades).
int decadesOf(const QLogValueAxis* axis)
{
    return static_cast<int>(std::lround(std::log10(axis->max() / axis->min())));
}

QVector<RunSeries> threeRuns()
{
    samples::RunShape neg { .rps = 34893, .p50Ms = 2.9, .p90Ms = 6.1, .p99Ms = 14.1, .seed = 1 };
    samples::RunShape nodePort { .rps = 28410, .p50Ms = 3.6, .p90Ms = 8.0, .p99Ms = 22.0, .seed = 2 };
    samples::RunShape service { .rps = 41200, .p50Ms = 2.1, .p90Ms = 4.2, .p99Ms = 9.0, .seed = 3 };
    nodePort.durationS = 45;
    return { samples::run(QStringLiteral("NEG ingress"), colorForTarget(1), neg),
        samples::run(QStringLiteral("NodePort ingress"), colorForTarget(2), nodePort),
        samples::run(QStringLiteral("Service"), colorForTarget(3), service) };
}

} // namespace

class ChartsTest : public QObject
{
    Q_OBJECT

private slots:

    void liveShows600Intervals();
    void liveTimeAxisGrowsByTicks();
    void liveDownsamplesAtCap();
    void timeAxesFitTheRunsLength();
    void liveWaitsWhileHidden();
    void liveCoalescesRedraws();
    void liveOpenVersusClosedModel();
    void liveSetSeriesDrawsAtOnce();
    void liveLatencySwitchesToLogAndBack();
    void liveLogAxisShowsLabels();
    void liveStoredRunSpansItsOwnLength();
    void livePlotAreasAligned();
    void liveHoverShowsNearestValue();
    void compareHoverListsEveryRun();
    void liveExportPng();
    void liveRedrawTime();

    void compareThreeRuns();
    void compareSpectrumLogAxisShowsLabels();
    void compareLegendHidesWhenCut();
    void compareExportPng();
    void exportReportsErrors();
};

void ChartsTest::liveShows600Intervals()
{
    LiveCharts w;
    w.resize(1000, 700);
    w.show(); // the redraw timer leaves hidden charts alone
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.reset(QStringLiteral("NEG ingress"), colorForTarget(1), false);
    QCOMPARE(plotOf(w, "rpsPlot")->timeAxis().maxS, 10.0); // at least 10 s
    for (int i = 1; i <= 600; ++i)
        w.appendInterval(point(i, 30000 + (i % 7) * 100, i == 300 ? 40.0 : 14.0));
    QCOMPARE(w.pointCount(), 600);
    QTRY_COMPARE(pointsOf(w, "rpsPlot", "rps").size(), 600);
    QCOMPARE(pointsOf(w, "rpsPlot", "rps").back(), QPointF(600, 30000 + (600 % 7) * 100));
    for (const char* name : { "p50", "p90", "p99" })
        QCOMPARE(pointsOf(w, "latencyPlot", name).size(), 600);
    QCOMPARE(pointsOf(w, "errorsPlot", "errors").size(), 600);

    // The live time axis grows by whole ticks: 600 s is one.
    QCOMPARE(plotOf(w, "rpsPlot")->timeAxis().maxS, 600.0);
    const PlotYScale y = plotOf(w, "rpsPlot")->yScale();
    QVERIFY(!y.log);
    QCOMPARE(y.min, 0.0);
    QVERIFY(y.max >= 30600 && y.max <= 40000);
    // All three charts share the x range.
    QCOMPARE(plotOf(w, "errorsPlot")->timeAxis(), plotOf(w, "rpsPlot")->timeAxis());
    const PlotYScale latencyY = plotOf(w, "latencyPlot")->yScale();
    QVERIFY(!latencyY.log); // 40/2.8 is far below 100x: linear
    QVERIFY(latencyY.max >= 40.0 && latencyY.max <= 50.0);
}

void ChartsTest::liveTimeAxisGrowsByTicks()
{
    // A new interval changes the live time axis (a whole repaint) once per tick step, not every time.
    LiveCharts w;
    w.reset(QStringLiteral("growing"), colorForTarget(1), false);
    QList<double> maxima;
    for (int i = 1; i <= 120; ++i) { // 30 s at 250 ms
        w.appendInterval(point(i * 0.25, 1000, 2.0));
        w.redrawNow();
        const double maxS = plotOf(w, "rpsPlot")->timeAxis().maxS;
        QVERIFY(maxS >= i * 0.25);
        if (maxima.isEmpty() || maxima.back() != maxS) maxima.append(maxS);
    }
    QCOMPARE(maxima.front(), 10.0);
    QVERIFY2(maxima.size() <= 12, qPrintable(QString::number(maxima.size()))); // 120 intervals
    QCOMPARE(maxima.back(), 30.0);
}

void ChartsTest::timeAxesFitTheRunsLength()
{
    // A 2 s run fills the width live from its first interval, not a fifth of a 10 s axis.
    LiveCharts live;
    live.reset(QStringLiteral("short"), colorForTarget(1), false, 2.0);
    live.appendInterval(point(0.25, 1000, 2.0));
    live.redrawNow();
    QCOMPARE(plotOf(live, "rpsPlot")->timeAxis().maxS, 2.0);
    QCOMPARE(plotOf(live, "latencyPlot")->timeAxis().maxS, 2.0);
    // A run that goes on past its plan (drain) still shows every interval.
    live.appendInterval(point(2.5, 1000, 2.0));
    live.redrawNow();
    QVERIFY(plotOf(live, "rpsPlot")->timeAxis().maxS >= 2.5);

    // Compare: the longest compared run (1.25 s and 2 s here) fills the width.
    CompareCharts compare;
    RunSeries a;
    a.label = QStringLiteral("a");
    for (int i = 1; i <= 5; ++i)
        a.intervals.append(point(i * 0.25, 1000, 2.0));
    RunSeries b = a;
    b.label = QStringLiteral("b");
    for (int i = 6; i <= 8; ++i)
        b.intervals.append(point(i * 0.25, 1000, 2.0));
    compare.setRuns({ a, b });
    auto* view = compare.findChild<QChartView*>(QStringLiteral("rpsChartView"));
    auto* x = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).first());
    QVERIFY(x);
    QCOMPARE(x->max(), 2.0);
}

void ChartsTest::liveDownsamplesAtCap()
{
    LiveCharts w;
    w.reset(QStringLiteral("long run"), colorForTarget(2), false);
    const int n = IntervalHistory::DEFAULT_CAP * 3 + 7;
    for (int i = 1; i <= n; ++i)
        w.appendInterval(point(i * 0.5, 1000, i == 4321 ? 900.0 : 20.0));
    QVERIFY(w.pointCount() <= IntervalHistory::DEFAULT_CAP);
    QVERIFY(w.pointCount() >= IntervalHistory::DEFAULT_CAP / 2);
    w.redrawNow();
    const QList<QPointF> pts = pointsOf(w, "latencyPlot", "p99");
    QCOMPARE(pts.size(), w.pointCount());
    QCOMPARE(pts.front().x(), 0.5);
    QCOMPARE(pts.back().x(), n * 0.5);
    QCOMPARE(maxY(pts), 900.0);
    QCOMPARE(maxY(pointsOf(w, "rpsPlot", "rps")), 1000.0); // equal rates average to themselves
}

void ChartsTest::liveWaitsWhileHidden()
{
    // A run followed from another tab costs no drawing: the charts catch up when shown.
    QWidget tabs;
    auto* w = new LiveCharts(&tabs);
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    w->reset(QStringLiteral("hidden"), colorForTarget(1), false);
    w->hide();
    QCoreApplication::processEvents();
    TimePlot* rps = plotOf(*w, "rpsPlot");
    const int paints = rps->fullRepaintCount() + rps->segmentRepaintCount();
    QSignalSpy redrawn(w, &LiveCharts::redrawn);
    for (int i = 1; i <= 30; ++i)
        w->appendInterval(point(i, 1000, 10));
    QTest::qWait(3 * LiveCharts::REDRAW_INTERVAL_MS);
    QCOMPARE(redrawn.count(), 0);
    QCOMPARE(rps->fullRepaintCount() + rps->segmentRepaintCount(), paints);
    QCOMPARE(w->pointCount(), 30);
    w->show();
    QTRY_COMPARE(pointsOf(*w, "rpsPlot", "rps").size(), 30);
    QCOMPARE(redrawn.count(), 1);
    QCOMPARE(pointsOf(*w, "rpsPlot", "rps").back(), QPointF(30, 1000));
    QTRY_VERIFY(rps->fullRepaintCount() + rps->segmentRepaintCount() > paints);
}

void ChartsTest::liveCoalescesRedraws()
{
    LiveCharts w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.reset(QStringLiteral("burst"), colorForTarget(1), false);
    QSignalSpy redrawn(&w, &LiveCharts::redrawn);
    for (int i = 1; i <= 100; ++i)
        w.appendInterval(point(i, 1000, 10));
    QCOMPARE(redrawn.count(), 0); // nothing drawn synchronously
    QTRY_COMPARE(pointsOf(w, "rpsPlot", "rps").size(), 100);
    QTest::qWait(2 * LiveCharts::REDRAW_INTERVAL_MS);
    QCOMPARE(redrawn.count(), 1);

    // Bursts that arrive through the event queue, as the run's intervals do: each burst of
    // ten, interleaved with the delivery of posted events (which never fires a timer), is
    // drawn once, and nothing is drawn between bursts without a new interval. Counted
    // against the bursts the test makes, not against the time they took.
    redrawn.clear();
    const int bursts = 10;
    for (int b = 0; b < bursts; ++b) {
        for (int i = 0; i < 10; ++i) {
            w.appendInterval(point(101 + 10 * b + i, 1000, 10));
            QCoreApplication::sendPostedEvents();
        }
        QCOMPARE(redrawn.count(), b); // the burst is not drawn interval by interval
        QTRY_COMPARE(redrawn.count(), b + 1);
        QCOMPARE(pointsOf(w, "rpsPlot", "rps").size(), 110 + 10 * b); // one redraw brings the whole burst
    }
    QTest::qWait(2 * LiveCharts::REDRAW_INTERVAL_MS); // a redraw without a new interval would show here
    QCOMPARE(redrawn.count(), bursts);
}

void ChartsTest::liveOpenVersusClosedModel()
{
    LiveCharts w;
    IntervalPoint p = point(1, 900, 12);
    p.targetRatePerS = 1000;
    p.serviceP50Ms = 1;
    p.serviceP99Ms = 5;
    w.reset(QStringLiteral("open"), colorForTarget(1), true);
    w.appendInterval(p);
    w.redrawNow();
    for (const char* name : { "serviceP50", "serviceP99" }) {
        QVERIFY(lineOf(w, "latencyPlot", name).visible);
        QCOMPARE(lineOf(w, "latencyPlot", name).points.size(), 1);
    }
    QVERIFY(lineOf(w, "rpsPlot", "targetRate").visible);
    QCOMPARE(lineOf(w, "rpsPlot", "targetRate").points.front().y(), 1000.0);
    QCOMPARE(lineOf(w, "rpsPlot", "targetRate").pen.style(), Qt::CustomDashLine);
    // The percentiles differ by stroke, not only by a shade of the run's colour; every line of
    // the latency chart has a look of its own.
    QCOMPARE(lineOf(w, "latencyPlot", "p99").pen.style(), Qt::SolidLine);
    QCOMPARE(lineOf(w, "latencyPlot", "p90").pen.style(), Qt::CustomDashLine);
    QCOMPARE(lineOf(w, "latencyPlot", "p50").pen.style(), Qt::DotLine);
    QVERIFY(lineOf(w, "latencyPlot", "p99").pen.widthF() > lineOf(w, "latencyPlot", "p50").pen.widthF());
    for (const char* name : { "serviceP50", "serviceP90", "serviceP99" })
        QCOMPARE(lineOf(w, "latencyPlot", name).pen.style(), Qt::DashDotLine);
    QVERIFY(plotOf(w, "rpsPlot")->yScale().max >= 1000.0); // the target counts for the range

    w.reset(QStringLiteral("closed"), colorForTarget(1), false);
    w.appendInterval(p);
    w.redrawNow();
    QVERIFY(!lineOf(w, "rpsPlot", "targetRate").visible);
    QCOMPARE(lineOf(w, "rpsPlot", "targetRate").points.size(), 0);
    QVERIFY(!lineOf(w, "latencyPlot", "serviceP99").visible);
    QVERIFY(lineOf(w, "latencyPlot", "p99").visible);
    QCOMPARE(lineOf(w, "rpsPlot", "rps").name, QStringLiteral("closed"));
}

void ChartsTest::liveSetSeriesDrawsAtOnce()
{
    LiveCharts w;
    RunSeries run = threeRuns()[0];
    run.openModel = true;
    run.color = QColor(0x12, 0x34, 0x56);
    w.setSeries(run);
    QCOMPARE(w.pointCount(), run.intervals.size());
    const PlotLine& rps = lineOf(w, "rpsPlot", "rps");
    QCOMPARE(rps.points.size(), run.intervals.size()); // no timer involved
    QCOMPARE(rps.pen.color(), run.color);
    QCOMPARE(rps.name, run.label);
    QVERIFY(lineOf(w, "rpsPlot", "targetRate").visible);
    QCOMPARE(lineOf(w, "latencyPlot", "p90").pen.color(), run.color);
    QCOMPARE(lineOf(w, "latencyPlot", "p50").points[5].y(), run.intervals[5].p50Ms);
}

void ChartsTest::liveLatencySwitchesToLogAndBack()
{
    LiveCharts w;
    w.reset(QStringLiteral("spiky"), colorForTarget(1), false);
    IntervalPoint quiet = point(1, 1000, 10); // p50 2 ms
    IntervalPoint idle = point(2, 0, 0); // no responses: latency 0
    IntervalPoint spike = point(3, 1000, 800); // p50 160, p99 800: 400x the quiet p50
    w.appendInterval(quiet);
    w.appendInterval(idle);
    w.appendInterval(spike);
    w.redrawNow();
    const PlotYScale log = plotOf(w, "latencyPlot")->yScale();
    QVERIFY(log.log);
    QVERIFY(log.min <= 2.0 && log.max >= 800.0);
    QCOMPARE(pointsOf(w, "latencyPlot", "p99").size(), 2); // the zero latency cannot be drawn on a log axis

    w.reset(QStringLiteral("calm"), colorForTarget(1), false);
    w.appendInterval(quiet);
    w.appendInterval(idle);
    w.redrawNow();
    QVERIFY(!plotOf(w, "latencyPlot")->yScale().log);
    QCOMPARE(pointsOf(w, "latencyPlot", "p99").size(), 2); // linear again: the zero is drawn
}

void ChartsTest::liveLogAxisShowsLabels()
{
    LiveCharts w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.reset(QStringLiteral("sub-ms"), colorForTarget(1), false);
    // Sub-millisecond latencies first (linear), then a 40 ms tail: the axis switches to log
    // with decades below 1 ms.
    for (int i = 1; i <= 10; ++i)
        w.appendInterval(point(i, 50000, 0.4));
    w.redrawNow();
    TimePlot* latency = plotOf(w, "latencyPlot");
    QVERIFY(!latency->yScale().log);
    QVERIFY(yLabelBlocks(latency, latency->plotRect().toRect()) >= 3); // the reference: this check sees labels
    w.appendInterval(point(11, 50000, 40.0));
    w.redrawNow();

    const PlotYScale log = latency->yScale();
    QVERIFY(log.log);
    QVERIFY2(log.min <= 0.08 + 1e-9 && log.min > 0.001, qPrintable(QString::number(log.min)));
    QVERIFY(log.max >= 40.0);
    // One label per decade boundary, the bottom and top ones included (0.01 ... 100).
    const int decades = static_cast<int>(std::lround(std::log10(log.max / log.min)));
    QCOMPARE(decades, 4);
    QCOMPARE(yLabelBlocks(latency, latency->plotRect().toRect()), decades + 1);
}

void ChartsTest::liveStoredRunSpansItsOwnLength()
{
    LiveCharts w;
    RunSeries shortRun;
    shortRun.label = QStringLiteral("2 s run");
    shortRun.color = colorForTarget(2);
    for (int i = 1; i <= 8; ++i)
        shortRun.intervals.append(point(i * 0.25, 1000, 3.0));
    w.setSeries(shortRun);
    for (const char* plot : { "rpsPlot", "latencyPlot", "errorsPlot" })
        QCOMPARE(plotOf(w, plot)->timeAxis().maxS, 2.0);

    // A live run keeps at least 10 s while it is young, even after a stored run was shown.
    w.reset(QStringLiteral("live"), colorForTarget(1), false);
    w.appendInterval(point(0.25, 1000, 3.0));
    w.redrawNow();
    QCOMPARE(plotOf(w, "rpsPlot")->timeAxis().maxS, 10.0);
    // A stored run longer than 10 s ends where it ends (not at a tick).
    RunSeries longRun = shortRun;
    longRun.intervals.clear();
    for (int i = 1; i <= 23; ++i)
        longRun.intervals.append(point(i, 1000, 3.0));
    w.setSeries(longRun);
    QCOMPARE(plotOf(w, "rpsPlot")->timeAxis().maxS, 23.0);
}

void ChartsTest::livePlotAreasAligned()
{
    LiveCharts w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.reset(QStringLiteral("aligned"), colorForTarget(1), false);
    for (int i = 1; i <= 30; ++i) {
        IntervalPoint p = point(i, 123456, 0.8); // wide rps labels, narrow latency labels
        p.errorsPerS = 2;
        w.appendInterval(p);
    }
    w.redrawNow();
    const qreal left = plotOf(w, "rpsPlot")->plotRect().left();
    QCOMPARE(plotOf(w, "latencyPlot")->plotRect().left(), left);
    QCOMPARE(plotOf(w, "errorsPlot")->plotRect().left(), left);
    QCOMPARE(plotOf(w, "rpsPlot")->plotRect().right(), plotOf(w, "errorsPlot")->plotRect().right());
}

/// Moves the mouse over a chart view to the point of `value` on `series` (real events on the viewport).
static void hoverAt(QChartView* view, QXYSeries* series, QPointF value)
{
    const QPointF inChart = view->chart()->mapToPosition(value, series);
    const QPoint pos = view->mapFromScene(view->chart()->mapToScene(inChart));
    QMouseEvent move(QEvent::MouseMove, QPointF(pos), view->viewport()->mapToGlobal(QPointF(pos)), Qt::NoButton,
        Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &move);
}

/// The same over a TimePlot, at the pixel of (time, value).
static void hoverAt(TimePlot* plot, QPointF value)
{
    const QPoint pos = plot->positionOf(value).toPoint();
    QMouseEvent move(
        QEvent::MouseMove, QPointF(pos), plot->mapToGlobal(QPointF(pos)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
}

void ChartsTest::liveHoverShowsNearestValue()
{
    LiveCharts w;
    w.resize(800, 600);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.reset(QStringLiteral("hover"), colorForTarget(1), false);
    for (int i = 1; i <= 20; ++i)
        w.appendInterval(point(i, 1000.0 * i + 234, 2.0 * i));
    w.redrawNow();
    // Anywhere over the plot area, not only on a line: the crosshair snaps to the nearest interval.
    TimePlot* rps = plotOf(w, "rpsPlot");
    hoverAt(rps, QPointF(12.4, 3000)); // far below the line
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("t = 12.00 s")), qPrintable(QToolTip::text()));
    QVERIFY2(QToolTip::text().contains(QStringLiteral("12,234 req/s")), qPrintable(QToolTip::text()));
    QCOMPARE(rps->shownX(), 12.0);

    // The latency tooltip lists every visible line at that moment.
    TimePlot* latency = plotOf(w, "latencyPlot");
    hoverAt(latency, QPointF(7.6, 5));
    QTRY_VERIFY(QToolTip::text().contains(QStringLiteral("t = 8.00 s")));
    const QString text = QToolTip::text();
    for (const char* line : { "p50", "p90", "p99: 16.0 ms" })
        QVERIFY2(text.contains(QLatin1String(line)), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("service")), qPrintable(text)); // hidden in the closed model

    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(latency, &leave);
    QTRY_VERIFY(!QToolTip::isVisible());
    QVERIFY(std::isnan(latency->shownX()));
}

void ChartsTest::compareHoverListsEveryRun()
{
    CompareCharts w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QVector<RunSeries> runs = threeRuns();
    w.setRuns(runs);
    auto* view = w.findChild<QChartView*>(QStringLiteral("spectrumChartView"));
    const QList<QLineSeries*> lines = linesOf(w, "spectrumChartView");
    hoverAt(view, lines[0], QPointF(2.02, lines[0]->points().front().y())); // near the 99% level
    QTRY_VERIFY(QToolTip::isVisible());
    const QString text = QToolTip::text();
    for (const RunSeries& run : runs)
        QVERIFY2(text.contains(run.label.toHtmlEscaped()), qPrintable(text));
    // The heading is the measured level nearest to the mouse (the sample spectrum has one at ~99.06%).
    const QList<QPointF> pts = lines[0]->points();
    const double nearestX = pts[nearestPointIndex(pts, 2.02)].x();
    const QString heading = QStringLiteral("<b>%1</b>").arg(percentileLabel(percentileFromNinesX(nearestX)));
    QVERIFY2(heading.startsWith(QStringLiteral("<b>99.")), qPrintable(heading));
    QVERIFY2(text.contains(heading), qPrintable(text));

    // Runs of different lengths: past the short run's end only the long run is listed.
    RunSeries shortRun = runs[0];
    shortRun.intervals.resize(8);
    RunSeries longRun = runs[1];
    w.setRuns({ shortRun, longRun });
    auto* rpsView = w.findChild<QChartView*>(QStringLiteral("rpsChartView"));
    auto* crosshair = rpsView->findChild<ChartCrosshair*>();
    const double lateS = longRun.intervals[longRun.intervals.size() / 2].endS;
    QVERIFY(lateS > shortRun.intervals.back().endS + 1);
    const QString late = crosshair->textAt(lateS);
    QVERIFY2(late.contains(longRun.label.toHtmlEscaped()) && !late.contains(shortRun.label.toHtmlEscaped()),
        qPrintable(late));
    const QString early = crosshair->textAt(shortRun.intervals[3].endS);
    QVERIFY2(early.contains(longRun.label.toHtmlEscaped()) && early.contains(shortRun.label.toHtmlEscaped()),
        qPrintable(early));
}

void ChartsTest::liveExportPng()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    LiveCharts w;
    RunSeries run = threeRuns()[1];
    run.color = QColor(0x00, 0x99, 0x33);
    w.setSeries(run);
    const QString path = dir.filePath(QStringLiteral("live.png"));
    QString error;
    QVERIFY2(w.exportPng(path, QSize(900, 640), &error), qPrintable(error));
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(900, 640));
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    const int white = countColor(rgb, Qt::white, 0);
    QVERIFY2(white < rgb.width() * rgb.height() * 98 / 100, "the image is (almost) blank");
    QVERIFY(countColor(rgb, run.color, 12) > 200); // the req/s and p90 lines

    // Unsized export uses the widget's size.
    w.resize(700, 500);
    QVERIFY(w.exportPng(path));
    QCOMPARE(QImage(path).size(), QSize(700, 500));
}

void ChartsTest::liveRedrawTime()
{
    LiveCharts w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    samples::RunShape shape;
    shape.openModel = true;
    shape.durationS = IntervalHistory::DEFAULT_CAP;
    shape.spikeAtS = 900;
    RunSeries run = samples::run(QStringLiteral("at the cap"), colorForTarget(1), shape);
    w.setSeries(run);
    QCOMPARE(w.pointCount(), IntervalHistory::DEFAULT_CAP);

    QVERIFY(!w.grab().isNull()); // first paint: glyph caches and the like

    QElapsedTimer t;
    t.start();
    w.redrawNow();
    const qint64 dataNs = t.nsecsElapsed();
    t.restart();
    const QPixmap painted = w.grab(); // the actual painting of the three charts
    const qint64 paintNs = t.nsecsElapsed();
    QVERIFY(!painted.isNull());
    // The time is a measurement, printed for a look, not a pass/fail bound: on a loaded
    // machine any bound on it is a bet on the load. The test is that the full history paints.
    qInfo("redraw at %d points x 9 series: data + axes + layout %.1f ms, paint %.1f ms", w.pointCount(), dataNs / 1e6,
        paintNs / 1e6);
}

void ChartsTest::compareThreeRuns()
{
    CompareCharts w;
    w.resize(1280, 800);
    const QVector<RunSeries> runs = threeRuns();
    w.setRuns(runs);
    QCOMPARE(w.runCount(), 3);

    const QList<QLineSeries*> rps = linesOf(w, "rpsChartView");
    QCOMPARE(rps.size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(rps[i]->name(), runs[i].label);
        QCOMPARE(rps[i]->pen().color(), runs[i].color);
        QCOMPARE(rps[i]->count(), runs[i].intervals.size());
    }
    QCOMPARE(axisOf<QValueAxis>(rps[0], Qt::Horizontal)->max(), 60.0);

    const QList<QLineSeries*> spectrum = linesOf(w, "spectrumChartView");
    QCOMPARE(spectrum.size(), 3);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(spectrum[i]->pen().color(), runs[i].color);
    // Spectrum x: p = 99% at 2, 99.9% at 3 (find those levels among the points).
    RunSeries exact;
    exact.label = QStringLiteral("exact");
    exact.color = colorForTarget(4);
    exact.spectrum = { { 0, 1 }, { 50, 2 }, { 90, 3 }, { 99, 5 }, { 99.9, 9 }, { 99.99, 20 }, { 100, 40 } };
    w.setRuns({ exact });
    const QList<QPointF> pts = linesOf(w, "spectrumChartView")[0]->points();
    QCOMPARE(pts.size(), 6); // 100% is at infinity: left out
    QVERIFY(qAbs(pts[3].x() - 2.0) < 1e-9 && pts[3].y() == 5.0);
    QVERIFY(qAbs(pts[4].x() - 3.0) < 1e-9 && pts[4].y() == 9.0);
    auto* nines = axisOf<QCategoryAxis>(linesOf(w, "spectrumChartView")[0], Qt::Horizontal);
    QVERIFY(nines);
    QCOMPARE(nines->categoriesLabels(), QStringList({ "50%", "90%", "99%", "99.9%", "99.99%" }));
    QCOMPARE(nines->endValue(QStringLiteral("99.9%")), 3.0);
    QCOMPARE(nines->max(), 4.0);

    w.setRuns(runs);
    QList<QAbstractBarSeries*> barSeries;
    for (QAbstractSeries* s : chartOf(w, "barsChartView")->series())
        if (auto* b = qobject_cast<QAbstractBarSeries*>(s)) barSeries.append(b);
    QCOMPARE(barSeries.size(), 1);
    const QList<QBarSet*> sets = barSeries[0]->barSets();
    QCOMPARE(sets.size(), 3);
    auto* categories = axisOf<QBarCategoryAxis>(barSeries[0], Qt::Vertical);
    QVERIFY(categories);
    QCOMPARE(categories->categories(), QStringList({ "Service", "NodePort ingress", "NEG ingress" }));
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(sets[i]->color(), runs[i].color);
        QCOMPARE(sets[i]->label(), runs[i].label);
        const int category = 2 - i; // first run on top
        QVERIFY(qAbs(sets[i]->at(category) - runs[i].requestsPerS) <= 0.5);
        QCOMPARE(sets[i]->sum(), sets[i]->at(category)); // zero elsewhere
    }
    QVERIFY(barSeries[0]->isLabelsVisible());
}

void ChartsTest::compareSpectrumLogAxisShowsLabels()
{
    CompareCharts w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // Spectra from 0.1 ms to 60 ms (the built-in server's fast answers with a tail): a log y axis
    // whose decades start below 1 ms, as in the docs' compare screenshot that had no labels.
    RunSeries fast;
    fast.label = QStringLiteral("fast");
    fast.color = colorForTarget(1);
    fast.spectrum = samples::spectrum(0.11, 2.5);
    RunSeries slow = fast;
    slow.label = QStringLiteral("slow");
    slow.color = colorForTarget(2);
    slow.spectrum = samples::spectrum(0.3, 60);
    w.setRuns({ fast, slow });
    auto* view = w.findChild<QChartView*>(QStringLiteral("spectrumChartView"));
    auto* log = qobject_cast<QLogValueAxis*>(visibleYAxis(view->chart()));
    QVERIFY(log);
    QVERIFY(log->labelsVisible());
    QVERIFY(!log->labelFormat().isEmpty());
    QVERIFY(log->min() < 0.1);
    const int decades = decadesOf(log);
    QVERIFY(decades >= 3);
    QCOMPARE(yLabelBlocks(view), decades + 1);
}

void ChartsTest::compareLegendHidesWhenCut()
{
    CompareCharts w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setRuns(threeRuns());
    QVERIFY(chartOf(w, "rpsChartView")->legend()->isVisible());
    QVERIFY(chartOf(w, "spectrumChartView")->legend()->isVisible());
    QVERIFY(!chartOf(w, "barsChartView")->legend()->isVisible()); // the categories name the runs

    QVector<RunSeries> longNames = threeRuns();
    for (RunSeries& r : longNames)
        r.label = QStringLiteral("#1234 %1 with a very long label c400 t8 keep-alive").arg(r.label);
    w.setRuns(longNames);
    QVERIFY(!chartOf(w, "rpsChartView")->legend()->isVisible());
    w.setRuns(threeRuns());
    QVERIFY(chartOf(w, "rpsChartView")->legend()->isVisible());
    w.resize(500, 400); // narrow: even the short labels no longer fit in half the width
    QTRY_VERIFY(!chartOf(w, "spectrumChartView")->legend()->isVisible());
}

void ChartsTest::compareExportPng()
{
    QTemporaryDir dir;
    CompareCharts w;
    w.resize(1280, 800);
    QVector<RunSeries> runs = threeRuns();
    runs[0].color = QColor(0xcc, 0x00, 0xcc); // a colour nothing else uses
    w.setRuns(runs);
    const QString all = dir.filePath(QStringLiteral("compare.png"));
    QString error;
    QVERIFY2(w.exportPng(all, QSize(1280, 800), &error), qPrintable(error));
    const QImage image = QImage(all).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(image.size(), QSize(1280, 800));
    QVERIFY(countColor(image, Qt::white, 0) < image.width() * image.height() * 95 / 100);
    QVERIFY(countColor(image, runs[0].color, 10) > 1000); // lines and a whole bar

    for (const char* which : { "rps", "spectrum", "bars" }) {
        const QString one = dir.filePath(QLatin1String(which) + QStringLiteral(".png"));
        QVERIFY2(w.exportChartPng(QLatin1String(which), one, QSize(640, 400), &error), qPrintable(error));
        const QImage chart = QImage(one).convertToFormat(QImage::Format_RGB32);
        QCOMPARE(chart.size(), QSize(640, 400));
        QVERIFY2(countColor(chart, runs[0].color, 10) > 100, which);
    }
}

void ChartsTest::exportReportsErrors()
{
    CompareCharts w;
    w.setRuns(threeRuns());
    QString error;
    QVERIFY(!w.exportChartPng(QStringLiteral("pie"), QStringLiteral("/tmp/never.png"), QSize(100, 100), &error));
    QVERIFY(error.contains(QStringLiteral("pie")));
    error.clear();
    QVERIFY(!w.exportPng(QStringLiteral("/nonexistent-dir/x/compare.png"), QSize(300, 200), &error));
    QVERIFY(!error.isEmpty());
    LiveCharts live;
    error.clear();
    QVERIFY(!live.exportPng(QString(), QSize(300, 200), &error));
    QVERIFY(!error.isEmpty());
}

WB_QTEST_MAIN(ChartsTest)

#include "charts_test.moc"
