#include "charts/comparecharts.h"

#include "charts/adaptiveyaxis.h"
#include "charts/chartcrosshair.h"
#include "charts/chartexport.h"
#include "charts/charthover.h"
#include "charts/chartstyle.h"
#include "charts/niceaxis.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QGridLayout>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLineSeries>
#include <QMenu>
#include <QMessageBox>
#include <QSet>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace wb::ui {

namespace {

constexpr double MIN_X_RANGE_S = 10.0;
constexpr double MIN_NINES = 2.0; // the spectrum always shows at least up to 99%
constexpr double MAX_NINES = 6.0; // ...and at most up to 99.9999%
const QList<int> ROW_WEIGHTS = { 3, 2 }; // line charts on top, bars below

/// Label of x = k on the nines axis: 90%, 99%, 99.9%, 99.99%, ...
QString ninesLabel(int k)
{
    if (k == 1) return QStringLiteral("90%");
    return QStringLiteral("99") + (k > 2 ? QStringLiteral(".") + QString(k - 2, QLatin1Char('9')) : QString())
        + QLatin1Char('%');
}

/// Run labels made unique (a bar category axis silently drops duplicates).
QStringList uniqueLabels(const QVector<RunSeries>& runs)
{
    QStringList labels;
    QSet<QString> seen;
    for (const RunSeries& r : runs) {
        QString label = r.label.isEmpty() ? QObject::tr("run") : r.label;
        for (int n = 2; seen.contains(label); ++n)
            label = QStringLiteral("%1 (%2)").arg(r.label).arg(n);
        seen.insert(label);
        labels.append(label);
    }
    return labels;
}

} // namespace

struct CompareCharts::Impl
{
    struct Panel
    {
        QChartView* view = nullptr;
        QChart* chart = nullptr;
    };

    CompareCharts* q;
    QVector<RunSeries> runs;
    Panel rps, spectrum, bars;
    QValueAxis* rpsX = nullptr;
    QValueAxis* rpsY = nullptr;
    QCategoryAxis* ninesAxis = nullptr;
    std::unique_ptr<AdaptiveYAxis> spectrumY;
    QBarCategoryAxis* barCategories = nullptr;
    QValueAxis* barValues = nullptr;

    explicit Impl(CompareCharts* owner)
        : q(owner)
    { }

    Panel makePanel(const QString& title, const QString& objectName, const QString& which)
    {
        Panel p;
        p.chart = new QChart;
        styleChart(p.chart, title);
        p.view = new QChartView(p.chart, q);
        p.view->setObjectName(objectName);
        styleView(p.view);
        p.view->setMinimumSize(240, 160);
        p.view->setContextMenuPolicy(Qt::CustomContextMenu);
        QObject::connect(p.view, &QWidget::customContextMenuRequested, q,
            [this, view = p.view, which](const QPoint& pos) { showContextMenu(view->mapToGlobal(pos), which); });
        return p;
    }

    void build()
    {
        rps = makePanel(QObject::tr("Requests/s over time"), QStringLiteral("rpsChartView"), QStringLiteral("rps"));
        spectrum = makePanel(
            QObject::tr("Latency by percentile (ms)"), QStringLiteral("spectrumChartView"), QStringLiteral("spectrum"));
        bars = makePanel(QObject::tr("Requests/s per run"), QStringLiteral("barsChartView"), QStringLiteral("bars"));
        // Every run's value at the hovered moment / percentile, in one tooltip.
        new ChartCrosshair(
            rps.view, [](double x) { return QObject::tr("t = %1 s").arg(QString::number(x, 'f', 1)); },
            [](const QXYSeries*, double y) { return formatNumber(y) + QStringLiteral(" req/s"); });
        new ChartCrosshair(
            spectrum.view, [](double x) { return percentileLabel(percentileFromNinesX(x)); },
            [](const QXYSeries*, double y) { return formatMs(y); });

        rpsX = new QValueAxis(rps.chart);
        styleAxis(rpsX); // the labels carry the unit ("30 s")
        rps.chart->addAxis(rpsX, Qt::AlignBottom);
        rpsY = new QValueAxis(rps.chart);
        styleAxis(rpsY);
        rps.chart->addAxis(rpsY, Qt::AlignLeft);

        // The "nines" axis: a value axis on log10(1/(1-p)) whose labels sit on
        // the round percentiles. A QCategoryAxis with labels on values renders
        // this reliably in Qt 6.4 (a QLogValueAxis on 1/(1-p) would label 10,
        // 100, 1000, and its label format cannot turn those into percentiles).
        ninesAxis = new QCategoryAxis(spectrum.chart);
        ninesAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        // Room for half of a label that sits on the right end of the axis.
        spectrum.chart->setMargins(spectrum.chart->margins() + QMargins(0, 0, 22, 0));
        // Breathing space between the top row's axis labels and the bar chart's title.
        for (QChart* c : { rps.chart, spectrum.chart })
            c->setMargins(c->margins() + QMargins(0, 0, 0, 8));
        styleAxis(ninesAxis);
        spectrum.chart->addAxis(ninesAxis, Qt::AlignBottom);
        spectrumY = std::make_unique<AdaptiveYAxis>(spectrum.chart, QString());

        barCategories = new QBarCategoryAxis(bars.chart);
        styleAxis(barCategories);
        barCategories->setGridLineVisible(false);
        barCategories->setLineVisible(false); // no tick marks between the bars
        bars.chart->addAxis(barCategories, Qt::AlignLeft);
        barValues = new QValueAxis(bars.chart);
        styleAxis(barValues);
        bars.chart->addAxis(barValues, Qt::AlignBottom);
        bars.chart->legend()->setVisible(false); // the category labels name the runs
        // With many long run labels the line charts' legends would be cut; they
        // hide then, and the bar chart is the colour key.
        autoHideLegend(rps.chart);
        autoHideLegend(spectrum.chart);

        auto* grid = new QGridLayout(q);
        grid->setContentsMargins(0, 0, 0, 0);
        grid->setSpacing(0);
        grid->addWidget(rps.view, 0, 0);
        grid->addWidget(spectrum.view, 0, 1);
        grid->addWidget(bars.view, 1, 0, 1, 2);
        grid->setRowStretch(0, ROW_WEIGHTS[0]);
        grid->setRowStretch(1, ROW_WEIGHTS[1]);
        grid->setColumnStretch(0, 1);
        grid->setColumnStretch(1, 1);
    }

