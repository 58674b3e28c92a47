#include "pages/comparefrontdoor.h"

#include "experiment/frontdoormetrics.h"
#include "text/format.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace wb::ui {

namespace {
const QString NONE = QStringLiteral("—");
}

CompareFrontDoor::CompareFrontDoor(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(this))
{
    setObjectName(QStringLiteral("compareFrontDoor"));
    m_table->setObjectName(QStringLiteral("compareFrontDoorTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setDefaultSectionSize(22);
    m_table->setToolTip(tr("Behind the front door: how evenly each run's load was spread over its backends, and "
                           "how much of its time was the front door's own (mean split)"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
}

void CompareFrontDoor::setRuns(const std::vector<const RunData*>& runs, const QStringList& labels)
{
    std::vector<FrontDoorView> views;
    bool any = false;
    for (const RunData* d : runs) {
        views.push_back(frontDoorViewOf(*d));
        any = any || views.back().any();
    }
    m_table->clear();
    m_hasData = any;
    if (!any) {
        m_table->setRowCount(0);
        m_table->setColumnCount(0);
        return;
    }
    const QStringList rows { tr("Backends"), tr("Backend max/min share"), tr("Backend CV"), tr("p-value (even split)"),
        tr("Front-door share (mean)"), tr("Mean upstream (ms)"), tr("Mean front door (ms)"), tr("Front door p50 (ms)"),
        tr("Front door p99 (ms)"), tr("No upstream time stated") };
    m_table->setRowCount(static_cast<int>(rows.size()));
    m_table->setColumnCount(static_cast<int>(views.size()));
    m_table->setVerticalHeaderLabels(rows);
    m_table->setHorizontalHeaderLabels(labels);
    const auto value = [](RunMetric m, const FrontDoorView& v) {
        return QString::fromStdString(runMetricValueText(m, runMetricValue(m, v)));
    };
    for (int c = 0; c < static_cast<int>(views.size()); ++c) {
        const FrontDoorView& v = views[static_cast<size_t>(c)];
        const bool backends = v.backendsAsked && v.balance.backends > 0;
        const bool split = v.upstreamAsked && v.meanSplit.responses > 0;
        const QStringList cells {
            v.backendsAsked ? QString::number(v.balance.backends) : NONE,
            value(RunMetric::BackendMaxMin, v),
            value(RunMetric::BackendCv, v),
            backends && v.balance.backends > 1 ? QString::number(v.balance.pValue, 'g', 3) : NONE,
            value(RunMetric::FrontDoorShare, v),
            split ? formatUsAsMs(v.meanSplit.upstreamUs) : NONE,
            split ? formatUsAsMs(v.meanSplit.frontDoorUs) : NONE,
            split ? formatUsAsMs(static_cast<double>(v.frontDoor.valueAtPercentileUs(50))) : NONE,
            split ? formatUsAsMs(static_cast<double>(v.frontDoor.valueAtPercentileUs(99))) : NONE,
            v.upstreamAsked ? formatCount(static_cast<double>(v.upstreamMissing)) : NONE,
        };
        for (int r = 0; r < cells.size(); ++r) {
            auto* item = new QTableWidgetItem(cells[r] == QLatin1String("-") ? NONE : cells[r]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnsToContents(); // the whole tab's height: its rows at the top, scrolled when short
}

} // namespace wb::ui
