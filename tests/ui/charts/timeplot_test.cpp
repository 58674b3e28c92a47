// QtTest for TimePlot (offscreen): points appended draw only new segments,
// scale and axis changes repaint whole, the rendered image shows each line in
// its colour, segment by segment the same as whole, and hovering finds the
// nearest point. Repaints are counted, never timed.

#include "charts/timeplot.h"
#include "testmain.h"

#include <QPainter>
#include <QToolTip>
#include <QtTest>
#include <cmath>

using namespace wb::ui;

namespace {

const QColor RED(0xd6, 0x27, 0x28);
const QColor BLUE(0x4e, 0x79, 0xa7);

/// Pixels within `tolerance` per channel of `color`.
int countColor(const QImage& image, const QColor& color, int tolerance, const QRect& within = {})
{
    const QRect area = within.isNull() ? image.rect() : within & image.rect();
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            const QRgb c = image.pixel(x, y);
            if (std::abs(qRed(c) - color.red()) <= tolerance && std::abs(qGreen(c) - color.green()) <= tolerance
                && std::abs(qBlue(c) - color.blue()) <= tolerance)
                ++n;
        }
    return n;
}

/// Pixels that are `color` blended over white by at least `minAlpha` (antialiased
/// 1 px lines between two pixel rows are two half-strength rows).
int countBlended(const QImage& image, const QColor& color, double minAlpha, const QRect& within)
{
    const QRect area = within & image.rect();
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            const QRgb c = image.pixel(x, y);
            // Each channel: c = 255 - a * (255 - colour); solve a from the channel that moves the most.
            const double a = (255.0 - qRed(c) + 255.0 - qGreen(c) + 255.0 - qBlue(c))
                / std::max(1.0, 3 * 255.0 - color.red() - color.green() - color.blue());
            const auto expect = [a](int channel) { return 255.0 - a * (255.0 - channel); };
            const bool sameHue = std::abs(qRed(c) - expect(color.red())) <= 12
                && std::abs(qGreen(c) - expect(color.green())) <= 12 && std::abs(qBlue(c) - expect(color.blue())) <= 12;
            if (sameHue && a >= minAlpha) ++n;
        }
    return n;
}

QList<QPointF> ramp(int from, int to, double stepS = 1.0)
{
    QList<QPointF> pts;
    for (int i = 1; i <= to; ++i)
        if (i >= from) pts.append(QPointF(i * stepS, 10.0 * i));
    return pts;
}

QList<QPointF> firstPoints(int n)
{
    return ramp(1, n);
}

QImage grabRgb(QWidget& w)
{
    return w.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

/// A shown plot with two lines on 0..100 over 0..10 s.
struct Fixture
{
    TimePlot plot { QStringLiteral("Test plot") };
    int red = -1, blue = -1;

    Fixture()
    {
        plot.resize(600, 300);
        red = plot.addLine(QStringLiteral("red"));
        blue = plot.addLine(QStringLiteral("blue"));
        plot.setLineLook(red, QStringLiteral("red line"), QPen(RED, 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        plot.setLineLook(blue, QStringLiteral("blue line"), QPen(BLUE, 1.0, Qt::DashLine));
        plot.setYScale(PlotYScale::linear(niceScale(0, 100, 4)));
        plot.setTimeAxis(PlotTimeAxis::upTo(10, 10));
        plot.show();
    }
    int paints() const { return plot.fullRepaintCount() + plot.segmentRepaintCount(); }
    /// Lets the posted repaint happen (a shown widget paints on the event loop).
    void settle() { QCoreApplication::processEvents(); }
};

} // namespace

class TimePlotTest : public QObject
{
    Q_OBJECT

private slots:
    void appendedPointsDrawOnlyNewSegments();
    void scaleChangesRepaintWhole();
    void replacedPointsRepaintWhole();
    void rendersEachLineInItsColour();
    void segmentsDrawTheSamePixelsAsAWholeRepaint();
    void hoverFindsTheNearestPoint();
    void hiddenPlotPaintsNothing();
};

void TimePlotTest::appendedPointsDrawOnlyNewSegments()
{
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.plot));
    f.plot.setPoints(f.red, firstPoints(3));
    f.settle();
    QVERIFY(!f.plot.grab().isNull());
    const int full = f.plot.fullRepaintCount();
    QVERIFY(full >= 1);
    for (int n = 4; n <= 9; ++n) {
        const int segments = f.plot.segmentRepaintCount();
        f.plot.setPoints(f.red, firstPoints(n));
        QVERIFY(!f.plot.grab().isNull()); // paints now
        QCOMPARE(f.plot.segmentRepaintCount(), segments + 1);
        QCOMPARE(f.plot.line(f.red).drawnCount, n);
    }
    QCOMPARE(f.plot.fullRepaintCount(), full); // the frame and old segments were never drawn again
    // The same points again: nothing to draw.
    const int paints = f.paints();
    f.plot.setPoints(f.red, firstPoints(9));
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.paints(), paints);
}

