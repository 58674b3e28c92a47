#include "charts/kneechart.h"

#include "charts/adaptiveyaxis.h"
#include "charts/chartexport.h"
#include "charts/charthover.h"
#include "charts/chartstyle.h"
#include "charts/niceaxis.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <limits>

namespace wb::ui {

namespace {

constexpr double KNEE_HEADROOM = 1.1;

} // namespace

struct KneeChart::Impl
{
    KneeChartData data;
    QChart* chart = nullptr;
    QChartView* view = nullptr;
    QValueAxis* x = nullptr;
    /// Linear from zero, log when the variants' latencies span more than 100x (as the level chart):
    /// a saturated target's seconds must not flatten a healthy one's microseconds onto the axis.
    std::unique_ptr<AdaptiveYAxis> y;

    void rebuild()
    {
        chart->removeAllSeries();
        y->clearSeries();
        double maxRps = 0, maxMs = 0, minPositive = std::numeric_limits<double>::infinity();
        for (const KneeChartData::Series& s : std::as_const(data.series))
            for (const QVector<QPointF>* v : { &s.p50, &s.p99 })
                for (const QPointF& p : *v) {
                    maxRps = std::max(maxRps, p.x());
                    maxMs = std::max(maxMs, p.y());
                    if (p.y() > 0) minPositive = std::min(minPositive, p.y());
                }
        applyScale(x, niceScale(0, std::max(maxRps * KNEE_HEADROOM, 10.0), 5));
        const bool log = y->wantsLog(minPositive, maxMs);
        y->update(minPositive, maxMs > 0 ? (log ? maxMs : maxMs * KNEE_HEADROOM) : 1.0);
        for (const KneeChartData::Series& s : std::as_const(data.series))
            for (const bool p99 : { false, true }) {
                QVector<QPointF> points = p99 ? s.p99 : s.p50;
                if (y->isLog()) points.removeIf([](const QPointF& p) { return p.y() <= 0; });
                if (points.isEmpty()) continue;
                auto* line = new QLineSeries;
                line->setObjectName(p99 ? QStringLiteral("p99") : QStringLiteral("p50"));
                line->setName(s.name + (p99 ? QStringLiteral(" p99") : QStringLiteral(" p50")));
                line->replace(QList<QPointF>(points.begin(), points.end()));
                line->setPointsVisible(true);
                chart->addSeries(line);
                line->attachAxis(x);
                y->addSeries(line);
                setLinePen(line, s.color, 2.0, p99 ? Qt::DashLine : Qt::SolidLine);
                // The label of the point shown: the points go in level order, not by x.
                attachHoverTooltip(line, [line, points, labels = s.labels](const QPointF& pt) {
                    QString label;
                    for (qsizetype i = 0; i < points.size(); ++i)
                        if (points[i] == pt && i < labels.size()) label = labels[i];
                    return QStringLiteral("<b>%1</b><br>%2<br>%3 req/s, %4")
                        .arg(line->name().toHtmlEscaped(), label.toHtmlEscaped(), formatNumber(pt.x()),
                            formatMs(pt.y()));
                });
            }
        updateLegendFit(chart);
    }
};

KneeChart::KneeChart(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>())
{
    d->chart = new QChart;
    styleChart(d->chart, tr("Latency against throughput (ms): p50 solid, p99 dashed"));
    d->x = new QValueAxis(d->chart);
    styleAxis(d->x, tr("achieved req/s"));
    d->chart->addAxis(d->x, Qt::AlignBottom);
    d->y = std::make_unique<AdaptiveYAxis>(d->chart, tr("latency (ms)"));
    autoHideLegend(d->chart);
    d->view = new QChartView(d->chart, this);
    d->view->setObjectName(QLatin1String(VIEW));
    styleView(d->view);
    d->view->setMinimumSize(240, 180);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view);
    setData({});
}

KneeChart::~KneeChart() = default;

void KneeChart::setData(const KneeChartData& data)
{
    d->data = data;
    d->rebuild();
}

const KneeChartData& KneeChart::data() const
{
    return d->data;
}

QChart* KneeChart::chart() const
{
    return d->chart;
}

bool KneeChart::exportPng(const QString& path, QSize size, QString* error) const
{
    const QSize imageSize = size.isValid() && !size.isEmpty() ? size : d->view->size();
    return savePng(renderCharts({ { d->chart, QRect(QPoint(0, 0), imageSize) } }, imageSize), path, error);
}

} // namespace wb::ui
