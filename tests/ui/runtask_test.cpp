// RunTask against the built-in target server: the load runs on its own
// thread, the UI thread gets small interval values through the drained
// queue, the run is stored in the session as the CLI stores it, Stop is
// prompt, and a target that cannot be reached fails with a clear message.

#include "control/runtask.h"
#include "forms/formvalidation.h"
#include "models/runseries.h"
#include "pages/runheader.h"
#include "quicpeers.h"
#include "report/loadersaturation.h"
#include "serve/builtinserver.h"
#include "session/sessiondocument.h"
#include "session/sessionseed.h"
#include "testsupport.h"
#include "uitestsupport.h"

#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class RunTaskTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<SessionDocument> m_doc;

    RunSetup setup(const std::string& url, uint64_t durationMs, unsigned connections = 8)
    {
        Target t = makeTarget("target " + url, url);
        auto id = m_doc->addTarget(t);
        if (id)
            t.id = *id;
        else if (auto existing = m_doc->store().targets().byName(t.name); existing && *existing)
            t = **existing;
        RunSetup p;
        p.target = t;
        p.profile.name = "test";
        p.profile.load = defaultLoad();
        p.profile.load.connections = connections;
        p.profile.load.durationUs = durationMs * 1000;
        p.profile.load.intervalUs = 200'000;
        p.sessionPath = m_path;
        return p;
    }

