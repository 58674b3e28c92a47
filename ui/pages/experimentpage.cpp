#include "pages/experimentpage.h"

#include "capacity/capacityrunner.h"
#include "charts/comparecharts.h"
#include "charts/experimentcharts.h"
#include "charts/kneechart.h"
#include "control/experimenttask.h"
#include "experiment/comparability.h"
#include "experiment/experimentreport.h"
#include "experiment/experimentresults.h"
#include "experiment/experimentrunner.h"
#include "experiment/htmlreport.h"
#include "experiment/plansearch.h"
#include "http/url.h"
#include "models/experimentresultsmodel.h"
#include "pages/capacitycards.h"
#include "pages/capacitydialog.h"
#include "pages/dialogs.h"
#include "pages/experimentchartdata.h"
#include "pages/planeditor.h"
#include "session/sessiondocument.h"
#include "text/format.h"
#include "text/slotext.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <limits>

namespace wb::ui {

namespace {

enum ListColumn { IdColumn, NameColumn, StatusColumn, CreatedColumn };

bool writeFile(const QString& path, const std::string& text, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size())) {
        *error = file.errorString();
        return false;
    }
    return true;
}

/// Each exported chart's size: readable when the Markdown report is viewed at page width.
constexpr QSize REPORT_CHART_SIZE { 900, 480 };

} // namespace

