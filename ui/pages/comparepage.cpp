#include "pages/comparepage.h"

#include "charts/comparecharts.h"
#include "models/comparemodel.h"
#include "models/format.h"
#include "models/runseries.h"
#include "pages/compareheadlines.h"
#include "pages/comparetable.h"
#include "pages/dialogs.h"

#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QVBoxLayout>
#include <map>

namespace wb::ui {

ComparePage::ComparePage(QWidget* parent)
    : QWidget(parent)
    , m_model(new CompareModel(this))
    , m_stack(new QStackedWidget(this))
    , m_table(new QTableView(this))
    , m_headlines(new CompareHeadlines(m_model, this))
    , m_charts(new CompareCharts(this))
{
    auto* empty = new QLabel(tr("<h3>Nothing to compare yet</h3>"
                                "<p>In <b>Runs</b> (Ctrl+2), select two or more runs — any targets, imported runs too —"
                                " and press <b>Compare</b> (Ctrl+Shift+C).</p>"
                                "<p>The first run is the baseline: every other run shows its difference in percent,"
                                " green when better, red when worse.</p>"),
        this);
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);

    m_title = new QLabel(this);
    m_baseline = new QComboBox(this);
    m_baseline->setToolTip(tr("The run every other run is compared with"));
    m_export = new QToolButton(this);
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_export);
    menu->addAction(tr("Report (table and charts) as PNG…"), this, &ComparePage::askExportReport);
    menu->addAction(tr("Table as CSV…"), this, &ComparePage::askExportCsv);
    menu->addSeparator();
    menu->addAction(tr("Chart: req/s over time as PNG…"), this, [this] { askExportChart(QStringLiteral("rps")); });
    menu->addAction(
        tr("Chart: latency spectrum as PNG…"), this, [this] { askExportChart(QStringLiteral("spectrum")); });
    menu->addAction(tr("Chart: req/s per run as PNG…"), this, [this] { askExportChart(QStringLiteral("bars")); });
    m_export->setMenu(menu);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    bar->addWidget(new QLabel(tr("Baseline:"), this));
    bar->addWidget(m_baseline);
    bar->addWidget(m_export);

    setupCompareTable(m_table);
    m_table->setModel(m_model);
    // The table as wide as its columns; the cards take the rest of the width.
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Expanding);
    auto* top = new QWidget(this);
    auto* topLayout = new QHBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_table);
    auto* cardsScroll = new QScrollArea(this);
    cardsScroll->setWidget(m_headlines);
    cardsScroll->setWidgetResizable(true);
    cardsScroll->setFrameShape(QFrame::NoFrame);
    cardsScroll->setMinimumWidth(320);
    topLayout->addWidget(cardsScroll, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_charts);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({ 400, 600 }); // the charts get the larger share whatever the table's size hint
    split->setChildrenCollapsible(false);

    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(6, 6, 6, 6);
    contentLayout->addLayout(bar);
    contentLayout->addWidget(split, 1);

    m_stack->addWidget(empty);
    m_stack->addWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_baseline, &QComboBox::activated, this, &ComparePage::setBaseline);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ComparePage::applySpans);
}

void ComparePage::setRuns(std::vector<RunData> runs)
{
    m_runs = std::move(runs);
    refresh();
}

void ComparePage::setBaseline(int index)
{
    if (index <= 0 || index >= static_cast<int>(m_runs.size())) return;
    std::rotate(m_runs.begin(), m_runs.begin() + index, m_runs.begin() + index + 1);
    refresh();
}

void ComparePage::retainRuns(const std::vector<int64_t>& existingIds)
{
    const auto before = m_runs.size();
    std::erase_if(m_runs, [&](const RunData& d) {
        return std::find(existingIds.begin(), existingIds.end(), d.run.id) == existingIds.end();
    });
    if (m_runs.size() != before) refresh();
}

