#include "charts/experimentcharts.h"

#include "charts/adaptiveyaxis.h"
#include "charts/chartexport.h"
#include "charts/charthover.h"
#include "charts/chartstyle.h"
#include "charts/niceaxis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace wb::ui {

namespace {

constexpr double BAR_GROUP_WIDTH = 0.7; // of a category; the rest separates the levels
constexpr double CAP_FRACTION = 0.25; // error-bar cap width, of one bar's width
constexpr double HEADROOM = 1.12;

bool known(const QVector<double>& values, qsizetype i)
{
    return i < values.size() && std::isfinite(values[i]);
}

/// An I-beam from mean - sd to mean + sd at x, drawn as one polyline: top cap,
/// back to the middle, down, bottom cap.
QList<QPointF> errorBarPath(double x, double mean, double sd, double capHalfWidth)
{
    const double lo = std::max(0.0, mean - sd), hi = mean + sd;
    return { { x - capHalfWidth, hi }, { x + capHalfWidth, hi }, { x, hi }, { x, lo }, { x - capHalfWidth, lo },
        { x + capHalfWidth, lo } };
}

} // namespace

struct ExperimentCharts::Impl
{
    struct Panel
    {
        QChartView* view = nullptr;
        QChart* chart = nullptr;
    };

    ExperimentCharts* q;
    ExperimentChartData data;
    Panel bars, latency;
    QBarCategoryAxis* levelAxis = nullptr;
    QValueAxis* rpsAxis = nullptr;
    QCategoryAxis* latencyLevels = nullptr;
    std::unique_ptr<AdaptiveYAxis> latencyY;

    explicit Impl(ExperimentCharts* owner)
        : q(owner)
    { }

    Panel makePanel(const QString& title, const char* objectName)
    {
        Panel p;
        p.chart = new QChart;
        styleChart(p.chart, title);
        p.view = new QChartView(p.chart, q);
        p.view->setObjectName(QLatin1String(objectName));
        styleView(p.view);
        p.view->setMinimumSize(240, 180);
        return p;
    }

    void build()
    {
        bars = makePanel(QObject::tr("Requests/s per level (mean ± sd)"), BARS_VIEW);
        latency = makePanel(QObject::tr("Latency per level (ms): p50 solid, p99 dashed"), LATENCY_VIEW);

        levelAxis = new QBarCategoryAxis(bars.chart);
        styleAxis(levelAxis);
        levelAxis->setGridLineVisible(false);
        bars.chart->addAxis(levelAxis, Qt::AlignBottom);
        rpsAxis = new QValueAxis(bars.chart);
        styleAxis(rpsAxis);
        bars.chart->addAxis(rpsAxis, Qt::AlignLeft);

        // Levels on whole numbers with labels on the values: a single level sits
        // in the middle, as a bar group does.
        latencyLevels = new QCategoryAxis(latency.chart);
        latencyLevels->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        styleAxis(latencyLevels);
        latency.chart->addAxis(latencyLevels, Qt::AlignBottom);
        latencyY = std::make_unique<AdaptiveYAxis>(latency.chart, QString());
        autoHideLegend(latency.chart);

        auto* layout = new QHBoxLayout(q);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        layout->addWidget(bars.view, 1);
        layout->addWidget(latency.view, 1);
    }

    void rebuildBars()
    {
        bars.chart->removeAllSeries();
        levelAxis->clear();
        levelAxis->append(data.levels);
        const qsizetype levels = data.levels.size();
        const qsizetype sets = data.targets.size();

        auto* series = new QBarSeries;
        series->setBarWidth(BAR_GROUP_WIDTH);
        double maxValue = 0;
        for (const ExperimentChartData::Series& t : std::as_const(data.targets)) {
            auto* set = new QBarSet(t.target);
            for (qsizetype i = 0; i < levels; ++i) {
                const double mean = known(t.rpsMean, i) ? t.rpsMean[i] : 0.0;
                const double sd = known(t.rpsSd, i) ? t.rpsSd[i] : 0.0;
                set->append(mean);
                maxValue = std::max(maxValue, mean + sd);
            }
            series->append(set);
            attachBarTooltip(set, [t](int i) {
                QString text = QStringLiteral("<b>%1</b><br>").arg(t.target.toHtmlEscaped());
                text += known(t.rpsMean, i) ? formatNumber(t.rpsMean[i]) + QStringLiteral(" req/s")
                                            : QObject::tr("no runs");
                if (known(t.rpsSd, i)) text += QStringLiteral(" ± ") + formatNumber(t.rpsSd[i]);
                return text;
            });
        }
        bars.chart->addSeries(series);
        series->attachAxis(levelAxis);
        series->attachAxis(rpsAxis);
        // Colours after addSeries: adding applies the theme's palette.
        const QList<QBarSet*> barSets = series->barSets();
        for (qsizetype s = 0; s < barSets.size(); ++s) {
            barSets[s]->setColor(data.targets[s].color);
            barSets[s]->setBorderColor(data.targets[s].color);
        }
        // The theme's "shape from series" draws bar markers hollow: fill them.
        for (QLegendMarker* m : bars.chart->legend()->markers(series)) {
            m->setShape(QLegend::MarkerShapeRectangle);
            m->setBrush(m->pen().color());
        }

        // Qt Charts has no error bars: each is a small line series on the same
        // axes, at the centre of its bar (Qt lays out set j of k in category i
        // from i - w/2 + j*w/k to i - w/2 + (j+1)*w/k, w the bar width).
        const double barWidth = sets > 0 ? BAR_GROUP_WIDTH / static_cast<double>(sets) : 0.0;
        for (qsizetype s = 0; s < sets; ++s) {
            const ExperimentChartData::Series& t = data.targets[s];
            const QColor color = shade(t.color, 0.45);
            for (qsizetype i = 0; i < levels; ++i) {
                if (!known(t.rpsMean, i) || !known(t.rpsSd, i)) continue;
                const double x
                    = static_cast<double>(i) - BAR_GROUP_WIDTH / 2 + (static_cast<double>(s) + 0.5) * barWidth;
                auto* bar = new QLineSeries;
                bar->setObjectName(QLatin1String(ERROR_BAR));
                bar->setName(t.target);
                bar->replace(errorBarPath(x, t.rpsMean[i], t.rpsSd[i], barWidth * CAP_FRACTION));
                bars.chart->addSeries(bar);
                bar->attachAxis(levelAxis);
                bar->attachAxis(rpsAxis);
                setLinePen(bar, color, 1.5);
                for (QLegendMarker* m : bars.chart->legend()->markers(bar))
                    m->setVisible(false);
            }
        }
        applyScale(rpsAxis, niceScale(0, std::max(maxValue * HEADROOM, 10.0), 5));
    }