    void rebuildRps()
    {
        rps.chart->removeAllSeries();
        double maxX = 0, maxY = 0;
        for (const RunSeries& run : std::as_const(runs)) {
            auto* s = new QLineSeries;
            s->setName(run.label);
            QList<QPointF> points;
            points.reserve(run.intervals.size());
            for (const IntervalPoint& p : run.intervals) {
                points.append(QPointF(p.endS, p.requestsPerS));
                maxX = std::max(maxX, p.endS);
                maxY = std::max(maxY, p.requestsPerS);
            }
            s->replace(points);
            rps.chart->addSeries(s);
            s->attachAxis(rpsX);
            s->attachAxis(rpsY);
            setLinePen(s, run.color, 2.0);
        }
        // The longest of the compared runs fills the width (10 s only when none has intervals).
        applyTimeAxis(rpsX, maxX > 0 ? maxX : MIN_X_RANGE_S, 6);
        updateLegendFit(rps.chart);
        applyScale(rpsY, niceScale(0, std::max(maxY * 1.08, 10.0), 4));
    }

    void rebuildSpectrum()
    {
        spectrum.chart->removeAllSeries();
        spectrumY->clearSeries();

        // Scan first: the y mode decides whether zero latencies can be drawn.
        double minPositive = std::numeric_limits<double>::infinity(), maxMs = 0, maxX = 0;
        for (const RunSeries& run : std::as_const(runs)) {
            for (const SpectrumPoint& p : run.spectrum) {
                if (p.percentile >= 100) continue; // 100% is at infinity on this axis; the max is in the run table
                maxX = std::max(maxX, ninesX(p.percentile));
                maxMs = std::max(maxMs, p.latencyMs);
                if (p.latencyMs > 0) minPositive = std::min(minPositive, p.latencyMs);
            }
        }
        const bool log = spectrumY->update(minPositive, maxMs > 0 ? maxMs : 1.0);

        for (const RunSeries& run : std::as_const(runs)) {
            auto* s = new QLineSeries;
            s->setName(run.label);
            QList<QPointF> points;
            points.reserve(run.spectrum.size());
            for (const SpectrumPoint& p : run.spectrum) {
                if (p.percentile < 100 && (!log || p.latencyMs > 0))
                    points.append(QPointF(ninesX(p.percentile), p.latencyMs));
            }
            s->replace(points);
            spectrum.chart->addSeries(s);
            s->attachAxis(ninesAxis);
            spectrumY->addSeries(s);
            setLinePen(s, run.color, 2.0);
        }

        // The axis ends where the longest spectrum ends (at least at 99%), with
        // a label on every nine up to there.
        const double maxNines = std::clamp(maxX, MIN_NINES, MAX_NINES);
        for (const QString& label : ninesAxis->categoriesLabels())
            ninesAxis->remove(label);
        ninesAxis->setStartValue(0);
        ninesAxis->append(QStringLiteral("50%"), std::log10(2.0));
        for (int k = 1; k <= static_cast<int>(std::floor(maxNines + 1e-6)); ++k)
            ninesAxis->append(ninesLabel(k), k);
        ninesAxis->setRange(0, maxNines);
        updateLegendFit(spectrum.chart);
    }

