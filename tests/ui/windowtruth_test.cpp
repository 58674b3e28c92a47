// What the window says is true and whole: Help lists the keyboard shortcuts the
// actions really have and leads to the documentation; run details show every value whole (a
// long URL, the connection phases, the per-thread figures wrap in their cells, never cut off)
// and the request headers; Compare's configuration rows include the headers; a stopped run says
// how long it ran; the Live header follows the selected target while no run is going.

#include "charts/livecharts.h"
#include "control/runtask.h"
#include "mainwindow.h"
#include "models/comparemodel.h"
#include "pages/comparepage.h"
#include "pages/helpmenu.h"
#include "pages/rundetailpage.h"
#include "pages/runheader.h"
#include "pages/targeteditor.h"
#include "session/sessiondocument.h"
#include "text/format.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QAction>
#include <QDialog>
#include <QFile>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

RunData detailedRun()
{
    RunData d;
    RunRecord& r = d.run;
    r.id = 7;
    r.targetId = 1;
    r.targetName = "checkout service behind the ingress";
    r.url = "https://checkout.internal.example.com:8443/api/v2/orders/1234567890/items?expand=prices,stock&"
            "currency=EUR&session=0123456789abcdef0123456789abcdef";
    r.status = RunStatus::Stopped;
    r.hasTotals = true;
    r.engineVersion = "0.1.0";
    r.config.request.method = "POST";
    r.config.request.url = *parseUrl(r.url);
    r.config.request.headers = { { "X-Env", "staging" },
        { "Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnopqrstuvwxyz" } };
    r.config.request.body = "{\"sku\": 42}";
    r.config.threads = 2;
    r.config.connections = 10;
    r.config.durationUs = 10'000'000;
    RunTotals& t = r.totals;
    t.durationS = 2.34;
    t.stoppedEarly = true;
    t.requests = 2340;
    t.requestsPerS = 1000;
    t.latency.p50Us = 1234.5;
    t.latency.p99Us = 9876.5;
    t.connect = { 10, 123.4, 456.7, 789.1, 1011.2, 1213.4 };
    t.firstByte = { 2340, 1111.1, 2222.2, 3333.3, 4444.4, 5555.5 };
    t.threadRate.mean = 12345.6;
    t.threadRate.stdev = 1234.5;
    t.threadRate.max = 13579.1;
    return d;
}

} // namespace

class WindowTruthTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void helpListsTheShortcutsAndLeadsToTheDocs()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("help.wrkbench")), true));
        const QList<QPair<QString, QString>> shortcuts = keyboardShortcuts(w);
        const auto keysOf = [&](const QString& what) {
            for (const auto& [action, keys] : shortcuts)
                if (action == what) return keys;
            return QString();
        };
        QCOMPARE(keysOf(QStringLiteral("Run")),
            QKeySequence(Qt::Key_F5).toString(QKeySequence::NativeText) + ", "
                + QKeySequence(Qt::CTRL | Qt::Key_R).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf(QStringLiteral("Stop")), QKeySequence(Qt::Key_Escape).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf(QStringLiteral("Experiments")),
            QKeySequence(Qt::CTRL | Qt::Key_4).toString(QKeySequence::NativeText));
        // Every action with a shortcut is listed (read from the actions, not a copy).
        for (const QAction* a : w.findChildren<QAction*>())
            if (!a->shortcuts().isEmpty() && !a->text().isEmpty())
                QVERIFY2(!keysOf(QString(a->text()).remove(QLatin1Char('&')).remove(QStringLiteral("…"))).isEmpty(),
                    qPrintable(a->text()));
        // Help > Keyboard shortcuts shows them.
        partOf<QAction>(w, QStringLiteral("shortcutsAction"))->trigger();
        auto* dialog = w.findChild<QDialog*>(QStringLiteral("shortcutsDialog"));
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->findChild<QTableWidget*>(QStringLiteral("shortcutsTable"))->rowCount(), shortcuts.size());
        dialog->close();
        // Help > Documentation finds the user's guide (the source tree's, in a build tree).
        QVERIFY(partOf<QAction>(w, QStringLiteral("docsAction")));
        QVERIFY2(localGuidePath().endsWith(QStringLiteral("docs/GUI.md")), qPrintable(localGuidePath()));
    }

    void runDetailsShowValuesWholeWithTheHeaders()
    {
        RunDetailPage page(detailedRun());
        page.resize(1000, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* table = page.findChild<QTableWidget*>(QStringLiteral("summaryTable"));
        QVERIFY(table);
        QTRY_VERIFY(table->columnWidth(1) > 50);
        QApplication::processEvents();
        QStringList names;
        const int width = table->columnWidth(1);
        const QFontMetrics fm(table->font());
        for (int row = 0; row < table->rowCount(); ++row) {
            names << table->item(row, 0)->text();
            const QString text = table->item(row, 1)->text();
            // What the cell needs, wrapped at its width (a little less: the cell's margins).
            const QRect need = fm.boundingRect(QRect(0, 0, width - 8, 100'000), Qt::TextWordWrap, text);
            QVERIFY2(need.width() <= width,
                qPrintable(
                    QStringLiteral("%1: %2 px wide in a %3 px column").arg(names.last()).arg(need.width()).arg(width)));
            QVERIFY2(table->rowHeight(row) + 2 >= need.height(),
                qPrintable(QStringLiteral("%1: %2 px high, needs %3")
                               .arg(names.last())
                               .arg(table->rowHeight(row))
                               .arg(need.height())));
            // The value as it is, for copying: in the tooltip.
            QCOMPARE(QString(text).remove(QChar(0x200B)), table->item(row, 1)->toolTip());
        }
        for (const QString& name : { QStringLiteral("URL"), QStringLiteral("Connect p50 / p99 / max (ms)"),
                 QStringLiteral("First byte p50 / p99 / max (ms)"), QStringLiteral("Req/s per thread"),
                 QStringLiteral("Method") })
            QVERIFY2(names.contains(name), qPrintable(name));
        // The request headers as sent, one row each.
        QStringList headers;
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, 0)->text() == QStringLiteral("Header")) headers << table->item(row, 1)->toolTip();
        QCOMPARE(headers,
            (QStringList { QStringLiteral("X-Env: staging"),
                QStringLiteral("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
                               "abcdefghijklmnopqrstuvwxyz") }));
        // A stopped run: the time it ran, not only the planned 10 s.
        const int load = static_cast<int>(names.indexOf(QStringLiteral("Load")));
        QVERIFY(load >= 0);
        QVERIFY2(table->item(load, 1)->toolTip().contains(QStringLiteral("-d10s")),
            qPrintable(table->item(load, 1)->toolTip()));
        QVERIFY2(table->item(load, 1)->toolTip().endsWith(QStringLiteral(", stopped after 2.3 s")),
            qPrintable(table->item(load, 1)->toolTip()));
    }

    void compareConfigurationIncludesTheHeadersAndTheTimeRun()
    {
        RunData a = detailedRun();
        RunData b = detailedRun();
        b.run.id = 8;
        b.run.config.request.headers = { { "X-Env", "prod" } };
        b.run.status = RunStatus::Completed;
        b.run.totals.stoppedEarly = false;
        b.run.totals.durationS = 10;
        CompareModel model;
        model.setRuns(std::vector<RunData> { a, b });
        const int headers = model.rowOfMetric(QStringLiteral("headers"));
        QVERIFY(headers >= 0);
        QCOMPARE(model.index(headers, CompareModel::valueColumn(0)).data().toString(),
            QStringLiteral("X-Env: staging; Authorization: Bearer "
                           "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnopqrstuvwxyz"));
        QCOMPARE(model.index(headers, CompareModel::valueColumn(1)).data().toString(), QStringLiteral("X-Env: prod"));
        const int load = model.rowOfMetric(QStringLiteral("load"));
        QVERIFY(model.index(load, CompareModel::valueColumn(0))
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("stopped after 2.3 s")));
        QVERIFY(!model.index(load, CompareModel::valueColumn(1)).data().toString().contains(QStringLiteral("stopped")));
        QVERIFY(model.toCsv().contains(QStringLiteral("X-Env: prod")));
        // A run without headers: "—" on screen, an empty field in the CSV.
        b.run.config.request.headers.clear();
        model.setRuns(std::vector<RunData> { a, b });
        QCOMPARE(model.index(headers, CompareModel::valueColumn(1)).data().toString(), QStringLiteral("—"));
        const QString csv = model.toCsv();
        QVERIFY2(!csv.contains(QStringLiteral("—")), qPrintable(csv));
        QVERIFY2(csv.contains(
                     QStringLiteral("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnopqrstuvwxyz,,\n")),
            qPrintable(csv));
    }

    // Compare → Export → HTML report: the engine's comparison page of the runs shown, the
    // chosen baseline first (as `wrkbench-cli export --html` writes it).
    void compareExportsTheComparisonAsHtml()
    {
        RunData a = detailedRun();
        RunData b = detailedRun();
        b.run.id = 8;
        b.run.targetId = 2;
        b.run.targetName = "other";
        ComparePage page;
        page.setRuns({ a, b });
        page.setBaselineRun(8);
        const QString path = m_dir.filePath(QStringLiteral("comparison.html"));
        QString error;
        QVERIFY2(page.exportHtml(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(file.readAll());
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(html.contains(QStringLiteral("<tr class=\"baseline\" id=\"run-8\">")));
        QVERIFY(html.contains(QStringLiteral("X-Env: staging")));
        QVERIFY(!html.contains(QStringLiteral("<script")));
        // Reachable from File → Export as well.
        MainWindow w;
        QVERIFY(partOf<QAction>(w, QStringLiteral("exportComparisonHtmlAction")));
    }

    // Ctrl+T while the Load profile panel is in front: the Targets panel comes forward, the new
    // target is selected and in view, and typing goes to its name.
    void addTargetComesForwardWithTheNewTarget()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("add.wrkbench")), true));
        for (int i = 0; i < 30; ++i)
            QVERIFY(w.document()->addTarget(makeTarget("Target " + std::to_string(100 + i), "http://builtin/")).ok());
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::keyClick(&w, Qt::Key_L, Qt::ControlModifier);
        QApplication::processEvents();
        QVERIFY(profileEditor(w)->isVisible());
        QTest::keyClick(&w, Qt::Key_T, Qt::ControlModifier);
        QApplication::processEvents();
        QVERIFY(targetsPanel(w)->isVisible());
        QLineEdit* name = targetsPanel(w)->editor()->nameEdit();
        QVERIFY(name->isVisible());
        QTRY_VERIFY(name->hasFocus());
        QCOMPARE(name->text(), QStringLiteral("New target"));
        QListView* list = targetsPanel(w)->findChild<QListView*>();
        QVERIFY(list);
        const QRect shown = list->visualRect(list->currentIndex());
        QVERIFY2(list->viewport()->rect().contains(shown.center()), "the new target is scrolled into view");
    }

    void liveHeaderFollowsTheSelectedTargetWhileIdle()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("live.wrkbench")), true));
        const auto first = w.document()->addTarget(makeTarget("First", "http://builtin/"));
        const auto second = w.document()->addTarget(makeTarget("Second", "http://builtin/delay/1"));
        QVERIFY(first.ok() && second.ok());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RunHeader* header = livePage(w)->header();
        targetsPanel(w)->selectTarget(*first);
        QCOMPARE(header->titleText(), QStringLiteral("First"));
        targetsPanel(w)->selectTarget(*second);
        QCOMPARE(header->titleText(), QStringLiteral("Second"));

        // A short run of Second: the header is the run's while it goes and when it ends...
        auto* duration = profileEditor(w)->field(QStringLiteral("duration"));
        duration->setText(QStringLiteral("500ms"));
        emit duration->textEdited(duration->text());
        auto* connections = profileEditor(w)->field(QStringLiteral("connections"));
        connections->setText(QStringLiteral("2"));
        emit connections->textEdited(connections->text());
        QVERIFY(profileEditor(w)->isValid());
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QVERIFY(w.startRun());
        QVERIFY(finished.wait(30'000));
        QCOMPARE(header->titleText(), QStringLiteral("Second"));
        QVERIFY(header->messageText().contains(QStringLiteral("Stored as run #")));
        LiveCharts* charts = livePage(w)->charts();
        QVERIFY(charts);
        charts->redrawNow();
        QVERIFY(charts->pointCount() > 0);
        // ... then, with nothing going, it follows the selection (the last run's numbers and
        // curves cleared: they were Second's).
        targetsPanel(w)->selectTarget(*first);
        QCOMPARE(header->titleText(), QStringLiteral("First"));
        QVERIFY(header->messageText().isEmpty());
        QCOMPARE(header->errorsText(), QStringLiteral("—"));
        charts->redrawNow();
        QCOMPARE(charts->pointCount(), 0);
        QVERIFY2(header->loadText().startsWith(QStringLiteral("F5 runs “First”")), qPrintable(header->loadText()));

        // A profile field in red disables Run: the hint says why instead of promising F5.
        duration->setText(QStringLiteral("soon"));
        emit duration->textEdited(duration->text());
        QVERIFY(!profileEditor(w)->isValid());
        QCOMPARE(header->loadText(), QStringLiteral("Run is disabled: the load profile has a field in red"));
    }
};

WB_UI_TEST(WindowTruthTest)
#include "windowtruth_test.moc"
