#include "pages/comparepage.h"

#include "capacity/capacitycompare.h"
#include "charts/comparecharts.h"
#include "experiment/comparability.h"
#include "experiment/comparisonhtml.h"
#include "models/comparemodel.h"
#include "models/runseries.h"
#include "pages/capacitycards.h"
#include "pages/comparefrontdoor.h"
#include "pages/compareheadlines.h"
#include "pages/comparetable.h"
#include "pages/dialogs.h"
#include "pages/targetmetricsview.h"
#include "text/format.h"

#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace wb::ui {

ComparePage::ComparePage(QWidget* parent)
    : QWidget(parent)
    , m_model(new CompareModel(this))
    , m_stack(new QStackedWidget(this))
    , m_table(new CompareTableView(this))
    , m_headlines(new CompareHeadlines(m_model, this))
    , m_charts(new CompareCharts(this))
    , m_frontDoor(new CompareFrontDoor(this))
    , m_metrics(new TargetMetricsView(this))
    , m_capacityPage(new QScrollArea(this))
    , m_capacity(new CapacityCards(this))
{
    m_headlines->setObjectName(QStringLiteral("headlines"));
    m_table->setObjectName(QStringLiteral("table"));
    auto* empty = new QLabel(tr("<h3>Nothing to compare yet</h3>"
                                "<p>In <b>Runs</b> (Ctrl+2), select two or more runs — any targets, imported runs too —"
                                " and press <b>Compare</b> (Ctrl+Shift+C).</p>"
                                "<p>The oldest selected run is the baseline at first: every other run shows its"
                                " difference in percent, green when better, red when worse, and its req/s loss."
                                " Pick another baseline with the <b>Baseline</b> box, a run's card, or by"
                                " right-clicking its column.</p>"),
        this);
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);

    m_title = new QLabel(this);
    m_baseline = new QComboBox(this);
    m_baseline->setObjectName(QStringLiteral("baselineBox"));
    m_baseline->setToolTip(tr("The run every other run is compared with (also: right-click a run's column)"));
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_export = new QToolButton(this);
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_export);
    menu->addAction(tr("Report (table and charts) as PNG…"), this, &ComparePage::askExportReport);
    menu->addAction(tr("Table as CSV…"), this, &ComparePage::askExportCsv);
    menu->addAction(tr("HTML report…"), this, &ComparePage::askExportHtml);
    menu->addAction(tr("Copy table (tab-separated)"), this, [this] { m_table->copyTable(); });
    menu->addAction(tr("Copy table as Markdown"), this, [this] { m_table->copyTableAsMarkdown(); });
    menu->addSeparator();
    menu->addAction(tr("Chart: req/s over time as PNG…"), this, [this] { askExportChart(QStringLiteral("rps")); });
    menu->addAction(
        tr("Chart: latency spectrum as PNG…"), this, [this] { askExportChart(QStringLiteral("spectrum")); });
    menu->addAction(tr("Chart: req/s per run as PNG…"), this, [this] { askExportChart(QStringLiteral("bars")); });
    m_export->setMenu(menu);
    // Runs that differ in more than the target: named above the table, not left to be noticed.
    m_warning = new QLabel(this);
    m_warning->setObjectName(QStringLiteral("compareWarning"));
    m_warning->setWordWrap(true);
    m_warning->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warning->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff4e5; color: #8a4b00; border-left: 4px solid #e67e22; padding: 4px 8px; }"));
    m_warning->hide();
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    bar->addWidget(new QLabel(tr("Baseline:"), this));
    bar->addWidget(m_baseline);
    bar->addWidget(m_export);

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
    cardsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the cards wrap to its width
    topLayout->addWidget(cardsScroll, 1);

    // Behind the front door is ten rows: above the table it left the table a row or two on a
    // laptop screen, so it is a tab beside the charts. Without it the charts stand in the splitter
    // themselves: a tab widget of one page still takes a few pixels a 700 px window lacks.
    m_split = new QSplitter(Qt::Vertical, this);
    auto* split = m_split;
    m_lower = new QTabWidget(this);
    m_lower->setObjectName(QStringLiteral("compareLowerTabs"));
    m_lower->setDocumentMode(true);
    m_lower->hide();
    m_frontDoor->hide();
    auto* capacityScroll = static_cast<QScrollArea*>(m_capacityPage);
    capacityScroll->setObjectName(QStringLiteral("compareCapacity"));
    capacityScroll->setWidget(m_capacity);
    capacityScroll->setWidgetResizable(true);
    capacityScroll->setFrameShape(QFrame::NoFrame);
    capacityScroll->hide();
    split->addWidget(top);
    split->addWidget(m_charts);
    split->addWidget(m_metrics);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    split->setSizes({ 400, 600 }); // the charts get the larger share whatever the table's size hint
    split->setChildrenCollapsible(false);

    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(6, 6, 6, 6);
    contentLayout->addLayout(bar);
    contentLayout->addWidget(m_warning);
    contentLayout->addWidget(split, 1);

    m_stack->addWidget(empty);
    m_stack->addWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_baseline, &QComboBox::activated, this,
        [this](int index) { setBaselineRun(m_baseline->itemData(index).toLongLong()); });
    connect(m_headlines, &CompareHeadlines::baselineRequested, this, &ComparePage::setBaselineRun);
    // The model holds the baseline (the table's context menu changes it there too): the rest follows it.
    connect(m_model, &QAbstractItemModel::modelReset, this, &ComparePage::modelChanged);
}