ExperimentPage::ExperimentPage(QWidget* parent)
    : QWidget(parent)
    , m_task(new ExperimentTask(this))
    , m_results(new ExperimentResultsModel(this))
    , m_list(new QTreeWidget(this))
    , m_newButton(new QPushButton(tr("Open plan file…"), this))
    , m_buildButton(new QPushButton(tr("New experiment…"), this))
    , m_empty(new QLabel(this))
    , m_runButton(new QPushButton(tr("Run"), this))
    , m_stopButton(new QPushButton(tr("Stop"), this))
    , m_csvButton(new QPushButton(tr("Export CSV…"), this))
    , m_markdownButton(new QPushButton(tr("Export Markdown…"), this))
    , m_chartsButton(new QPushButton(tr("Export charts PNG…"), this))
    , m_htmlButton(new QPushButton(tr("Export HTML…"), this))
    , m_error(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_progressLabel(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_table(new QTableView(this))
    , m_charts(new ExperimentCharts(this))
    , m_knee(new KneeChart(this))
    , m_comparability(new QLabel(this))
    , m_pooled(new QLabel(this))
{
    m_stopButton->setObjectName(QStringLiteral("stopButton"));
    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_progressLabel->setObjectName(QStringLiteral("progressLabel"));
    m_progress->setObjectName(QStringLiteral("progressBar"));
    setObjectName(QStringLiteral("ExperimentPage"));
    m_list->setObjectName(QStringLiteral("ExperimentList"));
    m_list->setHeaderLabels({ tr("#"), tr("Name"), tr("Status"), tr("Created") });
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    m_error->setObjectName(QStringLiteral("ExperimentError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();
    m_progress->setVisible(false);
    m_progressLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setObjectName(QStringLiteral("ExperimentResults"));
    m_table->setModel(m_results);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideNone);

    m_buildButton->setObjectName(QStringLiteral("newExperimentButton"));
    m_buildButton->setToolTip(tr("Build a plan here: targets, load levels, repetitions, SLOs"));
    m_newButton->setObjectName(QStringLiteral("openPlanButton"));
    m_newButton->setToolTip(tr("A plan JSON as wrkbench-cli experiment takes it (examples/, docs/EXPERIMENTS.md)"));
    m_empty->setObjectName(QStringLiteral("ExperimentEmpty"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_empty->setText(tr("<p><b>No experiments yet.</b> An experiment runs two or more targets at the same load "
                        "levels, each several times and interleaved, and says whether they differ beyond their own "
                        "noise.</p><p><b>New experiment…</b> builds one here, starting from a template with the "
                        "session's first two targets: pick the targets and the baseline, the levels, the "
                        "repetitions; the run count and about how long it takes are shown before Run.<br>"
                        "<b>Open plan file…</b> reads a plan JSON as <code>wrkbench-cli experiment</code> takes it "
                        "(see examples/ and docs/EXPERIMENTS.md).<br>Runs made already: select them in the Runs tab "
                        "and press <b>Study…</b>.</p>"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_buildButton);
    buttons->addWidget(m_newButton);
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_stopButton);
    buttons->addStretch(1);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_list, 1);
    topLayout->addWidget(m_empty, 1);
    topLayout->addLayout(buttons);
    topLayout->addWidget(m_error);
    topLayout->addWidget(m_progress);
    topLayout->addWidget(m_progressLabel);

    auto* exports = new QHBoxLayout;
    m_summary->setObjectName(QStringLiteral("ExperimentSummary"));
    // The summary wraps beside the export buttons: its one line would hold the window wider.
    m_summary->setWordWrap(true);
    m_summary->setMinimumWidth(120);
    exports->addWidget(m_summary, 1);
    exports->addWidget(m_csvButton);
    exports->addWidget(m_chartsButton);
    exports->addWidget(m_markdownButton);
    exports->addWidget(m_htmlButton);
    m_htmlButton->setToolTip(tr("One self-contained HTML file: the table, the charts, the method and every run"));
    m_charts->setObjectName(QStringLiteral("ExperimentCharts"));
    m_knee->setObjectName(QStringLiteral("ExperimentKnee"));
    m_knee->hide(); // shown for sweeps of two or more levels
    // Runs of one level that differ in more than the variant: said above the table, not left to be noticed.
    m_comparability->setObjectName(QStringLiteral("ExperimentComparability"));
    m_comparability->setWordWrap(true);
    m_comparability->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_comparability->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff4e5; color: #8a4b00; border-left: 4px solid #e67e22; padding: 4px 8px; }"));
    m_comparability->hide();
    // The answer the cells cannot give alone (docs/EXPERIMENTS.md, "Pooled over the cells").
    m_pooled->setObjectName(QStringLiteral("ExperimentPooled"));
    m_pooled->setWordWrap(true);
    m_pooled->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pooled->setStyleSheet(QStringLiteral(
        "QLabel { background: #eef4fb; color: #1f3b57; border-left: 4px solid #4e79a7; padding: 4px 8px; }"));
    m_pooled->hide();
    auto* chartsRow = new QWidget(this);
    auto* chartsLayout = new QHBoxLayout(chartsRow);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->setSpacing(0);
    chartsLayout->addWidget(m_charts, 2);
    chartsLayout->addWidget(m_knee, 1);
    auto* results = new QSplitter(Qt::Vertical, this);
    m_resultsSplit = results;
    // A capacity search has no cells: its result and every trial, as `capacity` prints them.
    m_capacityText = new QPlainTextEdit(this);
    m_capacityText->setObjectName(QStringLiteral("ExperimentCapacity"));
    m_capacityText->setReadOnly(true);
    m_capacityText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_capacityText->hide();
    m_capacityCards = new CapacityCards(this);
    m_capacityCards->hide();
    results->addWidget(m_table);
    results->addWidget(chartsRow);
    results->setStretchFactor(0, 2);
    results->setStretchFactor(1, 3);
    auto* bottom = new QWidget(this);
    m_resultsArea = bottom;
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addLayout(exports);
    bottomLayout->addWidget(m_comparability);
    bottomLayout->addWidget(results, 1);
    bottomLayout->addWidget(m_capacityCards);
    bottomLayout->addWidget(m_capacityText, 1);
    bottomLayout->addWidget(m_pooled);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(m_newButton, &QPushButton::clicked, this, &ExperimentPage::askNewFromFile);
    connect(m_buildButton, &QPushButton::clicked, this, &ExperimentPage::newExperiment);
    connect(m_runButton, &QPushButton::clicked, this, &ExperimentPage::runSelected);
    connect(m_stopButton, &QPushButton::clicked, this, &ExperimentPage::stop);
    connect(m_csvButton, &QPushButton::clicked, this, [this] { askExport(false); });
    connect(m_markdownButton, &QPushButton::clicked, this, [this] { askExport(true); });
    connect(m_chartsButton, &QPushButton::clicked, this, &ExperimentPage::askExportCharts);
    connect(m_htmlButton, &QPushButton::clicked, this, &ExperimentPage::askExportHtml);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] {
        loadResults();
        updateButtons();
    });
    connect(m_task, &ExperimentTask::progress, this, &ExperimentPage::showProgress);
    connect(m_task, &ExperimentTask::finished, this, &ExperimentPage::experimentFinished);
    updateButtons();
}

void ExperimentPage::setDocument(SessionDocument* doc)
{
    if (m_doc) disconnect(m_doc, nullptr, this, nullptr);
    m_doc = doc;
    // Experiments made or run by wrkbench-cli (or another window) show up as they change.
    if (m_doc) {
        connect(m_doc, &SessionDocument::experimentsChanged, this, &ExperimentPage::refresh);
        // Each run an experiment elsewhere completes changes its results, not its status.
        connect(m_doc, &SessionDocument::runsChanged, this, [this] {
            for (int i = 0; i < m_list->topLevelItemCount(); ++i)
                if (m_list->topLevelItem(i)->text(StatusColumn)
                    == QString::fromUtf8(experimentStatusName(ExperimentStatus::Running))) {
                    refresh();
                    return;
                }
        });
    }
    m_error->hide();
    refresh();
}

bool ExperimentPage::isRunning() const
{
    return m_task->isActive();
}

void ExperimentPage::refresh()
{
    const int64_t selected = selectedExperimentId();
    const QSignalBlocker block(m_list);
    m_list->clear();
    if (m_doc) {
        auto list = m_doc->store().experiments().all();
        if (!list)
            showError(QString::fromStdString(list.error()));
        else
            for (const ExperimentRecord& e : *list) {
                auto* item = new QTreeWidgetItem(m_list);
                item->setData(IdColumn, Qt::DisplayRole, QVariant::fromValue<qint64>(e.id));
                item->setText(NameColumn,
                    QString::fromStdString(e.name)
                        + (e.kind == ExperimentKind::Study           ? tr(" (study)")
                                : e.kind == ExperimentKind::Capacity ? tr(" (capacity search)")
                                                                     : QString()));
                if (e.kind == ExperimentKind::Study)
                    item->setToolTip(NameColumn, tr("A study of stored runs: nothing to run"));
                if (e.kind == ExperimentKind::Capacity)
                    item->setToolTip(NameColumn,
                        tr("A capacity search: wrkbench-cli capacity --db FILE --resume %1 shows it and goes on with "
                           "it")
                            .arg(e.id));
                // Only a plan is run from here: a study has nothing to run, a search goes on in the CLI.
                item->setData(NameColumn, Qt::UserRole, e.kind == ExperimentKind::Plan);
                item->setText(StatusColumn, QString::fromUtf8(experimentStatusName(e.status)));
                item->setToolTip(StatusColumn, QString::fromStdString(e.error));
                item->setText(CreatedColumn,
                    QDateTime::fromMSecsSinceEpoch(e.createdAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
                if (e.id == selected) m_list->setCurrentItem(item);
            }
    }
    // Nothing chosen yet: show the first experiment's results rather than an empty page.
    if (!m_list->currentItem() && m_list->topLevelItemCount() > 0) m_list->setCurrentItem(m_list->topLevelItem(0));
    for (int c = IdColumn; c <= CreatedColumn; ++c)
        if (c != NameColumn) m_list->resizeColumnToContents(c);
    loadResults();
    updateButtons();
}

int64_t ExperimentPage::selectedExperimentId() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    return item ? item->data(IdColumn, Qt::DisplayRole).toLongLong() : 0;
}

bool ExperimentPage::selectExperiment(int64_t id)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (m_list->topLevelItem(i)->data(IdColumn, Qt::DisplayRole).toLongLong() == id) {
            m_list->setCurrentItem(m_list->topLevelItem(i));
            return true;
        }
    return false;
}

int64_t ExperimentPage::createFromPlanFile(const QString& path)
{
    if (!m_doc) return 0;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        showError(tr("%1: %2").arg(QFileInfo(path).fileName(), file.errorString()));
        return 0;
    }
    // Targets on "builtin" keep that host in the plan: each run resolves it in the process that makes it.
    auto plan = parseExperimentPlan(file.readAll().toStdString());
    if (!plan) {
        showError(tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(plan.error())));
        return 0;
    }
    return createFromPlan(std::move(*plan));
}

