// MainWindow: actions, menus, toolbar, and what they do (run, probe, sessions, export).
#include "charts/livecharts.h"
#include "control/runcoordinator.h"
#include "mainwindow.h"
#include "models/comparemodel.h"
#include "models/experimentresultsmodel.h"
#include "models/profilelistmodel.h"
#include "pages/capacitydialog.h"
#include "pages/comparepage.h"
#include "pages/dialogs.h"
#include "pages/experimentpage.h"
#include "pages/helpmenu.h"
#include "pages/livepage.h"
#include "pages/probedialog.h"
#include "pages/profileeditor.h"
#include "pages/remoteloadersdialog.h"
#include "pages/rundetailpage.h"
#include "pages/runspage.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "remote/remoteloaders.h"
#include "run/runcontroller.h" // engineVersion()
#include "session/recordequality.h"
#include "session/sessioncopy.h"
#include "session/sessiondocument.h"
#include "session/sessionpaths.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>

namespace wb::ui {

namespace {
constexpr int MAX_RUN_TABS = 8;
const QString SESSION_FILTER = QStringLiteral("wrkbench sessions (*.wrkbench);;All files (*)");
} // namespace

void MainWindow::buildActions()
{
    QStyle* s = style();
    m_runAction = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcuts({ QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R) });
    connect(m_runAction, &QAction::triggered, this, &MainWindow::startRun);

    m_probeAction = new QAction(s->standardIcon(QStyle::SP_FileDialogContentsView), tr("&Probe"), this);
    m_probeAction->setObjectName(QStringLiteral("probeAction"));
    m_probeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    connect(m_probeAction, &QAction::triggered, this, &MainWindow::probeTarget);

