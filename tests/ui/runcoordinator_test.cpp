// RunCoordinator against the built-in target server, with a real session file:
// a finished run is put into the open SessionDocument on its own (one run read,
// no reload of the whole session, the history's model shows it at once), Stop
// keeps it as 'stopped', stopAndWait() returns with the stopped run stored, one
// load at a time, a failed pre-run probe stores nothing and asks the window
// whether to run anyway (which then stores the attempt), and runs that
// wrkbench-cli writes into the open session still appear through the file watcher.
// The questions themselves are the window's (mainwindow_test, experiment_test).

#include "control/experimenttask.h"
#include "control/runcoordinator.h"
#include "control/runtask.h"
#include "experiment/experimentplan.h"
#include "models/runstablemodel.h"
#include "serve/builtinserver.h"
#include "session/sessiondocument.h"
#include "session/sessionseed.h"
#include "session/sessionwatcher.h"
#include "uitestsupport.h"

#include <QAbstractItemModelTester>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

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

} // namespace

class RunCoordinatorTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    /// A new session with one target, a coordinator recording into it and the history's model.
    struct Rig
    {
        std::unique_ptr<SessionDocument> doc;
        Target target;
        std::unique_ptr<RunCoordinator> coordinator; ///< after doc: goes first
        RunsTableModel model;

        RunSetup setup(uint64_t durationMs) const
        {
            return RunCoordinator::setupFor(target, shortProfile(durationMs), false);
        }
    };
    std::unique_ptr<Rig> rig(const QString& file, const std::string& url = "http://builtin/")
    {
        auto r = std::make_unique<Rig>();
        QString error;
        r->doc = SessionDocument::open(m_dir.filePath(file), true, &error);
        if (!r->doc) return {};
        r->target = makeTarget("target", url);
        auto id = r->doc->addTarget(r->target);
        if (!id) return {};
        r->target.id = *id;
        r->coordinator = std::make_unique<RunCoordinator>();
        r->coordinator->setDocument(r->doc.get());
        r->model.setDocument(r->doc.get());
        return r;
    }

