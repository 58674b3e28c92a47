// An experiment built, run and exported from the window alone: the empty
// Experiments tab says what to do; "New experiment…" opens the plan editor on a template of the
// session's first targets, with the run count and about how long it takes shown before Run; the
// plan it saves is the CLI's (`wrkbench-cli experiment PLAN --check` reads it and prints the very
// line the editor shows) and opens again unchanged; "Create and run" runs it against the built-in
// server; the results export as HTML; the status bar counts the experiment's runs; "Study…" is on
// the Runs toolbar.

#include "control/experimenttask.h"
#include "experiment/experimentplan.h"
#include "mainwindow.h"
#include "models/experimentresultsmodel.h"
#include "pages/experimentpage.h"
#include "pages/planeditor.h"
#include "session/sessiondocument.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QComboBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class PlanEditorTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static void setText(PlanEditor* editor, const char* name, const QString& text)
    {
        auto* edit = editor->findChild<QLineEdit*>(QString::fromLatin1(name));
        QVERIFY2(edit, name);
        edit->setText(text);
    }
    static QString summaryOf(const PlanEditor* editor)
    {
        return editor->findChild<QLabel*>(QStringLiteral("planSummary"))->text();
    }
    static QString readAll(const QString& path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }
    /// Two targets on the built-in server, listed in this order (by name): "A: direct", and
    /// "B: delayed" (20 ms later).
    static void addTargets(SessionDocument* doc)
    {
        QVERIFY(doc->addTarget(makeTarget("A: direct", "http://builtin/")).ok());
        QVERIFY(doc->addTarget(makeTarget("B: delayed", "http://builtin/delay/20")).ok());
    }