    m_stopAction = new QAction(s->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopAction->setToolTip(tr("Stop the run (Esc); what it measured is kept as a stopped run"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopRun);

    m_newAction = new QAction(tr("&New session…"), this);
    m_newAction->setShortcut(QKeySequence::New);
    connect(m_newAction, &QAction::triggered, this, &MainWindow::askNewSession);
    m_openAction = new QAction(tr("&Open session…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, &MainWindow::askOpenSession);
    m_saveAsAction = new QAction(tr("Save session &as…"), this);
    m_saveAsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::askSaveSessionAs);
    m_loadersAction = new QAction(tr("&Loaders…"), this);
    m_loadersAction->setObjectName(QStringLiteral("loadersAction"));
    m_loadersAction->setToolTip(tr("Remote loaders: agents on loader VMs that a load profile names (remote vm1, vm2)"));
    connect(m_loadersAction, &QAction::triggered, this, &MainWindow::editRemoteLoaders);
    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_compareAction = new QAction(tr("&Compare selected runs"), this);
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_compareAction, &QAction::triggered, this, [this] { compareRuns(m_runs->selectedRunIds()); });
    addAction(m_compareAction);

    m_capacityAction = new QAction(tr("Find &capacity…"), this);
    m_capacityAction->setObjectName(QStringLiteral("findCapacityAction"));
    m_capacityAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_capacityAction->setToolTip(
        tr("The most load the selected target carries while the profile's SLOs hold (Ctrl+Shift+F)"));
    connect(m_capacityAction, &QAction::triggered, this, [this] { findCapacity(); });
}

void MainWindow::buildToolBar()
{
    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("RunToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_runAction);
    bar->addAction(m_probeAction);
    bar->addAction(m_stopAction);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Target: "), bar));
    m_targetLabel = new QLabel(bar);
    m_targetLabel->setMinimumWidth(140);
    bar->addWidget(m_targetLabel);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Profile: "), bar));
    m_profileCombo = new QComboBox(bar);
    m_profileCombo->setObjectName(QStringLiteral("profileCombo"));
    m_profileCombo->setModel(m_profiles);
    m_profileCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_profileCombo->setMinimumContentsLength(22);
    m_profileCombo->setToolTip(tr("Load profile: presets (italic) and the session's profiles"));
    bar->addWidget(m_profileCombo);
    connect(m_profileCombo, &QComboBox::currentIndexChanged, this, &MainWindow::profileSelected);
    // A profile deleted or renamed under the combo: show what it shows now.
    connect(m_profiles, &QAbstractItemModel::rowsRemoved, this,
        [this] { profileSelected(m_profileCombo->currentIndex()); });
    connect(m_profiles, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from, const QModelIndex& to) {
        const int row = m_profileCombo->currentIndex();
        // Changed by someone else (not our own save of what the editor shows): show the new version.
        if (row >= from.row() && row <= to.row() && !m_profileEditor->isModified()
            && !sameProfile(m_profiles->record(row), m_profileEditor->currentProfile()))
            profileSelected(row);
    });
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newAction);
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addAction(m_saveAsAction);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    // Every chart is reachable from here as well as from its own context menu or Export button.
    exportMenu->addAction(tr("Live charts as PNG…"), this, &MainWindow::exportLiveCharts);
    QAction* runCharts = exportMenu->addAction(tr("This run's charts as PNG…"), this, [this] {
        if (auto* page = qobject_cast<RunDetailPage*>(m_tabs->currentWidget())) page->askExportPng();
    });
    runCharts->setObjectName(QStringLiteral("exportRunChartsAction"));
    exportMenu->addAction(tr("Runs table as CSV…"), m_runs, &RunsPage::askExport);
    exportMenu->addSeparator();
    QList<QAction*> comparison;
    comparison << exportMenu->addAction(
        tr("Comparison report (tables and charts) as PNG…"), m_compare, &ComparePage::askExportReport);
    comparison << exportMenu->addAction(tr("Comparison chart: req/s over time as PNG…"), this,
        [this] { m_compare->askExportChart(QStringLiteral("rps")); });
    comparison << exportMenu->addAction(tr("Comparison chart: latency spectrum as PNG…"), this,
        [this] { m_compare->askExportChart(QStringLiteral("spectrum")); });
    comparison << exportMenu->addAction(tr("Comparison chart: req/s per run as PNG…"), this,
        [this] { m_compare->askExportChart(QStringLiteral("bars")); });
    comparison << exportMenu->addAction(tr("Comparison table as CSV…"), m_compare, &ComparePage::askExportCsv);
    comparison << exportMenu->addAction(tr("Comparison as HTML report…"), m_compare, &ComparePage::askExportHtml);
    comparison.last()->setObjectName(QStringLiteral("exportComparisonHtmlAction"));
    exportMenu->addSeparator();
    QAction* experimentCharts
        = exportMenu->addAction(tr("Experiment charts as PNG…"), m_experiments, &ExperimentPage::askExportCharts);
    QAction* htmlReport = exportMenu->addAction(
        tr("HTML report of the selected experiment or study…"), m_experiments, &ExperimentPage::askExportHtml);
    htmlReport->setObjectName(QStringLiteral("exportHtmlReportAction"));
    // Only what there is to export: a run tab in front, runs in the comparison, an experiment's results.
    connect(exportMenu, &QMenu::aboutToShow, this, [this, runCharts, comparison, experimentCharts, htmlReport] {
        runCharts->setEnabled(qobject_cast<RunDetailPage*>(m_tabs->currentWidget()) != nullptr);
        for (QAction* action : comparison)
            action->setEnabled(!m_compare->runs().empty());
        experimentCharts->setEnabled(m_experiments->resultsModel()->rowCount() > 0);
        htmlReport->setEnabled(m_experiments->resultsModel()->rowCount() > 0);
    });
    file->addSeparator();
    file->addAction(m_loadersAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_probeAction);
    run->addAction(m_stopAction);
    run->addSeparator();
    run->addAction(m_compareAction);
    run->addAction(m_capacityAction);
    run->addAction(tr("&Add target"), QKeySequence(Qt::CTRL | Qt::Key_T), this, [this] {
        // The Targets panel in front first: typing must go to the editor the user sees.
        showDock(QStringLiteral("TargetsDock"));
        m_targets->addTarget();
    });
    run->addAction(tr("&Edit target"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this, [this] {
        showDock(QStringLiteral("TargetsDock"));
        m_targets->editor()->nameEdit()->setFocus();
        m_targets->editor()->nameEdit()->selectAll();
    });
    run->addAction(tr("Edit &load profile"), QKeySequence(Qt::CTRL | Qt::Key_L), this, [this] {
        showDock(QStringLiteral("ProfileDock"));
        m_profileEditor->field(QStringLiteral("threads"))->setFocus();
        m_profileEditor->field(QStringLiteral("threads"))->selectAll();
    });
    run->addSeparator();
    run->addAction(tr("New e&xperiment…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), this,
           [this] {
               showTab(ExperimentsTab);
               m_experiments->newExperiment();
           })
        ->setObjectName(QStringLiteral("newExperimentAction"));

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(tr("&Live"), QKeySequence(Qt::CTRL | Qt::Key_1), this, [this] { showTab(LiveTab); });
    m_viewMenu->addAction(tr("&Runs"), QKeySequence(Qt::CTRL | Qt::Key_2), this, [this] { showTab(RunsTab); });
    m_viewMenu->addAction(tr("&Compare"), QKeySequence(Qt::CTRL | Qt::Key_3), this, [this] { showTab(CompareTab); });
    m_viewMenu->addAction(
        tr("&Experiments"), QKeySequence(Qt::CTRL | Qt::Key_4), this, [this] { showTab(ExperimentsTab); });
    m_viewMenu->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
            [this] { showKeyboardShortcuts(this); })
        ->setObjectName(QStringLiteral("shortcutsAction"));
    help->addAction(tr("&Documentation"), QKeySequence::HelpContents, this, [this] { openDocumentation(this); })
        ->setObjectName(QStringLiteral("docsAction"));
    help->addSeparator();
    help->addAction(tr("&About wrkbench"), this, [this] {
        QMessageBox::about(this, tr("About wrkbench"),
            tr("<h3>wrkbench %1</h3><p>A workbench for HTTP load benchmarking: wrk's engine and report, "
               "sessions that keep every run, live charts and side-by-side comparison.</p>"
               "<p>Engine %2 · Qt %3</p>")
                .arg(QStringLiteral(WB_VERSION), QString::fromUtf8(engineVersion()), QString::fromLatin1(qVersion())));
    });
}

void MainWindow::showDock(const QString& name)
{
    if (auto* dock = findChild<QDockWidget*>(name)) {
        dock->show();
        dock->raise();
    }
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    for (const QString& path : recentSessions())
        m_recentMenu->addAction(path, this, [this, path] { openSession(path); });
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::profileSelected(int row)
{
    if (row < 0 || row >= m_profiles->rowCount()) return;
    m_profileEditor->setProfile(m_profiles->record(row));
    updateActions();
    updateHint();
}

void MainWindow::selectProfile(qint64 id)
{
    int row = id ? m_profiles->rowOfId(id) : -1;
    if (row < 0) row = 0;
    if (m_profileCombo->currentIndex() == row)
        profileSelected(row);
    else
        m_profileCombo->setCurrentIndex(row);
}

RunSetup MainWindow::runSetupOfEditors()
{
    // Edits typed a moment ago are saved first: the run and the session agree on the target.
    m_targets->editor()->commit();
    m_profileEditor->commit();
    return RunCoordinator::setupFor(
        m_targets->editor()->currentTarget(), m_profileEditor->currentProfile(), m_profileEditor->isModified());
}

bool MainWindow::startRun()
{
    return m_runAction->isEnabled() && m_coordinator->start(runSetupOfEditors());
}

bool MainWindow::runBothProtocols()
{
    return m_runAction->isEnabled() && m_coordinator->startBothProtocols(runSetupOfEditors());
}

void MainWindow::stopRun()
{
    m_coordinator->stop();
}

bool MainWindow::probeTarget()
{
    if (!m_probeAction->isEnabled()) return false;
    m_targets->editor()->commit(); // probe what the session holds, as Run does
    if (!m_probeDialog) m_probeDialog = new ProbeDialog(this);
    const LoaderPlacement& loaders = m_profileEditor->currentProfile().load.loaders;
    if (loaders.on == LoaderPlacement::On::Agents && !loaders.agents.empty()) {
        // The load will come from the remote loaders: so does the probe (from the first one).
        const RemoteLoaderRegistry registry = RemoteLoaderRegistry::load();
        if (auto agents = registry.endpoints({ loaders.agents.front() }); !agents) {
            showError(this, tr("Probe"), QString::fromStdString(agents.error()));
            return false;
        }
        m_probeDialog->probe(m_targets->editor()->currentTarget(), *registry.find(loaders.agents.front()));
    } else {
        m_probeDialog->probe(m_targets->editor()->currentTarget());
    }
    m_probeDialog->show();
    m_probeDialog->raise();
    m_probeDialog->activateWindow();
    return true;
}

void MainWindow::openRun(qint64 runId)
{
    for (int i = LAST_FIXED_TAB + 1; i < m_tabs->count(); ++i)
        if (auto* page = qobject_cast<RunDetailPage*>(m_tabs->widget(i)); page && page->runId() == runId) {
            m_tabs->setCurrentIndex(i);
            return;
        }
    auto loaded = m_doc ? m_doc->store().runs().load(runId) : Result<RunData>(Error { "no session" });
    if (!loaded) {
        showError(this, tr("Cannot open the run"), QString::fromStdString(loaded.error()));
        return;
    }
    while (m_tabs->count() - (LAST_FIXED_TAB + 1) >= MAX_RUN_TABS)
        closeRunTab(LAST_FIXED_TAB + 1);
    auto* page = new RunDetailPage(std::move(*loaded), m_tabs);
    connect(page, &RunDetailPage::message, this, [this](const QString& text) { showMessage(text); });
    connect(page, &RunDetailPage::compareWith, this, [this](qint64 id) {
        showTab(RunsTab);
        m_runs->selectRuns({ id });
        showMessage(tr("Select the runs to compare with (Ctrl+click), then Compare"));
    });
    const int index = m_tabs->addTab(page, tr("Run #%1").arg(runId));
    m_tabs->setTabToolTip(index, CompareModel::runLabel(page->data().run));
    m_tabs->setCurrentIndex(index);
}

void MainWindow::compareRuns(QList<qint64> runIds)
{
    if (runIds.size() < 2) {
        showMessage(tr("Select two or more runs to compare (Ctrl+click in Runs)"));
        return;
    }
    std::sort(runIds.begin(), runIds.end());
    std::vector<RunData> runs;
    for (qint64 id : runIds) {
        auto loaded = m_doc->store().runs().load(id);
        if (!loaded) {
            showError(this, tr("Cannot compare"), QString::fromStdString(loaded.error()));
            return;
        }
        runs.push_back(std::move(*loaded));
    }
    m_compare->setRuns(std::move(runs));
    refreshCompareCapacities();
    showTab(CompareTab);
}

void MainWindow::refreshCompareCapacities()
{
    std::vector<int64_t> targetIds;
    for (const RunData& run : m_compare->runs())
        if (std::find(targetIds.begin(), targetIds.end(), run.run.targetId) == targetIds.end())
            targetIds.push_back(run.run.targetId);
    auto capacities = targetIds.empty() || !m_doc
        ? Result<std::vector<StoredCapacity>> { std::vector<StoredCapacity> {} }
        : latestCapacities(m_doc->store(), targetIds);
    // A session whose searches cannot be read compares its runs all the same, without capacities.
    m_compare->setCapacities(capacities ? std::move(*capacities) : std::vector<StoredCapacity> {});
}

void MainWindow::askNewSession()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("New session"),
        QFileInfo(m_doc ? m_doc->path() : defaultSessionPath()).dir().filePath(QStringLiteral("untitled.wrkbench")),
        SESSION_FILTER, nullptr, QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty())
        newSession(path.endsWith(QStringLiteral(".wrkbench")) ? path : path + QStringLiteral(".wrkbench"));
}

bool MainWindow::newSession(const QString& path)
{
    if (QFileInfo::exists(path)) {
        showError(this, tr("Cannot create the session"),
            tr("'%1' already exists. Choose another name, or open it with File → Open.").arg(path));
        return false;
    }
    return openSession(path, true);
}

void MainWindow::askOpenSession()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open session"), m_doc ? QFileInfo(m_doc->path()).absolutePath() : QDir::homePath(), SESSION_FILTER);
    if (!path.isEmpty()) openSession(path, false);
}