private slots:
    void initTestCase()
    {
        m_path = m_dir.filePath(QStringLiteral("runs.wrkbench"));
        QString error;
        m_doc = SessionDocument::open(m_path, true, &error);
        QVERIFY2(m_doc, qPrintable(error));
    }
    void cleanupTestCase() { m_doc.reset(); }

    // A finished run whose loader had no CPU to spare: the run header says so in one line, with the
    // numbers the engine's report gives; an idle loader adds nothing.
    void aSaturatedLoaderIsOneLineInTheRunHeader()
    {
        RunResult result;
        result.durationS = 2;
        result.requests = 100;
        result.loaderCost.workerWallUs = 16'000'000;
        result.loaderCost.workerCpuUs = 3'900'000;
        result.loaderCost.workerWaitUs = 11'800'000;
        RunHeader header;
        header.show(); // the message line says nothing while hidden
        header.finish(outcomeOf(result));
        const QString expected = QStringLiteral("Warning: ") + QString::fromStdString(loaderSaturationWarning(result));
        QVERIFY2(header.messageText().contains(expected), qPrintable(header.messageText()));
        QVERIFY(expected.contains(QStringLiteral("the loader was saturated (workers 98% busy")));
        result.loaderCost.workerWaitUs = 0;
        RunHeader quiet;
        quiet.show();
        quiet.finish(outcomeOf(result));
        QVERIFY2(!quiet.messageText().contains(QStringLiteral("saturated")), qPrintable(quiet.messageText()));
    }

    // A run stopped after 1.2 s of 10: the bar says how far it came, not a time "left".
    void aRunThatEndedEarlySaysHowFarItCame()
    {
        RunHeader header;
        header.show();
        header.beginRun(QStringLiteral("t"), Qt::blue, QStringLiteral("-t1 -c1 -d10s"), 10);
        header.setElapsed(1.2);
        QVERIFY2(header.progressText().contains(QStringLiteral("left")), qPrintable(header.progressText()));
        RunResult result;
        result.durationS = 1.2;
        result.requests = 100;
        RunOutcome outcome = outcomeOf(result);
        outcome.status = RunStatus::Stopped;
        header.finish(outcome);
        QVERIFY2(!header.progressText().contains(QStringLiteral("left")), qPrintable(header.progressText()));
        QVERIFY2(header.progressText().endsWith(QStringLiteral("(ended early)")), qPrintable(header.progressText()));
        QCOMPARE(header.progressPercent(), 12);
        QCOMPARE(header.phaseText(), QStringLiteral("stopped after 1.2 s"));
    }

    /// A Stages profile from the GUI's form runs as the CLI runs the same --stages: for the
    /// stage total (not the form's duration, which stays 10 s), and a connection ramp opens
    /// its highest stage's connections (not the form's 2).
    void aStagesProfileRunsForItsStageTotalAndReachesItsHighestStage()
    {
        ProfileForm form;
        form.values[QStringLiteral("threads")] = QStringLiteral("1");
        form.values[QStringLiteral("connections")] = QStringLiteral("2");
        form.values[QStringLiteral("duration")] = QStringLiteral("10s");
        form.values[QStringLiteral("interval")] = QStringLiteral("250ms");
        form.mode = ProfileForm::Mode::Stages;
        form.values[QStringLiteral("stages")] = QStringLiteral("500ms:4c,1s:12c");
        RunSetup p = setup("http://builtin/", 10'000);
        QVERIFY(checkProfileForm(form, &p.profile.load).isEmpty());
        QCOMPARE(p.profile.load.durationUs, uint64_t(10'000'000)); // the form's, untouched
        RunTask session;
        QSignalSpy finished(&session, &RunTask::finished);
        QVERIFY(session.start(p));
        QCOMPARE(session.plannedS(), 1.5); // the header's length: the stage total
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        const auto outcome = finished[0][0].value<RunOutcome>();
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.status, RunStatus::Completed);
        // The measured time is the setup's 1.5 s (a little more on a busy machine, never 10 s).
        QVERIFY2(outcome.durationS >= 1.45 && outcome.durationS < 5, qPrintable(QString::number(outcome.durationS)));
        auto data = m_doc->store().runs().load(outcome.runId);
        QVERIFY(data.ok());
        QCOMPARE(data->run.config.durationUs, uint64_t(1'500'000)); // stored as it ran
        QCOMPARE(data->run.config.connections, 12u);
        QVERIFY(!data->intervals.empty());
        unsigned most = 0;
        for (const IntervalRecord& i : data->intervals)
            most = std::max(most, i.connections);
        QVERIFY2(most > 2, qPrintable(QString::number(most))); // beyond the form's connection count
        QVERIFY2(most >= 10, qPrintable(QString::number(most))); // near the last stage's 12 by the end
    }

    void runAgainstTheBuiltinServerIsStored()
    {
        RunTask session;
        QSignalSpy started(&session, &RunTask::started);
        QSignalSpy intervals(&session, &RunTask::intervalReceived);
        QSignalSpy finished(&session, &RunTask::finished);
        QVERIFY(session.start(setup("http://builtin/", 1000)));
        QCOMPARE(session.phase(), RunTask::Phase::Probing);
        QVERIFY(!session.start(setup("http://builtin/", 1000))); // one at a time
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
        QCOMPARE(started.count(), 1);
        QCOMPARE(session.phase(), RunTask::Phase::Idle);
        const auto outcome = finished[0][0].value<RunOutcome>();
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY2(outcome.storageWarning.isEmpty(), qPrintable(outcome.storageWarning));
        QCOMPARE(outcome.status, RunStatus::Completed);
        QVERIFY(outcome.requests > 10); // any machine clears this floor; the sums below need some
        QCOMPARE(outcome.errors, uint64_t(0));
        QVERIFY(outcome.p50Us > 0 && outcome.p99Us >= outcome.p50Us);

        // Five 200 ms intervals, each reduced to a few numbers, in order.
        QVERIFY2(intervals.count() >= 4 && intervals.count() <= 6, qPrintable(QString::number(intervals.count())));
        uint64_t sum = 0;
        double lastEnd = 0;
        for (const auto& args : intervals) {
            const auto live = args[0].value<LiveInterval>();
            QVERIFY(live.point.endS > lastEnd);
            lastEnd = live.point.endS;
            QVERIFY(live.point.requestsPerS > 0);
            QVERIFY(live.point.p99Ms >= live.point.p50Ms);
            sum += live.requests;
        }
        QCOMPARE(sum, outcome.requests);

        // Stored exactly like a CLI run: completed, with totals and intervals.
        QVERIFY(outcome.runId > 0);
        auto data = m_doc->store().runs().load(outcome.runId);
        QVERIFY2(data, data ? "" : data.error().c_str());
        QCOMPARE(data->run.status, RunStatus::Completed);
        QVERIFY(data->run.hasTotals);
        QCOMPARE(data->run.totals.requests, outcome.requests);
        QCOMPARE(data->intervals.size(), size_t(intervals.count()));
        QVERIFY(data->latency.has_value());
        QCOMPARE(data->run.profileName, std::string("test"));
        // One interval record, one reduction: the live points are the reopened run's points.
        const RunSeries reopened = runSeriesOf(*data, Qt::black);
        QCOMPARE(reopened.intervals.size(), intervals.count());
        for (int i = 0; i < intervals.count(); ++i) {
            const IntervalPoint live = intervals[i][0].value<LiveInterval>().point;
            const IntervalPoint& stored = reopened.intervals[i];
            QCOMPARE(live.endS, stored.endS);
            QCOMPARE(live.requestsPerS, stored.requestsPerS);
            QCOMPARE(live.p50Ms, stored.p50Ms);
            QCOMPARE(live.p90Ms, stored.p90Ms);
            QCOMPARE(live.p99Ms, stored.p99Ms);
            QCOMPARE(live.errorsPerS, stored.errorsPerS);
            QCOMPARE(live.non2xxPerS, stored.non2xxPerS);
        }
        // The document noticed the write (file watcher).
        QTRY_VERIFY_WITH_TIMEOUT(!m_doc->runs().empty() && m_doc->runs().back().id == outcome.runId, 15'000);
    }

    // A target the window set to HTTP/3 (the editor's protocol choice) loads caddy over QUIC: the
    // run is stored as h3 with its QUIC facts, and caddy logged every request the run counted.
    void anHttp3TargetLoadsCaddyOverQuic()
    {
        if (!test::Caddy::available()) {
            if (test::underCi()) QFAIL("caddy is not installed, and CI must test against it");
            QSKIP("caddy is not installed (packaging/install-deps.sh installs it)");
        }
        test::TempDir certDir;
        test::TestCertificates certs;
        QVERIFY(test::generateCertificates(certDir.path(), certs));
        test::Caddy caddy;
        QVERIFY2(caddy.start(certs), caddy.log().c_str());
        // caddy answers HTTP/3 only with SNI: localhost, not 127.0.0.1.
        RunSetup p = setup("https://localhost:" + std::to_string(caddy.port()) + "/", 1000, 3);
        p.target.httpVersion = HttpVersion::Http3;
        p.target.tls.caFile = certs.caCert;
        QVERIFY(m_doc->updateTarget(p.target).ok());
        const uint64_t before = caddy.http3Logged(200);
        RunTask session;
        QSignalSpy finished(&session, &RunTask::finished);
        QVERIFY(session.start(p));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        const auto outcome = finished[0][0].value<RunOutcome>();
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.status, RunStatus::Completed);
        QVERIFY(outcome.requests > 10);
        QCOMPARE(outcome.errors, uint64_t(0));
        auto data = m_doc->store().runs().load(outcome.runId);
        QVERIFY2(data, data ? "" : data.error().c_str());
        QCOMPARE(data->run.totals.protocol, std::string("h3"));
        QCOMPARE(data->run.config.httpVersion, HttpVersion::Http3);
        QCOMPARE(data->run.totals.quic.handshakes, uint64_t(3));
        // caddy logs a request once it has answered it: let the last answers land.
        QTest::qWait(300);
        const uint64_t logged = caddy.http3Logged(200) - before;
        // Beyond the counted ones: the window's reachability probe, and at most one request in flight per
        // connection when the run stopped.
        const uint64_t sent = data->run.totals.requests;
        QVERIFY2(
            logged >= sent && logged <= sent + 2 + 3, qPrintable(QString("caddy %1, run %2").arg(logged).arg(sent)));
    }

    void stopEndsTheRunPromptlyAndKeepsItAsStopped()
    {
        RunTask session;
        QSignalSpy finished(&session, &RunTask::finished);
        QSignalSpy intervals(&session, &RunTask::intervalReceived);
        QVERIFY(session.start(setup("http://builtin/delay/1", 30'000)));
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= 2, 30'000);
        QVERIFY(session.elapsedS() > 0.3 && session.elapsedS() < session.plannedS());
        const qsizetype intervalsAtStop = intervals.count();
        session.stop();
        QVERIFY(session.isStopping());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000); // a guard, past the 30 s run
        // Stopped, not run to its end: the outcome says so, its measured time and the
        // intervals stored are short of the 30 s (150 intervals of 200 ms), and none of
        // those received before the stop is lost.
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Stopped);
        QVERIFY(outcome.durationS < 15); // of 30 s
        auto record = m_doc->store().runs().record(outcome.runId);
        QVERIFY(record);
        QCOMPARE(record->status, RunStatus::Stopped);
        auto data = m_doc->store().runs().load(outcome.runId);
        QVERIFY(data.ok());
        QVERIFY(qsizetype(data->intervals.size()) >= intervalsAtStop);
        QVERIFY2(data->intervals.size() < 150, qPrintable(QString::number(data->intervals.size())));
    }

    void waitForFinishedDeliversTheOutcome()
    {
        RunTask session;
        QSignalSpy finished(&session, &RunTask::finished);
        QSignalSpy started(&session, &RunTask::started);
        QVERIFY(session.start(setup("http://builtin/", 60'000)));
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 30'000);
        session.stop();
        QVERIFY(session.waitForFinished(20'000)); // a third of the 60 s run: only a prompt stop is done by then
        QCOMPARE(finished.count(), 1);
        QVERIFY(!session.isActive());
    }

    void refusedConnectionFailsBeforeAnyLoad()
    {
        RunTask session;
        QSignalSpy started(&session, &RunTask::started);
        QSignalSpy finished(&session, &RunTask::finished);
        QVERIFY(session.start(setup("http://127.0.0.1:" + std::to_string(uitest::closedPort()) + "/", 1000)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
        QCOMPARE(started.count(), 0);
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Failed);
        QVERIFY2(outcome.error.contains(QStringLiteral("refused")), qPrintable(outcome.error));
        // Recorded as a failed run with the reason, as the CLI does.
        auto record = m_doc->store().runs().record(outcome.runId);
        QVERIFY(record);
        QCOMPARE(record->status, RunStatus::Failed);
        QCOMPARE(QString::fromStdString(record->error), outcome.error);
    }

    void tlsFailureIsReportedAsSuch()
    {
        auto port = ensureBuiltinServer();
        QVERIFY(port);
        RunTask session;
        QSignalSpy finished(&session, &RunTask::finished);
        // The built-in server speaks plain HTTP: the handshake fails.
        QVERIFY(session.start(setup("https://127.0.0.1:" + std::to_string(*port) + "/", 1000)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Failed);
        QVERIFY2(outcome.error.contains(QStringLiteral("TLS")), qPrintable(outcome.error));
    }

    void anotherProcessReadingDuringARunLosesNothing()
    {
        // wrkbench-cli reading the session while the GUI records a run: when the CLI closes
        // its connection, SQLite must still see the GUI's, or it checkpoints and deletes the
        // -wal file under the GUI's feet (and the rest of the run is lost).
        const QString cli = qEnvironmentVariable("WB_CLI");
        if (cli.isEmpty()) QSKIP("WB_CLI is not set (run through ctest)");
        RunTask session;
        QSignalSpy finished(&session, &RunTask::finished);
        QSignalSpy intervals(&session, &RunTask::intervalReceived);
        // Long enough that the readers below see it under way even where starting a process is slow.
        QVERIFY(session.start(setup("http://builtin/", 5000)));
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= 1, 30'000);
        for (int i = 0; i < 3 && finished.isEmpty(); ++i) {
            QProcess reader;
            reader.start(cli, { QStringLiteral("runs"), QStringLiteral("--db"), m_path, QStringLiteral("--csv") });
            QVERIFY(reader.waitForFinished(60'000));
            QCOMPARE(reader.exitCode(), 0);
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Completed);
        // What another process sees now: the finished run, with its totals.
        QProcess reader;
        reader.start(cli, { QStringLiteral("runs"), QStringLiteral("--db"), m_path, QStringLiteral("--csv") });
        QVERIFY(reader.waitForFinished(60'000));
        const QString csv = QString::fromUtf8(reader.readAllStandardOutput());
        const QString row = csv.split(QLatin1Char('\n'))
                                .filter(QRegularExpression(QStringLiteral("^%1,").arg(outcome.runId)))
                                .value(0);
        QVERIFY2(row.contains(QStringLiteral(",completed,")), qPrintable(csv));
    }

    void badUrlFailsWithTheFieldNamed()
    {
        RunTask session;
        QSignalSpy finished(&session, &RunTask::finished);
        RunSetup p = setup("http://builtin/", 1000);
        p.target.url = "gopher://x/";
        QVERIFY(session.start(p));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Failed);
        QVERIFY2(outcome.error.startsWith(QStringLiteral("URL: ")), qPrintable(outcome.error));
        QCOMPARE(outcome.runId, int64_t(0));
    }
};

WB_UI_TEST(RunTaskTest)
#include "runtask_test.moc"