private slots:
    void emptyTabSaysWhatToDo()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("empty.wrkbench")), true));
        ExperimentPage* page = experimentPage(w);
        w.show();
        tabs(w)->setCurrentWidget(page);
        auto* empty = page->findChild<QLabel*>(QStringLiteral("ExperimentEmpty"));
        QVERIFY(empty && empty->isVisible());
        QVERIFY(empty->text().contains(QStringLiteral("New experiment…")));
        QVERIFY(empty->text().contains(QStringLiteral("template")));
        QVERIFY(empty->text().contains(QStringLiteral("Study…")));
        QVERIFY(!page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->isVisible());
        QVERIFY(!page->findChild<QTableView*>(QStringLiteral("ExperimentResults"))->isVisible()); // nothing to show
        QVERIFY(page->findChild<QPushButton*>(QStringLiteral("newExperimentButton"))->isEnabled());
    }

    // The template, the summary before Run, a form that cannot run, and the plan as the CLI reads it.
    void planIsTheCliPlan()
    {
        const QString cli = qEnvironmentVariable("WB_CLI");
        if (cli.isEmpty()) QSKIP("WB_CLI is not set (run through ctest)");
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("plan.wrkbench")), true));
        addTargets(w.document());
        ExperimentPage* page = experimentPage(w);
        QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("newExperimentButton")), Qt::LeftButton);
        auto* editor = page->findChild<PlanEditor*>(QStringLiteral("PlanEditor"));
        QVERIFY(editor && editor->isVisible());

        // The template: the first two targets, the first the baseline; connections 25 and 50; the
        // parser's 3 repetitions of 10 s, 2 s warm-up and cool-down: 12 runs, 12 x 12 s + 11 x 2 s.
        auto* targets = editor->findChild<QTableWidget*>(QStringLiteral("planTargets"));
        QCOMPARE(targets->rowCount(), 2);
        QCOMPARE(targets->item(0, PlanEditor::UseColumn)->checkState(), Qt::Checked);
        QCOMPARE(targets->item(0, PlanEditor::BaselineColumn)->checkState(), Qt::Checked);
        QCOMPARE(targets->item(1, PlanEditor::UseColumn)->checkState(), Qt::Checked);
        QCOMPARE(targets->item(1, PlanEditor::BaselineColumn)->checkState(), Qt::Unchecked);
        QCOMPARE(summaryOf(editor),
            QStringLiteral("2 targets (baseline A: direct), 2 levels, 3 repetitions: 12 runs of 10s (+2s warm-up), "
                           "interleaved, about 2m46s"));

        // One target is no experiment: said, and nothing can be created.
        targets->item(1, PlanEditor::UseColumn)->setCheckState(Qt::Unchecked);
        QVERIFY2(summaryOf(editor).contains(QStringLiteral("at least two targets")), qPrintable(summaryOf(editor)));
        QVERIFY(!editor->findChild<QPushButton*>(QStringLiteral("planCreateRunButton"))->isEnabled());
        targets->item(1, PlanEditor::UseColumn)->setCheckState(Qt::Checked);
        // A bad level names the field.
        setText(editor, "planValues", QStringLiteral("25, lots"));
        QVERIFY2(summaryOf(editor).contains(QStringLiteral("levels: 'lots'")), qPrintable(summaryOf(editor)));
        setText(editor, "planValues", QStringLiteral("25, 50"));

        // B the baseline (ticking one unticks the other), SLOs, sequential order, 4 repetitions.
        targets->item(1, PlanEditor::BaselineColumn)->setCheckState(Qt::Checked);
        QCOMPARE(targets->item(0, PlanEditor::BaselineColumn)->checkState(), Qt::Unchecked);
        editor->findChild<QSpinBox*>(QStringLiteral("planRepetitions"))->setValue(4);
        editor->findChild<QComboBox*>(QStringLiteral("planOrder"))->setCurrentIndex(1);
        setText(editor, "planSlos", QStringLiteral("p99<250ms, errors<1%"));
        setText(editor, "planName", QStringLiteral("Direct vs delayed"));
        QVERIFY2(
            summaryOf(editor).startsWith(QStringLiteral("2 targets (baseline B: delayed), 2 levels, 4 repetitions: "
                                                        "16 runs of 10s (+2s warm-up), sequential, about 3m42s")),
            qPrintable(summaryOf(editor)));

        const QString path = m_dir.filePath(QStringLiteral("built.json"));
        QString error;
        QVERIFY2(editor->savePlanFile(path, &error), qPrintable(error));
        // The plan's owner wrote it: what it reads back is what the editor holds.
        auto saved = parseExperimentPlan(readAll(path).toStdString());
        QVERIFY2(saved.ok(), saved ? "" : saved.error().c_str());
        QCOMPARE(experimentPlanToJson(*saved), experimentPlanToJson(*editor->plan()));
        QCOMPARE(saved->targets.size(), size_t(2));
        QVERIFY(saved->targets[1].baseline);
        QCOMPARE(saved->slos.size(), size_t(2));
        QCOMPARE(saved->order, ExperimentOrder::Sequential);
        QCOMPARE(saved->axis, std::string("connections"));
        QCOMPARE(saved->levels[1].load.connections, 50u);

        // The CLI takes the file and says the same.
        QProcess process;
        process.start(cli, { QStringLiteral("experiment"), path, QStringLiteral("--check") });
        QVERIFY(process.waitForFinished(60'000));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY2(
            out.contains(QStringLiteral("is valid: ") + summaryOf(editor).section(QStringLiteral(". Every"), 0, 0)),
            qPrintable(out + QStringLiteral("\n") + summaryOf(editor)));

        // Opened again, in a fresh editor: the same plan.
        PlanEditor reopened(w.document());
        QVERIFY(reopened.openPlanFile(path));
        QCOMPARE(experimentPlanToJson(*reopened.plan()), experimentPlanToJson(*saved));
        QCOMPARE(reopened.findChild<QLineEdit*>(QStringLiteral("planValues"))->text(), QStringLiteral("25, 50"));
        editor->reject();
    }

    // A plan of hand-written levels (not one swept axis) keeps them as written; a target the
    // session lacks is shown as new, from the plan.
    void handWrittenLevelsAreKept()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("levels.wrkbench")), true));
        addTargets(w.document());
        const QString path = m_dir.filePath(QStringLiteral("levels.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"targets\": [{\"name\": \"A: direct\", \"url\": \"http://builtin/\"},"
                   " {\"name\": \"Elsewhere\", \"url\": \"http://builtin/delay/5\"}],"
                   " \"levels\": [{\"threads\": 1, \"connections\": 4}, {\"threads\": 2, \"connections\": 16, "
                   "\"label\": \"big\"}], \"repetitions\": 2, \"duration\": \"1s\"}");
        file.close();
        PlanEditor editor(w.document());
        QVERIFY(editor.openPlanFile(path));
        auto* targets = editor.findChild<QTableWidget*>(QStringLiteral("planTargets"));
        QCOMPARE(targets->rowCount(), 3); // A: direct, Elsewhere (new), B: delayed (not used)
        QVERIFY(targets->item(1, PlanEditor::NameColumn)->text().contains(QStringLiteral("new: from the plan")));
        QCOMPARE(targets->item(2, PlanEditor::UseColumn)->checkState(), Qt::Unchecked);
        auto plan = editor.plan();
        QVERIFY2(plan.ok(), plan ? "" : plan.error().c_str());
        QCOMPARE(plan->levels.size(), size_t(2));
        QCOMPARE(plan->levels[1].label, std::string("big"));
        QCOMPARE(plan->levels[1].load.threads, 2u);
        QCOMPARE(plan->levels[0].load.connections, 4u);
        QVERIFY(summaryOf(&editor).contains(QStringLiteral("8 runs of 1s")));
    }

    void experimentIsBuiltRunAndExportedFromTheWindow()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("window.wrkbench")), true));
        addTargets(w.document());
        ExperimentPage* page = experimentPage(w);
        PlanEditor* editor = page->newExperiment();
        QVERIFY(editor);
        setText(editor, "planName", QStringLiteral("Built in the window"));
        auto* axis = editor->findChild<QComboBox*>(QStringLiteral("planAxis"));
        axis->setCurrentIndex(axis->findData(QString())); // one level
        setText(editor, "planThreads", QStringLiteral("1"));
        setText(editor, "planConnections", QStringLiteral("2"));
        editor->findChild<QSpinBox*>(QStringLiteral("planRepetitions"))->setValue(2);
        setText(editor, "planDuration", QStringLiteral("300ms"));
        setText(editor, "planWarmup", QStringLiteral("0s"));
        setText(editor, "planCooldown", QStringLiteral("0s"));
        QVERIFY2(summaryOf(editor).contains(QStringLiteral("4 runs of 300ms")), qPrintable(summaryOf(editor)));

        QSignalSpy finished(page->task(), &ExperimentTask::finished);
        QTest::mouseClick(editor->findChild<QPushButton*>(QStringLiteral("planCreateRunButton")), Qt::LeftButton);
        QVERIFY(page->isRunning());
        QVERIFY(finished.wait(90'000));
        QCOMPARE(page->resultsModel()->rowCount(), 2);
        QCOMPARE(page->findChild<QTreeWidget*>(QStringLiteral("ExperimentList"))->topLevelItem(0)->text(1),
            QStringLiteral("Built in the window"));
        QCOMPARE(
            w.document()->store().experiments().get(page->selectedExperimentId())->status, ExperimentStatus::Completed);

        // The status bar counts the experiment's runs and names the last one.
        const QString status = partOf<QLabel>(w, QStringLiteral("lastRunLabel"))->text();
        QVERIFY2(status.startsWith(QStringLiteral("4 runs in the session")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("experiment 4/4")), qPrintable(status));

        // Exported from the window: the HTML report names both targets and the plan's four runs.
        const QString html = m_dir.filePath(QStringLiteral("built.html"));
        QVERIFY(page->exportHtml(html));
        const QString report = readAll(html);
        QVERIFY(report.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(report.contains(QStringLiteral("Built in the window")));
        QVERIFY(report.contains(QStringLiteral("B: delayed")));
        QCOMPARE(report.count(QStringLiteral("<tr id=\"run-")), 4);

        // A study of these runs is reachable from the Runs toolbar, not only a context menu.
        RunsPage* runs = runsPage(w);
        auto* study = runs->findChild<QPushButton*>(QStringLiteral("studyButton"));
        QVERIFY(study);
        QVERIFY(!study->isEnabled());
        auto* view = runs->findChild<QTableView*>();
        view->selectAll();
        QVERIFY(study->isEnabled());
    }
};

WB_UI_TEST(PlanEditorTest)
#include "planeditor_test.moc"
