#include "pages/backendstab.h"

#include "run/responsenotes.h"
#include "text/format.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace wb::ui {

namespace {

// Draws the share as a bar behind its text: the whole cell is 100% of the run's responses.
class ShareBarDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const double share = index.data(BackendsTab::SHARE_ROLE).toDouble();
        QRectF bar = QRectF(option.rect).adjusted(2, 4, -2, -4);
        bar.setWidth(bar.width() * std::clamp(share, 0.0, 1.0));
        painter->fillRect(bar, QColor(0x1e, 0x88, 0xe5, 0x60));
        QStyledItemDelegate::paint(painter, option, index);
    }
};

QTableWidget* table(QWidget* parent, const QStringList& headers, const QString& name)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->setVisible(false);
    t->verticalHeader()->setDefaultSectionSize(22);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

QTableWidgetItem* cell(const QString& text, bool right)
{
    auto* item = new QTableWidgetItem(text);
    if (right) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString seconds(double s)
{
    return s < 0 ? QStringLiteral("—") : numberLocale().toString(s, 'f', 2);
}

QString percent(double fraction)
{
    return numberLocale().toString(100.0 * fraction, 'f', 2) + QStringLiteral(" %");
}

} // namespace

BackendsTab::BackendsTab(const FrontDoorView& view, const RunConfig& config, QWidget* parent)
    : QWidget(parent)
    , m_evenness(table(this, { tr("Evenness"), tr("Value") }, QStringLiteral("backendEvenness")))
    , m_backends(table(this,
          { tr("Backend"), tr("Requests"), tr("Share"), tr("p50 (ms)"), tr("p90 (ms)"), tr("p99 (ms)"), tr("Max (ms)"),
              tr("Non-2xx"), tr("First seen (s)"), tr("Last seen (s)") },
          QStringLiteral("backendsTable")))
    , m_events(table(this, { tr("Event"), tr("Backend"), tr("At (s)") }, QStringLiteral("backendEvents")))
{
    const BackendBalance& b = view.balance;
    const auto figure = [this](const QString& name, const QString& value) {
        const int row = m_evenness->rowCount();
        m_evenness->insertRow(row);
        m_evenness->setItem(row, 0, cell(name, false));
        m_evenness->setItem(row, 1, cell(value, true));
    };
    figure(tr("Named by"), QString::fromStdString(backendFromText(config.backendFrom)));
    figure(tr("Backends"), QString::number(b.backends));
    figure(tr("Responses named"), formatCount(static_cast<double>(b.requests)));
    figure(tr("Responses that named none"), formatCount(static_cast<double>(view.backends.unnamed)));
    if (b.backends > 0) {
        // Of the named responses, "(other)" left out: the evenness is of the backends themselves.
        figure(tr("Max share"), percent(b.maxShare));
        figure(tr("Min share"), percent(b.minShare));
        figure(tr("Max/min share"), numberLocale().toString(b.maxMinRatio, 'f', 2));
        figure(tr("Coefficient of variation"), numberLocale().toString(b.cv, 'f', 3));
    }
    if (b.backends > 1) {
        figure(tr("Chi-square vs an even split"),
            tr("%1 (%2 df)").arg(numberLocale().toString(b.chiSquare, 'f', 1)).arg(b.degreesOfFreedom));
        figure(tr("p-value (even split)"), QString::number(b.pValue, 'g', 3));
    }
    for (size_t i = 0; i < view.backends.names.size(); ++i)
        if (view.backends.names[i] == OTHER_BACKEND && view.backends.stats[i].requests > 0) {
            figure(tr("Warning"),
                tr("more than %1 distinct backends: %2 responses of the rest are counted as %3")
                    .arg(config.backendFrom.maxBackends)
                    .arg(formatCount(static_cast<double>(view.backends.stats[i].requests)),
                        QLatin1String(OTHER_BACKEND)));
            m_evenness->item(m_evenness->rowCount() - 1, 1)->setForeground(QColor(0xb2, 0x6a, 0x00));
        }
    m_evenness->resizeColumnsToContents();
    m_evenness->setToolTip(tr("How evenly the load was spread over the backends (\"%1\", many backends past "
                              "--max-backends, left out). A small p-value: an even split would rarely look this "
                              "uneven.")
                               .arg(QLatin1String(OTHER_BACKEND)));

    m_backends->setItemDelegateForColumn(SHARE_COLUMN, new ShareBarDelegate(m_backends));
    for (size_t i : backendsByRequests(view.backends)) {
        const BackendStats& s = view.backends.stats[i];
        const int row = m_backends->rowCount();
        m_backends->insertRow(row);
        const auto ms = [&](double p) { return formatUsAsMs(static_cast<double>(s.latency.valueAtPercentileUs(p))); };
        const QStringList cells { QString::fromStdString(view.backends.names[i]),
            formatCount(static_cast<double>(s.requests)), percent(view.shareOf(s)), ms(50), ms(90), ms(99),
            formatUsAsMs(static_cast<double>(s.latency.maxUs())), formatCount(static_cast<double>(s.non2xx)),
            seconds(s.firstSeenS), seconds(s.lastSeenS) };
        for (int c = 0; c < cells.size(); ++c)
            m_backends->setItem(row, c, cell(cells[c], c > 0));
        m_backends->item(row, SHARE_COLUMN)->setData(SHARE_ROLE, view.shareOf(s));
        if (s.non2xx > 0) m_backends->item(row, 7)->setForeground(QColor(0xb2, 0x6a, 0x00));
    }
    m_backends->resizeColumnsToContents();
    m_backends->setColumnWidth(SHARE_COLUMN, std::max(m_backends->columnWidth(SHARE_COLUMN), 120));

    for (const BackendEvent& e : view.events) {
        const int row = m_events->rowCount();
        m_events->insertRow(row);
        m_events->setItem(row, 0, cell(QString::fromLatin1(backendEventId(e.kind)), false));
        m_events->setItem(row, 1, cell(QString::fromStdString(e.name), false));
        m_events->setItem(row, 2, cell(seconds(e.atS), true));
        if (e.kind == BackendEvent::Kind::Vanished) m_events->item(row, 0)->setForeground(QColor(0xc6, 0x28, 0x28));
    }
    m_events->resizeColumnsToContents();
    m_events->setVisible(!view.events.empty());

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_evenness, 2);
    layout->addWidget(m_backends, 5);
    if (!view.events.empty()) {
        auto* heading = new QLabel(tr("Backends that appeared or vanished during the run"), this);
        layout->addWidget(heading);
    }
    layout->addWidget(m_events, 1);
    if (view.backends.names.empty() && view.backends.unnamed == 0)
        layout->addWidget(new QLabel(tr("No response named a backend."), this));
}

} // namespace wb::ui
