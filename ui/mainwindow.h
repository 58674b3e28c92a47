#pragma once
// The main window: toolbar, the targets and load profile docks, the Live / Runs / Compare / Experiments tabs (plus a
// tab per opened run) and the status bar. It owns the open SessionDocument and the RunCoordinator (run control) and
// wires them to the pages; it does not drive runs, and the pages never talk to each other directly
// (docs/ARCHITECTURE.md, "The GUI's run control"). Tests reach its parts by type or object name (findChild), as a
// user's tools would: tests/ui/windowparts.h names them.

#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <memory>

class QComboBox;
class QLabel;
class QMenu;
class QMessageBox;
class QTabWidget;

namespace wb::ui {

class ComparePage;
class ExperimentPage;
class LivePage;
class ProbeDialog;
class ProfileEditor;
class ProfileListModel;
class RunBadge;
class RunCoordinator;
class RunsPage;
struct RunSetup;
class CapacityDialog;
class SessionDocument;
class TargetsPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Tab { LiveTab, RunsTab, CompareTab, ExperimentsTab, LAST_FIXED_TAB = ExperimentsTab };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// At start: pathArgument if given, else the last session, else the default
    /// session (created with the demo targets on first start). False when none opened.
    bool openStartupSession(const QString& pathArgument);
    /// Replaces the open session (asks first when a run is going). On failure
    /// shows why and keeps the current session; the file is left untouched.
    bool openSession(const QString& path, bool create = false);
    /// Creates an empty session at path and opens it (path must not exist).
    bool newSession(const QString& path);
    /// Copies the open session to path and continues in the copy. An existing file
    /// is replaced only when `replace` (the save dialog asked), and only once the
    /// copy is complete; never the open session itself.
    bool saveSessionAs(const QString& path, bool replace = false);

    /// Runs the selected target with the current profile, after one probe request
    /// (a failed probe asks "Run anyway" / "Cancel"). False when Run is disabled.
    bool startRun();
    /// The selected target with the current profile over HTTP/1.1, then HTTP/2; Compare shows both.
    bool runBothProtocols();
    void stopRun();
    /// Probes the selected target and shows the Probe dialog. False when Probe is disabled.
    bool probeTarget();
    /// Run → Find capacity…: the capacity search dialog on the selected target and the current
    /// profile (window-modal: one load at a time). Null when no target is ready to run.
    CapacityDialog* findCapacity();
    /// File → Loaders…: the remote loaders (RemoteLoadersDialog, window-modal).
    void editRemoteLoaders();
    /// Opens a stored run in its own tab.
    void openRun(qint64 runId);
    /// Compares runs (oldest first: the oldest is the baseline) in the Compare tab.
    void compareRuns(QList<qint64> runIds);
    /// Compare's Capacity tab: the compared runs' targets' latest stored capacities.
    void refreshCompareCapacities();
    void showTab(Tab tab);

    SessionDocument* document() const { return m_doc.get(); }
    /// The "Run anyway?" question after a failed pre-run probe, while it is shown.
    QMessageBox* runAnywayBox() const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    /// The selected target with the current profile, after saving both editors.
    RunSetup runSetupOfEditors();
    void buildActions();
    void buildMenus();
    void buildToolBar();
    void buildDocks();
    void buildStatusBar();
    void restoreLayout();
    void saveLayout();
    void rebuildRecentMenu();
    /// Shows and raises a dock (they are tabbed on the left).
    void showDock(const QString& objectName);

    void setDocument(std::unique_ptr<SessionDocument> doc);
    /// Before the session changes or the window closes: asks to stop a run or an experiment going (why: "close
    /// wrkbench"), stops it and waits for its end. True when none is going (any more).
    bool settleLoad(const QString& why);
    /// A pre-run probe of setup failed: says why and offers to run anyway, without a nested event loop.
    void askRunAnyway(RunSetup setup, const QString& error);
    /// Wires the run coordinator (and its RunTask) to the actions, the pages and the badge.
    void connectRunControl();
    void updateActions();
    void updateHint();
    void profileSelected(int row);
    void selectProfile(qint64 id);
    void runsChanged();
    void updateRunsLabel();
    /// Stores the open session's current profile in the settings.
    void rememberProfile();
    void showMessage(const QString& text, int timeoutMs = 6000);

    void askNewSession();
    void askOpenSession();
    void askSaveSessionAs();
    void exportLiveCharts();
    void closeRunTab(int index);

    std::unique_ptr<SessionDocument> m_doc;
    RunCoordinator* m_coordinator;
    QPointer<QMessageBox> m_runAnywayBox;
    ProfileListModel* m_profiles;

    TargetsPanel* m_targets = nullptr;
    ProfileEditor* m_profileEditor = nullptr;
    QComboBox* m_profileCombo = nullptr;
    QLabel* m_targetLabel = nullptr;
    QTabWidget* m_tabs = nullptr;
    LivePage* m_live = nullptr;
    RunBadge* m_badge = nullptr; ///< the run in progress, in the tab bar's corner
    QTimer m_badgeClock;
    RunsPage* m_runs = nullptr;
    ComparePage* m_compare = nullptr;
    ExperimentPage* m_experiments = nullptr;

    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_probeAction = nullptr;
    ProbeDialog* m_probeDialog = nullptr;
    QAction* m_newAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_loadersAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_compareAction = nullptr;
    QAction* m_capacityAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;

    QLabel* m_versionLabel = nullptr;
    QLabel* m_sessionLabel = nullptr;
    QLabel* m_lastRunLabel = nullptr; ///< the run count, then what the last run from this window did
    QString m_runDisabledWhy; ///< why Run is disabled ("" when it is enabled), for the Live hint
};

} // namespace wb::ui
