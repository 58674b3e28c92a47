#include "mainwindow.h"

#include "charts/comparecharts.h"
#include "control/experimenttask.h"
#include "control/runcoordinator.h"
#include "control/runtask.h"
#include "models/profilelistmodel.h"
#include "pages/comparepage.h"
#include "pages/dialogs.h"
#include "pages/experimentpage.h"
#include "pages/livepage.h"
#include "pages/profileeditor.h"
#include "pages/runbadge.h"
#include "pages/rundetailpage.h"
#include "pages/runspage.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "remote/remoteloaders.h"
#include "run/runcontroller.h" // engineVersion()
#include "session/sessiondocument.h"
#include "session/sessionpaths.h"
#include "session/sessionseed.h"
#include "text/format.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>

namespace wb::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_coordinator(new RunCoordinator(this))
    , m_profiles(new ProfileListModel(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(QStringLiteral("wrkbench"));

    m_live = new LivePage(m_coordinator->task(), this);
    m_runs = new RunsPage(this);
    m_compare = new ComparePage(this);
    m_experiments = new ExperimentPage(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->addTab(m_live, tr("Live"));
    m_tabs->addTab(m_runs, tr("Runs"));
    m_tabs->addTab(m_compare, tr("Compare"));
    m_tabs->addTab(m_experiments, tr("Experiments"));
    for (int i = LiveTab; i <= LAST_FIXED_TAB; ++i) {
        m_tabs->tabBar()->setTabButton(i, QTabBar::RightSide, nullptr);
        m_tabs->tabBar()->setTabButton(i, QTabBar::LeftSide, nullptr);
    }
    m_badge = new RunBadge(m_tabs);
    m_tabs->setCornerWidget(m_badge, Qt::TopRightCorner);
    m_badgeClock.setInterval(500);
    setCentralWidget(m_tabs);

    buildActions();
    buildDocks();
    buildToolBar();
    buildMenus();
    buildStatusBar();

    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeRunTab);
    connect(
        m_tabs, &QTabWidget::currentChanged, this, [this](int index) { m_badge->setLiveTabCurrent(index == LiveTab); });
    connect(m_badge, &RunBadge::clicked, this, [this] { showTab(LiveTab); });
    connectRunControl();
    connect(m_targets, &TargetsPanel::currentTargetChanged, this, [this] {
        updateActions();
        updateHint();
    });
    connect(m_targets->editor(), &TargetEditor::validityChanged, this, &MainWindow::updateActions);
    connect(m_targets->editor(), &TargetEditor::saved, this, &MainWindow::updateHint);
    connect(m_targets, &TargetsPanel::message, this, [this](const QString& text) { showMessage(text); });
    connect(m_targets, &TargetsPanel::probeRequested, this, &MainWindow::probeTarget);
    connect(m_targets, &TargetsPanel::bothProtocolsRequested, this, &MainWindow::runBothProtocols);
    connect(m_profileEditor, &ProfileEditor::validityChanged, this, &MainWindow::updateActions);
    connect(m_profileEditor, &ProfileEditor::loadChanged, this, &MainWindow::updateHint);
    connect(m_profileEditor, &ProfileEditor::modifiedChanged, this,
        [this](bool modified) { m_profiles->setModifiedId(modified ? m_profileEditor->currentProfile().id : 0); });
    connect(m_profileEditor, &ProfileEditor::profileCreated, this, &MainWindow::selectProfile);
    connect(m_profileEditor, &ProfileEditor::message, this, [this](const QString& text) { showMessage(text); });
    connect(m_runs, &RunsPage::openRequested, this, &MainWindow::openRun);
    connect(m_runs, &RunsPage::compareRequested, this, &MainWindow::compareRuns);
    connect(m_runs, &RunsPage::studyCreated, this, [this](qint64 id) {
        m_experiments->refresh();
        m_experiments->selectExperiment(id);
        m_tabs->setCurrentWidget(m_experiments);
    });
    connect(m_runs, &RunsPage::message, this, [this](const QString& text) { showMessage(text); });
    connect(m_compare, &ComparePage::message, this, [this](const QString& text) { showMessage(text); });
    connect(m_experiments, &ExperimentPage::message, this, [this](const QString& text) { showMessage(text); });
    connect(m_experiments, &ExperimentPage::runningChanged, this, [this](bool running) {
        updateActions();
        m_tabs->setTabText(ExperimentsTab, running ? tr("Experiments ●") : tr("Experiments"));
    });

    // The Loaders field completes "remote NAME" with the remote loaders known here.
    m_profileEditor->setRemoteLoaderNames(RemoteLoaderRegistry::load().names());

    restoreLayout();
    updateActions();
}

MainWindow::~MainWindow()
{
    // A run or an experiment still going (the window destroyed without close()):
    // stopped and kept as 'stopped', while everything its last signals reach exists.
    m_coordinator->stopAndWait();
}

void MainWindow::connectRunControl()
{
    RunTask* run = m_coordinator->task();
    m_coordinator->setExperimentTask(m_experiments->task());
    connect(m_coordinator, &RunCoordinator::busyChanged, this, [this] {
        updateActions();
        m_tabs->setTabText(LiveTab, m_coordinator->isRunActive() ? tr("Live ●") : tr("Live"));
    });
    connect(m_coordinator, &RunCoordinator::runTargetChanged, m_targets, &TargetsPanel::setBusyTargetId);
    connect(m_coordinator, &RunCoordinator::liveViewWanted, this, [this] { showTab(LiveTab); });
    connect(m_coordinator, &RunCoordinator::remoteProbeStarted, m_live, &LivePage::beginRemoteProbe);
    connect(m_coordinator, &RunCoordinator::remoteProbeEnded, m_live, &LivePage::endRemoteProbe);
    connect(m_coordinator, &RunCoordinator::bothProtocolsRan, this, &MainWindow::compareRuns);
    connect(m_coordinator, &RunCoordinator::message, this, &MainWindow::showMessage);
    connect(m_coordinator, &RunCoordinator::lastRunNoteChanged, this, &MainWindow::updateRunsLabel);
    connect(m_coordinator, &RunCoordinator::experimentStopRequested, m_experiments, &ExperimentPage::stop);
    connect(m_coordinator, &RunCoordinator::runRefused, this,
        [this](const QString& why) { showError(this, tr("The run did not start"), why); });
    connect(m_coordinator, &RunCoordinator::runAnywayAsked, this, &MainWindow::askRunAnyway);
    // Following a run from another tab: the badge in the tab bar's corner.
    connect(run, &RunTask::phaseChanged, this, [this, run](RunTask::Phase phase) {
        if (phase == RunTask::Phase::Probing) {
            m_badge->begin(QString::fromStdString(run->setup().target.name), run->plannedS());
            m_badgeClock.start();
        } else if (phase == RunTask::Phase::Idle) {
            m_badge->end();
            m_badgeClock.stop();
        }
    });
    connect(&m_badgeClock, &QTimer::timeout, this, [this, run] {
        if (m_badge->isVisible()) m_badge->setElapsed(run->elapsedS());
    });
    connect(run, &RunTask::intervalReceived, m_badge, &RunBadge::addInterval);
}

void MainWindow::buildDocks()
{
    m_targets = new TargetsPanel(this);
    auto* targetsDock = new QDockWidget(tr("Targets"), this);
    targetsDock->setObjectName(QStringLiteral("TargetsDock"));
    targetsDock->setWidget(m_targets);
    targetsDock->setFeatures(
        QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, targetsDock);

    m_profileEditor = new ProfileEditor(this);
    auto* profileDock = new QDockWidget(tr("Load profile"), this);
    profileDock->setObjectName(QStringLiteral("ProfileDock"));
    // Scrolled rather than squeezed: the form's labels and fields would otherwise set the
    // narrowest the window can be.
    auto* profileScroll = new QScrollArea(profileDock);
    profileScroll->setWidget(m_profileEditor);
    profileScroll->setWidgetResizable(true);
    profileScroll->setFrameShape(QFrame::NoFrame);
    profileDock->setWidget(profileScroll);
    profileDock->setFeatures(targetsDock->features());
    addDockWidget(Qt::LeftDockWidgetArea, profileDock);
    tabifyDockWidget(targetsDock, profileDock);
    targetsDock->raise();
    resizeDocks({ targetsDock }, { 380 }, Qt::Horizontal);
}

void MainWindow::buildStatusBar()
{
    m_versionLabel = new QLabel(
        tr("wrkbench %1 · engine %2").arg(QStringLiteral(WB_VERSION), QString::fromUtf8(engineVersion())), this);
    m_sessionLabel = new QLabel(this);
    m_sessionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lastRunLabel = new QLabel(tr("no run yet"), this);
    m_lastRunLabel->setObjectName(QStringLiteral("lastRunLabel"));
    statusBar()->addPermanentWidget(m_versionLabel);
    statusBar()->addPermanentWidget(m_sessionLabel, 1);
    statusBar()->addPermanentWidget(m_lastRunLabel);
}

void MainWindow::restoreLayout()
{
    auto settings = appSettings();
    if (!restoreGeometry(settings->value(QStringLiteral("window/geometry")).toByteArray())) {
        const QRect screen = QGuiApplication::primaryScreen() ? QGuiApplication::primaryScreen()->availableGeometry()
                                                              : QRect(0, 0, 1600, 1000);
        resize(std::min(1520, screen.width() * 19 / 20), std::min(940, screen.height() * 19 / 20));
    }
    restoreState(settings->value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::saveLayout()
{
    auto settings = appSettings();
    settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings->setValue(QStringLiteral("window/state"), saveState());
    rememberProfile();
    if (m_doc) settings->setValue(QStringLiteral("session/last"), m_doc->path());
}

namespace {

/// The settings key of a session's last profile: profile ids are per session
/// file (presets, negative, are the same everywhere).
QString lastProfileKey(const QString& sessionPath)
{
    const QByteArray id = QFileInfo(sessionPath)
                              .absoluteFilePath()
                              .toUtf8()
                              .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    return QStringLiteral("profile/last/") + QString::fromLatin1(id);
}

} // namespace

void MainWindow::rememberProfile()
{
    if (!m_doc) return;
    const QModelIndex profile = m_profiles->index(m_profileCombo->currentIndex(), 0);
    appSettings()->setValue(lastProfileKey(m_doc->path()), profile.data(ProfileListModel::IdRole));
}

bool MainWindow::openStartupSession(const QString& pathArgument)
{
    // A file that cannot be opened was explained in a dialog; the default session opens instead.
    if (!pathArgument.isEmpty() && openSession(pathArgument, true)) return true;
    const QString last = lastSession();
    if (pathArgument.isEmpty() && !last.isEmpty() && QFileInfo::exists(last) && openSession(last)) return true;
    const QString path = defaultSessionPath();
    if (!openSession(path, true)) return false;
    // First start on this machine: demo targets that run offline against the built-in server.
    if (m_doc->wasCreated() && m_doc->targets().empty()) {
        if (wb::Status st = seedDemoTargets(m_doc->store()); !st) showMessage(QString::fromStdString(st.error()));
        m_doc->reload();
        m_targets->selectTarget(0);
    }
    return true;
}

bool MainWindow::openSession(const QString& path, bool create)
{
    if (!settleLoad(tr("open another session"))) return false;
    QString error;
    auto doc = SessionDocument::open(path, create, &error);
    if (!doc) {
        showError(this, tr("Cannot open the session"), error);
        return false;
    }
    setDocument(std::move(doc));
    return true;
}

void MainWindow::setDocument(std::unique_ptr<SessionDocument> doc)
{
    rememberProfile(); // the old session's choice, for when it is opened again
    // Run tabs and the comparison belong to the old session.
    while (m_tabs->count() > LAST_FIXED_TAB + 1)
        closeRunTab(LAST_FIXED_TAB + 1);
    m_compare->setRuns({});
    m_experiments->setDocument(nullptr);

    SessionDocument* raw = doc.get();
    m_targets->setDocument(raw);
    m_runs->setDocument(raw);
    m_profileEditor->setDocument(raw);
    m_profiles->setDocument(raw);
    m_experiments->setDocument(raw);
    m_doc = std::move(doc); // the old document goes only after nothing points at it
    m_coordinator->setDocument(raw);
    connect(raw, &SessionDocument::runsChanged, this, &MainWindow::runsChanged);
    // A capacity search stored, resumed or deleted here or by the CLI: Compare's Capacity tab follows.
    connect(raw, &SessionDocument::experimentsChanged, this, &MainWindow::refreshCompareCapacities);
    connect(raw, &SessionDocument::runStored, this, &MainWindow::updateRunsLabel);
    connect(raw, &SessionDocument::errorOccurred, this, [this](const QString& text) { showMessage(text); });

    selectProfile(appSettings()->value(lastProfileKey(raw->path())).toLongLong());
    m_targets->selectTarget(0);
    noteSessionOpened(raw->path());
    rebuildRecentMenu();
    const QString name = QFileInfo(raw->path()).fileName();
    setWindowTitle(tr("%1 — wrkbench").arg(name));
    m_sessionLabel->setText(raw->path() + (raw->isReadOnly() ? tr("  (read-only)") : QString()));
    updateRunsLabel();
    updateActions();
    updateHint();
}

bool MainWindow::settleLoad(const QString& why)
{
    if (m_coordinator->isExperimentRunning()
        && !confirm(this, tr("An experiment is running"),
            tr("An experiment is running. Stop it to %1? Its completed runs are kept; Resume makes the rest.").arg(why),
            tr("Stop the experiment")))
        return false;
    if (m_coordinator->isLoadRunning()
        && !confirm(this, tr("A run is in progress"),
            tr("A run is in progress. Stop it to %1? What it measured so far is kept as a stopped run.").arg(why),
            tr("Stop the run")))
        return false;
    return m_coordinator->stopAndWait();
}

void MainWindow::askRunAnyway(RunSetup setup, const QString& error)
{
    if (m_runAnywayBox) m_runAnywayBox->close();
    m_runAnywayBox = ui::askRunAnyway(
        this, QString::fromStdString(setup.target.name), error, [this, setup](bool runAnyway) mutable {
            if (runAnyway)
                m_coordinator->startWithoutProbe(setup);
            else
                showMessage(tr("Run cancelled: the target did not answer the probe"));
        });
}

QMessageBox* MainWindow::runAnywayBox() const
{
    return m_runAnywayBox;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!settleLoad(tr("close wrkbench"))) {
        event->ignore();
        return;
    }
    m_targets->editor()->commit();
    m_profileEditor->commit();
    saveLayout();
    event->accept();
}

void MainWindow::updateActions()
{
    // One load at a time: a run or an experiment (RunCoordinator::isBusy).
    const bool active = m_coordinator->isBusy();
    const bool ready
        = m_doc && m_targets->currentTargetId() != 0 && m_targets->editor()->isValid() && m_profileEditor->isValid();
    m_runAction->setEnabled(!active && ready);
    m_capacityAction->setEnabled(!active && ready);
    m_stopAction->setEnabled(m_coordinator->canStop());
    // A probe is one request: fine during a run too (it then measures the loaded target).
    m_probeAction->setEnabled(m_doc && m_targets->currentTargetId() != 0 && m_targets->editor()->isValid());
    m_probeAction->setToolTip(m_probeAction->isEnabled()
            ? tr("Probe the selected target: one request, timed phase by phase, with its TLS and response (Ctrl+P)")
            : tr("Probe (disabled: select a target without fields in red)"));
    m_profileCombo->setEnabled(!active);
    QString why;
    if (active)
        why = tr("a run is in progress");
    else if (!m_doc)
        why = tr("no session is open");
    else if (m_targets->currentTargetId() == 0)
        why = tr("add or select a target first");
    else if (!m_targets->editor()->isValid())
        why = tr("the target has a field in red");
    else if (!m_profileEditor->isValid())
        why = tr("the load profile has a field in red");
    m_runAction->setToolTip(why.isEmpty() ? tr("Run the selected target with the current profile (F5, Ctrl+R)")
                                          : tr("Run (disabled: %1)").arg(why));
    m_runDisabledWhy = why;
    m_saveAsAction->setEnabled(m_doc != nullptr);
    updateHint(); // the hint promises F5 only while Run is enabled
}

void MainWindow::updateHint()
{
    const wb::Target* t = m_doc ? m_doc->targetById(m_targets->currentTargetId()) : nullptr;
    // The Live header follows the selection while nothing runs (a run or an experiment shows itself there).
    const bool idle = !m_coordinator->isBusy();
    if (!t) {
        m_targetLabel->setText(tr("no target"));
        if (idle) m_live->setHint(tr("Add a target in the panel on the left (Ctrl+T)"));
        return;
    }
    const QString name = QString::fromStdString(t->name);
    m_targetLabel->setText(
        QStringLiteral("<span style='color:%1'>●</span> %2").arg(colorForTarget(t->id).name(), name.toHtmlEscaped()));
    if (idle)
        m_live->showSelected(name, colorForTarget(t->id),
            m_runDisabledWhy.isEmpty()
                ? tr("F5 runs “%1” with %2").arg(name, describeLoad(m_profileEditor->currentProfile().load))
                : tr("Run is disabled: %1").arg(m_runDisabledWhy));
}

void MainWindow::showMessage(const QString& text, int timeoutMs)
{
    statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::updateRunsLabel()
{
    if (!m_doc) return;
    // The count follows every change of the history: runs from here, from an
    // experiment, from wrkbench-cli writing into the session, deletions.
    QString text = tr("%1 in the session").arg(countText(static_cast<qint64>(m_doc->runs().size()), "run", "runs"));
    if (const QString note = m_coordinator->lastRunNote(); !note.isEmpty()) text += QStringLiteral(" · ") + note;
    m_lastRunLabel->setText(text);
}

void MainWindow::runsChanged()
{
    updateRunsLabel();
    std::vector<int64_t> ids;
    for (const RunRecord& r : m_doc->runs())
        ids.push_back(r.id);
    m_compare->retainRuns(ids);
    for (int i = m_tabs->count() - 1; i > LAST_FIXED_TAB; --i)
        if (auto* page = qobject_cast<RunDetailPage*>(m_tabs->widget(i));
            page && std::find(ids.begin(), ids.end(), page->runId()) == ids.end())
            closeRunTab(i);
}

void MainWindow::closeRunTab(int index)
{
    if (index <= LAST_FIXED_TAB) return;
    QWidget* page = m_tabs->widget(index);
    m_tabs->removeTab(index);
    page->deleteLater();
}

void MainWindow::showTab(Tab tab)
{
    m_tabs->setCurrentIndex(tab);
}

} // namespace wb::ui
