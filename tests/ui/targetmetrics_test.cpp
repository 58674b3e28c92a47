// The target's metrics in the GUI: a target's Metrics field saved with it and checked with one real
// scrape of the built-in server; a run of a target that scrapes shows the chosen series under the
// live load curves on their time axis; the stored run shows them again in run details, and Compare
// overlays them across runs. Offscreen, real runs against the built-in server.

#include "charts/livecharts.h"
#include "charts/timeplot.h"
#include "control/runtask.h"
#include "pages/comparepage.h"
#include "pages/livepage.h"
#include "pages/metricsfield.h"
#include "pages/rundetailpage.h"
#include "pages/targetmetricsview.h"
#include "session/sessiondocument.h"
#include "session/sessionseed.h"
#include "uitestsupport.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class TargetMetricsTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<SessionDocument> m_doc;

    RunSetup setup(const Target& target, uint64_t durationMs)
    {
        RunSetup p;
        p.target = target;
        p.profile.name = "test";
        p.profile.load = defaultLoad();
        p.profile.load.threads = 1;
        p.profile.load.connections = 4;
        p.profile.load.durationUs = durationMs * 1000;
        p.profile.load.intervalUs = 200'000;
        p.sessionPath = m_path;
        return p;
    }

    Target scrapedTarget(const std::string& name)
    {
        Target t = makeTarget(name, "http://builtin/");
        t.scrape.endpoints = { { "server", "http://builtin/metrics" } };
        auto id = m_doc->addTarget(t);
        if (!id) qFatal("%s", id.error().c_str());
        t.id = *id;
        return t;
    }

