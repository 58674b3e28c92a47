// The Experiments tab driven like a user: a plan that does not validate shows
// the parser's error inline and adds nothing; a tiny A-vs-B plan against the
// built-in server (2 targets, 1 level, 2 repetitions of 300 ms; B answers 20 ms
// late, so it is far slower however busy the machine) is created from its file,
// run from the tab, and its results table, session runs and charts, CSV /
// Markdown exports are checked; Stop and Resume. The results model runs under
// QAbstractItemModelTester throughout.

#include "charts/experimentcharts.h"
#include "control/experimenttask.h"
#include "experiment/experimentreport.h"
#include "experiment/experimentresults.h"
#include "mainwindow.h"
#include "models/experimentresultsmodel.h"
#include "pages/dialogs.h"
#include "pages/experimentpage.h"
#include "session/sessiondocument.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <algorithm>
#include <cmath>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class ExperimentTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString writePlan(const QString& name, const QByteArray& json)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size()) return {};
        return path;
    }

    static QString readAll(const QString& path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private slots:
    void invalidPlanShowsErrorInline()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("invalid.wrkbench")), true));
        ExperimentPage* page = experimentPage(w);
        const QString path = writePlan(QStringLiteral("one-target.json"),
            "{\"targets\": [{\"name\": \"A\", \"url\": \"http://builtin/\"}], \"duration\": \"300ms\"}");
        QVERIFY(!path.isEmpty());
        QCOMPARE(page->createFromPlanFile(path), int64_t(0));
        QVERIFY(!page->findChild<QLabel*>(QStringLiteral("ExperimentError"))->isHidden());
        QVERIFY2(page->findChild<QLabel*>(QStringLiteral("ExperimentError"))
                     ->text()
                     .contains(QStringLiteral("at least two targets")),
            qPrintable(page->findChild<QLabel*>(QStringLiteral("ExperimentError"))->text()));
        QCOMPARE(page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItemCount(), 0);
        QVERIFY(w.document()->store().experiments().all()->empty());
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled());
    }

    void experimentsFromAnotherProcessAppear()
    {
        const QString path = m_dir.filePath(QStringLiteral("shared-lab.wrkbench"));
        MainWindow w;
        QVERIFY(w.openSession(path, true));
        ExperimentPage* page = experimentPage(w);
        QCOMPARE(page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItemCount(), 0);
        // As wrkbench-cli experiment does it: its own connection to the same file.
        auto other = SessionStore::open(path.toStdString());
        QVERIFY(other);
        // (No raw string literal here: moc 6.4 cannot parse one with braces in it.)
        const std::string plan = "{\"targets\": [{\"name\": \"A\", \"url\": \"http://127.0.0.1:9/\"},"
                                 " {\"name\": \"B\", \"url\": \"http://127.0.0.1:9/\"}], \"duration\": \"1s\"}";
        auto id = (*other)->experiments().add("made elsewhere", plan);
        QVERIFY(id);
        // The file watcher notices; the list follows and shows it, selected.
        QTRY_COMPARE_WITH_TIMEOUT(
            page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItemCount(), 1, 15'000);
        QCOMPARE(page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItem(0)->text(1),
            QStringLiteral("made elsewhere"));
        QCOMPARE(page->selectedExperimentId(), *id);
    }

    void aStoppedCapacitySearchIsListedAndLeftToTheCli()
    {
        const QString path = m_dir.filePath(QStringLiteral("searches.wrkbench"));
        MainWindow w;
        QVERIFY(w.openSession(path, true));
        ExperimentPage* page = experimentPage(w);
        // As wrkbench-cli capacity --db does it, stopped by Ctrl-C: its own connection to the file.
        auto other = SessionStore::open(path.toStdString());
        QVERIFY(other);
        auto id = (*other)->experiments().add(
            "capacity http://127.0.0.1:9/", "{\"kind\": \"capacity\"}", {}, ExperimentKind::Capacity);
        QVERIFY(id);
        QVERIFY((*other)->experiments().begin(*id));
        QVERIFY((*other)->experiments().finish(*id, ExperimentStatus::Stopped));
        QTRY_COMPARE_WITH_TIMEOUT(
            page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItemCount(), 1, 15'000);
        const QTreeWidgetItem* item = page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItem(0);
        QCOMPARE(item->text(1), QStringLiteral("capacity http://127.0.0.1:9/ (capacity search)"));
        QCOMPARE(item->text(2), QStringLiteral("stopped"));
        QVERIFY(item->toolTip(1).contains(QStringLiteral("--resume %1").arg(*id)));
        // A stopped plan would offer Resume; a search goes on in the CLI, and the summary says how.
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled());
        QVERIFY(page->findChild<QLabel*>(QStringLiteral("ExperimentSummary"))
                    ->text()
                    .contains(QStringLiteral("is a capacity search")));
    }

    void runPlanFromTheTab()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("lab.wrkbench")), true));
        ExperimentPage* page = experimentPage(w);
        QAbstractItemModelTester tester(page->resultsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        // Ctrl+4 shows the tab.
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_4, Qt::ControlModifier);
        QCOMPARE(tabs(w)->currentWidget(), page);

        // Few connections: the delayed target is bound to connections / 20 ms, 100 req/s, where
        // the direct one makes thousands even on a busy machine.
        const QString path = writePlan(QStringLiteral("tiny.json"),
            "{"
            "\"name\": \"Direct vs delayed\","
            "\"targets\": [{\"name\": \"Direct\", \"url\": \"http://builtin/\", \"baseline\": true},"
            "{\"name\": \"Delayed\", \"url\": \"http://builtin/delay/20\"}],"
            "\"load\": {\"threads\": 1, \"connections\": 2, \"interval\": \"100ms\"},"
            "\"repetitions\": 2, \"duration\": \"300ms\", \"cooldown\": 0}");
        const int64_t id = page->createFromPlanFile(path);
        QVERIFY2(id > 0, qPrintable(page->findChild<QLabel*>(QStringLiteral("ExperimentError"))->text()));
        QVERIFY(page->findChild<QLabel*>(QStringLiteral("ExperimentError"))->isHidden());
        QCOMPARE(page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItemCount(), 1);
        QCOMPARE(page->selectedExperimentId(), id);
        QCOMPARE(page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItem(0)->text(2),
            QStringLiteral("planned"));
        QCOMPARE(page->findChild<QPushButton*>(QStringLiteral("runButton"))->text(), QStringLiteral("Run"));
        QVERIFY(page->findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled());
        QCOMPARE(page->resultsModel()->rowCount(), 2); // the cells, no runs yet
        QCOMPARE(
            page->resultsModel()->index(0, ExperimentResultsModel::RunsColumn).data().toString(), QStringLiteral("0"));

        QSignalSpy progress(page->task(), &ExperimentTask::progress);
        QSignalSpy finished(page->task(), &ExperimentTask::finished);
        QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("runButton")), Qt::LeftButton);
        QVERIFY(page->isRunning());
        QVERIFY(page->findChild<QPushButton*>(QStringLiteral("stopButton"))->isEnabled());
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled());
        QVERIFY(!runAction(w)->isEnabled()); // one load at a time
        QVERIFY(!page->findChild<QProgressBar*>(QStringLiteral("progressBar"))->isHidden());
        QVERIFY(finished.wait(60'000));
        const auto result = finished[0][0].value<ExperimentTaskResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.outcome.status, ExperimentStatus::Completed);
        QCOMPARE(result.outcome.runsDone, size_t(4));
        QVERIFY(!page->isRunning());
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("stopButton"))->isEnabled());
        QVERIFY(
            page->findChild<QLabel*>(QStringLiteral("progressLabel"))->text().contains(QStringLiteral("completed")));
        QCOMPARE(progress.count(), 8); // started and finished, per run
        const auto last = progress.last()[0].value<ExperimentProgress>();
        QCOMPARE(last.event, ExperimentProgress::Event::RunFinished);
        QCOMPARE(last.runsDone, size_t(4));
        QCOMPARE(last.targetName, std::string("Delayed"));
        QCOMPARE(last.repetition, 1u);

        // The table: Direct (baseline) and Delayed, two runs each, plausible numbers.
        ExperimentResultsModel* model = page->resultsModel();
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(model->columnCount(), int(ExperimentResultsModel::COLUMN_COUNT));
        const auto cell
            = [&](int row, int column, int role = Qt::DisplayRole) { return model->index(row, column).data(role); };
        QCOMPARE(cell(0, ExperimentResultsModel::TargetColumn).toString(), QStringLiteral("Direct *"));
        QVERIFY(cell(0, 0, ExperimentResultsModel::BaselineRole).toBool());
        QCOMPARE(cell(1, ExperimentResultsModel::TargetColumn).toString(), QStringLiteral("Delayed"));
        QVERIFY(!cell(1, 0, ExperimentResultsModel::BaselineRole).toBool());
        for (int row = 0; row < 2; ++row) {
            QCOMPARE(cell(row, ExperimentResultsModel::RunsColumn).toString(), QStringLiteral("2"));
            QVERIFY(cell(row, ExperimentResultsModel::RpsColumn).toString().contains(QStringLiteral("±")));
            QVERIFY(cell(row, ExperimentResultsModel::RpsColumn, ExperimentResultsModel::ValueRole).toDouble() > 10);
            const double p50
                = cell(row, ExperimentResultsModel::P50Column, ExperimentResultsModel::ValueRole).toDouble();
            const double p99
                = cell(row, ExperimentResultsModel::P99Column, ExperimentResultsModel::ValueRole).toDouble();
            QVERIFY(p50 > 0 && p50 <= p99);
            QCOMPARE(
                cell(row, ExperimentResultsModel::ErrorsColumn, ExperimentResultsModel::ValueRole).toDouble(), 0.0);
        }
        // Each delayed request takes at least 20 ms: at most 100 req/s on 2 connections.
        QVERIFY(cell(1, ExperimentResultsModel::P50Column, ExperimentResultsModel::ValueRole).toDouble() >= 20'000);
        QVERIFY(cell(1, ExperimentResultsModel::RpsColumn, ExperimentResultsModel::ValueRole).toDouble() < 110);
        const double ratio = cell(1, ExperimentResultsModel::RatioColumn, ExperimentResultsModel::ValueRole).toDouble();
        QVERIFY(ratio > 0 && ratio < 1);
        // Has an interval: bounded ("0.312 (0.301–0.324)"), or, when the baseline's two runs differ
        // too much on a busy machine, said in words.
        const QString ratioText = cell(1, ExperimentResultsModel::RatioColumn).toString();
        QVERIFY2(ratioText.contains(QStringLiteral("–")) || ratioText.endsWith(QStringLiteral(" (interval unbounded)")),
            qPrintable(ratioText));
        QVERIFY2(!ratioText.contains(QStringLiteral("inf")) && !ratioText.contains(QStringLiteral("∞")),
            qPrintable(ratioText));
        QCOMPARE(cell(1, ExperimentResultsModel::LossColumn, ExperimentResultsModel::ValueRole).toDouble(),
            (1 - ratio) * 100);
        QCOMPARE(cell(0, ExperimentResultsModel::VerdictColumn).toString(), QStringLiteral("baseline"));
        QVERIFY(!cell(1, ExperimentResultsModel::VerdictColumn).toString().isEmpty());

        // The session: 4 completed runs linked to the experiment, 2 per target, repetitions 0 and 1.
        auto runs = w.document()->store().experiments().runs(id);
        QVERIFY(runs);
        QCOMPARE(runs->size(), size_t(4));
        int repetitionSum = 0;
        for (const RunRecord& r : *runs) {
            QCOMPARE(r.status, RunStatus::Completed);
            QCOMPARE(r.experiment.experimentId, id);
            repetitionSum += r.experiment.repetition;
        }
        QCOMPARE(repetitionSum, 2);
        QCOMPARE(w.document()->runs().size(), size_t(4));
        QCOMPARE(w.document()->store().experiments().get(id)->status, ExperimentStatus::Completed);
        QCOMPARE(page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItem(0)->text(2),
            QStringLiteral("completed"));
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled()); // nothing left to make

        // Exports through the engine's report functions.
        const QString csv = m_dir.filePath(QStringLiteral("results.csv"));
        QVERIFY(page->exportCsv(csv));
        const QStringList lines = readAll(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("experiment_id,")));
        QVERIFY(lines[2].contains(QStringLiteral("Delayed")));
        const QString md = m_dir.filePath(QStringLiteral("report.md"));
        QVERIFY(page->exportMarkdown(md));
        const QString report = readAll(md);
        QVERIFY(report.contains(QStringLiteral("Direct vs delayed")));
        QVERIFY(report.contains(QStringLiteral("Delayed")));

        // The charts: 2 targets x 1 level, the table's means; the report links their PNGs, written beside it.
        const ExperimentChartData& chart = page->charts()->data();
        QCOMPARE(chart.levels.size(), 1);
        QCOMPARE(chart.targets.size(), 2);
        QCOMPARE(chart.targets[0].target, QStringLiteral("Direct"));
        QCOMPARE(chart.targets[1].target, QStringLiteral("Delayed"));
        QVERIFY(chart.targets[0].color != chart.targets[1].color);
        for (int row = 0; row < 2; ++row) {
            const auto& t = chart.targets[row];
            QCOMPARE(t.rpsMean.size(), 1);
            QCOMPARE(t.rpsMean[0],
                cell(row, ExperimentResultsModel::RpsColumn, ExperimentResultsModel::ValueRole).toDouble());
            QVERIFY(std::isfinite(t.rpsSd[0])); // two repetitions
            QCOMPARE(t.p99Ms[0] * 1000,
                cell(row, ExperimentResultsModel::P99Column, ExperimentResultsModel::ValueRole).toDouble());
        }
        for (const QString& name : { QStringLiteral("report-rps.png"), QStringLiteral("report-latency.png") }) {
            QVERIFY2(report.contains(QStringLiteral("(") + name + QStringLiteral(")")), qPrintable(name));
            const QImage image(m_dir.filePath(name));
            QVERIFY2(!image.isNull(), qPrintable(name));
            QVERIFY(image.width() >= 400 && image.height() >= 200);
        }
        const QString png = m_dir.filePath(QStringLiteral("charts.png"));
        QVERIFY(page->exportChartsPng(png));
        QVERIFY(!QImage(png).isNull());
    }
    // Two levels are two cells: below the table, the verdict pooled over them, one line per
    // target, the very lines the CLI and reports print (pooledLines); none with one cell.
    void pooledVerdictAcrossTheCellsIsShown()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("pooled.wrkbench")), true));
        ExperimentPage* page = experimentPage(w);
        const QString path = writePlan(QStringLiteral("pooled.json"),
            "{"
            "\"name\": \"Direct vs delayed, two levels\","
            "\"targets\": [{\"name\": \"Direct\", \"url\": \"http://builtin/\", \"baseline\": true},"
            "{\"name\": \"Delayed\", \"url\": \"http://builtin/delay/20\"}],"
            "\"load\": {\"threads\": 1, \"connections\": 2, \"interval\": \"100ms\"},"
            "\"sweep\": {\"axis\": \"connections\", \"values\": [1, 2]},"
            "\"repetitions\": 2, \"duration\": \"300ms\", \"cooldown\": 0}");
        const int64_t id = page->createFromPlanFile(path);
        QVERIFY2(id > 0, qPrintable(page->findChild<QLabel*>(QStringLiteral("ExperimentError"))->text()));
        QLabel* pooled = page->findChild<QLabel*>(QStringLiteral("ExperimentPooled"));
        QVERIFY(pooled);
        QVERIFY(pooled->isHidden()); // no runs yet: nothing to pool
        QSignalSpy finished(page->task(), &ExperimentTask::finished);
        QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("runButton")), Qt::LeftButton);
        QVERIFY(finished.wait(60'000));
        QVERIFY(finished[0][0].value<ExperimentTaskResult>().ok);

        auto results = loadExperimentResults(w.document()->store(), id);
        QVERIFY(results);
        const std::vector<std::string> lines = pooledLines(*results);
        QCOMPARE(lines.size(), size_t(1)); // one variant
        QVERIFY2(lines[0].rfind("Delayed vs Direct ", 0) == 0 || lines[0].rfind("Delayed: ", 0) == 0, lines[0].c_str());
        QVERIFY(!pooled->isHidden());
        QCOMPARE(pooled->text(),
            QStringLiteral("Pooled over the cells (one effect per target):\n") + QString::fromStdString(lines[0]));
        // Either a pooled verdict over both cells, or (the delay's cost differs with the
        // connections) the words that there is none.
        QVERIFY2(pooled->text().contains(QStringLiteral("pooled over 2 cells"))
                || pooled->text().contains(QStringLiteral("not common to the cells")),
            qPrintable(pooled->text()));
    }

    // A plan with SLOs: one column per SLO, counting the repetitions that met it, red when
    // one did not. p99 under a minute holds on any machine, under a microsecond on none.
    void sloColumnsCountTheRepetitionsThatMetThem()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("slo-lab.wrkbench")), true));
        ExperimentPage* page = experimentPage(w);
        QAbstractItemModelTester tester(page->resultsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString path = writePlan(QStringLiteral("slo.json"),
            "{"
            "\"targets\": [{\"name\": \"A\", \"url\": \"http://builtin/\"},"
            "{\"name\": \"B\", \"url\": \"http://builtin/delay/1\"}],"
            "\"load\": {\"threads\": 1, \"connections\": 2, \"interval\": \"100ms\"},"
            "\"repetitions\": 2, \"duration\": \"300ms\", \"cooldown\": 0,"
            "\"slo\": [\"p99<60s\", \"p99<1us\"]}");
        const int64_t id = page->createFromPlanFile(path);
        QVERIFY2(id > 0, qPrintable(page->findChild<QLabel*>(QStringLiteral("ExperimentError"))->text()));
        ExperimentResultsModel* model = page->resultsModel();
        const int first = ExperimentResultsModel::FIRST_SLO_COLUMN;
        QCOMPARE(model->columnCount(), first + 2);
        QCOMPARE(model->headerData(first, Qt::Horizontal).toString(), QStringLiteral("SLO p99<60s"));
        QCOMPARE(model->headerData(first + 1, Qt::Horizontal).toString(), QStringLiteral("SLO p99<1us"));
        QCOMPARE(model->index(0, first).data().toString(), QStringLiteral("—")); // no run yet

        QSignalSpy progress(page->task(), &ExperimentTask::progress);
        QSignalSpy finished(page->task(), &ExperimentTask::finished);
        QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("runButton")), Qt::LeftButton);
        QVERIFY(finished.wait(60'000));
        const auto result = finished[0][0].value<ExperimentTaskResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.outcome.status, ExperimentStatus::Completed);
        // Each finished run's progress carries its verdicts (the progress line shows them).
        const auto last = progress.last()[0].value<ExperimentProgress>();
        QCOMPARE(last.event, ExperimentProgress::Event::RunFinished);
        QCOMPARE(last.slo.size(), size_t(2));
        QVERIFY(last.slo[0].ok && !last.slo[1].ok);
        QCOMPARE(model->rowCount(), 2);
        for (int row = 0; row < 2; ++row) {
            QCOMPARE(model->index(row, first).data().toString(), QStringLiteral("2/2"));
            QCOMPARE(model->index(row, first + 1).data().toString(), QStringLiteral("0/2"));
            QCOMPARE(model->index(row, first).data(ExperimentResultsModel::ValueRole).toDouble(), 1.0);
            QCOMPARE(model->index(row, first + 1).data(ExperimentResultsModel::ValueRole).toDouble(), 0.0);
            QCOMPARE(model->index(row, first + 1).data(Qt::ForegroundRole).value<QColor>(), QColor(0xc6, 0x28, 0x28));
            QCOMPARE(model->index(row, first).data(Qt::ForegroundRole).value<QColor>(), QColor(0x2e, 0x7d, 0x32));
            QCOMPARE(model->index(row, first + 1).data(Qt::ToolTipRole).toString(),
                QStringLiteral("0 of 2 repetitions met p99<1us"));
        }
    }

    void stopThenResume()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("resume.wrkbench")), true));
        ExperimentPage* page = experimentPage(w);
        const QString path = writePlan(QStringLiteral("resume.json"),
            "{\"targets\": [{\"name\": \"A\", \"url\": \"http://builtin/\"}, {\"name\": \"B\", \"url\": "
            "\"http://builtin/delay/1\"}], \"load\": {\"threads\": 1, \"connections\": 2}, \"repetitions\": 2, "
            "\"duration\": \"2s\"}");
        const int64_t id = page->createFromPlanFile(path);
        QVERIFY2(id > 0, qPrintable(page->findChild<QLabel*>(QStringLiteral("ExperimentError"))->text()));

        // Stop once the first run is done: it is kept, the one in progress is stored as 'stopped'.
        // (2 s runs: Stop lands seconds before the last run could end, however busy the machine.)
        QSignalSpy progress(page->task(), &ExperimentTask::progress);
        QSignalSpy finished(page->task(), &ExperimentTask::finished);
        QVERIFY(page->runSelected());
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(progress.cbegin(), progress.cend(),
                                     [](const QList<QVariant>& args) {
                                         return args[0].value<ExperimentProgress>().event
                                             == ExperimentProgress::Event::RunFinished;
                                     }),
            30'000);
        // Another session while it runs: the window asks first, and "No" leaves the experiment going.
        QString asked;
        setConfirmHandler([&](const QString& text) {
            asked = text;
            return false;
        });
        QVERIFY(!w.openSession(m_dir.filePath(QStringLiteral("resume-other.wrkbench")), true));
        setConfirmHandler({});
        QVERIFY2(asked.contains(QStringLiteral("An experiment is running. Stop it to open another session?")),
            qPrintable(asked));
        QVERIFY(page->task()->isActive());
        QCOMPARE(finished.count(), 0);
        QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("stopButton")), Qt::LeftButton);
        QVERIFY(finished.wait(30'000));
        auto result = finished[0][0].value<ExperimentTaskResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.outcome.status, ExperimentStatus::Stopped);
        QVERIFY(result.outcome.runsDone >= 1 && result.outcome.runsDone < 4);
        QCOMPARE(w.document()->store().experiments().get(id)->status, ExperimentStatus::Stopped);
        QCOMPARE(page->findChild<QPushButton*>(QStringLiteral("runButton"))->text(), QStringLiteral("Resume"));
        QVERIFY(page->findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled());

        // Resume makes only what is missing.
        QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("runButton")), Qt::LeftButton);
        QVERIFY(finished.wait(60'000));
        result = finished[1][0].value<ExperimentTaskResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.outcome.status, ExperimentStatus::Completed);
        QCOMPARE(result.outcome.runsDone, size_t(4));
        QVERIFY(result.outcome.runsSkipped >= 1);
        QCOMPARE(page->resultsModel()->rowCount(), 2);
        QCOMPARE(
            page->resultsModel()->index(1, ExperimentResultsModel::RunsColumn).data().toString(), QStringLiteral("2"));
    }
};

WB_UI_TEST(ExperimentTest)
#include "experiment_test.moc"