void TimePlotTest::scaleChangesRepaintWhole()
{
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.plot));
    f.plot.setPoints(f.red, firstPoints(5));
    QVERIFY(!f.plot.grab().isNull());
    int full = f.plot.fullRepaintCount();

    f.plot.setYScale(PlotYScale::linear(niceScale(0, 200, 4))); // a new y scale
    f.plot.setPoints(f.red, firstPoints(6));
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), ++full);

    f.plot.setYScale(PlotYScale::linear(niceScale(0, 200, 4))); // the same scale: no repaint
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), full);

    f.plot.setTimeAxis(PlotTimeAxis::upTo(20, 10)); // a longer time axis
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), ++full);

    f.plot.setYScale(PlotYScale::decades(decadeRange(1, 100))); // log
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), ++full);

    f.plot.setYLabelWidthPx(80); // aligned to a wider neighbour
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), ++full);

    f.plot.resize(500, 300);
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), ++full);

    f.plot.setLineLook(f.red, QStringLiteral("renamed"), f.plot.line(f.red).pen); // the legend changes
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), ++full);
}

void TimePlotTest::replacedPointsRepaintWhole()
{
    // A long run's history halved: the points are new, not an extension.
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.plot));
    f.plot.setPoints(f.red, firstPoints(8));
    QVERIFY(!f.plot.grab().isNull());
    const int full = f.plot.fullRepaintCount();
    QList<QPointF> halved;
    for (int i = 2; i <= 8; i += 2)
        halved.append(QPointF(i, 50));
    f.plot.setPoints(f.red, halved);
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), full + 1);
}

void TimePlotTest::rendersEachLineInItsColour()
{
    Fixture f;
    f.plot.setPoints(f.red, { { 0, 20 }, { 10, 20 } }); // flat at 20 across the plot
    f.plot.setPoints(f.blue, { { 0, 80 }, { 10, 80 } }); // and at 80, dashed
    const QImage image = grabRgb(f.plot);
    const QRect plot = f.plot.plotRect().toRect();
    const int redY = qRound(f.plot.positionOf({ 5, 20 }).y());
    const int blueY = qRound(f.plot.positionOf({ 5, 80 }).y());
    const QRect redBand(plot.left(), redY - 3, plot.width(), 7);
    const QRect blueBand(plot.left(), blueY - 3, plot.width(), 7);
    // A 2 px solid line across ~540 px: at least one full row of its colour.
    QVERIFY2(countColor(image, RED, 10, redBand) >= plot.width() * 9 / 10,
        qPrintable(QString::number(countColor(image, RED, 10, redBand))));
    QCOMPARE(countColor(image, RED, 10, blueBand), 0);
    // A 1 px dashed line: dashes (4 on, 2.5 off) cover more than half of it.
    QVERIFY2(countBlended(image, BLUE, 0.4, blueBand) >= plot.width() / 3,
        qPrintable(QString::number(countBlended(image, BLUE, 0.4, blueBand))));
    QCOMPARE(countColor(image, BLUE, 10, redBand), 0);
    // Export paints the same without the widget's pixmap.
    QImage exported(f.plot.size(), QImage::Format_RGB32);
    {
        QPainter painter(&exported);
        f.plot.paintTo(painter, exported.rect());
    }
    QVERIFY(countColor(exported, RED, 10, redBand) >= plot.width() * 9 / 10);
}