    void rebuildLatency()
    {
        latency.chart->removeAllSeries();
        latencyY->clearSeries();
        const qsizetype levels = data.levels.size();

        double minPositive = std::numeric_limits<double>::infinity(), maxMs = 0;
        for (const ExperimentChartData::Series& t : std::as_const(data.targets))
            for (const QVector<double>* v : { &t.p50Ms, &t.p99Ms })
                for (qsizetype i = 0; i < levels; ++i)
                    if (known(*v, i)) {
                        maxMs = std::max(maxMs, (*v)[i]);
                        if ((*v)[i] > 0) minPositive = std::min(minPositive, (*v)[i]);
                    }
        // Headroom on the linear scale only: the log axis rounds to whole decades anyway.
        const bool log = latencyY->wantsLog(minPositive, maxMs);
        latencyY->update(minPositive, maxMs > 0 ? (log ? maxMs : maxMs * HEADROOM) : 1.0);

        for (const ExperimentChartData::Series& t : std::as_const(data.targets)) {
            for (const bool p99 : { false, true }) {
                const QVector<double>& values = p99 ? t.p99Ms : t.p50Ms;
                auto* s = new QLineSeries;
                s->setObjectName(p99 ? QStringLiteral("p99") : QStringLiteral("p50"));
                s->setName(t.target + (p99 ? QStringLiteral(" p99") : QStringLiteral(" p50")));
                QList<QPointF> points;
                for (qsizetype i = 0; i < levels; ++i)
                    if (known(values, i) && (!latencyY->isLog() || values[i] > 0))
                        points.append(QPointF(static_cast<double>(i), values[i]));
                s->replace(points);
                s->setPointsVisible(true); // a single level is a point, not a line
                latency.chart->addSeries(s);
                s->attachAxis(latencyLevels);
                latencyY->addSeries(s);
                setLinePen(s, t.color, 2.0, p99 ? Qt::DashLine : Qt::SolidLine);
                attachHoverTooltip(s, [this, s](const QPointF& pt) {
                    const auto i = static_cast<qsizetype>(std::lround(pt.x()));
                    const QString level = i >= 0 && i < data.levels.size() ? data.levels[i] : QString();
                    return QStringLiteral("<b>%1</b><br>%2<br>%3")
                        .arg(s->name().toHtmlEscaped(), level.toHtmlEscaped(), formatMs(pt.y()));
                });
            }
        }

        for (const QString& label : latencyLevels->categoriesLabels())
            latencyLevels->remove(label);
        latencyLevels->setStartValue(-0.5);
        for (qsizetype i = 0; i < levels; ++i)
            latencyLevels->append(data.levels[i], static_cast<double>(i));
        latencyLevels->setRange(-0.5, std::max<double>(0.5, static_cast<double>(levels) - 0.5));
        updateLegendFit(latency.chart);
    }

    const Panel* panel(const QString& which) const
    {
        if (which == QLatin1String("bars")) return &bars;
        if (which == QLatin1String("latency")) return &latency;
        return nullptr;
    }
};

ExperimentCharts::ExperimentCharts(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>(this))
{
    d->build();
    setData({});
}

ExperimentCharts::~ExperimentCharts() = default;

void ExperimentCharts::setData(const ExperimentChartData& data)
{
    d->data = data;
    d->rebuildBars();
    d->rebuildLatency();
}

const ExperimentChartData& ExperimentCharts::data() const
{
    return d->data;
}

bool ExperimentCharts::exportPng(const QString& path, QSize size, QString* error) const
{
    const QSize imageSize = size.isValid() && !size.isEmpty() ? size : this->size();
    const int half = imageSize.width() / 2;
    return savePng(
        renderCharts({ { d->bars.chart, QRect(0, 0, half, imageSize.height()) },
                         { d->latency.chart, QRect(half, 0, imageSize.width() - half, imageSize.height()) } },
            imageSize),
        path, error);
}

bool ExperimentCharts::exportChartPng(const QString& which, const QString& path, QSize size, QString* error) const
{
    const Impl::Panel* p = d->panel(which);
    if (!p) {
        if (error) *error = QStringLiteral("Unknown chart \"%1\" (expected bars or latency).").arg(which);
        return false;
    }
    const QSize imageSize = size.isValid() && !size.isEmpty() ? size : p->view->size();
    return savePng(renderCharts({ { p->chart, QRect(QPoint(0, 0), imageSize) } }, imageSize), path, error);
}

} // namespace wb::ui
