// The main window driven like a user: first start with the demo targets,
// add and edit a target (bad input disables Run), run against the built-in
// server with the keyboard, find the runs in the history, compare two of
// them, export charts and tables, stop with Esc, close during a run, open a
// file that is not a session, and see a run written by wrkbench-cli appear.

#include "charts/comparecharts.h"
#include "charts/livecharts.h"
#include "charts/timeplot.h"
#include "control/runtask.h"
#include "mainwindow.h"
#include "models/comparemodel.h"
#include "models/runsfiltermodel.h"
#include "models/runstablemodel.h"
#include "models/targetlistmodel.h"
#include "pages/comparepage.h"
#include "pages/dialogs.h"
#include "pages/fieldstate.h"
#include "pages/livepage.h"
#include "pages/loaderstrip.h"
#include "pages/profileeditor.h"
#include "pages/runbadge.h"
#include "pages/rundetailpage.h"
#include "pages/runheader.h"
#include "pages/runspage.h"
#include "pages/slobadges.h"
#include "pages/tagedit.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "serve/builtinserver.h"
#include "session/sessiondocument.h"
#include "session/sessionpaths.h"
#include "session/sessionwatcher.h"
#include "text/format.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImageReader>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <ctime>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class MainWindowTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QStringList m_errors;

    static void setDuration(MainWindow& w, const QString& duration, const QString& connections = QStringLiteral("20"))
    {
        typeInto(profileEditor(w)->field(QStringLiteral("duration")), duration);
        typeInto(profileEditor(w)->field(QStringLiteral("connections")), connections);
        QVERIFY(profileEditor(w)->isValid());
    }
    static bool showAndActivate(MainWindow& w)
    {
        w.show();
        QApplication::setActiveWindow(&w);
        return QTest::qWaitForWindowActive(&w);
    }
    /// Presses F5 and waits for the run to end; returns its outcome.
    static RunOutcome runWithF5(MainWindow& w, int timeoutMs = 20'000)
    {
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QTest::keyClick(&w, Qt::Key_F5);
        if (!runTask(w)->isActive()) return {};
        if (!finished.wait(timeoutMs) && finished.isEmpty()) return {};
        return finished.takeFirst()[0].value<RunOutcome>();
    }
    static const RunRecord* runById(MainWindow& w, int64_t id)
    {
        for (const RunRecord& r : w.document()->runs())
            if (r.id == id) return &r;
        return nullptr;
    }

    /// Points drawn (or due to be drawn) on the live req/s line.
    static int liveRpsPoints(MainWindow& w)
    {
        const TimePlot* plot = livePage(w)->charts()->plot(QStringLiteral("rpsPlot"));
        return plot ? static_cast<int>(plot->line(plot->lineIndex(QStringLiteral("rps"))).points.size()) : -1;
    }
    /// Times the live req/s plot painted anything into its pixmap (a whole repaint or new segments).
    static int liveRpsPaints(MainWindow& w)
    {
        const TimePlot* plot = livePage(w)->charts()->plot(QStringLiteral("rpsPlot"));
        return plot->fullRepaintCount() + plot->segmentRepaintCount();
    }

private slots:
    void initTestCase()
    {
        setConfirmHandler([](const QString&) { return true; });
        setErrorHandler([this](const QString& text) { m_errors << text; });
    }
    void init() { m_errors.clear(); }

    void firstStartOffersDemoTargetsThatRunOffline()
    {
        MainWindow w;
        QVERIFY(w.openStartupSession({}));
        QCOMPARE(w.document()->path(), QFileInfo(defaultSessionPath()).absoluteFilePath());
        QVERIFY(w.document()->targets().size() >= 3);
        // The first target is selected and Run works with the default profile: 2 threads, 50 connections, 10 s.
        QCOMPARE(targetsPanel(w)->findChild<QListView*>(QStringLiteral("list"))->currentIndex().data().toString(),
            QStringLiteral("Demo: fast"));
        const RunConfig load = profileEditor(w)->currentProfile().load;
        QCOMPARE(load.threads, 2u);
        QCOMPARE(load.connections, 50u);
        QCOMPARE(load.durationUs, uint64_t(10'000'000));
        QVERIFY(runAction(w)->isEnabled());
        QVERIFY(!stopAction(w)->isEnabled());
        QVERIFY(runAction(w)->shortcuts().contains(QKeySequence(Qt::Key_F5)));
        QVERIFY(runAction(w)->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_R)));
        QCOMPARE(stopAction(w)->shortcut(), QKeySequence(Qt::Key_Escape));
        for (const Target& t : w.document()->targets())
            QVERIFY(QString::fromStdString(t.url).startsWith(QStringLiteral("http://builtin/")));
    }

    /// HTTP/2 end to end: the target editor's Protocol field is stored, F5 runs the target
    /// over h2c on the built-in server, the run says so; "Run over HTTP/1.1 and HTTP/2"
    /// makes the pair and opens Compare with both, the protocol on its own row.
    // The profile's SLOs on the Live tab: a pending badge each while the run goes (a verdict
    // needs the whole run), then pass or fail from the run's own verdicts, stored with it.
    void liveHeaderShowsPendingThenVerdictBadges()
    {
        MainWindow w;
        QVERIFY(w.openStartupSession(m_dir.filePath(QStringLiteral("slo-live.wrkbench"))));
        QVERIFY(showAndActivate(w));
        const int64_t id = targetsPanel(w)->addTarget();
        QVERIFY(id > 0);
        TargetEditor* editor = targetsPanel(w)->editor();
        typeInto(editor->nameEdit(), QStringLiteral("judged"));
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QStringLiteral("http://builtin/"));
        QVERIFY(editor->commit());
        setDuration(w, QStringLiteral("1s"), QStringLiteral("4"));
        typeInto(profileEditor(w)->field(QStringLiteral("slo")), QStringLiteral("p99<60s, p99<1us"));
        QVERIFY2(profileEditor(w)->isValid(),
            qPrintable(profileEditor(w)->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));

        QStringList whileRunning;
        const auto connection = connect(runTask(w), &RunTask::started, this, [&] {
            whileRunning = livePage(w)->header()->findChild<SloBadges*>(QStringLiteral("sloBadges"))->badgeTexts();
        });
        const RunOutcome outcome = runWithF5(w);
        disconnect(connection);
        QCOMPARE(outcome.status, RunStatus::Completed);
        QCOMPARE(
            whileRunning, (QStringList { QStringLiteral("p99<60s · pending"), QStringLiteral("p99<1us · pending") }));
        QCOMPARE(outcome.slo.size(), size_t(2));
        QVERIFY(outcome.sloAbortedBy.isEmpty());
        const QStringList badges
            = livePage(w)->header()->findChild<SloBadges*>(QStringLiteral("sloBadges"))->badgeTexts();
        QCOMPARE(badges.size(), 2);
        QVERIFY2(badges[0].startsWith(QStringLiteral("✓ p99<60s  ")), qPrintable(badges[0]));
        QVERIFY2(badges[1].startsWith(QStringLiteral("✗ p99<1us  ")), qPrintable(badges[1]));
        QCOMPARE(livePage(w)->header()->phaseText(), QStringLiteral("completed"));
        const RunRecord* r = runById(w, outcome.runId);
        QVERIFY(r);
        QCOMPARE(r->totals.slo.size(), size_t(2));
        QVERIFY(r->totals.slo[0].ok && !r->totals.slo[1].ok);

        // "Abort when an error budget is spent": every answer a 404 spends a 1 % non-2xx budget;
        // after the engine's 5 s of measurement the run stops, and the header says why.
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QStringLiteral("http://builtin/status/404"));
        QVERIFY(editor->commit());
        setDuration(w, QStringLiteral("60s"), QStringLiteral("4"));
        typeInto(profileEditor(w)->field(QStringLiteral("slo")), QStringLiteral("non2xx<1%"));
        profileEditor(w)->findChild<QCheckBox*>(QStringLiteral("sloAbortBox"))->click();
        QVERIFY2(profileEditor(w)->isValid(),
            qPrintable(profileEditor(w)->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
        const RunOutcome aborted = runWithF5(w, 40'000);
        QCOMPARE(aborted.status, RunStatus::Stopped);
        QCOMPARE(aborted.sloAbortedBy, QStringLiteral("non2xx<1%"));
        QVERIFY2(livePage(w)->header()->phaseText().startsWith(QStringLiteral("stopped by SLO non2xx<1% after ")),
            qPrintable(livePage(w)->header()->phaseText()));
        QVERIFY2(
            livePage(w)->header()->messageText().contains(QStringLiteral("the error budget of non2xx<1% was spent")),
            qPrintable(livePage(w)->header()->messageText()));
        QCOMPARE(livePage(w)->header()->findChild<SloBadges*>(QStringLiteral("sloBadges"))->badgeTexts(),
            QStringList { QStringLiteral("✗ non2xx<1%  100.00 %") });
    }

    void protocolFieldRunsHttp2AndBothProtocolsCompare()
    {
        const QString path = m_dir.filePath(QStringLiteral("http2.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        QVERIFY(showAndActivate(w));
        const int64_t id = targetsPanel(w)->addTarget();
        QVERIFY(id > 0);
        TargetEditor* editor = targetsPanel(w)->editor();
        typeInto(editor->nameEdit(), QStringLiteral("front door"));
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QStringLiteral("http://builtin/"));
        QCOMPARE(
            editor->findChild<QComboBox*>(QStringLiteral("protocolBox"))->currentIndex(), 0); // HTTP/1.1 unless chosen
        editor->findChild<QComboBox*>(QStringLiteral("protocolBox"))->setCurrentIndex(1);
        QVERIFY(editor->commit());
        QCOMPARE(w.document()->targetById(id)->httpVersion, HttpVersion::Http2);
        setDuration(w, QStringLiteral("1s"), QStringLiteral("4"));
        typeInto(profileEditor(w)->field(QStringLiteral("threads")), QStringLiteral("1"));
        typeInto(profileEditor(w)->field(QStringLiteral("streams")), QStringLiteral("4"));
        QVERIFY2(profileEditor(w)->isValid(),
            qPrintable(profileEditor(w)->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));

        const RunOutcome h2 = runWithF5(w);
        QCOMPARE(h2.status, RunStatus::Completed);
        const RunRecord* r = runById(w, h2.runId);
        QVERIFY(r);
        QCOMPARE(r->totals.protocol, std::string("h2c"));
        QCOMPARE(r->config.streams, 4u);
        QVERIFY(r->totals.requests > 0);
        QCOMPARE((r->totals.errors.transportErrors() + r->totals.non2xx), uint64_t(0));

        // One click: the pair, then Compare.
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QVERIFY(w.runBothProtocols());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30'000);
        QTRY_COMPARE_WITH_TIMEOUT(tabs(w)->currentWidget(), static_cast<QWidget*>(comparePage(w)), 10'000);
        CompareModel* compare = comparePage(w)->model();
        QCOMPARE(compare->runs().size(), size_t(2));
        QCOMPARE(compare->runs()[0].totals.protocol, std::string("http/1.1"));
        QCOMPARE(compare->runs()[1].totals.protocol, std::string("h2c"));
        QCOMPARE(compare->runs()[0].config.streams, 1u); // the profile's streams apply to HTTP/2 only
        QCOMPARE(compare->runs()[1].config.streams, 4u);
        const int row = compare->rowOfMetric(QStringLiteral("protocol"));
        QVERIFY(row >= 0);
        QCOMPARE(compare->index(row, CompareModel::valueColumn(0)).data().toString(), QStringLiteral("HTTP/1.1"));
        QVERIFY(compare->index(row, CompareModel::valueColumn(1))
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("HTTP/2 (h2c), 4 streams")));
    }

    void addTargetRunCompareAndExport()
    {
        const QString path = m_dir.filePath(QStringLiteral("workflow.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        QCOMPARE(w.document()->path(), path);
        QVERIFY(w.document()->targets().empty());
        QVERIFY(!runAction(w)->isEnabled()); // nothing to run yet
        QVERIFY(showAndActivate(w));

        // Add a target with the keyboard (Ctrl+T) and fill it in.
        QTest::keyClick(&w, Qt::Key_T, Qt::ControlModifier);
        QCOMPARE(w.document()->targets().size(), size_t(1));
        TargetEditor* editor = targetsPanel(w)->editor();
        typeInto(editor->nameEdit(), QStringLiteral("NodePort ingress"));
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QStringLiteral("htp://builtin/delay/1"));
        QVERIFY(!editor->isValid());
        QVERIFY(fieldProblem(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit"))).contains(QStringLiteral("htp")));
        QVERIFY(!runAction(w)->isEnabled()); // bad input: Run stays disabled
        QTest::qWait(TargetEditor::SAVE_DELAY_MS + 100);
        QCOMPARE(w.document()->targets()[0].url, std::string("http://builtin/")); // nothing saved half-way
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QStringLiteral("http://builtin/delay/1"));
        QVERIFY(fieldProblem(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit"))).isEmpty());
        QTest::keyClicks(
            editor->findChild<TagEdit*>(QStringLiteral("tagEdit"))->lineEdit(), QStringLiteral("NodePort"));
        QTest::keyClick(editor->findChild<TagEdit*>(QStringLiteral("tagEdit"))->lineEdit(), Qt::Key_Return);
        QVERIFY(editor->isValid());
        QVERIFY(runAction(w)->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(w.document()->targets()[0].name, std::string("NodePort ingress"), 15'000);
        QCOMPARE(w.document()->targets()[0].url, std::string("http://builtin/delay/1"));
        QCOMPARE(w.document()->targets()[0].tags, std::vector<std::string> { "NodePort" });

        // A bad number in the profile disables Run as well.
        typeInto(profileEditor(w)->field(QStringLiteral("threads")), QStringLiteral("two"));
        QVERIFY(!runAction(w)->isEnabled());
        QVERIFY(!fieldProblem(profileEditor(w)->field(QStringLiteral("threads"))).isEmpty());
        typeInto(profileEditor(w)->field(QStringLiteral("threads")), QStringLiteral("2"));
        setDuration(w, QStringLiteral("2s"));
        QVERIFY(runAction(w)->isEnabled());

        // Run 1: F5. The live page follows it, the history shows it with plausible numbers.
        const RunOutcome first = runWithF5(w);
        QCOMPARE(first.status, RunStatus::Completed);
        QVERIFY(first.runId > 0);
        QVERIFY(livePage(w)->intervalCount() >= 7); // 250 ms intervals over 2 s
        QCOMPARE(livePage(w)->header()->progressPercent(), 100);
        QVERIFY(livePage(w)->charts()->pointCount() >= 7);
        QVERIFY(lastRunText(w).contains(QStringLiteral("#%1").arg(first.runId)));
        const RunRecord* r1 = runById(w, first.runId);
        QVERIFY(r1);
        QCOMPARE(r1->status, RunStatus::Completed);
        QCOMPARE(r1->targetName, std::string("NodePort ingress"));
        // The measured time is the planned 2 s: never less, a little more on a busy machine.
        QVERIFY2(r1->totals.durationS >= 1.95 && r1->totals.durationS < 3.0,
            qPrintable(QString::number(r1->totals.durationS)));
        // 20 connections, each waiting ~1 ms per answer: at most 20,000 req/s (the delay caps it, whatever
        // the machine), some load however busy the machine, and no errors.
        QVERIFY2(r1->totals.requestsPerS > 10 && r1->totals.requestsPerS < 25'000,
            qPrintable(QString::number(r1->totals.requestsPerS)));
        QVERIFY(r1->totals.latency.p50Us >= 1000);
        QCOMPARE((r1->totals.errors.transportErrors() + r1->totals.non2xx), uint64_t(0));

        // Run 2: a second target, added with the + button, plain "/", run with Ctrl+R.
        const int64_t second = targetsPanel(w)->addTarget();
        QVERIFY(second > 0);
        typeInto(editor->nameEdit(), QStringLiteral("NEG ingress"));
        QVERIFY(editor->isValid());
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(runTask(w)->isActive());
        QVERIFY(!runAction(w)->isEnabled());
        QVERIFY(finished.wait(20'000));
        const auto secondOutcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(secondOutcome.status, RunStatus::Completed);
        QCOMPARE(w.document()->targetById(second)->name, std::string("NEG ingress"));

        // History: both runs, newest first.
        RunsPage* runs = runsPage(w);
        QTRY_COMPARE_WITH_TIMEOUT(runs->filter()->rowCount(), 2, 15'000);
        QCOMPARE(runs->filter()->index(0, RunsTableModel::IdColumn).data(RunsTableModel::RunIdRole).toLongLong(),
            secondOutcome.runId);
        runs->findChild<QLineEdit*>(QStringLiteral("filterEdit"))->setText(QStringLiteral("NodePort"));
        QCOMPARE(runs->filter()->rowCount(), 1);
        runs->findChild<QLineEdit*>(QStringLiteral("filterEdit"))->clear();

        // Select both, compare (Ctrl+Shift+C): the older run is the baseline.
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(tabs(w)->currentWidget(), runs);
        runs->findChild<QTableView*>(QStringLiteral("view"))->selectAll();
        QCOMPARE(runs->selectedRunIds().size(), 2);
        QTest::keyClick(&w, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tabs(w)->currentWidget(), comparePage(w));
        CompareModel* compare = comparePage(w)->model();
        QCOMPARE(compare->runs().size(), size_t(2));
        QCOMPARE(compare->runs()[0].id, first.runId);
        const RunRecord* a = runById(w, first.runId);
        const RunRecord* b = runById(w, secondOutcome.runId);
        QCOMPARE(compare->value(QStringLiteral("rps"), 0), a->totals.requestsPerS);
        QCOMPARE(compare->value(QStringLiteral("rps"), 1), b->totals.requestsPerS);
        const double expected = (b->totals.requestsPerS - a->totals.requestsPerS) / a->totals.requestsPerS * 100;
        QVERIFY(std::fabs(compare->deltaPct(QStringLiteral("rps"), 1) - expected) < 1e-9);
        // Without the 1 ms delay the second target answers faster: more req/s, lower p50 (green both).
        QVERIFY(expected > 0);
        const QModelIndex p50Delta
            = compare->index(compare->rowOfMetric(QStringLiteral("p50")), CompareModel::deltaColumn(1));
        QVERIFY(p50Delta.data(CompareModel::ValueRole).toDouble() < -50);
        // Green, unless the runs' own intervals varied more than that (a machine busy with other work
        // makes p50 jump between intervals): then grey, neither a gain nor a loss.
        const QColor p50Color = p50Delta.data(Qt::ForegroundRole).value<QColor>();
        if (compare->withinNoise(QStringLiteral("p50"), 1))
            QCOMPARE(p50Color, noiseColor());
        else
            QCOMPARE(p50Color, deltaColor(-60, false));
        QCOMPARE(comparePage(w)->charts()->runCount(), 2);

        // Exports: a chart PNG of the requested size, CSVs, the whole comparison as one PNG.
        const QString png = m_dir.filePath(QStringLiteral("live.png"));
        QString error;
        QVERIFY2(livePage(w)->charts()->exportPng(png, QSize(900, 600), &error), qPrintable(error));
        QFile pngFile(png);
        QVERIFY(pngFile.open(QIODevice::ReadOnly));
        QCOMPARE(pngFile.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
        QImageReader reader(png);
        QCOMPARE(reader.format(), QByteArray("png"));
        QCOMPARE(reader.size(), QSize(900, 600));
        QVERIFY(!QImage(png).isNull());

        const QString report = m_dir.filePath(QStringLiteral("report.png"));
        QVERIFY2(comparePage(w)->exportReport(report, 1200, &error), qPrintable(error));
        const QImage reportImage(report);
        QCOMPARE(reportImage.width(), 1200 + 2 * 24);
        QVERIFY(reportImage.height() > 900);

        const QString spectrum = m_dir.filePath(QStringLiteral("spectrum.png"));
        QVERIFY2(
            comparePage(w)->charts()->exportChartPng(QStringLiteral("spectrum"), spectrum, QSize(640, 400), &error),
            qPrintable(error));
        QCOMPARE(QImageReader(spectrum).size(), QSize(640, 400));

        const QString compareCsv = m_dir.filePath(QStringLiteral("compare.csv"));
        QVERIFY(comparePage(w)->exportCsv(compareCsv));
        QFile csv(compareCsv);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString csvText = QString::fromUtf8(csv.readAll());
        QVERIFY(csvText.startsWith(QStringLiteral("metric,run %1 NodePort ingress,run %2 NEG ingress,delta_pct")
                                       .arg(first.runId)
                                       .arg(secondOutcome.runId)));
        const QString runsCsv = m_dir.filePath(QStringLiteral("runs.csv"));
        QVERIFY(runs->exportCsv(runsCsv));
        QFile runsFile(runsCsv);
        QVERIFY(runsFile.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(runsFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 3);

        // Double-click: the run's own tab with its stored charts, summary and spectrum.
        w.openRun(first.runId);
        auto* detail = qobject_cast<RunDetailPage*>(tabs(w)->currentWidget());
        QVERIFY(detail);
        QCOMPARE(detail->runId(), first.runId);
        QVERIFY(detail->charts()->pointCount() >= 7);
        QVERIFY(detail->findChild<QTableWidget*>(QStringLiteral("spectrumTable"))->rowCount() > 10);
        QVERIFY(detail->findChild<QTableWidget*>(QStringLiteral("statusTable"))->rowCount() >= 1);
        QCOMPARE(
            detail->findChild<QTableWidget*>(QStringLiteral("statusTable"))->item(0, 0)->text(), QStringLiteral("200"));

        // File > Export reaches every chart: this run's, each comparison chart, the experiments'.
        QMenu* exportMenu = nullptr;
        for (QMenu* m : w.findChildren<QMenu*>())
            if (m->title() == QStringLiteral("&Export")) exportMenu = m;
        QVERIFY(exportMenu);
        const auto exportAction = [&](const QString& startsWith) -> QAction* {
            for (QAction* action : exportMenu->actions())
                if (action->text().startsWith(startsWith)) return action;
            return nullptr;
        };
        QStringList written;
        setSaveFileHandler([&](const QString& suggested) {
            written << m_dir.filePath(QStringLiteral("menu-") + suggested);
            return written.back();
        });
        emit exportMenu->aboutToShow();
        QAction* runCharts = exportAction(QStringLiteral("This run's charts"));
        QVERIFY(runCharts && runCharts->isEnabled());
        runCharts->trigger();
        exportAction(QStringLiteral("Comparison chart: latency spectrum"))->trigger();
        exportAction(QStringLiteral("Comparison chart: req/s per run"))->trigger();
        setSaveFileHandler(nullptr);
        QCOMPARE(written.size(), 3);
        for (const QString& file : std::as_const(written)) {
            QImageReader image(file);
            QVERIFY2(image.format() == QByteArray("png") && image.size().width() > 100, qPrintable(file));
        }
        w.showTab(MainWindow::RunsTab);
        emit exportMenu->aboutToShow();
        QVERIFY(!runCharts->isEnabled()); // no run tab in front
        QVERIFY(exportAction(QStringLiteral("Comparison chart: req/s over time"))->isEnabled());
        QVERIFY(!exportAction(QStringLiteral("Experiment charts"))->isEnabled()); // no experiment here
        tabs(w)->setCurrentWidget(detail);

        // Deleting a run closes its tab and drops it from the comparison.
        runs->selectRuns({ first.runId });
        QVERIFY(runs->deleteSelected());
        QCOMPARE(runs->filter()->rowCount(), 1);
        QVERIFY(!qobject_cast<RunDetailPage*>(tabs(w)->currentWidget()));
        QCOMPARE(compare->runs().size(), size_t(1));
    }

    void escapeStopsTheRunAndKeepsItAsStopped()
    {
        const QString path = m_dir.filePath(QStringLiteral("stop.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        targetsPanel(w)->addTarget();
        QVERIFY(showAndActivate(w));
        setDuration(w, QStringLiteral("30s"));
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QSignalSpy intervals(runTask(w), &RunTask::intervalReceived);
        QTest::keyClick(&w, Qt::Key_F5);
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= 2, 10'000);
        QVERIFY(stopAction(w)->isEnabled());
        QElapsedTimer timer;
        timer.start();
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!stopAction(w)->isEnabled()); // at once, before the engine has even seen the flag
        QVERIFY(runTask(w)->isStopping());
        // Stopping does not wait for the 30 s run: the engine ends at its next loop turn
        // (bench/ui-responsiveness.sh measures how soon: ~15 ms). The generous deadline
        // here only tells "stopped" from "ran to the end" on a busy machine.
        QVERIFY(finished.wait(10'000));
        qInfo("Esc to finished(): %lld ms", timer.elapsed());
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Stopped);
        QVERIFY2(outcome.durationS < 20, qPrintable(QString::number(outcome.durationS)));
        QCOMPARE(runById(w, outcome.runId)->status, RunStatus::Stopped);
        QVERIFY(runAction(w)->isEnabled());
    }

    void aRunCanBeFollowedFromAnotherTab()
    {
        const QString path = m_dir.filePath(QStringLiteral("follow.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        targetsPanel(w)->addTarget();
        QVERIFY(showAndActivate(w));
        setDuration(w, QStringLiteral("8s")); // long enough to be still running at every check below
        RunBadge* badge = runBadge(w);
        QVERIFY(!badge->isVisible());
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QSignalSpy intervals(runTask(w), &RunTask::intervalReceived);
        QVERIFY(w.startRun());
        QVERIFY(!badge->isVisible()); // the Live tab shows the run itself
        w.showTab(MainWindow::RunsTab);
        QVERIFY(badge->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= 2, 10'000);
        const auto last = intervals.back()[0].value<LiveInterval>();
        QVERIFY2(badge->text().contains(formatCount(last.point.requestsPerS) + QStringLiteral(" req/s")),
            qPrintable(badge->text()));
        QTRY_VERIFY_WITH_TIMEOUT(badge->progressPercent() >= 10, 15'000);
        QTest::mouseClick(badge, Qt::LeftButton);
        QCOMPARE(tabs(w)->currentIndex(), int(MainWindow::LiveTab));
        QVERIFY(!badge->isVisible());
        w.showTab(MainWindow::CompareTab);
        QVERIFY(badge->isVisible());
        w.stopRun();
        QVERIFY(finished.wait(30'000));
        QVERIFY(!badge->isVisible()); // gone with the run
    }

    void closingDuringARunStopsItCleanly()
    {
        const QString path = m_dir.filePath(QStringLiteral("close.wrkbench"));
        int64_t runId = 0;
        {
            MainWindow w;
            QVERIFY(w.openStartupSession(path));
            targetsPanel(w)->addTarget();
            setDuration(w, QStringLiteral("1m"));
            QSignalSpy started(runTask(w), &RunTask::started);
            QSignalSpy finished(runTask(w), &RunTask::finished);
            QVERIFY(w.startRun());
            QVERIFY(started.wait(10'000));
            QTest::qWait(300);
            // "Keep running": the window stays, the run goes on.
            QString asked;
            setConfirmHandler([&](const QString& text) {
                asked = text;
                return false;
            });
            QVERIFY(!w.close());
            QVERIFY2(asked.contains(QStringLiteral("A run is in progress")), qPrintable(asked));
            QVERIFY(runTask(w)->isActive());
            QCOMPARE(finished.count(), 0);
            setConfirmHandler([](const QString&) { return true; });
            QVERIFY(w.close()); // "Stop the run"
            QCOMPARE(finished.count(), 1);
            runId = finished[0][0].value<RunOutcome>().runId;
        }
        auto store = SessionStore::open(path.toStdString());
        QVERIFY(store);
        auto record = (*store)->runs().record(runId);
        QVERIFY(record);
        QCOMPARE(record->status, RunStatus::Stopped);
        QVERIFY(record->hasTotals);
    }

    /// What keeps the UI thread free during a heavy run, counted rather than timed (the
    /// milliseconds depend on the machine: bench/ui-responsiveness.sh measures them):
    /// - intervals reach the UI through the run session's queue, every one of them;
    /// - the live charts redraw at most once per interval received, never while hidden,
    ///   and catch up in one redraw when shown again;
    /// - while this window records into the session, the file watcher re-reads it at most
    ///   once per busy debounce period, not on every commit.
    void liveUpdatesStayCoalescedDuringA400ConnectionRun()
    {
        const QString path = m_dir.filePath(QStringLiteral("busy.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        targetsPanel(w)->addTarget();
        QVERIFY(showAndActivate(w));
        // Ten updates a second, the most the live view takes.
        typeInto(profileEditor(w)->field(QStringLiteral("interval")), QStringLiteral("100ms"));
        setDuration(w, QStringLiteral("60s"), QStringLiteral("400")); // stopped below, long before
        LiveCharts* charts = livePage(w)->charts();
        QVERIFY(charts->plot(QStringLiteral("rpsPlot")));
        auto* watcher = w.document()->findChild<SessionWatcher*>();
        QVERIFY(watcher);
        QSignalSpy intervals(runTask(w), &RunTask::intervalReceived);
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QSignalSpy redraws(charts, &LiveCharts::redrawn);
        QSignalSpy rereads(watcher, &SessionWatcher::changed);
        QVERIFY(w.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= 5, 60'000);
        QTRY_COMPARE_WITH_TIMEOUT(liveRpsPoints(w), int(intervals.count()), 10'000); // drawn, up to date

        // Hidden behind another tab: intervals keep coming, nothing is drawn.
        w.showTab(MainWindow::RunsTab);
        QVERIFY(!charts->isVisible());
        const qsizetype redrawsWhenHidden = redraws.count();
        QCoreApplication::processEvents(); // a repaint posted before the switch
        const int paintsWhenHidden = liveRpsPaints(w);
        const qsizetype intervalsWhenHidden = intervals.count();
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= intervalsWhenHidden + 5, 60'000);
        QTest::qWait(2 * LiveCharts::REDRAW_INTERVAL_MS); // any redraw scheduled before the switch has fired
        QCOMPARE(redraws.count(), redrawsWhenHidden);
        QCOMPARE(liveRpsPaints(w), paintsWhenHidden); // nothing painted either
        QVERIFY(liveRpsPoints(w) < int(intervals.count()));
        // Shown again: one redraw brings every interval received so far.
        w.showTab(MainWindow::LiveTab);
        QCOMPARE(redraws.count(), redrawsWhenHidden + 1);
        QCOMPARE(liveRpsPoints(w), int(intervals.count()));
        QTRY_VERIFY(liveRpsPaints(w) > paintsWhenHidden); // and painted

        w.stopRun();
        QVERIFY(finished.wait(60'000));
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Stopped);
        // Every interval the engine made reached the live view (none lost in the queue).
        auto stored = w.document()->store().runs().load(outcome.runId);
        QVERIFY(stored.ok());
        QCOMPARE(int(intervals.count()), int(stored->intervals.size()));
        QCOMPARE(livePage(w)->intervalCount(), int(intervals.count()));
        // At most one redraw per interval received, plus the reset at the start.
        qInfo("%lld intervals, %lld redraws, %lld session re-reads", static_cast<long long>(intervals.count()),
            static_cast<long long>(redraws.count()), static_cast<long long>(rereads.count()));
        QVERIFY2(redraws.count() <= intervals.count() + 1, qPrintable(QString::number(redraws.count())));
        // The session is not re-read on each of the recorder's commits: counted against the
        // run's own 100 ms intervals, a re-read per BUSY_DEBOUNCE_MS is one per 20 of them;
        // the bound allows one per 10 (a starved engine makes longer intervals, not more).
        const qsizetype intervalsPerBusyDebounce = SessionWatcher::BUSY_DEBOUNCE_MS / 100;
        QVERIFY2(rereads.count() <= 1 + intervals.count() / (intervalsPerBusyDebounce / 2),
            qPrintable(QStringLiteral("%1 re-reads over %2 intervals").arg(rereads.count()).arg(intervals.count())));
    }

    void openingAFileThatIsNotASessionExplainsAndLeavesItAlone()
    {
        const QString good = m_dir.filePath(QStringLiteral("good.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(good));
        const QString bad = m_dir.filePath(QStringLiteral("notes.txt"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("just some notes, not a database\n");
        file.close();
        QVERIFY(!w.openSession(bad));
        QCOMPARE(m_errors.size(), 1);
        QVERIFY2(m_errors[0].contains(QStringLiteral("not a wrkbench session")), qPrintable(m_errors[0]));
        QCOMPARE(w.document()->path(), good); // still on the session that was open
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("just some notes, not a database\n"));
        QVERIFY(!QFile::exists(bad + QStringLiteral("-wal")));
    }

    void runsFromWrkbenchCliAppearInTheHistory()
    {
        const QString cli = qEnvironmentVariable("WB_CLI");
        if (cli.isEmpty()) QSKIP("WB_CLI is not set (run through ctest)");
        const QString path = m_dir.filePath(QStringLiteral("shared.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        QCOMPARE(runsPage(w)->model()->rowCount(), 0);
        QVERIFY2(lastRunText(w).startsWith(QStringLiteral("0 runs in the session")), qPrintable(lastRunText(w)));
        auto port = ensureBuiltinServer();
        QVERIFY(port);
        QProcess process;
        process.start(cli,
            { QStringLiteral("run"), QStringLiteral("-t1"), QStringLiteral("-c4"), QStringLiteral("-d1s"),
                QStringLiteral("--db"), path, QStringLiteral("--target"), QStringLiteral("from the CLI"),
                QStringLiteral("http://127.0.0.1:%1/").arg(*port) });
        QVERIFY(process.waitForFinished(60'000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QTRY_COMPARE_WITH_TIMEOUT(runsPage(w)->model()->rowCount(), 1, 15'000);
        QCOMPARE(runsPage(w)->model()->record(0).targetName, std::string("from the CLI"));
        QCOMPARE(runsPage(w)->model()->record(0).status, RunStatus::Completed);
        QTRY_COMPARE_WITH_TIMEOUT(targetsPanel(w)->model()->rowCount(), 1, 15'000); // its new target too
        // The status bar's count follows runs that come from elsewhere as well.
        QVERIFY2(lastRunText(w).startsWith(QStringLiteral("1 run in the session")), qPrintable(lastRunText(w)));
    }

    // Loaders "2" in the profile: F5 runs two wrkbench-cli loader processes against the built-in server on
    // loopback, the live strip shows a bar per loader, and the one stored run keeps both (the run's Loaders tab).
    void localLoadersMakeOneRunWithALoadersTab()
    {
        const QString cli = qEnvironmentVariable("WB_CLI");
        if (cli.isEmpty()) QSKIP("WB_CLI is not set (run through ctest)");
        // This test's programs are not installed side by side: name the loaders' wrkbench-cli.
        qputenv("WRKBENCH_CLI", cli.toLocal8Bit());
        const QString path = m_dir.filePath(QStringLiteral("loaders.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        auto port = ensureBuiltinServer();
        QVERIFY(port);
        QVERIFY(targetsPanel(w)->addTarget() > 0);
        TargetEditor* editor = targetsPanel(w)->editor();
        typeInto(editor->nameEdit(), QStringLiteral("two loaders"));
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")),
            QStringLiteral("http://127.0.0.1:%1/").arg(*port));
        QVERIFY(editor->commit());
        QVERIFY(showAndActivate(w));
        setDuration(w, QStringLiteral("2s"), QStringLiteral("4"));
        typeInto(profileEditor(w)->field(QStringLiteral("threads")), QStringLiteral("2"));
        typeInto(profileEditor(w)->field(QStringLiteral("loaders")), QStringLiteral("2"));
        QVERIFY2(profileEditor(w)->isValid(),
            qPrintable(profileEditor(w)->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));

        // The live view: merged intervals, and the strip with one bar per loader.
        QSignalSpy intervals(runTask(w), &RunTask::intervalReceived);
        auto* strip = livePage(w)->findChild<LoaderStrip*>();
        QVERIFY(strip);
        const RunOutcome outcome = runWithF5(w, 120'000);
        QVERIFY2(outcome.status == RunStatus::Completed, qPrintable(outcome.error + m_errors.join(QLatin1Char('\n'))));
        QVERIFY(intervals.count() >= 1);
        QCOMPARE(strip->rates().size(), 2); // the last interval's bars stay until the next run

        const RunRecord* r = runById(w, outcome.runId);
        QVERIFY(r);
        QCOMPARE(r->config.loaders.count, 2u);
        QCOMPARE(r->config.connections, 4u);
        QVERIFY(r->totals.requests > 0);
        QCOMPARE((r->totals.errors.transportErrors() + r->totals.non2xx), uint64_t(0));

        // Stored with its loaders: each its share (2 + 2 connections), their requests adding up to the run's.
        SessionOpenOptions readOnly;
        readOnly.readOnly = true;
        auto store = SessionStore::open(path.toStdString(), readOnly);
        QVERIFY(store.ok());
        auto data = (*store)->runs().load(outcome.runId);
        QVERIFY(data.ok());
        QCOMPARE(data->loaders.size(), size_t(2));
        uint64_t sum = 0;
        for (const LoaderSummary& l : data->loaders) {
            QCOMPARE(l.connections, 2u);
            QCOMPARE(l.state, std::string("completed"));
            sum += l.requests;
        }
        QCOMPARE(sum, r->totals.requests);

        // The run's tab shows them.
        w.openRun(outcome.runId);
        auto* detail = qobject_cast<RunDetailPage*>(tabs(w)->currentWidget());
        QVERIFY(detail);
        QTableWidget* table = detail->findChild<QTableWidget*>(QStringLiteral("loadersTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        for (int row = 0; row < 2; ++row) {
            QCOMPARE(table->item(row, 0)->text(), QString::number(row));
            QCOMPARE(table->item(row, 2)->text(), QStringLiteral("2"));
            QCOMPARE(table->item(row, 8)->text(), QStringLiteral("completed"));
        }
        auto* detailTabs = detail->findChild<QTabWidget*>();
        QVERIFY(detailTabs);
        QCOMPARE(detailTabs->tabText(detailTabs->indexOf(table)), QStringLiteral("Loaders (2)"));
        qunsetenv("WRKBENCH_CLI");
    }

    static int profileRowContaining(MainWindow& w, const QString& text)
    {
        for (int i = 0; i < profileCombo(w)->count(); ++i)
            if (profileCombo(w)->itemText(i).contains(text)) return i;
        return -1;
    }

    void sessionsSaveAsNewAndRestoreAtStart()
    {
        const QString first = m_dir.filePath(QStringLiteral("first.wrkbench"));
        const QString copy = m_dir.filePath(QStringLiteral("copy.wrkbench"));
        const QString fresh = m_dir.filePath(QStringLiteral("fresh.wrkbench"));
        {
            MainWindow w;
            QVERIFY(w.openStartupSession(first));
            w.resize(1111, 777);
            const int64_t id = targetsPanel(w)->addTarget();
            const int64_t firstRun = uitest::addSyntheticRun(w.document()->store(), id, {});
            QVERIFY(firstRun > 0);
            w.document()->reload();
            // Each session remembers its own last profile.
            const int classic = profileRowContaining(w, QStringLiteral("wrk classic"));
            QVERIFY(classic >= 0);
            profileCombo(w)->setCurrentIndex(classic);
            // A second target selected, two runs compared with the second as the baseline.
            const int64_t other = targetsPanel(w)->addTarget();
            const int64_t secondRun = uitest::addSyntheticRun(w.document()->store(), other, {});
            QVERIFY(secondRun > 0);
            w.document()->reload();
            targetsPanel(w)->selectTarget(other);
            w.compareRuns({ firstRun, secondRun });
            partOf<ComparePage>(w)->setBaselineRun(secondRun);
            // Save as: a copy with everything, and the window continues in it where it was.
            QVERIFY(w.saveSessionAs(copy));
            QCOMPARE(w.document()->path(), copy);
            QCOMPARE(w.document()->targets().size(), size_t(2));
            QCOMPARE(w.document()->runs().size(), size_t(2));
            QVERIFY2(profileCombo(w)->currentText().contains(QStringLiteral("wrk classic")),
                qPrintable(profileCombo(w)->currentText()));
            QCOMPARE(targetsPanel(w)->currentTargetId(), other);
            QCOMPARE(partOf<ComparePage>(w)->runs().size(), size_t(2));
            QCOMPARE(partOf<ComparePage>(w)->model()->runs().front().id, secondRun);
            QCOMPARE(tabs(w)->currentWidget(), partOf<ComparePage>(w));
            QVERIFY(!w.saveSessionAs(copy)); // never over an existing file unless asked to replace it
            QVERIFY(!w.saveSessionAs(copy, true)); // and never over the open session itself
            QCOMPARE(w.document()->path(), copy);
            // New: an empty session; an existing path is refused.
            QVERIFY(!w.newSession(first));
            QVERIFY(w.newSession(fresh));
            QVERIFY(w.document()->targets().empty());
            const int soak = profileRowContaining(w, QStringLiteral("Soak"));
            QVERIFY(soak >= 0);
            profileCombo(w)->setCurrentIndex(soak);
            QVERIFY(w.close());
        }
        QVERIFY(recentSessions().contains(fresh));
        QVERIFY(recentSessions().contains(copy));
        // The next start opens the last session, in the window's last size, with its profile.
        MainWindow again;
        QVERIFY(again.openStartupSession({}));
        QCOMPARE(again.document()->path(), fresh);
        QCOMPARE(again.size(), QSize(1111, 777));
        QVERIFY2(profileCombo(again)->currentText().contains(QStringLiteral("Soak")),
            qPrintable(profileCombo(again)->currentText()));
        // File > Open recent lists the sessions and opens them; the first one's profile comes back with it.
        auto* recent = again.findChild<QMenu*>(QStringLiteral("recentMenu"));
        QVERIFY(recent);
        QAction* firstEntry = nullptr;
        for (QAction* a : recent->actions())
            if (a->text() == first) firstEntry = a;
        QVERIFY(firstEntry);
        firstEntry->trigger();
        QCOMPARE(again.document()->path(), first);
        QVERIFY2(profileCombo(again)->currentText().contains(QStringLiteral("wrk classic")),
            qPrintable(profileCombo(again)->currentText()));
    }

    void saveAsDuringARunAsksFirst()
    {
        const QString path = m_dir.filePath(QStringLiteral("saving.wrkbench"));
        const QString refused = m_dir.filePath(QStringLiteral("saving-refused.wrkbench"));
        const QString copy = m_dir.filePath(QStringLiteral("saving-copy.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        targetsPanel(w)->addTarget();
        setDuration(w, QStringLiteral("30s"));
        QSignalSpy intervals(runTask(w), &RunTask::intervalReceived);
        QVERIFY(w.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= 1, 10'000);
        // A file the user chose to replace: it stays as it is until the copy is complete.
        {
            QFile existing(copy);
            QVERIFY(existing.open(QIODevice::WriteOnly));
            existing.write("an older file the user agreed to replace\n");
        }
        // "No": nothing is written or removed, the run goes on.
        setConfirmHandler([](const QString&) { return false; });
        QVERIFY(!w.saveSessionAs(refused));
        QVERIFY(!QFileInfo::exists(refused));
        QVERIFY(!w.saveSessionAs(copy, true));
        QCOMPARE(QFileInfo(copy).size(), qint64(41));
        QVERIFY(runTask(w)->isActive());
        // "Stop the run": the copy replaces the file and holds the run as stopped, never as 'running'.
        setConfirmHandler([](const QString&) { return true; });
        QVERIFY(w.saveSessionAs(copy, true));
        QVERIFY(QDir(m_dir.path()).entryList({ QStringLiteral("*.saving-*") }).isEmpty());
        QVERIFY(!runTask(w)->isActive());
        QCOMPARE(w.document()->path(), copy);
        QCOMPARE(w.document()->runs().size(), size_t(1));
        QCOMPARE(w.document()->runs().front().status, RunStatus::Stopped);
    }

    void deletingATargetAsksAndTakesItsRuns()
    {
        const QString path = m_dir.filePath(QStringLiteral("delete.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        const int64_t id = targetsPanel(w)->addTarget();
        targetsPanel(w)->addTarget();
        QVERIFY(uitest::addSyntheticRun(w.document()->store(), id, {}) > 0);
        w.document()->reload();
        targetsPanel(w)->selectTarget(id);
        QString asked;
        setConfirmHandler([&](const QString& text) {
            asked = text;
            return false;
        });
        QVERIFY(!targetsPanel(w)->deleteTarget());
        QVERIFY(asked.contains(QStringLiteral("1 stored run")));
        QCOMPARE(w.document()->targets().size(), size_t(2));
        setConfirmHandler([](const QString&) { return true; });
        QVERIFY(targetsPanel(w)->deleteTarget());
        QCOMPARE(w.document()->targets().size(), size_t(1));
        QVERIFY(w.document()->runs().empty());
        QVERIFY(targetsPanel(w)->currentTargetId() != 0); // the remaining target is selected
    }
};

WB_UI_TEST(MainWindowTest)
#include "mainwindow_test.moc"