private slots:
    void initTestCase()
    {
        m_path = m_dir.filePath(QStringLiteral("metrics.wrkbench"));
        QString error;
        m_doc = SessionDocument::open(m_path, true, &error);
        QVERIFY2(m_doc, qPrintable(error));
    }
    void cleanupTestCase() { m_doc.reset(); }

    void demoTargetsScrapeTheBuiltInServer()
    {
        for (const Target& t : demoTargets()) {
            QCOMPARE(t.scrape.endpoints.size(), size_t(1));
            QCOMPARE(t.scrape.endpoints[0].url, std::string("http://builtin/metrics"));
        }
    }

    void metricsFieldParsesAndChecks()
    {
        MetricsField field;
        ScrapeSpec spec { { { "node", "http://127.0.0.1:9100/metrics" }, { "server", "http://builtin/metrics" } },
            "go_.*" };
        field.setSpec(spec);
        QCOMPARE(field.endpointsEdit()->text(),
            QStringLiteral("node=http://127.0.0.1:9100/metrics, server=http://builtin/metrics"));
        auto back = field.spec();
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QVERIFY(*back == spec);

        field.endpointsEdit()->setText(QStringLiteral("a=http://x/, a=http://y/"));
        QVERIFY(!field.spec().ok());
        QVERIFY(QString::fromStdString(field.spec().error()).contains(QStringLiteral("two scrape endpoints")));

        // One real scrape of the built-in server's /metrics, off the UI thread.
        field.endpointsEdit()->setText(QStringLiteral("server=http://builtin/metrics"));
        field.filterEdit()->clear();
        QSignalSpy checked(&field, &MetricsField::checked);
        field.checkButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 15'000);
        QVERIFY2(field.checkText().contains(QStringLiteral("server: 7 series; keeps")), qPrintable(field.checkText()));
        QVERIFY2(field.checkText().contains(QStringLiteral("preset wrkbench")), qPrintable(field.checkText()));
    }

    void targetKeepsItsMetricsField()
    {
        Target t = scrapedTarget("kept");
        auto stored = m_doc->store().targets().get(t.id);
        QVERIFY(stored.ok());
        QVERIFY(stored->scrape == t.scrape);
    }

    void liveRunShowsTheSeriesThenRunDetailsAndCompare()
    {
        const Target target = scrapedTarget("scraped");
        RunTask session;
        LivePage live(&session);
        live.resize(900, 700);
        live.show();
        QSignalSpy finished(&session, &RunTask::finished);
        QSignalSpy scraped(&session, &RunTask::scrapeReceived);
        QVERIFY(session.start(setup(target, 2000)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        const RunOutcome outcome = finished.at(0).at(0).value<RunOutcome>();
        QVERIFY2(outcome.runId > 0, qPrintable(outcome.error + outcome.storageWarning));
        QVERIFY(scraped.count() >= 3); // before, a few intervals, after

        TargetMetricsView* view = live.targetMetrics();
        view->redrawNow();
        QVERIFY(view->isVisible());
        QVERIFY2(view->seriesLabels().contains(QStringLiteral("wrkbench_server_requests_total /s")),
            qPrintable(view->seriesLabels().join(QLatin1Char('|'))));
        QCOMPARE(view->chosen(), QStringLiteral("wrkbench_server_busy_percent %")); // a preset's share first
        // The same time axis as the load curves above.
        live.charts()->redrawNow();
        QCOMPARE(view->plot()->timeAxis(), live.charts()->plot(QStringLiteral("rpsPlot"))->timeAxis());
        view->choose(QStringLiteral("wrkbench_server_requests_total /s"));
        QVERIFY(view->plot()->lineCount() >= 1);
        const PlotLine& line = view->plot()->line(0);
        QCOMPARE(line.name, QStringLiteral("server"));
        QVERIFY(line.points.size() >= 2);
        // Within the load: the scrape after the run saw the idle target, and a point for it would
        // drop the line to 0 past the load charts' end. Every point drawn measured load.
        const auto& rpsPoints = live.charts()->plot(QStringLiteral("rpsPlot"))->line(0).points;
        QVERIFY(!rpsPoints.isEmpty());
        const double loadEndS = rpsPoints.back().x();
        for (const QPointF& p : line.points) {
            QVERIFY(p.x() >= 0);
            QVERIFY2(p.x() <= loadEndS + 0.1, qPrintable(QStringLiteral("%1 s past %2 s").arg(p.x()).arg(loadEndS)));
            QVERIFY2(p.y() > 0, qPrintable(QStringLiteral("%1 at %2 s").arg(p.y()).arg(p.x())));
        }
        // 0 s of the four charts in one place: the widest y labels of them all set the left edge.
        QCOMPARE(view->plot()->plotRect().left(), live.charts()->plot(QStringLiteral("rpsPlot"))->plotRect().left());
        QCOMPARE(view->plot()->plotRect().left(), live.charts()->plot(QStringLiteral("errorsPlot"))->plotRect().left());

        // Stored with the run: run details show the same series; Compare overlays two runs.
        auto data = m_doc->store().runs().load(outcome.runId);
        QVERIFY(data.ok());
        QVERIFY(!data->scrape.empty());
        RunDetailPage details(*data);
        details.resize(1100, 700);
        details.show();
        details.targetMetrics()->redrawNow();
        QVERIFY(details.targetMetrics()->isVisible());
        QCOMPARE(details.targetMetrics()->seriesLabels().size(), view->seriesLabels().size());
        details.targetMetrics()->choose(QStringLiteral("wrkbench_server_requests_total /s"));
        QCOMPARE(details.targetMetrics()->plot()->line(0).points, line.points); // stored as shown
        QCOMPARE(details.targetMetrics()->plot()->plotRect().left(),
            details.charts()->plot(QStringLiteral("rpsPlot"))->plotRect().left());

        QVERIFY(session.start(setup(target, 1000)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60'000);
        const RunOutcome second = finished.at(1).at(0).value<RunOutcome>();
        auto other = m_doc->store().runs().load(second.runId);
        QVERIFY(other.ok());
        ComparePage compare;
        compare.resize(1100, 900);
        compare.show();
        compare.setRuns({ *data, *other });
        TargetMetricsView* overlay = compare.targetMetrics();
        overlay->redrawNow();
        QVERIFY(overlay->isVisible());
        overlay->choose(QStringLiteral("wrkbench_server_requests_total /s"));
        int lines = 0;
        for (int i = 0; i < overlay->plot()->lineCount(); ++i)
            if (overlay->plot()->line(i).visible && !overlay->plot()->line(i).points.isEmpty()) ++lines;
        QCOMPARE(lines, 2); // one per run
    }
};

WB_UI_TEST(TargetMetricsTest)
#include "targetmetrics_test.moc"
