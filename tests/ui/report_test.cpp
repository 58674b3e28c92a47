// Reports in the GUI, on a session made by the real wrkbench-cli: the
// comparability warning above the Experiments table (a study that sets an imported
// wrk log beside a run measured here) and above the Compare table; the knee chart
// for a sweep of two rates and in the details of a stage run; File > Export >
// HTML report writing the engine's self-contained report.

#include "charts/kneechart.h"
#include "mainwindow.h"
#include "models/experimentresultsmodel.h"
#include "pages/comparepage.h"
#include "pages/experimentpage.h"
#include "pages/rundetailpage.h"
#include "session/sessiondocument.h"
#include "store/sessionstore.h"
#include "testsupport.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <vector>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class ReportTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string m_db;

    static void cli(const std::vector<std::string>& args)
    {
        const auto r = test::runCli(args, 60'000);
        QVERIFY2(r.exitCode == 0, (r.err + r.out).c_str());
    }

    static QString readAll(const QString& path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private slots:
    // Runs 1-8: the container write-up's wrk reports, imported; run 9: measured here; runs 10-11:
    // the built-in server at 100 and 200 req/s; run 12: a stage ramp. Study 1: the imported run 1
    // beside run 9; study 2: the two rates.
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("lab.wrkbench")).toStdString();
        cli({ "import", "--db", m_db,
            test::sourceDir() + "/../shared/reference/container-performance-comparison.txt" });
        cli({ "run", "--db", m_db, "--target", "local", "-t1", "-c2", "-d300ms", "http://builtin/" });
        for (const char* rate : { "100", "200" })
            cli({ "run", "--db", m_db, "--target", "paced", "-t1", "-c2", "-d500ms", "--interval", "100ms", "-R", rate,
                "http://builtin/" });
        cli({ "run", "--db", m_db, "--target", "ramp", "-t1", "-c2", "--interval", "100ms", "--stages",
            "400ms:100,400ms:300", "http://builtin/" });
        cli({ "study", "--db", m_db, "--runs", "1,9", "--level", "none", "--name", "mixed" });
        cli({ "study", "--db", m_db, "--runs", "10-11", "--level", "rate", "--name", "rates" });
    }

    /// Runs that differ only in what is compared show no warning, unless the loader of one of them
    /// was saturated (a busy machine made them: the tests share it): then that warning alone.
    static void expectComparable(const QLabel* warning, MainWindow& w, const std::vector<int64_t>& ids)
    {
        bool saturated = false;
        for (int64_t id : ids)
            saturated = saturated || w.document()->store().runs().load(id)->run.totals.loaderCost.saturated();
        if (!saturated) {
            QVERIFY2(warning->isHidden(), qPrintable(warning->text()));
            return;
        }
        QVERIFY2(warning->text().contains(QStringLiteral("he figures may measure the loader rather than the target: "
                                                         "loader saturated"))
                && !warning->text().contains(QStringLiteral("differ in more than")),
            qPrintable(warning->text()));
    }

    void experimentsTabWarnsAndExportsHtml()
    {
        MainWindow w;
        QVERIFY(w.openSession(QString::fromStdString(m_db), false));
        ExperimentPage* page = experimentPage(w);
        QVERIFY(page->selectExperiment(1));
        QCOMPARE(page->resultsModel()->rowCount(), 2);
        QVERIFY(!page->findChild<QLabel*>(QStringLiteral("ExperimentComparability"))->isHidden());
        const QString warning = page->findChild<QLabel*>(QStringLiteral("ExperimentComparability"))->text();
        QVERIFY2(warning.contains(QStringLiteral("imported vs measured (imported: run 1; measured: run 9)")),
            qPrintable(warning));
        QVERIFY2(warning.contains(QStringLiteral("engine version")), qPrintable(warning));
        QVERIFY(page->findChild<KneeChart*>(QStringLiteral("ExperimentKnee"))->isHidden()); // one level: no curve

        // File > Export > HTML report is there for a selected experiment, and writes the engine's report.
        auto* action = w.findChild<QAction*>(QStringLiteral("exportHtmlReportAction"));
        QVERIFY(action);
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu() && menu->text().contains(QStringLiteral("File")))
                for (QAction* sub : menu->menu()->actions())
                    if (sub->menu()) emit sub->menu()->aboutToShow();
        QVERIFY(action->isEnabled());
        const QString html = m_dir.filePath(QStringLiteral("mixed.html"));
        QVERIFY(page->exportHtml(html));
        const QString text = readAll(html);
        QVERIFY(text.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(text.contains(QStringLiteral("<table id=\"results-table\" class=\"fit\">")));
        QVERIFY(text.contains(QStringLiteral("<tr class=\"warning\">")));
        QVERIFY(text.contains(QStringLiteral("lab.wrkbench")));
        QVERIFY(!page->exportHtml(m_dir.filePath(QStringLiteral("missing/x.html"))));
        QVERIFY(!page->findChild<QLabel*>(QStringLiteral("ExperimentError"))->isHidden());

        // Two rates: comparable, and a knee curve of two points.
        QVERIFY(page->selectExperiment(2));
        expectComparable(page->findChild<QLabel*>(QStringLiteral("ExperimentComparability")), w, { 10, 11 });
        QVERIFY(!page->findChild<KneeChart*>(QStringLiteral("ExperimentKnee"))->isHidden());
        const KneeChartData& knee = page->findChild<KneeChart*>(QStringLiteral("ExperimentKnee"))->data();
        QCOMPARE(knee.series.size(), 1);
        QCOMPARE(knee.series[0].name, QStringLiteral("paced"));
        QCOMPARE(knee.series[0].p50.size(), 2);
        QVERIFY(knee.series[0].p50[0].x() > 0 && knee.series[0].p50[1].x() > knee.series[0].p50[0].x());
        QVERIFY(knee.series[0].p99[1].y() >= knee.series[0].p50[1].y());
    }

    void compareTabWarnsAboutDifferingRuns()
    {
        MainWindow w;
        QVERIFY(w.openSession(QString::fromStdString(m_db), false));
        ComparePage* page = comparePage(w);
        auto load = [&](std::vector<int64_t> ids) {
            std::vector<RunData> runs;
            for (int64_t id : ids)
                runs.push_back(*w.document()->store().runs().load(id));
            page->setRuns(std::move(runs));
        };
        load({ 1, 9 });
        QVERIFY(!page->findChild<QLabel*>(QStringLiteral("compareWarning"))->isHidden());
        QVERIFY2(page->findChild<QLabel*>(QStringLiteral("compareWarning"))
                     ->text()
                     .contains(QStringLiteral("imported vs measured")),
            qPrintable(page->findChild<QLabel*>(QStringLiteral("compareWarning"))->text()));
        QVERIFY(page->findChild<QLabel*>(QStringLiteral("compareWarning"))->text().contains(QStringLiteral("threads")));
        // The PNG report carries it too (taller than without it).
        const QString withWarning = m_dir.filePath(QStringLiteral("warned.png"));
        QVERIFY(page->exportReport(withWarning, 1200));

        load({ 10, 11 }); // the same load but for the rate: the rate is named
        QVERIFY(!page->findChild<QLabel*>(QStringLiteral("compareWarning"))->isHidden());
        QVERIFY(page->findChild<QLabel*>(QStringLiteral("compareWarning"))
                    ->text()
                    .contains(QStringLiteral("rate (100/s: run 10; 200/s: run 11)")));

        load({ 10, 10 });
        expectComparable(page->findChild<QLabel*>(QStringLiteral("compareWarning")), w, { 10, 10 });
    }

    void stageRunDetailsShowTheKnee()
    {
        auto store = SessionStore::open(m_db);
        QVERIFY(store);
        auto ramp = (*store)->runs().load(12);
        QVERIFY(ramp);
        RunDetailPage details(*ramp);
        QVERIFY(details.findChild<KneeChart*>(QStringLiteral("RunKnee")));
        const KneeChartData& knee = details.findChild<KneeChart*>(QStringLiteral("RunKnee"))->data();
        QCOMPARE(knee.series.size(), 1);
        QCOMPARE(knee.series[0].p50.size(), 2); // a point per stage
        QCOMPARE(knee.series[0].labels[1], QStringLiteral("stage 2: 300/s"));
        QVERIFY(knee.series[0].p50[1].x() > knee.series[0].p50[0].x()); // the second stage asked for more

        auto flat = (*store)->runs().load(10);
        QVERIFY(flat);
        RunDetailPage plain(*flat);
        QVERIFY(!plain.findChild<KneeChart*>(QStringLiteral("RunKnee")));
    }
};

WB_UI_TEST(ReportTest)
#include "report_test.moc"