private slots:
    void aPresetOrAModifiedProfileIsStoredByNameOnly()
    {
        const Target t = makeTarget("t", "http://builtin/");
        LoadProfile stored = shortProfile(1000);
        stored.id = 7;
        QCOMPARE(RunCoordinator::setupFor(t, stored, false).profile.id, int64_t(7));
        const RunSetup preset = RunCoordinator::setupFor(t, shortProfile(1000), false);
        QCOMPARE(preset.profile.id, int64_t(0));
        QCOMPARE(preset.profile.name, std::string("short"));
        const RunSetup modified = RunCoordinator::setupFor(t, stored, true);
        QCOMPARE(modified.profile.id, int64_t(0));
        QCOMPARE(modified.profile.name, std::string("short (modified)"));
        QCOMPARE(modified.target.url, t.url);
    }

    /// The run's own record, read alone, is in the document and its table model when
    /// finished() reaches anyone else; no reload of the whole session brought it.
    void aFinishedRunIsAddedToTheHistoryWithoutAReload()
    {
        auto r = rig(QStringLiteral("own.wrkbench"));
        QVERIFY(r);
        SessionDocument* doc = r->doc.get();
        RunCoordinator& coordinator = *r->coordinator;
        RunsTableModel& model = r->model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // With the file watcher silenced, nothing but the coordinator can bring the run in.
        auto* watcher = doc->findChild<SessionWatcher*>();
        QVERIFY(watcher);
        watcher->blockSignals(true);
        QSignalSpy reloaded(doc, &SessionDocument::runsChanged);
        QSignalSpy stored(doc, &SessionDocument::runStored);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy notes(&coordinator, &RunCoordinator::lastRunNoteChanged);

        // What the history held when finished() arrived, seen from a slot connected after the coordinator.
        RunStatus statusAtFinish = RunStatus::Running;
        int rowsAtFinish = -1;
        QSignalSpy finished(coordinator.task(), &RunTask::finished);
        connect(coordinator.task(), &RunTask::finished, this, [&](const RunOutcome& outcome) {
            if (const RunRecord* record = runIn(doc->runs(), outcome.runId)) statusAtFinish = record->status;
            rowsAtFinish = model.rowCount();
        });
        QVERIFY(coordinator.start(r->setup(800)));
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
        auto r = rig(QStringLiteral("shared.wrkbench"));
        QVERIFY(r);
        SessionDocument* doc = r->doc.get();
        RunCoordinator& coordinator = *r->coordinator;
        RunsTableModel& model = r->model;
        QSignalSpy finished(coordinator.task(), &RunTask::finished);
        QVERIFY(coordinator.start(r->setup(500)));
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
        auto r = rig(QStringLiteral("stop.wrkbench"));
        QVERIFY(r);
        SessionDocument* doc = r->doc.get();
        RunCoordinator& coordinator = *r->coordinator;
        coordinator.setDocument(nullptr);
        QVERIFY(!coordinator.start(r->setup(30'000))); // no session
        coordinator.setDocument(doc);
        QSignalSpy busy(&coordinator, &RunCoordinator::busyChanged);
        QSignalSpy runTarget(&coordinator, &RunCoordinator::runTargetChanged);
        QSignalSpy live(&coordinator, &RunCoordinator::liveViewWanted);
        QSignalSpy started(coordinator.task(), &RunTask::started);
        QSignalSpy finished(coordinator.task(), &RunTask::finished);
        QVERIFY(coordinator.start(r->setup(30'000)));
        QCOMPARE(live.count(), 1);
        QVERIFY(coordinator.isBusy());
        QVERIFY(coordinator.canStop());
        QCOMPARE(runTarget.last()[0].toLongLong(), r->target.id); // not deletable while it runs
        QVERIFY(!coordinator.start(r->setup(1000))); // one at a time
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
        const RunRecord* record = runIn(doc->runs(), outcome.runId);
        QVERIFY(record);
        QCOMPARE(record->status, RunStatus::Stopped);
    }

    void stopAndWaitReturnsWithTheStoppedRunInTheDocument()
    {
        auto r = rig(QStringLiteral("settle.wrkbench"));
        QVERIFY(r);
        SessionDocument* doc = r->doc.get();
        RunCoordinator& coordinator = *r->coordinator;
        QVERIFY(coordinator.stopAndWait()); // nothing going
        QVERIFY(!coordinator.isLoadRunning());
        QSignalSpy started(coordinator.task(), &RunTask::started);
        QSignalSpy finished(coordinator.task(), &RunTask::finished);
        QVERIFY(coordinator.start(r->setup(30'000)));
        QVERIFY(started.wait(15'000));
        QVERIFY(coordinator.isLoadRunning());

        QVERIFY(coordinator.stopAndWait()); // settled when it returns, the run in the document
        QCOMPARE(finished.count(), 1);
        QVERIFY(!coordinator.isBusy());
        const auto outcome = finished[0][0].value<RunOutcome>();
        const RunRecord* record = runIn(doc->runs(), outcome.runId);
        QVERIFY(record);
        QCOMPARE(record->status, RunStatus::Stopped);
    }

    void anExperimentMakesTheCoordinatorBusy()
    {
        auto r = rig(QStringLiteral("experiment.wrkbench"));
        QVERIFY(r);
        SessionDocument* doc = r->doc.get();
        RunCoordinator& coordinator = *r->coordinator;
        ExperimentTask task;
        coordinator.setExperimentTask(&task);
        auto port = ensureBuiltinServer(); // an experiment's targets are real URLs
        QVERIFY(port);
        const std::string base = "http://127.0.0.1:" + std::to_string(*port);
        auto setup = parseExperimentPlan("{\"targets\": [{\"name\": \"A\", \"url\": \"" + base
            + "/\"}, {\"name\": \"B\", \"url\": \"" + base
            + "/delay/1\"}], \"load\": {\"threads\": 1, \"connections\": 2}, \"repetitions\": 3, \"duration\": "
              "\"2s\"}");
        QVERIFY2(setup, setup ? "" : setup.error().c_str());
        auto id = doc->store().experiments().add("busy", experimentPlanToJson(*setup));
        QVERIFY2(id, id ? "" : id.error().c_str());
        // The Experiments page stops it when asked; here the test does.
        connect(&coordinator, &RunCoordinator::experimentStopRequested, &task, &ExperimentTask::stop);
        QSignalSpy stopAsked(&coordinator, &RunCoordinator::experimentStopRequested);
        QSignalSpy finished(&task, &ExperimentTask::finished);
        QVERIFY(task.start(doc->path(), *id, *setup));
        QVERIFY(coordinator.isBusy());
        QVERIFY(coordinator.canStop());
        QVERIFY(!coordinator.isRunActive());
        QVERIFY(!coordinator.start(r->setup(1000)));

        QVERIFY(coordinator.isExperimentRunning());
        QVERIFY(!coordinator.isLoadRunning());
        QCOMPARE(stopAsked.count(), 0);
        QVERIFY(coordinator.stopAndWait());
        QCOMPARE(stopAsked.count(), 1);
        QCOMPARE(finished.count(), 1);
        QVERIFY(!coordinator.isBusy());
    }

    /// A failed probe stores nothing and asks the window; the answer "Run anyway" runs without the probe and stores
    /// the attempt, which the document gets on its own as well.
    void aFailedProbeAsksWhetherToRunAnyway()
    {
        const uint16_t port = closedPort();
        auto r = rig(QStringLiteral("refused.wrkbench"), "http://127.0.0.1:" + std::to_string(port) + "/");
        QVERIFY(r);
        RunCoordinator& coordinator = *r->coordinator;
        SessionDocument* doc = r->doc.get();
        QSignalSpy finished(coordinator.task(), &RunTask::finished);
        QSignalSpy stored(doc, &SessionDocument::runStored);
        QSignalSpy asked(&coordinator, &RunCoordinator::runAnywayAsked);

        QVERIFY(coordinator.start(r->setup(1000)));
        QVERIFY(finished.wait(15'000));
        QVERIFY(finished[0][0].value<RunOutcome>().probeFailed);
        QCOMPARE(asked.count(), 1);
        const QString error = asked[0][1].toString();
        QVERIFY2(error.contains(QStringLiteral("connection refused by 127.0.0.1:%1").arg(port)), qPrintable(error));
        QVERIFY(!coordinator.isBusy()); // the question does not hold the run
        QCOMPARE(stored.count(), 0);
        QVERIFY(doc->runs().empty());

        const RunSetup setup = asked[0][0].value<RunSetup>();
        QVERIFY(setup.probeFirst);
        QVERIFY(coordinator.startWithoutProbe(setup));
        QVERIFY(coordinator.isRunActive());
        QVERIFY(!coordinator.task()->setup().probeFirst);
        QVERIFY(!coordinator.startWithoutProbe(setup)); // one load at a time
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 15'000);
        QCOMPARE(asked.count(), 1); // no probe, no question
        const auto ran = finished[1][0].value<RunOutcome>();
        QVERIFY(ran.runId > 0);
        QCOMPARE(stored.count(), 1);
        const RunRecord* record = runIn(doc->runs(), ran.runId);
        QVERIFY(record);
        QVERIFY2(record->status == RunStatus::Failed
                || (record->totals.errors.transportErrors() + record->totals.non2xx) > 0,
            qPrintable(QString::fromUtf8(runStatusName(record->status))));
    }
};

WB_UI_TEST(RunCoordinatorTest)
#include "runcoordinator_test.moc"
