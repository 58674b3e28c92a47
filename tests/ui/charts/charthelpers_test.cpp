// QtTest for the charts' arithmetic: nice axis scales, decades, the nines
// mapping of the spectrum, the target palette and the history downsampling.

#include "charts/comparecharts.h"
#include "charts/intervalhistory.h"
#include "charts/niceaxis.h"
#include "chartsamples.h"
#include "report/palette.h"
#include "testmain.h"

#include <QLogValueAxis>
#include <QSet>
#include <QValueAxis>
#include <QtTest>
#include <cmath>

using namespace wb::ui;
using wb::ui::samples::point;

class ChartHelpersTest : public QObject
{
    Q_OBJECT

private slots:
    void niceScale_data();
    void niceScale();
    void decadeRange();
    void appliersTouchOnlyWhatChanged();
    void ninesMapping();
    void paletteIsStableAndDistinct();
    void halveKeepsEndsMaxAndRate();
    void historyStaysUnderCap();
};

void ChartHelpersTest::niceScale_data()
{
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<int>("maxIntervals");
    QTest::addColumn<double>("expMax");
    QTest::addColumn<double>("expStep");
    QTest::addColumn<int>("expDecimals");
    QTest::newRow("rps") << 0.0 << 37684.0 << 5 << 40000.0 << 10000.0 << 0;
    QTest::newRow("ten seconds") << 0.0 << 10.0 << 8 << 10.0 << 2.0 << 0;
    QTest::newRow("600 s") << 0.0 << 600.0 << 8 << 600.0 << 100.0 << 0;
    QTest::newRow("small latency") << 0.0 << 1.08 << 4 << 1.5 << 0.5 << 1;
    QTest::newRow("quarter steps") << 0.0 << 0.9 << 4 << 1.0 << 0.25 << 2;
    QTest::newRow("2.5 step") << 0.0 << 9.0 << 4 << 10.0 << 2.5 << 1;
    QTest::newRow("errors idle") << 0.0 << 4.0 << 4 << 4.0 << 1.0 << 0;
    QTest::newRow("degenerate") << 0.0 << 0.0 << 4 << 1.0 << 0.25 << 2;
}

void ChartHelpersTest::niceScale()
{
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(int, maxIntervals);
    QFETCH(double, expMax);
    QFETCH(double, expStep);
    QFETCH(int, expDecimals);
    const NiceScale s = wb::ui::niceScale(lo, hi, maxIntervals);
    QCOMPARE(s.min, 0.0);
    QCOMPARE(s.max, expMax);
    QCOMPARE(s.step, expStep);
    QCOMPARE(s.decimals, expDecimals);
    QCOMPARE(s.tickCount, qRound((s.max - s.min) / s.step) + 1);
    QVERIFY(s.tickCount - 1 <= maxIntervals);
    QVERIFY(s.max >= hi);
}

void ChartHelpersTest::decadeRange()
{
    const DecadeRange r = wb::ui::decadeRange(1.7, 420);
    QCOMPARE(r.min, 1.0);
    QCOMPARE(r.max, 1000.0);
    const DecadeRange exact = wb::ui::decadeRange(0.2, 100); // 100 gets headroom: the next decade
    QCOMPARE(exact.min, 0.1);
    QCOMPARE(exact.max, 1000.0);
}

void ChartHelpersTest::appliersTouchOnlyWhatChanged()
{
    // QtCharts re-lays out a whole chart on every label-format or range signal;
    // live charts apply their scales several times a second, mostly unchanged.
    QValueAxis axis;
    QSignalSpy formats(&axis, &QValueAxis::labelFormatChanged);
    QSignalSpy ranges(&axis, &QValueAxis::rangeChanged);
    const NiceScale scale = wb::ui::niceScale(0, 37684, 5);
    applyScale(&axis, scale);
    QCOMPARE(axis.max(), 40000.0);
    QCOMPARE(axis.labelFormat(), QStringLiteral("%.0f"));
    const auto formatsAfterFirst = formats.count();
    const auto rangesAfterFirst = ranges.count();
    applyScale(&axis, scale);
    applyScale(&axis, wb::ui::niceScale(0, 38000, 5)); // same nice scale
    QCOMPARE(formats.count(), formatsAfterFirst);
    QCOMPARE(ranges.count(), rangesAfterFirst);
    applyScale(&axis, wb::ui::niceScale(0, 0.9, 4)); // new range and decimals
    QCOMPARE(formats.count(), formatsAfterFirst + 1);
    QCOMPARE(ranges.count(), rangesAfterFirst + 1);
    QCOMPARE(axis.labelFormat(), QStringLiteral("%.2f"));

    QValueAxis time;
    QSignalSpy timeFormats(&time, &QValueAxis::labelFormatChanged);
    applyTimeAxis(&time, 10, 10);
    const auto timeFormatsAfterFirst = timeFormats.count();
    applyTimeAxis(&time, 10, 10);
    QCOMPARE(timeFormats.count(), timeFormatsAfterFirst);
    QCOMPARE(time.max(), 10.0);

    QLogValueAxis log;
    QSignalSpy logFormats(&log, &QLogValueAxis::labelFormatChanged);
    QSignalSpy logRanges(&log, &QLogValueAxis::rangeChanged);
    applyDecades(&log, wb::ui::decadeRange(1.7, 420));
    const auto logFormatsAfterFirst = logFormats.count();
    const auto logRangesAfterFirst = logRanges.count();
    applyDecades(&log, wb::ui::decadeRange(1.2, 800));
    QCOMPARE(logFormats.count(), logFormatsAfterFirst);
    QCOMPARE(logRanges.count(), logRangesAfterFirst);
    applyDecades(&log, wb::ui::decadeRange(0.5, 800));
    QCOMPARE(logRanges.count(), logRangesAfterFirst + 1);
}