void MainWindow::askSaveSessionAs()
{
    if (!m_doc) return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save session as"),
        QFileInfo(m_doc->path()).dir().filePath(QStringLiteral("copy.wrkbench")), SESSION_FILTER);
    if (path.isEmpty()) return;
    saveSessionAs(path, true); // the dialog asked about replacing an existing file
}

bool MainWindow::saveSessionAs(const QString& path, bool replace)
{
    if (!m_doc) return false;
    const QFileInfo target(path);
    if (target.absoluteFilePath() == QFileInfo(m_doc->path()).absoluteFilePath()) {
        showError(this, tr("Cannot save the session"), tr("'%1' is the open session.").arg(path));
        return false;
    }
    if (target.exists() && !replace) {
        showError(this, tr("Cannot save the session"), tr("'%1' already exists.").arg(path));
        return false;
    }
    // Before the copy: a run still recording would be copied as 'running', owned by
    // nobody in the new file.
    if (!settleLoad(tr("save the session under a new name"))) return false;
    m_targets->editor()->commit();
    m_profileEditor->commit();
    if (const QString error = copySession(m_doc->store(), path); !error.isEmpty()) {
        showError(this, tr("Cannot save the session"), error);
        return false;
    }
    // The copy keeps every id: the window goes on where it was (profile, target, comparison, page).
    const qint64 profileId = m_profileEditor->currentProfile().id;
    const qint64 targetId = m_targets->currentTargetId();
    QList<qint64> compared;
    for (const RunData& run : m_compare->runs())
        compared << run.run.id;
    const qint64 baselineId = m_compare->model()->runs().empty() ? 0 : m_compare->model()->runs().front().id;
    const int tab = m_tabs->currentIndex();
    if (!openSession(path, false)) return false;
    if (profileId) selectProfile(profileId);
    m_targets->selectTarget(targetId);
    if (compared.size() >= 2) {
        compareRuns(compared);
        if (baselineId) m_compare->setBaselineRun(baselineId);
    }
    if (tab <= LAST_FIXED_TAB) m_tabs->setCurrentIndex(tab);
    return true;
}