    void rebuildBars()
    {
        bars.chart->removeAllSeries();
        barCategories->clear();
        const QStringList labels = uniqueLabels(runs);
        const qsizetype n = runs.size();
        // Bar categories run bottom-up; reverse them so the first run is at the top, as in the run table.
        QStringList categories;
        for (qsizetype i = n - 1; i >= 0; --i)
            categories.append(labels[i]);
        barCategories->append(categories);

        // One set per run, non-zero only in its own category: each bar gets its
        // run's colour, and stacking keeps it centred and full width (zero
        // segments are invisible and get no label).
        auto* series = new QHorizontalStackedBarSeries;
        series->setBarWidth(0.62);
        series->setLabelsVisible(true);
        series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
        series->setLabelsFormat(QStringLiteral("@value"));
        double maxValue = 0;
        for (qsizetype i = 0; i < n; ++i) {
            auto* set = new QBarSet(labels[i]);
            const qsizetype category = n - 1 - i;
            // Whole requests/s above 100: "34,893" reads better than "34,893.4".
            const double value = runs[i].requestsPerS >= 100 ? std::round(runs[i].requestsPerS)
                                                             : std::round(runs[i].requestsPerS * 10) / 10;
            for (qsizetype c = 0; c < n; ++c)
                set->append(c == category ? value : 0.0);
            maxValue = std::max(maxValue, value);
            series->append(set);
            attachBarTooltip(set, [label = labels[i], value](int) {
                return QStringLiteral("<b>%1</b><br>%2 req/s").arg(label.toHtmlEscaped(), formatNumber(value));
            });
        }
        bars.chart->addSeries(series);
        series->attachAxis(barCategories);
        series->attachAxis(barValues);
        // Colours after addSeries: adding applies the theme's palette.
        const QList<QBarSet*> sets = series->barSets();
        for (qsizetype i = 0; i < sets.size(); ++i) {
            sets[i]->setColor(runs[i].color);
            sets[i]->setBorderColor(runs[i].color);
            sets[i]->setLabelColor(chartcolors::TEXT);
            QFont f = sets[i]->labelFont();
            f.setPointSizeF(8.5);
            sets[i]->setLabelFont(f);
        }
        // 20% headroom leaves room for the value label past the longest bar.
        applyScale(barValues, niceScale(0, std::max(maxValue * 1.2, 10.0), 6));
    }

    QList<ChartSlot> gridSlots(QSize size) const
    {
        const QList<int> rows = splitByWeights(size.height(), ROW_WEIGHTS);
        const int half = size.width() / 2;
        return {
            { rps.chart, QRect(0, 0, half, rows[0]) },
            { spectrum.chart, QRect(half, 0, size.width() - half, rows[0]) },
            { bars.chart, QRect(0, rows[0], size.width(), rows[1]) },
        };
    }

    const Panel* panel(const QString& which) const
    {
        if (which == QLatin1String("rps")) return &rps;
        if (which == QLatin1String("spectrum")) return &spectrum;
        if (which == QLatin1String("bars")) return &bars;
        return nullptr;
    }

    void showContextMenu(const QPoint& globalPos, const QString& which)
    {
        QMenu menu(q);
        menu.addAction(QObject::tr("Export This Chart as PNG…"), q, [this, which] { exportWithDialog(which); });
        menu.addAction(QObject::tr("Export All Charts as PNG…"), q, [this] { exportWithDialog(QString()); });
        menu.exec(globalPos);
    }

    void exportWithDialog(const QString& which)
    {
        const QString suggested = (which.isEmpty() ? QStringLiteral("compare") : QStringLiteral("compare-") + which)
            + QStringLiteral(".png");
        QString path
            = QFileDialog::getSaveFileName(q, QObject::tr("Export PNG"), suggested, QObject::tr("PNG images (*.png)"));
        if (path.isEmpty()) return;
        if (!path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) path += QStringLiteral(".png");
        QString error;
        const bool ok = which.isEmpty() ? q->exportPng(path, {}, &error) : q->exportChartPng(which, path, {}, &error);
        if (!ok) QMessageBox::warning(q, QObject::tr("Export failed"), error);
    }
};

CompareCharts::CompareCharts(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>(this))
{
    d->build();
    setRuns({});
}

CompareCharts::~CompareCharts() = default;

void CompareCharts::setRuns(const QVector<RunSeries>& runs)
{
    d->runs = runs;
    d->rebuildRps();
    d->rebuildSpectrum();
    d->rebuildBars();
}

int CompareCharts::runCount() const
{
    return static_cast<int>(d->runs.size());
}

bool CompareCharts::exportPng(const QString& path, QSize size, QString* error) const
{
    const QSize imageSize = size.isValid() && !size.isEmpty() ? size : this->size();
    return savePng(renderCharts(d->gridSlots(imageSize), imageSize), path, error);
}

bool CompareCharts::exportChartPng(const QString& which, const QString& path, QSize size, QString* error) const
{
    const Impl::Panel* p = d->panel(which);
    if (!p) {
        if (error) *error = QStringLiteral("Unknown chart \"%1\" (expected rps, spectrum or bars).").arg(which);
        return false;
    }
    const QSize imageSize = size.isValid() && !size.isEmpty() ? size : p->view->size();
    return savePng(renderCharts({ { p->chart, QRect(QPoint(0, 0), imageSize) } }, imageSize), path, error);
}

} // namespace wb::ui
