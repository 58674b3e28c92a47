// QtTest for the Experiments tab's charts (offscreen): grouped bars with error
// bars, latency per level (p50 solid, p99 dashed), PNG export.

#include "charts/experimentcharts.h"
#include "testmain.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>
#include <cmath>
#include <limits>

using namespace wb::ui;

namespace {

constexpr double NOT_KNOWN = std::numeric_limits<double>::quiet_NaN();

QChart* chartOf(const QWidget& w, const char* viewName)
{
    auto* view = w.findChild<QChartView*>(QLatin1String(viewName));
    return view ? view->chart() : nullptr;
}

/// Two targets over three levels; B has a level without runs and one with a single run (no sd).
ExperimentChartData sample()
{
    ExperimentChartData data;
    data.levels = { QStringLiteral("c10"), QStringLiteral("c50"), QStringLiteral("c100") };
    data.targets.append({ QStringLiteral("NEG"), QColor(0xcc, 0x00, 0xcc), { 10000, 30000, 34000 }, { 500, 1200, 900 },
        { 1.0, 1.6, 2.9 }, { 2.0, 4.5, 14.0 } });
    data.targets.append({ QStringLiteral("NodePort"), QColor(0x00, 0x99, 0x33), { 9000, 26000, NOT_KNOWN },
        { 400, NOT_KNOWN, NOT_KNOWN }, { 1.2, 2.0, NOT_KNOWN }, { 2.6, 6.0, NOT_KNOWN } });
    return data;
}

int countColor(const QImage& image, const QColor& color, int tolerance)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb c = image.pixel(x, y);
            if (std::abs(qRed(c) - color.red()) <= tolerance && std::abs(qGreen(c) - color.green()) <= tolerance
                && std::abs(qBlue(c) - color.blue()) <= tolerance)
                ++n;
        }
    return n;
}

} // namespace

class ExperimentChartsTest : public QObject
{
    Q_OBJECT
private slots:
    void barsCarryMeansAndColours();
    void errorBarsSpanMeanPlusMinusSd();
    void latencyLinesPerTarget();
    void latencyGoesLogOnWideSpread();
    void exportPng();
};

void ExperimentChartsTest::barsCarryMeansAndColours()
{
    ExperimentCharts w;
    const ExperimentChartData data = sample();
    w.setData(data);
    QChart* chart = chartOf(w, ExperimentCharts::BARS_VIEW);
    QVERIFY(chart);
    QBarSeries* bars = nullptr;
    for (QAbstractSeries* s : chart->series())
        if (auto* b = qobject_cast<QBarSeries*>(s)) bars = b;
    QVERIFY(bars);
    QCOMPARE(bars->count(), 2);
    for (int t = 0; t < 2; ++t) {
        QBarSet* set = bars->barSets()[t];
        QCOMPARE(set->label(), data.targets[t].target);
        QCOMPARE(set->color(), data.targets[t].color);
        QCOMPARE(set->count(), 3);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(set->at(i), std::isnan(data.targets[t].rpsMean[i]) ? 0.0 : data.targets[t].rpsMean[i]);
    }
    // The value axis holds the tallest bar with its error bar.
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
    QVERIFY(y);
    QVERIFY(y->max() >= 34000 + 900);
}

void ExperimentChartsTest::errorBarsSpanMeanPlusMinusSd()
{
    ExperimentCharts w;
    const ExperimentChartData data = sample();
    w.setData(data);
    QChart* chart = chartOf(w, ExperimentCharts::BARS_VIEW);
    QList<QLineSeries*> errorBars;
    for (QAbstractSeries* s : chart->series())
        if (s->objectName() == QLatin1String(ExperimentCharts::ERROR_BAR))
            errorBars.append(qobject_cast<QLineSeries*>(s));
    // NEG at 3 levels, NodePort only at c10 (c50 has one run, c100 none).
    QCOMPARE(errorBars.size(), 4);
    struct Expected
    {
        int target, level;
    };
    const Expected expected[] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 } };
    for (int k = 0; k < 4; ++k) {
        const auto [t, i] = expected[k];
        QLineSeries* s = errorBars[k];
        QCOMPARE(s->name(), data.targets[t].target);
        double lo = 1e300, hi = -1e300, sumX = 0;
        for (const QPointF& p : s->points()) {
            lo = std::min(lo, p.y());
            hi = std::max(hi, p.y());
            sumX += p.x();
        }
        QCOMPARE(lo, data.targets[t].rpsMean[i] - data.targets[t].rpsSd[i]);
        QCOMPARE(hi, data.targets[t].rpsMean[i] + data.targets[t].rpsSd[i]);
        // Centred on its bar: the left half of the group for the first target, the right half for the second.
        const double centre = sumX / static_cast<double>(s->count());
        QVERIFY2(t == 0 ? centre < i && centre > i - 0.5 : centre > i && centre < i + 0.5,
            qPrintable(QString::number(centre)));
        QCOMPARE(s->pen().color().alpha(), 255);
    }
    // Symmetric bars about the category centre.
    const auto centreOf = [](QLineSeries* s) { return (s->at(0).x() + s->at(1).x()) / 2; };
    QVERIFY(std::abs(centreOf(errorBars[0]) + centreOf(errorBars[3])) < 1e-9);
}