void ComparePage::setRuns(std::vector<RunData> runs)
{
    m_runs = std::move(runs);
    m_replacingRuns = true;
    m_model->setRuns(m_runs);
    m_replacingRuns = false;
}

void ComparePage::setBaselineRun(qint64 runId)
{
    m_model->setBaselineRun(runId);
}

void ComparePage::retainRuns(const std::vector<int64_t>& existingIds)
{
    const auto before = m_runs.size();
    std::erase_if(m_runs, [&](const RunData& d) {
        return std::find(existingIds.begin(), existingIds.end(), d.run.id) == existingIds.end();
    });
    if (m_runs.size() == before) return;
    m_replacingRuns = true;
    m_model->setRuns(m_runs, m_model->baselineId());
    m_replacingRuns = false;
}

void ComparePage::modelChanged()
{
    applyCompareSpans(m_table, m_model);
    const std::vector<RunRecord>& shown = m_model->runs();
    QVector<RunSeries> series;
    for (size_t i = 0; i < shown.size(); ++i) {
        auto found
            = std::find_if(m_runs.begin(), m_runs.end(), [&](const RunData& d) { return d.run.id == shown[i].id; });
        if (found == m_runs.end()) continue; // the model was given runs directly: no series for them
        RunSeries s = runSeriesOf(*found, m_model->runColor(static_cast<int>(i)));
        if (i == 0) s.label = tr("%1 (baseline)").arg(s.label);
        series.push_back(s);
    }
    m_charts->setRuns(series);
    std::vector<std::pair<QString, const RunData*>> scraped; // NEG's backend CPU over NodePort's
    for (const RunRecord& r : shown)
        for (const RunData& d : m_runs)
            if (d.run.id == r.id && !d.scrape.empty()) scraped.emplace_back(CompareModel::runLabel(r), &d);
    m_metrics->setRuns(scraped);
    m_headlines->refresh();
    std::vector<const RunData*> shownData;
    QStringList shownLabels;
    for (size_t i = 0; i < shown.size(); ++i)
        if (auto found
            = std::find_if(m_runs.begin(), m_runs.end(), [&](const RunData& d) { return d.run.id == shown[i].id; });
            found != m_runs.end()) {
            shownData.push_back(&*found);
            shownLabels << (i == 0 ? tr("%1 (baseline)") : QStringLiteral("%1")).arg(CompareModel::runLabel(shown[i]));
        }
    m_frontDoor->setRuns(shownData, shownLabels);
    updateCapacity();

    m_baseline->clear();
    for (const RunRecord& r : m_model->givenRuns()) {
        const auto at = std::find_if(shown.begin(), shown.end(), [&](const RunRecord& s) { return s.id == r.id; });
        m_baseline->addItem(colorIcon(m_model->runColor(static_cast<int>(at - shown.begin()))),
            CompareModel::runLabel(r), QVariant::fromValue<qint64>(r.id));
        if (r.id == m_model->baselineId()) m_baseline->setCurrentIndex(m_baseline->count() - 1);
    }
    if (shown.empty()) {
        m_baselineShown = 0;
        m_stack->setCurrentIndex(0);
        return;
    }
    if (!m_replacingRuns && m_baselineShown != 0 && m_baselineShown != m_model->baselineId())
        emit message(tr("Baseline: %1").arg(CompareModel::runLabel(shown.front())));
    m_baselineShown = m_model->baselineId();
    std::vector<const RunRecord*> compared;
    for (const RunRecord& r : shown)
        compared.push_back(&r);
    const std::vector<FieldDifference> differences = compareRuns(compared);
    m_warningText
        = differences.empty() ? QString() : QString::fromStdString(differencesSentence(differences, "target"));
    if (!m_warningText.isEmpty())
        m_warningText = tr("⚠ %1").arg(m_warningText.front().toUpper() + m_warningText.mid(1));
    m_warning->setText(m_warningText);
    m_warning->setVisible(!m_warningText.isEmpty());
    m_title->setText(tr("<b>%1</b> compared with the baseline <b>%2</b>")
                         .arg(countText(static_cast<qint64>(shown.size()), "run", "runs"),
                             CompareModel::runLabel(shown.front()).toHtmlEscaped()));
    m_stack->setCurrentIndex(1);
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

void ComparePage::setCapacities(std::vector<StoredCapacity> capacities)
{
    m_capacities = std::move(capacities);
    updateCapacity();
}

void ComparePage::updateCapacity()
{
    const std::vector<RunRecord>& shown = m_model->runs();
    std::vector<CapacityCard> cards;
    const StoredCapacity* base = nullptr;
    QString baseName;
    std::vector<int64_t> seen;
    for (size_t i = 0; i < shown.size(); ++i) {
        const int64_t targetId = shown[i].targetId;
        if (std::find(seen.begin(), seen.end(), targetId) != seen.end()) continue;
        seen.push_back(targetId);
        const auto found = std::find_if(
            m_capacities.begin(), m_capacities.end(), [&](const StoredCapacity& c) { return c.targetId == targetId; });
        if (found == m_capacities.end()) continue;
        const StoredCapacity& c = *found;
        CapacityCard card = capacityCard(QString::fromStdString(shown[i].targetName),
            m_model->runColor(static_cast<int>(i)), c.target.result, c.slos);
        card.source = tr("search %1 “%2”, %3, %4")
                          .arg(c.searchId)
                          .arg(QString::fromStdString(c.searchName),
                              countText(static_cast<qint64>(c.target.result.trials.size()), "trial", "trials"),
                              QString::fromUtf8(experimentStatusName(c.status)));
        if (i == 0) {
            base = &c;
            baseName = card.name;
        } else if (!base) {
            card.comparison = tr("not compared: the baseline's target has no stored capacity");
        } else if (capacitySlosText(base->slos) != capacitySlosText(c.slos)) {
            card.comparison = tr("not compared with %1: searched under other SLOs").arg(baseName);
        } else {
            card.comparison = capacityRatioText(base->target.result, c.target.result, baseName, card.name);
            if (card.comparison.isEmpty())
                card.comparison = tr("not compared with %1: one of them has no rate that passed").arg(baseName);
            else if (c.searchId != base->searchId) // their trials did not alternate
                card.comparison += tr(" · separate searches: drift between them is not balanced");
        }
        cards.push_back(std::move(card));
    }
    m_capacity->setCards(std::move(cards));
    showLowerTabs(m_frontDoor->hasData(), !m_capacity->cards().empty());
}

void ComparePage::showLowerTabs(bool frontDoor, bool capacity)
{
    const bool shown = m_split->indexOf(m_lower) >= 0;
    const bool show = frontDoor || capacity;
    const bool same = show == shown && (m_lower->indexOf(m_frontDoor) >= 0) == frontDoor
        && (m_lower->indexOf(m_capacityPage) >= 0) == capacity;
    if (same) return;
    QWidget* current = m_lower->currentWidget();
    m_lower->clear(); // the pages stay, without a parent
    for (QWidget* page : { static_cast<QWidget*>(m_frontDoor), m_capacityPage }) {
        page->setParent(this);
        page->hide();
    }
    if (show) {
        if (!shown) m_split->replaceWidget(m_split->indexOf(m_charts), m_lower); // m_charts is left without a parent
        m_lower->addTab(m_charts, tr("Charts"));
        if (frontDoor) m_lower->addTab(m_frontDoor, tr("Behind the front door"));
        if (capacity) m_lower->addTab(m_capacityPage, tr("Capacity"));
        m_lower->setCurrentWidget(m_lower->indexOf(current) >= 0 ? current : m_charts);
        m_lower->show();
    } else {
        m_split->replaceWidget(m_split->indexOf(m_lower), m_charts);
        m_charts->show();
        m_lower->setParent(this); // the splitter let it go: kept, hidden, for the next runs
        m_lower->hide();
    }
}

bool ComparePage::exportReport(const QString& path, int width, QString* error) const
{
    if (m_runs.empty()) {
        if (error) *error = tr("nothing to compare");
        return false;
    }
    // Many runs make the table wider than asked: the report grows with it
    // (charts included) rather than cutting off the last runs.
    const QImage table = renderTable(width);
    width = std::max(width, table.width());
    QTemporaryDir dir;
    const QString chartsPath = dir.filePath(QStringLiteral("charts.png"));
    if (!m_charts->exportPng(chartsPath, QSize(width, width / 2), error)) return false;
    const QImage charts(chartsPath);

    const int margin = REPORT_MARGIN;
    const int warningHeight = m_warningText.isEmpty()
        ? 0
        : QFontMetrics(font()).boundingRect(QRect(0, 0, width - 16, 10000), Qt::TextWordWrap, m_warningText).height()
            + 12;
    const int titleHeight = REPORT_TITLE_HEIGHT + warningHeight;
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
    for (const RunRecord& r : m_model->runs())
        names << CompareModel::runLabel(r);
    // Many long target names do not fit on one line: the table's header has them all anyway.
    QString title = tr("wrkbench comparison: %1").arg(names.join(QStringLiteral("  vs  ")));
    if (p.fontMetrics().horizontalAdvance(title) > width)
        title = tr("wrkbench comparison of %1 runs: %2").arg(names.size()).arg(names.join(QStringLiteral(", ")));
    p.drawText(QRect(margin, margin / 2, width, REPORT_TITLE_HEIGHT / 2 + 8), Qt::AlignLeft | Qt::AlignVCenter,
        p.fontMetrics().elidedText(title, Qt::ElideRight, width));
    QFont small = font();
    p.setFont(small);
    p.setPen(QColor(0x60, 0x60, 0x60));
    p.drawText(QRect(margin, margin / 2 + REPORT_TITLE_HEIGHT / 2 + 4, width, REPORT_TITLE_HEIGHT / 2),
        Qt::AlignLeft | Qt::AlignVCenter,
        tr("Baseline %1 · Δ %: green = better, red = worse · loss = (1 − req/s ÷ baseline req/s) · %2")
            .arg(names.front(), QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
    if (warningHeight > 0) {
        const QRect strip(margin, margin + REPORT_TITLE_HEIGHT - 4, width, warningHeight - 4);
        p.fillRect(strip, QColor(0xff, 0xf4, 0xe5));
        p.fillRect(QRect(strip.topLeft(), QSize(4, strip.height())), QColor(0xe6, 0x7e, 0x22));
        p.setPen(QColor(0x8a, 0x4b, 0x00));
        p.drawText(strip.adjusted(12, 4, -4, -4), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignVCenter, m_warningText);
    }
    p.drawImage(margin, margin + titleHeight, table);
    p.drawImage(margin, 2 * margin + titleHeight + table.height(), charts);
    p.end();
    if (!report.save(path, "PNG")) {
        if (error) *error = tr("could not write '%1'").arg(path);
        return false;
    }
    return true;
}

bool ComparePage::exportHtml(const QString& path, QString* error) const
{
    if (m_runs.empty()) return false;
    ComparisonReportOptions options;
    options.baselineId = m_model->baselineId();
    options.generatedAtMs = QDateTime::currentMSecsSinceEpoch();
    const std::string html = formatComparisonHtml(m_runs, options);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(html.data(), static_cast<qint64>(html.size())) != static_cast<qint64>(html.size())) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

void ComparePage::askExportHtml()
{
    const QString path = chooseSaveFile(
        this, tr("Export the comparison as HTML"), QStringLiteral("comparison.html"), tr("HTML (*.html)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportHtml(path, &error))
        emit message(tr("Wrote %1").arg(path));
    else
        showError(this, tr("Export failed"), error);
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
