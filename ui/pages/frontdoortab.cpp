#include "pages/frontdoortab.h"

#include "run/responsenotes.h"
#include "text/format.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace wb::ui {

namespace {

const QColor TOTAL_COLOR { 0x99, 0x99, 0x99 };
const QColor UPSTREAM_COLOR { 0x00, 0x72, 0xb2 };
const QColor FRONT_DOOR_COLOR { 0xd5, 0x5e, 0x00 };

double ms(uint64_t us)
{
    return static_cast<double>(us) / 1000.0;
}

} // namespace

FrontDoorChartData frontDoorChartDataOf(const FrontDoorView& view, bool openModel)
{
    FrontDoorChartData d;
    const auto side = [](const QString& name, const QColor& color, const LatencyHistogram& h) {
        FrontDoorChartData::Side s;
        s.name = name;
        s.color = color;
        s.p50Ms = ms(h.valueAtPercentileUs(50));
        s.p90Ms = ms(h.valueAtPercentileUs(90));
        s.p99Ms = ms(h.valueAtPercentileUs(99));
        s.meanMs = h.empty() ? 0.0 : h.meanUs() / 1000.0;
        s.responses = h.count();
        return s;
    };
    d.sides << side(openModel ? QObject::tr("Service time") : QObject::tr("Latency"), TOTAL_COLOR, view.total)
            << side(QObject::tr("Upstream"), UPSTREAM_COLOR, view.upstream)
            << side(QObject::tr("Front door"), FRONT_DOOR_COLOR, view.frontDoor);
    d.hasMeanSplit = view.meanSplit.responses > 0;
    d.meanUpstreamMs = view.meanSplit.upstreamUs / 1000.0;
    d.meanFrontDoorMs = view.meanSplit.frontDoorUs / 1000.0;
    return d;
}

FrontDoorTab::FrontDoorTab(const FrontDoorView& view, const RunConfig& config, QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, 7, this))
    , m_chart(new FrontDoorChart(this))
    , m_note(new QLabel(this))
{
    m_table->setObjectName(QStringLiteral("upstreamTable"));
    m_table->setHorizontalHeaderLabels({ QString(), tr("Responses"), tr("p50 (ms)"), tr("p90 (ms)"), tr("p99 (ms)"),
        tr("Max (ms)"), tr("Mean (ms)") });
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const auto row = [this](const QString& name, const LatencyHistogram& h) {
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        const QStringList cells { name, formatCount(static_cast<double>(h.count())),
            formatUsAsMs(static_cast<double>(h.valueAtPercentileUs(50))),
            formatUsAsMs(static_cast<double>(h.valueAtPercentileUs(90))),
            formatUsAsMs(static_cast<double>(h.valueAtPercentileUs(99))), formatUsAsMs(static_cast<double>(h.maxUs())),
            h.empty() ? QStringLiteral("—") : formatUsAsMs(h.meanUs()) };
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, item);
        }
    };
    row(config.openModel() ? tr("Service time") : tr("Latency"), view.total);
    row(tr("Upstream"), view.upstream);
    row(tr("Front door"), view.frontDoor);
    m_table->resizeColumnsToContents();
    m_table->setMaximumHeight(m_table->horizontalHeader()->height() + 3 * 24 + 6);

    QStringList notes;
    notes << tr("Upstream time from %1. Percentiles do not add: the three distributions stand side by side.")
                 .arg(QString::fromStdString(upstreamTimeText(config.upstreamTime)).toHtmlEscaped());
    if (view.meanSplit.responses > 0)
        notes << tr("Mean split: %1 ms = upstream %2 ms + front door %3 ms (%4 % front door).")
                     .arg(formatUsAsMs(view.meanSplit.totalUs()), formatUsAsMs(view.meanSplit.upstreamUs),
                         formatUsAsMs(view.meanSplit.frontDoorUs),
                         numberLocale().toString(100.0 * view.meanSplit.frontDoorShare(), 'f', 1));
    else
        notes << tr("No response stated an upstream time.");
    if (view.upstreamMissing > 0)
        notes << tr("%1 responses stated no upstream time (in neither side).")
                     .arg(formatCount(static_cast<double>(view.upstreamMissing)));
    m_note->setObjectName(QStringLiteral("upstreamNote"));
    m_note->setWordWrap(true);
    m_note->setText(notes.join(QLatin1Char(' ')));

    m_chart->setData(frontDoorChartDataOf(view, config.openModel()));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    layout->addWidget(m_note);
    layout->addWidget(m_chart, 1);
}

} // namespace wb::ui