void ChartHelpersTest::ninesMapping()
{
    QCOMPARE(ninesX(90), 1.0);
    QVERIFY(qAbs(ninesX(99) - 2) < 1e-9);
    QVERIFY(qAbs(ninesX(99.9) - 3) < 1e-9);
    QVERIFY(qAbs(ninesX(50) - std::log10(2.0)) < 1e-12);
    QCOMPARE(ninesX(0), 0.0);
    QVERIFY(qAbs(percentileFromNinesX(ninesX(99.99)) - 99.99) < 1e-9);
    QCOMPARE(percentileLabel(99.9), QStringLiteral("99.9%"));
    QCOMPARE(percentileLabel(99.21875), QStringLiteral("99.219%"));
    QCOMPARE(percentileLabel(50), QStringLiteral("50%"));
}

void ChartHelpersTest::paletteIsStableAndDistinct()
{
    QSet<QRgb> colors;
    for (qint64 id = 1; id <= static_cast<qint64>(wb::TARGET_PALETTE_SIZE); ++id) {
        QCOMPARE(colorForTarget(id), colorForTarget(id));
        colors.insert(colorForTarget(id).rgb());
    }
    QCOMPARE(colors.size(), static_cast<qsizetype>(wb::TARGET_PALETTE_SIZE)); // ids 1 and 11 differ
    QCOMPARE(colorForTarget(wb::TARGET_PALETTE_SIZE + 1), colorForTarget(1));
    // The window's colour is the reports' (report/palette.h).
    QCOMPARE(colorForTarget(7).name(), QString::fromStdString(wb::targetColorHex(7)));
    QVERIFY(colorForTarget(-3).isValid());
}

void ChartHelpersTest::halveKeepsEndsMaxAndRate()
{
    QVector<IntervalPoint> pts;
    for (int i = 1; i <= 9; ++i)
        pts.append(point(i, 100.0 * i, i == 6 ? 500.0 : 10.0));
    const QVector<IntervalPoint> h = IntervalHistory::halve(pts);
    QCOMPARE(h.size(), 5); // first alone + 4 pairs
    QCOMPARE(h.front().endS, 1.0);
    QCOMPARE(h.back().endS, 9.0);
    QCOMPARE(h[1].endS, 3.0);
    QCOMPARE(h[1].requestsPerS, 250.0); // mean of 200 and 300 (equal lengths)
    QCOMPARE(h[3].p99Ms, 500.0); // pair (6, 7) keeps the spike

    // Unequal lengths: a 3 s interval at 100/s and a 1 s interval at 500/s -> 800 requests in 4 s.
    const QVector<IntervalPoint> uneven = { point(1, 0, 1), point(4, 100, 1), point(5, 500, 1) };
    QCOMPARE(IntervalHistory::halve(uneven)[1].requestsPerS, 200.0);
    // Even count: the last point stays alone, so the last x is kept as well.
    QCOMPARE(IntervalHistory::halve(pts.mid(0, 8)).back().endS, 8.0);
}

void ChartHelpersTest::historyStaysUnderCap()
{
    IntervalHistory h(100);
    for (int i = 1; i <= 1000; ++i) {
        h.append(point(i, i, 1));
        QVERIFY(h.size() <= 100);
    }
    QVERIFY(h.size() >= 50);
    QCOMPARE(h.points().front().endS, 1.0);
    QCOMPARE(h.points().back().endS, 1000.0);
    IntervalHistory all(100);
    QVector<IntervalPoint> many;
    for (int i = 1; i <= 1000; ++i)
        many.append(point(i, i, 1));
    all.assign(many);
    QVERIFY(all.size() <= 100 && all.size() > 50);
}

WB_QTEST_MAIN(ChartHelpersTest)

#include "charthelpers_test.moc"
