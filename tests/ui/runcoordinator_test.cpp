// RunCoordinator against the built-in target server, with a real session file:
// a finished run is put into the open SessionDocument on its own (one run read,
// no reload of the whole session, the history's model shows it at once), Stop
// keeps it as 'stopped', settle() asks and then waits for the stored run, one
// load at a time, a failed pre-run probe asks "Run anyway" (Cancel stores
// nothing, Run anyway stores the attempt), and runs that wrkbench-cli writes
// into the open session still appear through the file watcher.

#include "experiment/experimentplan.h"
#include "models/runstablemodel.h"
#include "pages/dialogs.h"
#include "run/builtinserver.h"
#include "run/experimenttask.h"
#include "run/runcoordinator.h"
#include "run/runsession.h"
#include "session/sessiondocument.h"
#include "session/sessionseed.h"
#include "session/sessionwatcher.h"
#include "uitestsupport.h"

#include <QAbstractButton>
#include <QMessageBox>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

LoadProfile shortProfile(uint64_t durationMs)
{
    LoadProfile p;
    p.id = -1; // a preset: stored by name only
    p.name = "short";
    p.load = defaultLoad();
    p.load.threads = 1;
    p.load.connections = 4;
    p.load.durationUs = durationMs * 1000;
    p.load.intervalUs = 200'000;
    return p;
}

const RunRecord* runIn(const std::vector<RunRecord>& runs, int64_t id)
{
    for (const RunRecord& r : runs)
        if (r.id == id) return &r;
    return nullptr;
}

QAbstractButton* buttonNamed(QMessageBox* box, const QString& text)
{
    for (QAbstractButton* b : box->buttons())
        if (b->text().remove(QLatin1Char('&')) == text) return b;
    return nullptr;
}

} // namespace

class RunCoordinatorTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QWidget m_window; ///< where the coordinator's questions are shown
    bool m_answer = true;
    QStringList m_questions;

    /// A new session with one target at url.
    std::unique_ptr<SessionDocument> openSession(const QString& file, const std::string& url, Target* target)
    {
        QString error;
        auto doc = SessionDocument::open(m_dir.filePath(file), true, &error);
        if (!doc) return {};
        Target t = makeTarget("target", url);
        auto id = doc->addTarget(t);
        if (!id) return {};
        t.id = *id;
        *target = t;
        return doc;
    }