PlanEditor* ExperimentPage::newExperiment()
{
    if (!m_doc || m_doc->isReadOnly()) return nullptr;
    auto* editor = new PlanEditor(m_doc, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    editor->setTemplate();
    connect(editor, &QDialog::accepted, this, [this, editor] {
        auto plan = editor->plan();
        if (!plan) return showError(QString::fromStdString(plan.error()));
        if (plan->search)
            searchPlan(std::move(*plan), editor->runAfterCreate());
        else if (createFromPlan(std::move(*plan)) && editor->runAfterCreate())
            runSelected();
    });
    editor->open();
    return editor;
}

int64_t ExperimentPage::createFromPlan(ExperimentPlan plan)
{
    if (!m_doc) return 0;
    if (plan.search) { // its search is stored when it starts, in the dialog
        searchPlan(std::move(plan));
        return 0;
    }
    std::vector<std::string> warnings;
    auto id = ExperimentRunner::create(m_doc->store(), std::move(plan), &warnings);
    if (!id) {
        showError(QString::fromStdString(id.error()));
        return 0;
    }
    m_error->hide();
    m_doc->reload(); // the experiment may have added targets
    refresh();
    selectExperiment(*id);
    for (const std::string& w : warnings)
        emit message(QString::fromStdString(w));
    return *id;
}

CapacityDialog* ExperimentPage::searchPlan(ExperimentPlan plan, bool start)
{
    if (!m_doc || m_doc->isReadOnly()) return nullptr;
    std::vector<std::string> warnings;
    auto setup = planSearchSetup(m_doc->store(), plan, &warnings);
    for (const std::string& w : warnings)
        emit message(QString::fromStdString(w));
    if (!setup) {
        showError(QString::fromStdString(setup.error()));
        return nullptr;
    }
    m_error->hide();
    m_doc->reload(); // the plan may have added targets
    std::vector<Target> targets;
    for (int64_t id : setup->sessionTargetIds)
        for (const Target& t : m_doc->targets())
            if (t.id == id) targets.push_back(t);
    auto* dialog = new CapacityDialog(std::move(targets), std::move(*setup), m_doc->path(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal); // one load at a time, as Find capacity
    connect(dialog, &CapacityDialog::searchStored, this, [this](qint64 id) {
        m_doc->reload(); // its trials are runs of the session
        refresh();
        selectExperiment(id);
        emit runsAdded();
    });
    dialog->show();
    if (start) dialog->startSearch();
    return dialog;
}

bool ExperimentPage::runSelected()
{
    const int64_t id = selectedExperimentId();
    if (!m_doc || !id || m_task->isActive()) return false;
    auto record = m_doc->store().experiments().get(id);
    auto plan = record ? parseExperimentPlan(record->planJson) : Result<ExperimentPlan>(Error { record.error() });
    if (!plan) {
        showError(QString::fromStdString(plan.error()));
        return false;
    }
    m_error->hide();
    if (!m_task->start(m_doc->path(), id, *plan)) return false;
    m_progress->setRange(0, static_cast<int>(plan->runCount()));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_progressLabel->setText(tr("Checking that every target answers…"));
    updateButtons();
    emit runningChanged(true);
    return true;
}

void ExperimentPage::stop()
{
    if (!m_task->isActive()) return;
    m_task->stop();
    m_progressLabel->setText(tr("Stopping…"));
    m_stopButton->setEnabled(false);
}

void ExperimentPage::showProgress(const ExperimentProgress& p)
{
    m_progress->setRange(0, static_cast<int>(p.runsTotal));
    m_progress->setValue(static_cast<int>(p.runsDone));
    const QString where = tr("cell %1/%2 (%3) rep %4/%5: %6")
                              .arg(p.cell + 1)
                              .arg(p.cellCount)
                              .arg(QString::fromStdString(p.cellLabel))
                              .arg(p.repetition + 1)
                              .arg(p.repetitions)
                              .arg(QString::fromStdString(p.targetName));
    const QString eta = p.etaS > 0 ? tr(", ETA %1").arg(formatClock(p.etaS)) : QString();
    if (p.event == ExperimentProgress::Event::RunStarting) {
        m_progressLabel->setText(tr("%1 …  [%2/%3 done%4]").arg(where).arg(p.runsDone).arg(p.runsTotal).arg(eta));
        if (m_doc) refresh(); // the status became 'running'
    } else {
        // The run's verdicts on the plan's SLOs: "; SLOs ✗ 1 of 2 failed".
        const QString sloText = p.slo.empty() ? QString() : tr("; SLOs %1").arg(sloSummary(p.slo));
        m_progressLabel->setText(tr("%1: %2 req/s, p99 %3 ms, %4 errors, %5 non-2xx (%6)  [%7/%8 done%9]")
                                     .arg(where, formatCount(p.requestsPerS), formatUsAsMs(p.p99Us))
                                     .arg(p.errors)
                                     .arg(p.non2xx)
                                     .arg(QString::fromUtf8(runStatusName(p.status)) + sloText)
                                     .arg(p.runsDone)
                                     .arg(p.runsTotal)
                                     .arg(eta));
        if (p.status == RunStatus::Failed && !p.message.empty()) showError(QString::fromStdString(p.message));
        // Into the session's history now (Runs, the status bar's count), not only when the experiment ends.
        if (m_doc && p.runId) m_doc->refreshRun(p.runId);
        emit runsAdded();
        if (selectedExperimentId() == m_task->experimentId()) loadResults();
    }
}

void ExperimentPage::experimentFinished(const ExperimentTaskResult& result)
{
    m_progress->setVisible(false);
    if (!result.ok) {
        showError(result.error);
        m_progressLabel->clear();
    } else {
        const ExperimentOutcome& o = result.outcome;
        m_progressLabel->setText(tr("Experiment %1: %2, %3 of %4 runs done")
                                     .arg(m_task->experimentId())
                                     .arg(QString::fromUtf8(experimentStatusName(o.status)))
                                     .arg(o.runsDone)
                                     .arg(o.runsTotal));
        if (!o.error.empty()) showError(QString::fromStdString(o.error));
    }
    if (m_doc) m_doc->reload();
    refresh();
    emit runsAdded();
    emit runningChanged(false);
}

void ExperimentPage::loadResults()
{
    const int64_t id = selectedExperimentId();
    const auto clear = [this] {
        m_results->clear();
        m_charts->setData({});
        m_knee->setData({});
        m_knee->hide();
        m_comparability->hide();
        m_pooled->hide();
        m_capacityCards->setCards({});
    };
    if (!m_doc || !id) {
        clear();
        m_summary->clear();
        return;
    }
    if (auto record = m_doc->store().experiments().get(id); record && record->kind == ExperimentKind::Capacity) {
        clear();
        m_resultsSplit->hide();
        m_capacityText->show();
        auto report = storedCapacityReport(m_doc->store(), id);
        if (!report) {
            m_summary->setText(tr("%1 is a capacity search whose stored search cannot be read: %2")
                                   .arg(QString::fromStdString(record->name), QString::fromStdString(report.error())));
            m_capacityText->clear();
            m_capacityCards->setCards({});
            return;
        }
        // Each card named and coloured as the session target its trials ran on.
        QStringList names;
        QList<QColor> colors;
        const auto targetIds = capacitySearchTargets(m_doc->store(), id);
        for (size_t i = 0; i < report->targets.size(); ++i) {
            const int64_t targetId = targetIds && i < targetIds->size() ? (*targetIds)[i] : 0;
            std::string name = report->targets[i].label + " " + report->targets[i].url;
            if (targetId > 0)
                if (auto target = m_doc->store().targets().get(targetId)) name = target->name;
            names << QString::fromStdString(name);
            colors << (targetId > 0 ? colorForTarget(targetId) : QColor(Qt::darkGray));
        }
        m_capacityCards->setCards(capacityCards(*report, names, colors));
        size_t trials = 0;
        QString text;
        for (const CapacityReportTarget& t : report->targets) {
            text += QString::fromStdString(capacitySummaryText(t, report->options));
            trials += t.result.trials.size();
        }
        text += QString::fromStdString(capacityComparisonText(*report));
        // A search goes on in the CLI (the window starts new ones): the summary says how.
        const bool ended = record->status == ExperimentStatus::Completed;
        m_summary->setText(
            tr("%1 is a capacity search: %2 trials (%3)%4")
                .arg(QString::fromStdString(record->name))
                .arg(trials)
                .arg(QString::fromUtf8(experimentStatusName(record->status)))
                .arg(ended ? QString()
                           : tr("; go on with wrkbench-cli capacity --db %1 --resume %2").arg(m_doc->path()).arg(id)));
        m_capacityText->setPlainText(text);
        return;
    }
    m_capacityText->hide();
    m_capacityCards->setCards({});
    m_resultsSplit->show();
    auto results = loadExperimentResults(m_doc->store(), id);
    if (!results) {
        clear();
        m_summary->setText(QString::fromStdString(results.error()));
        return;
    }
    m_summary->setText(tr("%1: %2 of %3 runs done (* baseline; mean ± sd across repetitions)")
                           .arg(QString::fromStdString(results->experiment.name))
                           .arg(results->runsDone)
                           .arg(results->runsTotal));
    m_charts->setData(experimentChartData(*results));
    const KneeChartData knee = experimentKneeData(*results);
    m_knee->setData(knee);
    m_knee->setVisible(!knee.empty());
    QStringList warnings;
    for (const ComparabilityWarning& w : experimentComparability(*results))
        warnings.append(QStringLiteral("⚠ ") + QString::fromStdString(w.text()));
    m_comparability->setText(warnings.join(QLatin1Char('\n')));
    m_comparability->setVisible(!warnings.isEmpty());
    QStringList pooled;
    for (const std::string& line : pooledLines(*results))
        pooled.append(QString::fromStdString(line));
    if (!pooled.isEmpty())
        pooled.prepend(results->kind == ExperimentKind::Study ? tr("Pooled over the cells (one effect per variant):")
                                                              : tr("Pooled over the cells (one effect per target):"));
    m_pooled->setText(pooled.join(QLatin1Char('\n')));
    m_pooled->setVisible(!pooled.isEmpty());
    m_results->setResults(std::move(*results));
    m_table->resizeColumnsToContents();
    // A long verdict wraps in its cell, whole, instead of widening the table past the window.
    constexpr int VERDICT_MAX_PX = 360;
    if (m_table->columnWidth(ExperimentResultsModel::VerdictColumn) > VERDICT_MAX_PX)
        m_table->setColumnWidth(ExperimentResultsModel::VerdictColumn, VERDICT_MAX_PX);
    m_table->resizeRowsToContents();
}

void ExperimentPage::updateButtons()
{
    const bool running = m_task->isActive();
    const int64_t id = selectedExperimentId();
    const QTreeWidgetItem* item = m_list->currentItem();
    const QString status = item ? item->text(StatusColumn) : QString();
    m_newButton->setEnabled(m_doc && !m_doc->isReadOnly());
    m_buildButton->setEnabled(m_newButton->isEnabled());
    const bool empty = m_list->topLevelItemCount() == 0;
    m_list->setVisible(!empty);
    m_empty->setVisible(empty);
    m_resultsArea->setVisible(!empty);
    m_runButton->setText(status == QLatin1String("planned") || status.isEmpty() ? tr("Run") : tr("Resume"));
    const bool runnable = item && item->data(NameColumn, Qt::UserRole).toBool();
    m_runButton->setEnabled(m_doc && id && runnable && !running && status != QLatin1String("completed")
        && status != QLatin1String("running"));
    m_stopButton->setEnabled(running);
    const bool hasRows = m_results->rowCount() > 0;
    m_csvButton->setEnabled(hasRows);
    m_markdownButton->setEnabled(hasRows);
    m_chartsButton->setEnabled(hasRows);
    m_htmlButton->setEnabled(hasRows);
}

void ExperimentPage::showError(const QString& text)
{
    m_error->setText(text);
    m_error->show();
}

void ExperimentPage::askNewFromFile()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Experiment plan"), QString(), tr("Experiment plans (*.json)"));
    if (!path.isEmpty()) createFromPlanFile(path);
}

void ExperimentPage::askExport(bool markdown)
{
    const QString base = QStringLiteral("experiment-%1").arg(selectedExperimentId());
    const QString path = markdown
        ? chooseSaveFile(this, tr("Export Markdown report"), base + QStringLiteral(".md"), tr("Markdown (*.md)"))
        : chooseSaveFile(this, tr("Export CSV"), base + QStringLiteral(".csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    if (markdown ? exportMarkdown(path) : exportCsv(path)) emit message(tr("Wrote %1").arg(path));
}

void ExperimentPage::askExportCharts()
{
    const QString path = chooseSaveFile(this, tr("Export charts"),
        QStringLiteral("experiment-%1.png").arg(selectedExperimentId()), tr("PNG images (*.png)"));
    if (!path.isEmpty() && exportChartsPng(path)) emit message(tr("Wrote %1").arg(path));
}

bool ExperimentPage::exportChartsPng(const QString& path)
{
    QString error;
    if (m_results->rowCount() == 0) return false;
    if (!m_charts->exportPng(path, QSize(REPORT_CHART_SIZE.width() * 2, REPORT_CHART_SIZE.height()), &error)) {
        showError(tr("Cannot write %1: %2").arg(path, error));
        return false;
    }
    return true;
}

void ExperimentPage::askExportHtml()
{
    if (m_results->rowCount() == 0) return;
    const QString path = chooseSaveFile(this, tr("Export HTML report"),
        QStringLiteral("experiment-%1.html").arg(selectedExperimentId()), tr("HTML (*.html)"));
    if (!path.isEmpty() && exportHtml(path)) emit message(tr("Wrote %1").arg(path));
}

bool ExperimentPage::exportHtml(const QString& path)
{
    QString error;
    if (m_results->rowCount() == 0) return false;
    HtmlReportOptions options;
    if (m_doc) options.sessionName = QFileInfo(m_doc->path()).fileName().toStdString();
    options.generatedAtMs = QDateTime::currentMSecsSinceEpoch();
    if (!writeFile(path, formatHtmlReport(m_results->results(), options), &error)) {
        showError(tr("Cannot write %1: %2").arg(path, error));
        return false;
    }
    return true;
}

bool ExperimentPage::exportCsv(const QString& path)
{
    QString error;
    if (m_results->rowCount() == 0) return false;
    if (!writeFile(path, resultsCsv(m_results->results()), &error)) {
        showError(tr("Cannot write %1: %2").arg(path, error));
        return false;
    }
    return true;
}

bool ExperimentPage::exportMarkdown(const QString& path)
{
    QString error;
    if (m_results->rowCount() == 0) return false;
    MarkdownOptions options;
    if (m_doc) options.sessionName = QFileInfo(m_doc->path()).fileName().toStdString();
    // The charts go next to the report and are linked by file name, so the pair can be moved together.
    const QFileInfo report(path);
    const struct
    {
        const char* which;
        const char* suffix;
        QString title;
    } charts[] = { { "bars", "-rps.png", tr("Requests/s per level (mean ± sd)") },
        { "latency", "-latency.png", tr("Latency per level (p50 solid, p99 dashed)") } };
    for (const auto& chart : charts) {
        const QString name = report.completeBaseName() + QLatin1String(chart.suffix);
        if (!m_charts->exportChartPng(
                QLatin1String(chart.which), report.dir().filePath(name), REPORT_CHART_SIZE, &error)) {
            showError(tr("Cannot write %1: %2").arg(report.dir().filePath(name), error));
            return false;
        }
        options.images.push_back({ chart.title.toStdString(), name.toStdString() });
    }
    if (!writeFile(path, formatMarkdownReport(m_results->results(), options), &error)) {
        showError(tr("Cannot write %1: %2").arg(path, error));
        return false;
    }
    return true;
}

} // namespace wb::ui
