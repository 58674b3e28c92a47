#include "control/runcoordinator.h"

#include "control/experimenttask.h"
#include "control/runtask.h"
#include "remote/agentprobe.h"
#include "remote/remoteloaders.h"
#include "session/sessiondocument.h"
#include "text/format.h"

#include <QTime>

namespace wb::ui {

RunCoordinator::RunCoordinator(QObject* parent)
    : QObject(parent)
    , m_run(new RunTask(this))
{
    setObjectName(QStringLiteral("RunCoordinator"));
    connect(m_run, &RunTask::phaseChanged, this, &RunCoordinator::phaseChanged);
    connect(m_run, &RunTask::finished, this, &RunCoordinator::runFinished);
}

// A run still going is stopped by RunTask's destructor, which delivers nothing:
// the window calls stopAndWait() first, while what its signals reach still exists.
RunCoordinator::~RunCoordinator() = default;

void RunCoordinator::setDocument(SessionDocument* doc)
{
    m_doc = doc;
    if (m_doc) m_doc->setRecording(m_run->isActive());
    setLastRunNote({}); // the note is about this window's last run in the session shown
}

void RunCoordinator::setExperimentTask(ExperimentTask* task)
{
    if (m_experiment) disconnect(m_experiment, nullptr, this, nullptr);
    m_experiment = task;
    // An experiment's runs are this window's runs too: the status bar's "last run" says each one.
    if (m_experiment)
        connect(m_experiment, &ExperimentTask::progress, this, [this](const ExperimentProgress& p) {
            if (p.event != ExperimentProgress::Event::RunFinished || p.runId == 0) return;
            setLastRunNote(p.status == RunStatus::Failed
                    ? tr("last run #%1 failed (experiment)").arg(p.runId)
                    : tr("last run #%1 stored %2 (%3, %4 req/s, experiment %5/%6)")
                          .arg(p.runId)
                          .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")),
                              QString::fromUtf8(runStatusName(p.status)), formatCount(p.requestsPerS))
                          .arg(p.runsDone)
                          .arg(p.runsTotal));
        });
}

RunSetup RunCoordinator::setupFor(const Target& target, LoadProfile profile, bool profileModified)
{
    RunSetup setup;
    setup.target = target;
    if (profileModified) {
        // A preset changed on the fly is not that preset any more.
        profile.id = 0;
        profile.name += " (modified)";
    } else if (profile.id < 0) {
        profile.id = 0; // presets are not stored: the run keeps only their name
    }
    setup.profile = std::move(profile);
    return setup;
}