private slots:
    void initTestCase()
    {
        setConfirmHandler([this](const QString& text) {
            m_questions << text;
            return m_answer;
        });
    }
    void init()
    {
        m_answer = true;
        m_questions.clear();
    }

    void aPresetOrAModifiedProfileIsStoredByNameOnly()
    {
        const Target t = makeTarget("t", "http://builtin/");
        LoadProfile stored = shortProfile(1000);
        stored.id = 7;
        QCOMPARE(RunCoordinator::planFor(t, stored, false).profile.id, int64_t(7));
        const RunPlan preset = RunCoordinator::planFor(t, shortProfile(1000), false);
        QCOMPARE(preset.profile.id, int64_t(0));
        QCOMPARE(preset.profile.name, std::string("short"));
        const RunPlan modified = RunCoordinator::planFor(t, stored, true);
        QCOMPARE(modified.profile.id, int64_t(0));
        QCOMPARE(modified.profile.name, std::string("short (modified)"));
        QCOMPARE(modified.target.url, t.url);
    }

    /// The run's own record, read alone, is in the document and its table model when
    /// finished() reaches anyone else; no reload of the whole session brought it.
    void aFinishedRunIsAddedToTheHistoryWithoutAReload()
    {
        Target target;
        auto doc = openSession(QStringLiteral("own.wrkbench"), "http://builtin/", &target);
        QVERIFY(doc);
        RunCoordinator coordinator(&m_window);
        coordinator.setDocument(doc.get());
        RunsTableModel model;
        model.setDocument(doc.get());
        // With the file watcher silenced, nothing but the coordinator can bring the run in.
        auto* watcher = doc->findChild<SessionWatcher*>();
        QVERIFY(watcher);
        watcher->blockSignals(true);
        QSignalSpy reloaded(doc.get(), &SessionDocument::runsChanged);
        QSignalSpy stored(doc.get(), &SessionDocument::runStored);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy notes(&coordinator, &RunCoordinator::lastRunNoteChanged);

        // What the history held when finished() arrived, seen from a slot connected after the coordinator.
        RunStatus statusAtFinish = RunStatus::Running;
        int rowsAtFinish = -1;
        QSignalSpy finished(coordinator.session(), &RunSession::finished);
        connect(coordinator.session(), &RunSession::finished, this, [&](const RunOutcome& outcome) {
            if (const RunRecord* r = runIn(doc->runs(), outcome.runId)) statusAtFinish = r->status;
            rowsAtFinish = model.rowCount();
        });
        QVERIFY(coordinator.start(RunCoordinator::planFor(target, shortProfile(800), false)));
        QVERIFY(coordinator.isRunActive());
        QVERIFY(finished.wait(30'000));
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Completed);
        QVERIFY(outcome.runId > 0);

        QCOMPARE(statusAtFinish, RunStatus::Completed);
        QCOMPARE(rowsAtFinish, 1);
        QCOMPARE(stored.count(), 1);
        QCOMPARE(stored[0][0].toLongLong(), outcome.runId);
        QCOMPARE(reloaded.count(), 0); // no whole reload emitted anything
        QCOMPARE(inserted.count(), 1); // one row inserted, not a reset
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.record(0).id, outcome.runId);
        QCOMPARE(model.record(0).status, RunStatus::Completed);
        QVERIFY(model.record(0).hasTotals);
        QCOMPARE(model.record(0).profileName, std::string("short"));
        QCOMPARE(model.record(0).profileId, int64_t(0));
        QVERIFY(!outcome.probeJson.isEmpty());
        QCOMPARE(QString::fromStdString(model.record(0).probeJson), outcome.probeJson);
        QVERIFY2(coordinator.lastRunNote().contains(QStringLiteral("last run #%1 stored").arg(outcome.runId)),
            qPrintable(coordinator.lastRunNote()));
        QCOMPARE(notes.count(), 1);

        // Exactly what a whole reload reads: a reload afterwards finds nothing to change.
        watcher->blockSignals(false);
        doc->reload();
        QCOMPARE(reloaded.count(), 0);
    }

    /// Runs of other processes still come in through the file watcher, next to this window's.
    void runsFromWrkbenchCliStillAppear()
    {
        const QString cli = qEnvironmentVariable("WB_CLI");
        if (cli.isEmpty()) QSKIP("WB_CLI is not set (run through ctest)");
        Target target;
        auto doc = openSession(QStringLiteral("shared.wrkbench"), "http://builtin/", &target);
        QVERIFY(doc);
        RunCoordinator coordinator(&m_window);
        coordinator.setDocument(doc.get());
        RunsTableModel model;
        model.setDocument(doc.get());
        QSignalSpy finished(coordinator.session(), &RunSession::finished);
        QVERIFY(coordinator.start(RunCoordinator::planFor(target, shortProfile(500), false)));
        QVERIFY(finished.wait(30'000));
        QCOMPARE(model.rowCount(), 1);

        auto port = ensureBuiltinServer();
        QVERIFY(port);
        QProcess process;
        process.start(cli,
            { QStringLiteral("run"), QStringLiteral("-t1"), QStringLiteral("-c2"), QStringLiteral("-d500ms"),
                QStringLiteral("--db"), doc->path(), QStringLiteral("--target"), QStringLiteral("from the CLI"),
                QStringLiteral("http://127.0.0.1:%1/").arg(*port) });
        QVERIFY(process.waitForFinished(60'000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, 15'000);
        QTRY_COMPARE_WITH_TIMEOUT(model.record(1).status, RunStatus::Completed, 15'000);
        QCOMPARE(model.record(1).targetName, std::string("from the CLI"));
        QCOMPARE(model.record(0).id, finished[0][0].value<RunOutcome>().runId);
    }

    void stopKeepsTheRunAsStoppedAndOneLoadRunsAtATime()
    {
        Target target;
        auto doc = openSession(QStringLiteral("stop.wrkbench"), "http://builtin/", &target);
        QVERIFY(doc);
        RunCoordinator coordinator(&m_window);
        QVERIFY(!coordinator.start(RunCoordinator::planFor(target, shortProfile(30'000), false))); // no session
        coordinator.setDocument(doc.get());
        QSignalSpy busy(&coordinator, &RunCoordinator::busyChanged);
        QSignalSpy runTarget(&coordinator, &RunCoordinator::runTargetChanged);
        QSignalSpy live(&coordinator, &RunCoordinator::liveViewWanted);
        QSignalSpy started(coordinator.session(), &RunSession::started);
        QSignalSpy finished(coordinator.session(), &RunSession::finished);
        QVERIFY(coordinator.start(RunCoordinator::planFor(target, shortProfile(30'000), false)));
        QCOMPARE(live.count(), 1);
        QVERIFY(coordinator.isBusy());
        QVERIFY(coordinator.canStop());
        QCOMPARE(runTarget.last()[0].toLongLong(), target.id); // not deletable while it runs
        QVERIFY(!coordinator.start(RunCoordinator::planFor(target, shortProfile(1000), false))); // one at a time
        QVERIFY(started.wait(15'000));

        const qsizetype busyBefore = busy.count();
        coordinator.stop();
        QVERIFY(busy.count() > busyBefore); // Stop disables itself at once
        QVERIFY(!coordinator.canStop());
        QVERIFY(coordinator.isBusy()); // until the run has ended
        QVERIFY(finished.wait(15'000));
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Stopped);
        QVERIFY(!coordinator.isBusy());
        QCOMPARE(runTarget.last()[0].toLongLong(), qint64(0));
        const RunRecord* r = runIn(doc->runs(), outcome.runId);
        QVERIFY(r);
        QCOMPARE(r->status, RunStatus::Stopped);
    }

    void settleAsksFirstThenWaitsForTheStoredRun()
    {
        Target target;
        auto doc = openSession(QStringLiteral("settle.wrkbench"), "http://builtin/", &target);
        QVERIFY(doc);
        RunCoordinator coordinator(&m_window);
        coordinator.setDocument(doc.get());
        QVERIFY(coordinator.settle(QStringLiteral("close wrkbench"))); // nothing going: nothing asked
        QVERIFY(m_questions.isEmpty());
        QSignalSpy started(coordinator.session(), &RunSession::started);
        QSignalSpy finished(coordinator.session(), &RunSession::finished);
        QVERIFY(coordinator.start(RunCoordinator::planFor(target, shortProfile(30'000), false)));
        QVERIFY(started.wait(15'000));

        m_answer = false; // "keep running"
        QVERIFY(!coordinator.settle(QStringLiteral("close wrkbench")));
        QCOMPARE(m_questions.size(), 1);
        QVERIFY2(m_questions[0].contains(QStringLiteral("A run is in progress. Stop it to close wrkbench?")),
            qPrintable(m_questions[0]));
        QVERIFY(coordinator.isRunActive());
        QCOMPARE(finished.count(), 0);

        m_answer = true; // "Stop the run": settled when settle() returns, the run in the document
        QVERIFY(coordinator.settle(QStringLiteral("save the session under a new name")));
        QCOMPARE(finished.count(), 1);
        QVERIFY(!coordinator.isBusy());
        const auto outcome = finished[0][0].value<RunOutcome>();
        const RunRecord* r = runIn(doc->runs(), outcome.runId);
        QVERIFY(r);
        QCOMPARE(r->status, RunStatus::Stopped);
    }

    void anExperimentMakesTheCoordinatorBusy()
    {
        Target target;
        auto doc = openSession(QStringLiteral("experiment.wrkbench"), "http://builtin/", &target);
        QVERIFY(doc);
        RunCoordinator coordinator(&m_window);
        coordinator.setDocument(doc.get());
        ExperimentTask task;
        coordinator.setExperimentTask(&task);
        auto port = ensureBuiltinServer(); // an experiment's targets are real URLs
        QVERIFY(port);
        const std::string base = "http://127.0.0.1:" + std::to_string(*port);
        auto plan = parseExperimentPlan("{\"targets\": [{\"name\": \"A\", \"url\": \"" + base
            + "/\"}, {\"name\": \"B\", \"url\": \"" + base
            + "/delay/1\"}], \"load\": {\"threads\": 1, \"connections\": 2}, \"repetitions\": 3, \"duration\": "
              "\"2s\"}");
        QVERIFY2(plan, plan ? "" : plan.error().c_str());
        auto id = doc->store().addExperiment("busy", experimentPlanToJson(*plan));
        QVERIFY2(id, id ? "" : id.error().c_str());
        // The Experiments page stops it when asked; here the test does.
        connect(&coordinator, &RunCoordinator::experimentStopRequested, &task, &ExperimentTask::stop);
        QSignalSpy stopAsked(&coordinator, &RunCoordinator::experimentStopRequested);
        QSignalSpy finished(&task, &ExperimentTask::finished);
        QVERIFY(task.start(doc->path(), *id, *plan));
        QVERIFY(coordinator.isBusy());
        QVERIFY(coordinator.canStop());
        QVERIFY(!coordinator.isRunActive());
        QVERIFY(!coordinator.start(RunCoordinator::planFor(target, shortProfile(1000), false)));

        m_answer = false;
        QVERIFY(!coordinator.settle(QStringLiteral("open another session")));
        QVERIFY2(m_questions.value(0).contains(QStringLiteral("An experiment is running")), qPrintable(m_questions.value(0)));
        QCOMPARE(stopAsked.count(), 0);
        m_answer = true;
        QVERIFY(coordinator.settle(QStringLiteral("open another session")));
        QCOMPARE(stopAsked.count(), 1);
        QCOMPARE(finished.count(), 1);
        QVERIFY(!coordinator.isBusy());
    }

    /// Cancel stores nothing; "Run anyway" runs without the probe and stores the attempt,
    /// which the document gets on its own as well.
    void aFailedProbeAsksToRunAnyway()
    {
        Target target;
        const uint16_t port = closedPort();
        auto doc = openSession(QStringLiteral("refused.wrkbench"), "http://127.0.0.1:" + std::to_string(port) + "/", &target);
        QVERIFY(doc);
        m_window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&m_window));
        RunCoordinator coordinator(&m_window);
        coordinator.setDocument(doc.get());
        QSignalSpy finished(coordinator.session(), &RunSession::finished);
        QSignalSpy stored(doc.get(), &SessionDocument::runStored);
        QSignalSpy messages(&coordinator, &RunCoordinator::message);

        QVERIFY(coordinator.start(RunCoordinator::planFor(target, shortProfile(1000), false)));
        QVERIFY(finished.wait(15'000));
        QVERIFY(finished[0][0].value<RunOutcome>().probeFailed);
        QMessageBox* box = coordinator.runAnywayBox();
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("connection refused by 127.0.0.1:%1").arg(port)),
            qPrintable(box->text()));
        QVERIFY(!coordinator.isBusy()); // the question does not hold the run
        buttonNamed(box, QStringLiteral("Cancel"))->click();
        QTRY_VERIFY(!coordinator.runAnywayBox());
        QVERIFY(messages.last()[0].toString().contains(QStringLiteral("Run cancelled")));
        QCOMPARE(stored.count(), 0);
        QVERIFY(doc->runs().empty());

        QVERIFY(coordinator.start(RunCoordinator::planFor(target, shortProfile(1000), false)));
        QVERIFY(finished.wait(15'000));
        box = coordinator.runAnywayBox();
        QVERIFY(box);
        buttonNamed(box, QStringLiteral("Run anyway"))->click();
        QVERIFY(coordinator.isRunActive());
        QVERIFY(!coordinator.session()->plan().probeFirst);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 15'000);
        const auto ran = finished[2][0].value<RunOutcome>();
        QVERIFY(ran.runId > 0);
        QCOMPARE(stored.count(), 1);
        const RunRecord* r = runIn(doc->runs(), ran.runId);
        QVERIFY(r);
        QVERIFY2(r->status == RunStatus::Failed || r->totals.errors.total() > 0,
            qPrintable(QString::fromUtf8(runStatusName(r->status))));
        m_window.hide();
    }
};

WB_UI_TEST_MAIN(RunCoordinatorTest)
#include "runcoordinator_test.moc"