CapacityDialog* MainWindow::findCapacity()
{
    if (!m_capacityAction->isEnabled()) return nullptr;
    m_targets->editor()->commit(); // search what the session holds, as Run does
    m_profileEditor->commit();
    auto* dialog = new CapacityDialog(
        m_doc->targets(), m_targets->currentTargetId(), m_profileEditor->currentProfile(), m_doc->path(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal); // one load at a time: no run starts beside the search
    connect(dialog, &CapacityDialog::searchStored, this, [this](qint64 id) {
        // Its trials are runs of the session, and the search an experiment.
        m_doc->reload();
        m_experiments->refresh();
        m_experiments->selectExperiment(id);
    });
    dialog->show();
    return dialog;
}

void MainWindow::exportLiveCharts()
{
    const QString path = chooseSaveFile(
        this, tr("Export the live charts as PNG"), QStringLiteral("live-charts.png"), tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString error;
    if (m_live->charts()->exportPng(path, {}, &error))
        showMessage(tr("Wrote %1").arg(path));
    else
        showError(this, tr("Export failed"), error);
}

void MainWindow::editRemoteLoaders()
{
    auto* dialog = new RemoteLoadersDialog(RemoteLoaderRegistry::load(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_profileEditor->setRemoteLoaderNames(dialog->registry().names());
        showMessage(tr("Remote loaders saved (%1)").arg(dialog->registry().loaders().size()));
    });
    dialog->open(); // window-modal without a nested event loop: a run's live view goes on
}

} // namespace wb::ui