void ExperimentChartsTest::latencyLinesPerTarget()
{
    ExperimentCharts w;
    const ExperimentChartData data = sample();
    w.setData(data);
    QChart* chart = chartOf(w, ExperimentCharts::LATENCY_VIEW);
    QList<QLineSeries*> lines;
    for (QAbstractSeries* s : chart->series())
        lines.append(qobject_cast<QLineSeries*>(s));
    QCOMPARE(lines.size(), 4); // p50 and p99 per target
    for (int t = 0; t < 2; ++t)
        for (int k = 0; k < 2; ++k) {
            QLineSeries* s = lines[t * 2 + k];
            QVERIFY(s);
            const bool p99 = k == 1;
            QCOMPARE(s->objectName(), p99 ? QStringLiteral("p99") : QStringLiteral("p50"));
            // setLinePen gives dashes a shorter custom pattern.
            QCOMPARE(s->pen().style(), p99 ? Qt::CustomDashLine : Qt::SolidLine);
            if (p99) QVERIFY(!s->pen().dashPattern().isEmpty());
            QCOMPARE(s->pen().color(), data.targets[t].color);
            const QVector<double>& values = p99 ? data.targets[t].p99Ms : data.targets[t].p50Ms;
            QList<QPointF> expected;
            for (int i = 0; i < values.size(); ++i)
                if (!std::isnan(values[i])) expected.append(QPointF(i, values[i]));
            QCOMPARE(s->points(), expected);
        }
    auto* y = qobject_cast<QValueAxis*>(lines[0]->attachedAxes().value(1));
    QVERIFY(y && y->isVisible()); // 1 to 14 ms: linear
    QVERIFY(y->min() == 0 && y->max() >= 14.0);
}

void ExperimentChartsTest::latencyGoesLogOnWideSpread()
{
    ExperimentCharts w;
    ExperimentChartData data = sample();
    data.targets[0].p99Ms[2] = 900; // 1 ms to 900 ms
    w.setData(data);
    QChart* chart = chartOf(w, ExperimentCharts::LATENCY_VIEW);
    QAbstractAxis* visible = nullptr;
    for (QAbstractAxis* a : chart->axes(Qt::Vertical))
        if (a->isVisible()) visible = a;
    auto* log = qobject_cast<QLogValueAxis*>(visible);
    QVERIFY(log);
    QVERIFY(log->min() <= 1.0 && log->max() >= 900);
}

void ExperimentChartsTest::exportPng()
{
    QTemporaryDir dir;
    ExperimentCharts w;
    w.resize(1200, 420);
    const ExperimentChartData data = sample();
    w.setData(data);
    QString error;
    const QString all = dir.filePath(QStringLiteral("experiment.png"));
    QVERIFY2(w.exportPng(all, QSize(1200, 420), &error), qPrintable(error));
    const QImage image = QImage(all).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(image.size(), QSize(1200, 420));
    QVERIFY(countColor(image, Qt::white, 0) < image.width() * image.height() * 95 / 100);
    QVERIFY(countColor(image, data.targets[0].color, 10) > 2000); // bars and lines
    QVERIFY(countColor(image, data.targets[1].color, 10) > 1000);
    for (const char* which : { "bars", "latency" }) {
        const QString one = dir.filePath(QLatin1String(which) + QStringLiteral(".png"));
        QVERIFY2(w.exportChartPng(QLatin1String(which), one, QSize(640, 400), &error), qPrintable(error));
        const QImage chart = QImage(one).convertToFormat(QImage::Format_RGB32);
        QCOMPARE(chart.size(), QSize(640, 400));
        QVERIFY2(countColor(chart, data.targets[0].color, 10) > 200, which);
        if (qEnvironmentVariableIsSet("WB_EXPERIMENT_CHARTS_OUT"))
            chart.save(qEnvironmentVariable("WB_EXPERIMENT_CHARTS_OUT") + QLatin1Char('/') + QLatin1String(which)
                + QStringLiteral(".png"));
    }
    QVERIFY(!w.exportChartPng(QStringLiteral("pie"), dir.filePath(QStringLiteral("x.png")), QSize(100, 100), &error));
    QVERIFY(error.contains(QStringLiteral("pie")));
}

WB_QTEST_MAIN(ExperimentChartsTest)

#include "experimentcharts_test.moc"