void ComparePage::refresh()
{
    std::vector<RunRecord> records;
    QVector<RunSeries> series;
    std::map<int64_t, int> seen; // runs of one target: variants of its colour
    for (const RunData& d : m_runs) {
        records.push_back(d.run);
        const int repeat = seen[d.run.targetId]++;
        series.push_back(runSeriesOf(d, variantColor(colorForTarget(d.run.targetId), repeat)));
    }
    m_model->setRuns(records);
    m_charts->setRuns(series);
    m_headlines->refresh();

    m_baseline->clear();
    for (const RunData& d : m_runs)
        m_baseline->addItem(CompareModel::runLabel(d.run));
    m_baseline->setCurrentIndex(0);
    if (m_runs.empty()) {
        m_stack->setCurrentIndex(0);
        return;
    }
    m_title->setText(tr("<b>%1</b> compared with the baseline <b>%2</b>")
                         .arg(countText(static_cast<qint64>(m_runs.size()), "run", "runs"),
                             CompareModel::runLabel(m_runs.front().run).toHtmlEscaped()));
    m_stack->setCurrentIndex(1);
}

void ComparePage::applySpans()
{
    applyCompareSpans(m_table, m_model);
}

bool ComparePage::exportCsv(const QString& path, QString* error) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(m_model->toCsv().toUtf8()) < 0
        || !file.flush()) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

QImage ComparePage::renderTable(int width) const
{
    return renderCompareTable(m_model, width);
}

bool ComparePage::exportReport(const QString& path, int width, QString* error) const
{
    if (m_runs.empty()) {
        if (error) *error = tr("nothing to compare");
        return false;
    }
    const QImage table = renderTable(width);
    QTemporaryDir dir;
    const QString chartsPath = dir.filePath(QStringLiteral("charts.png"));
    if (!m_charts->exportPng(chartsPath, QSize(width, width / 2), error)) return false;
    const QImage charts(chartsPath);

    const int margin = 24;
    const int titleHeight = 56;
    QImage report(
        width + 2 * margin, titleHeight + table.height() + charts.height() + 3 * margin, QImage::Format_RGB32);
    report.fill(Qt::white);
    QPainter p(&report);
    p.setRenderHint(QPainter::Antialiasing);
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    p.setFont(big);
    p.setPen(QColor(0x20, 0x20, 0x20));
    QStringList names;
    for (const RunData& d : m_runs)
        names << CompareModel::runLabel(d.run);
    p.drawText(QRect(margin, margin / 2, width, titleHeight / 2 + 8), Qt::AlignLeft | Qt::AlignVCenter,
        tr("wrkbench comparison: %1").arg(names.join(QStringLiteral("  vs  "))));
    QFont small = font();
    p.setFont(small);
    p.setPen(QColor(0x60, 0x60, 0x60));
    p.drawText(QRect(margin, margin / 2 + titleHeight / 2 + 4, width, titleHeight / 2),
        Qt::AlignLeft | Qt::AlignVCenter,
        tr("Baseline %1 · Δ %: green = better, red = worse · %2")
            .arg(names.front(), QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
    p.drawImage(margin, margin + titleHeight, table);
    p.drawImage(margin, 2 * margin + titleHeight + table.height(), charts);
    p.end();
    if (!report.save(path, "PNG")) {
        if (error) *error = tr("could not write '%1'").arg(path);
        return false;
    }
    return true;
}

void ComparePage::askExportCsv()
{
    const QString path
        = chooseSaveFile(this, tr("Export the comparison as CSV"), QStringLiteral("comparison.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportCsv(path, &error))
        emit message(tr("Wrote %1").arg(path));
    else
        showError(this, tr("Export failed"), tr("Could not write '%1': %2").arg(path, error));
}

void ComparePage::askExportReport()
{
    const QString path = chooseSaveFile(
        this, tr("Export the comparison as one PNG"), QStringLiteral("comparison.png"), tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportReport(path, 1600, &error))
        emit message(tr("Wrote %1").arg(path));
    else
        showError(this, tr("Export failed"), error);
}

void ComparePage::askExportChart(const QString& which)
{
    const QString path = chooseSaveFile(
        this, tr("Export the chart as PNG"), QStringLiteral("comparison-%1.png").arg(which), tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString error;
    if (m_charts->exportChartPng(which, path, {}, &error))
        emit message(tr("Wrote %1").arg(path));
    else
        showError(this, tr("Export failed"), error);
}

} // namespace wb::ui
