#pragma once
// Run control for the main window: starts a run of a target with a load profile (one probe request first; when it
// fails the window asks "Run anyway?"), stops it and waits for it before the session changes or the window closes,
// and adds each finished run to the SessionDocument as one run read, not a reload of the session. A profile on remote
// loaders has its names looked up when the run starts and its probe asked from the first of them (AgentProbe), so "does
// it answer?" is asked from where the load comes from. One load at a time: a running experiment makes it busy too and
// is ended through experimentStopRequested(). The coordinator shows nothing itself: it reaches the window and the pages
// only through signals, and the window asks the user (docs/ARCHITECTURE.md, "The GUI's run control").

#include "control/runevents.h"
#include "control/runsetup.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <optional>

namespace wb::ui {

class AgentProbe;
struct ProbeOutcome;
class ExperimentTask;
class RunTask;
class SessionDocument;

class RunCoordinator : public QObject
{
    Q_OBJECT
public:
    static constexpr int SETTLE_TIMEOUT_MS = 10'000; ///< how long stopAndWait() waits for a stopped run or experiment

    explicit RunCoordinator(QObject* parent = nullptr);
    ~RunCoordinator() override;

    RunTask* task() const { return m_run; }
    /// The session runs are recorded into and added to (null: none open).
    void setDocument(SessionDocument* doc);
    /// The Experiments page's task: while it runs, no run starts.
    void setExperimentTask(ExperimentTask* task);

    /// The setup of a run of target with profile: a preset or a profile edited on the
    /// fly (profileModified) is stored by its name only, as "name (modified)" when edited.
    static RunSetup setupFor(const Target& target, LoadProfile profile, bool profileModified);
    /// Starts setup in the open session, with a probe request first. False when busy or no session is open.
    bool start(RunSetup setup);
    /// The same target and profile over HTTP/1.1, then over HTTP/2 (the obvious comparison
    /// of one front door): when both completed, bothProtocolsRan() names the two runs. A run
    /// that fails or is stopped ends the pair.
    bool startBothProtocols(RunSetup setup);
    /// Starts setup without the probe: the answer "Run anyway" to runAnywayAsked(). False when busy.
    bool startWithoutProbe(RunSetup setup);
    /// Stops the run (its measurements are kept as 'stopped') and an experiment going.
    void stop();
    /// Before the session changes or the window closes (the window has asked): stops a run and an experiment going
    /// and waits for their ends (the run is then in the document). True when none is going any more.
    bool stopAndWait();

    /// The probe asked from a remote loader before a run, while it goes (null otherwise).
    AgentProbe* remoteProbe() const;
    /// A run is going (probe included).
    bool isRunActive() const;
    /// A run's load is going (what stopAndWait() stops and keeps as 'stopped'; a probe is not).
    bool isLoadRunning() const;
    /// An experiment of the Experiments page is running.
    bool isExperimentRunning() const;
    /// A run or an experiment is going: Run is disabled, the profile is fixed.
    bool isBusy() const;
    /// Something to stop, not already stopping.
    bool canStop() const;
    /// What the last run from here did ("last run #4 stored 12:00:03 (completed, 1,234 req/s)"); "" before.
    QString lastRunNote() const { return m_lastRunNote; }

signals:
    /// For the status bar.
    void message(const QString& text, int timeoutMs);
    /// isBusy() or canStop() may have changed.
    void busyChanged();
    /// The target of the run going, 0 when none (it cannot be deleted meanwhile).
    void runTargetChanged(qint64 targetId);
    /// A run was started: show it live.
    void liveViewWanted();
    /// The probe of setup is being asked from its first remote loader (the RunTask starts after it).
    void remoteProbeStarted(const wb::ui::RunSetup& setup);
    /// That probe ended the run before it started (cancelled, or failed: "Run anyway?" is asked).
    void remoteProbeEnded(const wb::ui::RunOutcome& outcome);
    void lastRunNoteChanged(const QString& note);
    /// stop() or stopAndWait() wants the running experiment stopped (ExperimentPage::stop).
    void experimentStopRequested();
    /// startBothProtocols(): the HTTP/1.1 run and the HTTP/2 run, both completed.
    void bothProtocolsRan(QList<qint64> runIds);
    /// start() refused setup before anything was sent (an unknown remote loader): why, to be acknowledged.
    void runRefused(const QString& why);
    /// The pre-run probe of setup failed (error says how) and no load was sent: the window asks whether to run
    /// anyway (startWithoutProbe()).
    void runAnywayAsked(const wb::ui::RunSetup& setup, const QString& error);

private:
    void phaseChanged();
    void runFinished(const RunOutcome& outcome);
    /// Asks the first remote loader of setup to probe its target, then starts the run.
    void startRemoteProbe(const RunSetup& setup);
    void remoteProbed(RunSetup setup, const ProbeOutcome& outcome);
    /// Ends a remote probe still going (nothing is sent, nothing stored).
    void cancelRemoteProbe();
    void setLastRunNote(const QString& note);

    RunTask* m_run;
    QPointer<SessionDocument> m_doc;
    QPointer<ExperimentTask> m_experiment;
    QPointer<AgentProbe> m_remoteProbe;
    QString m_lastRunNote;
    std::optional<RunSetup> m_nextOfPair; ///< startBothProtocols(): the HTTP/2 run, after the HTTP/1.1 one
    QList<qint64> m_pairRuns;
};

} // namespace wb::ui