bool RunCoordinator::start(RunSetup setup)
{
    if (isBusy() || !m_doc) return false;
    setup.sessionPath = m_doc->path();
    setup.probeFirst = true; // one request first: a target that does not answer gets no load
    if (setup.profile.load.loaders.on == LoaderPlacement::On::Agents) {
        // Names to endpoints now, on this thread: an unknown name or a loader without its pin or
        // token is said before anything starts.
        auto agents = RemoteLoaderRegistry::load().endpoints(setup.profile.load.loaders.agents);
        if (!agents) {
            const QString why = QString::fromStdString(agents.error());
            emit message(tr("The run did not start: %1").arg(why), 15'000);
            emit runRefused(why);
            return false;
        }
        setup.agents = std::move(*agents);
        if (setup.agents.empty()) return false;
        startRemoteProbe(setup);
        return true;
    }
    if (!m_run->start(setup)) return false;
    emit liveViewWanted();
    emit message(tr("Probing %1…").arg(QString::fromStdString(setup.target.url)), 6000);
    return true;
}

void RunCoordinator::startRemoteProbe(const RunSetup& setup)
{
    const AgentEndpoint& loader = setup.agents.front();
    m_remoteProbe = new AgentProbe(this);
    connect(m_remoteProbe, &AgentProbe::finished, this, [this, setup, probe = m_remoteProbe](const ProbeOutcome& out) {
        probe->deleteLater();
        if (m_remoteProbe == probe) m_remoteProbe = nullptr;
        remoteProbed(setup, out);
    });
    m_remoteProbe->start(setup.target, loader);
    emit liveViewWanted();
    emit remoteProbeStarted(setup);
    emit message(
        tr("Probing %1 from %2…").arg(QString::fromStdString(setup.target.url), QString::fromStdString(loader.name)),
        6000);
    emit runTargetChanged(setup.target.id);
    emit busyChanged();
}

void RunCoordinator::remoteProbed(RunSetup setup, const ProbeOutcome& outcome)
{
    emit runTargetChanged(0);
    emit busyChanged();
    if (outcome.cancelled || !outcome.ok) {
        RunOutcome ended;
        ended.cancelled = outcome.cancelled;
        ended.status = RunStatus::Failed;
        ended.probeFailed = !outcome.cancelled;
        ended.error = outcome.error;
        emit remoteProbeEnded(ended);
        // No run followed, so runFinished() will not end a pair (startBothProtocols) that began here.
        m_nextOfPair.reset();
        m_pairRuns.clear();
    }
    if (outcome.cancelled) {
        emit message(tr("Run cancelled before the load started"), 6000);
        return;
    }
    if (!outcome.ok) {
        emit message(tr("The probe failed, no load was sent: %1").arg(outcome.error), 15'000);
        emit runAnywayAsked(setup, outcome.error);
        return;
    }
    setup.probeFirst = false; // done, from where the load comes from
    setup.probeJson = outcome.result.toJsonText();
    if (!m_run->start(setup)) return;
    emit message(tr("Probed from %1: %2; starting the remote loaders…")
                     .arg(outcome.probedFrom, QString::fromStdString(outcome.result.statusLine)),
        6000);
}

AgentProbe* RunCoordinator::remoteProbe() const
{
    return m_remoteProbe;
}

void RunCoordinator::cancelRemoteProbe()
{
    if (m_remoteProbe) m_remoteProbe->cancel(); // finished(cancelled) follows
}

void RunCoordinator::stop()
{
    cancelRemoteProbe();
    if (isExperimentRunning()) emit experimentStopRequested();
    if (!m_run->isActive()) return;
    m_run->stop();
    emit busyChanged(); // Stop is disabled at once, before the engine has seen the flag
    emit message(tr("Stopping…"), 2000);
}

bool RunCoordinator::stopAndWait()
{
    cancelRemoteProbe(); // nothing was sent yet
    if (isExperimentRunning()) {
        // Its completed runs are kept; its run in progress is stored as 'stopped', and Resume makes it again.
        emit experimentStopRequested();
        m_experiment->waitForFinished(SETTLE_TIMEOUT_MS);
    }
    if (m_run->isActive()) {
        m_run->stop();
        m_run->waitForFinished(SETTLE_TIMEOUT_MS); // delivers finished(): the run is in the document
    }
    return !m_run->isActive() && !isExperimentRunning();
}

bool RunCoordinator::isRunActive() const
{
    return m_run->isActive() || m_remoteProbe;
}

bool RunCoordinator::isBusy() const
{
    // An experiment's runs and a single run would skew each other's numbers: one at a time.
    return isRunActive() || isExperimentRunning();
}

bool RunCoordinator::canStop() const
{
    return (m_run->isActive() && !m_run->isStopping()) || m_remoteProbe || isExperimentRunning();
}

bool RunCoordinator::isLoadRunning() const
{
    return m_run->isActive();
}

bool RunCoordinator::isExperimentRunning() const
{
    return m_experiment && m_experiment->isActive();
}

void RunCoordinator::phaseChanged()
{
    // While this process records into the session, its own commits need not be re-read often.
    if (m_doc) m_doc->setRecording(m_run->isActive());
    emit runTargetChanged(m_run->isActive() ? m_run->setup().target.id : 0);
    emit busyChanged();
}

void RunCoordinator::setLastRunNote(const QString& note)
{
    if (note == m_lastRunNote) return;
    m_lastRunNote = note;
    emit lastRunNoteChanged(note);
}

bool RunCoordinator::startBothProtocols(RunSetup setup)
{
    RunSetup second = setup;
    setup.target.httpVersion = HttpVersion::Http1;
    second.target.httpVersion = HttpVersion::Http2;
    if (!start(setup)) return false;
    m_nextOfPair = second;
    m_pairRuns.clear();
    return true;
}

void RunCoordinator::runFinished(const RunOutcome& outcome)
{
    // At once, and only this run: the history shows it before finished() reaches anyone else.
    if (m_doc && outcome.runId) m_doc->refreshRun(outcome.runId);
    emit busyChanged();
    if (m_nextOfPair) {
        if (outcome.status != RunStatus::Completed || outcome.runId == 0) {
            m_nextOfPair.reset(); // a pair with a failed or stopped half compares nothing
        } else {
            m_pairRuns << outcome.runId;
            RunSetup next = *m_nextOfPair;
            m_nextOfPair.reset();
            // Queued: this finished() is still being delivered to others.
            QMetaObject::invokeMethod(
                this,
                [this, next] {
                    if (!start(next)) m_pairRuns.clear();
                },
                Qt::QueuedConnection);
        }
    } else if (!m_pairRuns.isEmpty()) {
        if (outcome.status == RunStatus::Completed && outcome.runId) {
            m_pairRuns << outcome.runId;
            QMetaObject::invokeMethod(
                this, [this, runs = m_pairRuns] { emit bothProtocolsRan(runs); }, Qt::QueuedConnection);
        }
        m_pairRuns.clear();
    }
    if (outcome.cancelled) {
        emit message(tr("Run cancelled before the load started"), 6000);
        return;
    }
    if (outcome.probeFailed) {
        emit message(tr("The probe failed, no load was sent: %1").arg(outcome.error), 15'000);
        emit runAnywayAsked(m_run->setup(), outcome.error);
        return;
    }
    if (outcome.status == RunStatus::Failed && outcome.failedWhileRunning) {
        emit message(tr("The script stopped the run: %1").arg(outcome.error), 15'000);
        if (outcome.runId) setLastRunNote(tr("last run #%1 failed").arg(outcome.runId));
        return;
    }
    if (outcome.status == RunStatus::Failed) {
        emit message(tr("The run did not start: %1").arg(outcome.error), 15'000);
        if (outcome.runId) setLastRunNote(tr("last run #%1 failed").arg(outcome.runId));
        return;
    }
    if (outcome.runId)
        setLastRunNote(tr("last run #%1 stored %2 (%3, %4 req/s)")
                           .arg(outcome.runId)
                           .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")),
                               QString::fromUtf8(runStatusName(outcome.status)), formatCount(outcome.requestsPerS)));
    if (!outcome.storageWarning.isEmpty()) emit message(outcome.storageWarning, 15'000);
}

bool RunCoordinator::startWithoutProbe(RunSetup setup)
{
    if (isBusy() || !m_doc) return false;
    setup.sessionPath = m_doc->path();
    setup.probeFirst = false;
    if (!m_run->start(setup)) return false;
    emit message(tr("Running %1 without a probe…").arg(QString::fromStdString(setup.target.url)), 6000);
    return true;
}

} // namespace wb::ui