void TimePlotTest::segmentsDrawTheSamePixelsAsAWholeRepaint()
{
    // A line drawn one segment per repaint must look like the line drawn at once:
    // joints overlap a little (antialiased edges blended twice), nothing more.
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.plot));
    QList<QPointF> red, blue;
    for (int i = 0; i <= 40; ++i) {
        const double t = i * 0.25;
        red.append(QPointF(t, 50 + 30 * std::sin(t)));
        blue.append(QPointF(t, 40 + 20 * std::cos(t * 1.3)));
        f.plot.setPoints(f.red, red);
        f.plot.setPoints(f.blue, blue);
        QVERIFY(!f.plot.grab().isNull());
    }
    QVERIFY(f.plot.segmentRepaintCount() >= 39);
    const QImage segments = grabRgb(f.plot);
    if (qEnvironmentVariableIsSet("WB_TEST_IMAGES")) segments.save(QStringLiteral("/tmp/timeplot-segments.png"));
    f.plot.resize(f.plot.width() + 1, f.plot.height());
    f.plot.resize(f.plot.width() - 1, f.plot.height()); // a whole repaint at the same size
    const int full = f.plot.fullRepaintCount();
    const QImage whole = grabRgb(f.plot);
    QCOMPARE(f.plot.fullRepaintCount(), full + 1);
    QCOMPARE(segments.size(), whole.size());
    if (qEnvironmentVariableIsSet("WB_TEST_IMAGES")) whole.save(QStringLiteral("/tmp/timeplot-whole.png"));
    // The solid line and everything else: the same pixels (the dashed line is compared apart below).
    const auto bluish = [](QRgb c) { return qBlue(c) > qRed(c) + 30; };
    int differing = 0;
    for (int y = 0; y < whole.height(); ++y)
        for (int x = 0; x < whole.width(); ++x) {
            const QRgb a = segments.pixel(x, y), b = whole.pixel(x, y);
            if (bluish(a) || bluish(b)) continue;
            const int delta = std::max(
                { std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b)) });
            differing += delta > 48 ? 1 : 0;
        }
    // The red line covers ~1,000 px; a line in the wrong place would differ by about that much.
    qInfo("segments vs whole: %d pixels differ by more than 48 levels", differing);
    QVERIFY2(differing <= 50, qPrintable(QString::number(differing)));
    // The dashed line: its dashes go on across the pieces (shifted by a pixel or two
    // where the stroker rounds), so it covers as much of the plot as drawn at once.
    const QRect plot = f.plot.plotRect().toRect();
    const int dashedSegments = countBlended(segments, BLUE, 0.4, plot);
    const int dashedWhole = countBlended(whole, BLUE, 0.4, plot);
    qInfo("dashed line: %d pixels drawn in pieces, %d at once", dashedSegments, dashedWhole);
    QVERIFY(dashedWhole > 200);
    QVERIFY2(std::abs(dashedSegments - dashedWhole) <= dashedWhole / 10, qPrintable(QString::number(dashedSegments)));
}

void TimePlotTest::hoverFindsTheNearestPoint()
{
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.plot));
    f.plot.setPoints(f.red, firstPoints(9)); // 10, 20, ... at 1, 2, ... s
    f.plot.setPoints(f.blue, ramp(3, 5)); // a shorter line: 3..5 s
    const QString at4 = f.plot.textAt(4.3);
    QVERIFY2(at4.contains(QStringLiteral("t = 4.00 s")), qPrintable(at4));
    QVERIFY2(at4.contains(QStringLiteral("red line: 40.0")), qPrintable(at4));
    QVERIFY2(at4.contains(QStringLiteral("blue line: 40.0")), qPrintable(at4));
    const QString at8 = f.plot.textAt(7.8); // past the blue line's end: only red
    QVERIFY2(at8.contains(QStringLiteral("red line: 80.0")) && !at8.contains(QStringLiteral("blue")), qPrintable(at8));

    const QPoint pos = f.plot.positionOf({ 6.4, 5 }).toPoint(); // below the line: the time counts
    QMouseEvent move(
        QEvent::MouseMove, QPointF(pos), f.plot.mapToGlobal(QPointF(pos)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&f.plot, &move);
    QCOMPARE(f.plot.shownX(), 6.0);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("red line: 60.0")), qPrintable(QToolTip::text()));
    // The crosshair is painted over the pixmap, never into it.
    const int full = f.plot.fullRepaintCount();
    QVERIFY(!f.plot.grab().isNull());
    QCOMPARE(f.plot.fullRepaintCount(), full);
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(&f.plot, &leave);
    QVERIFY(std::isnan(f.plot.shownX()));
    QTRY_VERIFY(!QToolTip::isVisible());
}

void TimePlotTest::hiddenPlotPaintsNothing()
{
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.plot));
    f.plot.setPoints(f.red, firstPoints(3));
    f.settle();
    f.plot.hide();
    const int paints = f.paints();
    for (int n = 4; n <= 9; ++n)
        f.plot.setPoints(f.red, firstPoints(n));
    f.plot.setYScale(PlotYScale::linear(niceScale(0, 500, 4)));
    f.settle();
    QCOMPARE(f.paints(), paints);
    f.plot.show();
    QTRY_VERIFY(f.paints() > paints); // caught up when shown
    QCOMPARE(f.plot.line(f.red).drawnCount, 9);
}

WB_QTEST_MAIN(TimePlotTest)

#include "timeplot_test.moc"
