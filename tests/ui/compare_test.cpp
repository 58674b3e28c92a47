// The Compare view against real session files: which run is the baseline and
// how the user changes it (Baseline box, a column's context menu, a card),
// the req/s loss as the studies print it ("Loss wrt native"), the req/s
// spread (between intervals, and wrk's per-thread Req/Sec of imported
// reports), copying cells and the whole table (TSV, Markdown), and a report
// of many runs that is as wide as its table.

#include "charts/comparecharts.h"
#include "import/wrkimport.h"
#include "models/comparemodel.h"
#include "pages/comparefrontdoor.h"
#include "pages/compareheadlines.h"
#include "pages/comparepage.h"
#include "pages/comparetable.h"
#include "session/sessiondocument.h"
#include "text/format.h"
#include "uitestsupport.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <numeric>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

// Two reports of ../shared/reference/container-performance-comparison.txt, as wrk printed them.
const char* const NATIVE_AND_DOCKER = R"(native - http-pkg

Running 30s test @ http://localhost:8080
  12 threads and 400 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.47ms    7.39ms 126.27ms   88.70%
    Req/Sec     8.78k     4.38k   63.92k    82.47%
  3142392 requests in 30.09s, 392.58MB read
  Socket errors: connect 0, read 376, write 0, timeout 0
Requests/sec: 104418.14
Transfer/sec:     13.05MB

Docker - http-pkg

Running 30s test @ http://localhost:8080
  12 threads and 400 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    11.16ms    4.78ms  95.97ms   78.89%
    Req/Sec     3.00k   397.64     4.15k    71.00%
  1076704 requests in 30.04s, 134.51MB read
  Socket errors: connect 0, read 261, write 0, timeout 0
Requests/sec:  35839.72
Transfer/sec:      4.48MB
)";

QAction* actionNamed(QMenu* menu, const QString& text)
{
    for (QAction* a : menu->actions()) {
        if (a->text() == text) return a;
        if (a->menu())
            if (QAction* inner = actionNamed(a->menu(), text)) return inner;
    }
    return nullptr;
}

QString cellText(const CompareModel& model, const char* key, int column)
{
    return model.index(model.rowOfMetric(QString::fromLatin1(key)), column).data().toString();
}

QLabel* cardLabel(CompareHeadlines* headlines, int run, const char* name)
{
    QWidget* card = headlines->cardOf(run);
    return card ? card->findChild<QLabel*>(QString::fromLatin1(name)) : nullptr;
}

} // namespace

class CompareTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<SessionDocument> m_doc;

    int64_t target(const char* name, const char* url)
    {
        auto id = m_doc->addTarget(makeTarget(name, url));
        return id ? *id : 0;
    }
    RunData run(int64_t targetId, const SyntheticRun& s)
    {
        const int64_t id = addSyntheticRun(m_doc->store(), targetId, s);
        auto data = m_doc->store().runs().load(id);
        return data ? *data : RunData {};
    }
    /// A completed run whose intervals had these rates (req/s), stored as the recorder would.
    RunData runWithRates(int64_t targetId, const std::vector<double>& rates)
    {
        SyntheticRun s;
        s.intervalRates = rates;
        return run(targetId, s);
    }
    /// native 8,000 req/s, docker 3,000, k8s 1,500 (latency 1, 3, 6 ms), oldest first.
    std::vector<RunData> threeLevels()
    {
        const int64_t native = target("native", "http://10.0.0.1/");
        const int64_t docker = target("docker", "http://10.0.0.2/");
        const int64_t k8s = target("k8s", "http://10.0.0.3/");
        SyntheticRun a;
        a.requestsPerS = 8000;
        a.latencyUs = 1000;
        SyntheticRun b;
        b.requestsPerS = 3000;
        b.latencyUs = 3000;
        SyntheticRun c;
        c.requestsPerS = 1500;
        c.latencyUs = 6000;
        c.notes = "tuned | default";
        return { run(native, a), run(docker, b), run(k8s, c) };
    }

private slots:
    void init()
    {
        static int n = 0;
        QString error;
        m_doc = SessionDocument::open(m_dir.filePath(QStringLiteral("compare-%1.wrkbench").arg(++n)), true, &error);
        QVERIFY2(m_doc, qPrintable(error));
    }
    void cleanup() { m_doc.reset(); }

    void baselineIsExplicitAndFollowsTheUser()
    {
        const std::vector<RunData> runs = threeLevels();
        QCOMPARE(runs.size(), size_t(3));
        const RunRecord& a = runs[0].run;
        const RunRecord& b = runs[1].run;
        const RunRecord& c = runs[2].run;
        QVERIFY(a.id && b.id && c.id);
        QCOMPARE(a.totals.requestsPerS, 8000.0);
        QCOMPARE(b.totals.requestsPerS, 3000.0);
        QCOMPARE(c.totals.requestsPerS, 1500.0);

        ComparePage page;
        CompareModel& model = *page.model();
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy messages(&page, &ComparePage::message);
        page.setRuns(runs);

        // The first run given is the baseline, and every place says which one.
        QCOMPARE(model.baselineId(), a.id);
        const QString baselineTitle = QStringLiteral("#%1 native (baseline)").arg(a.id);
        QCOMPARE(model.columnTitle(CompareModel::valueColumn(0)), baselineTitle);
        QVERIFY(model.headerData(CompareModel::valueColumn(0), Qt::Horizontal).toString().startsWith(baselineTitle));
        QVERIFY(model.headerData(CompareModel::valueColumn(0), Qt::Horizontal, Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.headerData(CompareModel::valueColumn(1), Qt::Horizontal)
                     .toString()
                     .contains(QStringLiteral("baseline")));
        QCOMPARE(model.headerData(CompareModel::deltaColumn(1), Qt::Horizontal).toString(),
            QStringLiteral("Δ vs #%1").arg(a.id));
        QCOMPARE(page.findChild<QComboBox*>(QStringLiteral("baselineBox"))->currentData().toLongLong(), a.id);
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 0, "baselineRole")->text(),
            QStringLiteral("BASELINE"));
        QVERIFY(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 1, "baselineRole")
                    ->text()
                    .contains(QStringLiteral("Use as baseline")));

        // Deltas and the loss against native: docker −62.5 %, k8s −81.25 %.
        QCOMPARE(model.deltaPct(QStringLiteral("rps"), 1), -62.5);
        QCOMPARE(model.deltaPct(QStringLiteral("rps"), 2), -81.25);
        QCOMPARE(cellText(model, "rps", CompareModel::deltaColumn(1)), QStringLiteral("−62.5 %"));
        QCOMPARE(cellText(model, "rps_loss", CompareModel::valueColumn(0)), QStringLiteral("0.00 %"));
        QCOMPARE(cellText(model, "rps_loss", CompareModel::valueColumn(1)), QStringLiteral("62.50 %"));
        QCOMPARE(cellText(model, "rps_loss", CompareModel::valueColumn(2)), QStringLiteral("81.25 %"));
        QCOMPARE(cellText(model, "rps_loss", CompareModel::deltaColumn(1)), QString()); // the loss is the delta
        QCOMPARE(model.index(model.rowOfMetric(QStringLiteral("rps_loss")), CompareModel::valueColumn(1))
                     .data(Qt::ForegroundRole)
                     .value<QColor>(),
            deltaColor(-62.5, true));
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 1, "lossLine")->text(),
            QStringLiteral("62.50 % loss vs the baseline"));
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 2, "lossLine")->text(),
            QStringLiteral("81.25 % loss vs the baseline"));
        QVERIFY(!cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 0,
            "lossLine")); // the baseline loses nothing against itself

        const QColor nativeColor = model.runColor(0);
        QVERIFY(nativeColor.isValid());
        // Docker as the baseline, from the context menu of its column: it moves
        // first, the others keep their order, every number turns around.
        std::unique_ptr<QMenu> menu(page.findChild<CompareTableView*>(QStringLiteral("table"))
                                        ->createContextMenu(CompareModel::valueColumn(1), nullptr));
        QAction* use = actionNamed(menu.get(), QStringLiteral("Use #%1 docker as baseline").arg(b.id));
        QVERIFY(use);
        use->trigger();
        QCOMPARE(model.runs()[0].id, b.id);
        QCOMPARE(model.runs()[1].id, a.id);
        QCOMPARE(model.runs()[2].id, c.id);
        QCOMPARE(model.columnTitle(CompareModel::valueColumn(0)), QStringLiteral("#%1 docker (baseline)").arg(b.id));
        QCOMPARE(model.headerData(CompareModel::deltaColumn(2), Qt::Horizontal).toString(),
            QStringLiteral("Δ vs #%1").arg(b.id));
        QCOMPARE(model.value(QStringLiteral("rps"), 0), 3000.0);
        QVERIFY(std::fabs(model.deltaPct(QStringLiteral("rps"), 1) - 500.0 / 3.0) < 1e-9); // native: +166.7 %
        QCOMPARE(model.deltaPct(QStringLiteral("rps"), 2), -50.0); // k8s: half of docker
        QCOMPARE(cellText(model, "rps", CompareModel::deltaColumn(1)), QStringLiteral("+166.7 %"));
        QCOMPARE(cellText(model, "rps", CompareModel::deltaColumn(2)), QStringLiteral("−50.0 %"));
        QCOMPARE(cellText(model, "rps_loss", CompareModel::valueColumn(2)), QStringLiteral("50.00 %"));
        QCOMPARE(cellText(model, "rps_loss", CompareModel::valueColumn(1)), QStringLiteral("166.67 % faster"));
        // Latency is worse at 3 ms than at 1 ms: the p50 of native is now far below the baseline's.
        QVERIFY(model.deltaPct(QStringLiteral("p50"), 1) < -60);
        QCOMPARE(page.findChild<QComboBox*>(QStringLiteral("baselineBox"))->currentData().toLongLong(), b.id);
        QCOMPARE(page.findChild<QComboBox*>(QStringLiteral("baselineBox"))->itemData(0).toLongLong(),
            a.id); // the box keeps the order given
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 0, "baselineRole")->text(),
            QStringLiteral("BASELINE"));
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 1, "lossLine")->text(),
            QStringLiteral("no loss: 166.67 % faster than the baseline"));
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 2, "lossLine")->text(),
            QStringLiteral("50.00 % loss vs the baseline"));
        QCOMPARE(messages.count(), 1);
        QVERIFY(messages.last().at(0).toString().contains(QStringLiteral("#%1 docker").arg(b.id)));
        // Colours belong to the runs, not to the positions.
        QCOMPARE(model.runColor(1), nativeColor);
        QVERIFY(model.headerData(CompareModel::valueColumn(0), Qt::Horizontal, Qt::FontRole).value<QFont>().bold());

        // k8s from its card's link, then native back from the Baseline box.
        QLabel* link = cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 2, "baselineRole");
        QVERIFY(link);
        emit link->linkActivated(QStringLiteral("baseline"));
        QCOMPARE(model.baselineId(), c.id);
        QCOMPARE(model.deltaPct(QStringLiteral("rps"), 2), 100.0); // docker vs k8s
        QCOMPARE(model.runs()[1].id, a.id);
        QCOMPARE(model.deltaPct(QStringLiteral("rps"), 1), 8000.0 / 1500.0 * 100.0 - 100.0);
        emit page.findChild<QComboBox*>(QStringLiteral("baselineBox"))->activated(0);
        QCOMPARE(model.baselineId(), a.id);
        QCOMPARE(model.deltaPct(QStringLiteral("rps"), 1), -62.5);
        QCOMPARE(page.charts()->runCount(), 3);

        // Deleting a compared run keeps the baseline; deleting the baseline falls back to the first left.
        page.setBaselineRun(c.id);
        page.retainRuns({ b.id, c.id });
        QCOMPARE(model.runs().size(), size_t(2));
        QCOMPARE(model.baselineId(), c.id);
        page.retainRuns({ b.id });
        QCOMPARE(model.baselineId(), b.id);
    }

    /// Two runs alike in all but the target: no warning; one of them measured on a saturated loader:
    /// the softer warning that the figures may measure the loader, not that the runs differ.
    void aSaturatedLoaderIsNamedApartFromDifferingSettings()
    {
        std::vector<RunData> runs { runWithRates(target("a", "http://10.0.0.1/"), { 1000, 1000 }),
            runWithRates(target("b", "http://10.0.0.2/"), { 900, 900 }) };
        ComparePage page;
        auto* warning = page.findChild<QLabel*>(QStringLiteral("compareWarning"));
        QVERIFY(warning);
        page.setRuns(runs);
        QVERIFY2(warning->isHidden(), qPrintable(warning->text()));

        LoaderCost& cost = runs[1].run.totals.loaderCost;
        cost.workerWallUs = 2'000'000;
        cost.workerCpuUs = 400'000;
        cost.workerWaitUs = 1'560'000; // 98% busy
        page.setRuns(runs);
        QVERIFY(!warning->isHidden());
        QVERIFY2(warning->text().startsWith(
                     QStringLiteral("⚠ The figures may measure the loader rather than the target: loader saturated (")),
            qPrintable(warning->text()));

        runs[1].run.config.threads = runs[0].run.config.threads + 1;
        page.setRuns(runs);
        QVERIFY2(warning->text().startsWith(QStringLiteral("⚠ The runs differ in more than the target: threads (")),
            qPrintable(warning->text()));
        QVERIFY(warning->text().contains(QStringLiteral("loader saturated (")));
    }

    void spreadOfRequestsPerSecond()
    {
        const int64_t t = target("svc", "http://10.0.0.9/");
        // Rates 1,000 / 2,000 / 3,000 / 2,000: mean 2,000, sample stdev sqrt(2e6 / 3) = 816.5.
        const RunData varying = runWithRates(t, { 1000, 2000, 3000, 2000 });
        QCOMPARE(varying.intervals.size(), size_t(4));
        QCOMPARE(varying.run.totals.requestsPerS, 2000.0);
        SyntheticRun steady;
        steady.requestsPerS = 2000;
        const RunData flat = run(t, steady);

        ComparePage page;
        page.setRuns({ varying, flat });
        const CompareModel& model = *page.model();
        const double expected = std::sqrt(2e6 / 3);
        QVERIFY(std::fabs(model.value(QStringLiteral("rps_stdev"), 0) - expected) < 1e-6);
        QCOMPARE(model.rateSpread(0).intervals, 4);
        QCOMPARE(model.value(QStringLiteral("rps_stdev"), 1), 0.0);
        QCOMPARE(cellText(model, "rps_stdev", CompareModel::valueColumn(0)), QStringLiteral("± 816.5 (40.8 %)"));
        QCOMPARE(cellText(model, "rps_stdev", CompareModel::deltaColumn(1)), QString());
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 0, "rpsSpread")->text(),
            QStringLiteral("± 816 (40.8 %) over 4 intervals"));
        // Same mean req/s: no loss either way.
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 1, "lossLine")->text(),
            QStringLiteral("no loss vs the baseline (0.00 %)"));
    }

    // A difference smaller than the runs' own variation is no verdict: grey, in words, for req/s
    // and latency; repeated runs of one setup give the variation when the comparison holds them.
    void aDifferenceWithinTheRunsOwnVariationIsNoGainNorLoss()
    {
        const int64_t ta = target("noisy-a", "http://10.0.0.21/");
        const int64_t tb = target("noisy-b", "http://10.0.0.22/");
        SyntheticRun a;
        // Median 1,000, absolute deviations 100, 100, 0, 200, 200: robust CV 1.4826 × 100 / 1000.
        a.intervalRates = { 900, 1100, 1000, 1200, 800 };
        a.intervalLatenciesUs = { 1000, 1300, 700, 1150, 850 }; // p99's robust CV ~22 % between intervals
        SyntheticRun b = a;
        b.intervalRates = { 948, 1148, 1048, 1248, 852 }; // 4.88 % faster (whole requests per interval)
        b.intervalLatenciesUs = { 1080, 1380, 780, 1230, 930 }; // ~8 % slower
        ComparePage page;
        page.setRuns({ run(ta, a), run(tb, b) });
        const CompareModel& model = *page.model();
        const QColor grey = noiseColor();
        const auto color = [&](const char* key, int column) {
            return model.index(model.rowOfMetric(QString::fromLatin1(key)), column)
                .data(Qt::ForegroundRole)
                .value<QColor>();
        };
        QVERIFY(std::fabs(model.deltaPct(QStringLiteral("rps"), 1) - 4.88) < 1e-6);
        QVERIFY(std::fabs(model.noisePct(QStringLiteral("rps"), 0) - 14.826) < 1e-6);
        QVERIFY(model.withinNoise(QStringLiteral("rps"), 1));
        QCOMPARE(color("rps", CompareModel::deltaColumn(1)), grey);
        QCOMPARE(color("rps_loss", CompareModel::valueColumn(1)), grey);
        QCOMPARE(cellText(model, "rps_loss", CompareModel::valueColumn(1)), QStringLiteral("4.88 % faster"));
        QVERIFY2(model.lossText(1).startsWith(QStringLiteral("within the runs' own variation")),
            qPrintable(model.lossText(1)));
        QVERIFY(model.deltaPct(QStringLiteral("p99"), 1) > 3);
        QVERIFY(model.withinNoise(QStringLiteral("p99"), 1));
        QCOMPARE(color("p99", CompareModel::deltaColumn(1)), grey);
        QLabel* loss = cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 1, "lossLine");
        QVERIFY(loss->text().startsWith(QStringLiteral("within the runs' own variation")));
        QVERIFY(loss->styleSheet().contains(QStringLiteral("#757575")));

        // Steady runs: a 4 % difference is a gain, in green.
        SyntheticRun c;
        c.requestsPerS = 1000;
        SyntheticRun d;
        d.requestsPerS = 1040;
        const RunData steadyA = run(ta, c);
        const RunData steadyB = run(tb, d);
        page.setRuns({ steadyA, steadyB });
        QVERIFY(!page.model()->withinNoise(QStringLiteral("rps"), 1));
        QCOMPARE(color("rps", CompareModel::deltaColumn(1)), QColor(0x1b, 0x8a, 0x3c));
        QCOMPARE(page.model()->lossText(1), QStringLiteral("no loss: 4.00 % faster than the baseline"));

        // A repetition of the baseline's setup that made 1,100 req/s: the setup varies 6.7 %
        // between its runs, so B's 4 % is within it, though every run is steady.
        SyntheticRun again;
        again.requestsPerS = 1100;
        page.setRuns({ steadyA, steadyB, run(ta, again) });
        QVERIFY(
            std::fabs(page.model()->noisePct(QStringLiteral("rps"), 0) - 100.0 * std::sqrt(5000.0) / 1050.0) < 1e-6);
        QVERIFY(page.model()->withinNoise(QStringLiteral("rps"), 1));
        // The repetition against its own baseline: held to their intervals' variation (none), not
        // to the spread the two of them make.
        QVERIFY(!page.model()->withinNoise(QStringLiteral("rps"), 2));
    }

    void connectionPhasesAreRowsWhenRunsHaveThem()
    {
        const int64_t t = target("svc", "https://10.0.0.9/");
        SyntheticRun slow;
        slow.connectUs = 2000;
        slow.tlsHandshakeUs = 8000;
        slow.latencyUs = 4000;
        SyntheticRun fast = slow;
        fast.tlsHandshakeUs = 2000;
        ComparePage page;
        page.setRuns({ run(t, slow), run(t, fast) });
        const CompareModel& model = *page.model();
        QVERIFY(model.rowOfMetric(QStringLiteral("phases")) >= 0);
        QCOMPARE(model.value(QStringLiteral("connect_count"), 0), 50.0);
        QCOMPARE(cellText(model, "tls_handshake_p50", CompareModel::valueColumn(0)), QStringLiteral("8.00"));
        QCOMPARE(cellText(model, "tls_handshake_p99", CompareModel::deltaColumn(1)), QStringLiteral("−75.0 %"));
        QCOMPARE(cellText(model, "connect_p50", CompareModel::deltaColumn(1)), QStringLiteral("±0.0 %"));
        QVERIFY(model.value(QStringLiteral("first_byte_p50"), 0) > 0);

        // Runs without them (imported, or stored before schema 6) get no such rows.
        SyntheticRun none;
        ComparePage plain;
        plain.setRuns({ run(t, none), run(t, none) });
        QCOMPARE(plain.model()->rowOfMetric(QStringLiteral("phases")), -1);
        QCOMPARE(plain.model()->rowOfMetric(QStringLiteral("connect_p50")), -1);
    }

    // Runs judged by SLOs: an "SLOs" section with the summary row and one row per expression
    // of any compared run, pass or fail with the value; "—" where a run was not judged by it.
    void sloRowsShowEachRunsVerdicts()
    {
        const int64_t t = target("svc", "http://10.0.0.9/");
        SyntheticRun fast;
        fast.latencyUs = 1000; // 1 to 2 ms
        fast.slos = { "p99<60s", "p99<3ms" };
        SyntheticRun slow;
        slow.latencyUs = 5000; // 5 to 10 ms
        slow.slos = { "p99<3ms", "rps>1000000000" };
        ComparePage page;
        page.setRuns({ run(t, fast), run(t, slow), run(t, SyntheticRun {}) });
        const CompareModel& model = *page.model();
        QVERIFY(model.rowOfMetric(QStringLiteral("slos")) >= 0);
        QVERIFY(model.index(model.rowOfMetric(QStringLiteral("slos")), 0).data(CompareModel::IsSectionRole).toBool());
        const int base = CompareModel::valueColumn(0);
        const int second = CompareModel::valueColumn(1);
        const int third = CompareModel::valueColumn(2);
        QCOMPARE(cellText(model, "slo", base), QStringLiteral("all met (2)"));
        QCOMPARE(cellText(model, "slo", second), QStringLiteral("2 of 2 failed"));
        QCOMPARE(cellText(model, "slo", third), QStringLiteral("—"));
        // The union of the expressions, in the order they first appear.
        const int first = model.rowOfMetric(QStringLiteral("slo:p99<60s"));
        QVERIFY(first > 0);
        QCOMPARE(model.rowOfMetric(QStringLiteral("slo:p99<3ms")), first + 1);
        QCOMPARE(model.rowOfMetric(QStringLiteral("slo:rps>1000000000")), first + 2);
        QVERIFY2(cellText(model, "slo:p99<3ms", base).startsWith(QStringLiteral("✓ ")),
            qPrintable(cellText(model, "slo:p99<3ms", base)));
        QVERIFY2(cellText(model, "slo:p99<3ms", second).startsWith(QStringLiteral("✗ ")),
            qPrintable(cellText(model, "slo:p99<3ms", second)));
        QCOMPARE(cellText(model, "slo:p99<60s", second), QStringLiteral("—"));
        QVERIFY(cellText(model, "slo:rps>1000000000", second).endsWith(QStringLiteral(" req/s")));
        const QModelIndex failed = model.index(model.rowOfMetric(QStringLiteral("slo:p99<3ms")), second);
        QCOMPARE(failed.data(Qt::ForegroundRole).value<QColor>(), QColor(0xc6, 0x28, 0x28));
        QCOMPARE(model.index(model.rowOfMetric(QStringLiteral("slo")), base).data(Qt::ForegroundRole).value<QColor>(),
            QColor(0x2e, 0x7d, 0x32));
        // The CSV: the verdict and the value apart, the value a number in the SLO's unit.
        const QString csv = model.toCsv();
        QVERIFY2(csv.contains(QStringLiteral("\nslo:p99<3ms:met,true,false,,,\n")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("\nslo:p99<3ms:value_us,")), qPrintable(csv));
        QVERIFY(!csv.contains(QStringLiteral("✓")));
        QVERIFY(csv.contains(QStringLiteral("\np99_us,")));
        QVERIFY(csv.contains(QStringLiteral("\nrps_req_per_s,")));
        QVERIFY(csv.contains(QStringLiteral("\ntransfer_bytes_per_s,")));
        QVERIFY(csv.contains(QStringLiteral("\nrps_loss_pct,")));
        QVERIFY(csv.contains(QStringLiteral("\nsocket_errors,")));
        // The window: latency in ms, whatever the SLO's expression said.
        QVERIFY2(cellText(model, "slo:p99<3ms", base).endsWith(QStringLiteral(" ms")),
            qPrintable(cellText(model, "slo:p99<3ms", base)));

        // Runs without SLOs: no such section.
        ComparePage plain;
        plain.setRuns({ run(t, SyntheticRun {}), run(t, SyntheticRun {}) });
        QCOMPARE(plain.model()->rowOfMetric(QStringLiteral("slos")), -1);
        QCOMPARE(plain.model()->rowOfMetric(QStringLiteral("slo")), -1);
    }

    void importedReportsAsInTheReference()
    {
        const WrkLogParseResult parsed = parseWrkLog(NATIVE_AND_DOCKER);
        QCOMPARE(parsed.reports.size(), size_t(2));
        ImportOptions options;
        options.sourceName = "container-performance-comparison.txt";
        auto ids = importWrkReports(m_doc->store(), parsed.reports, options);
        QVERIFY(ids && ids->size() == 2);
        m_doc->reload();
        std::vector<RunData> runs;
        for (int64_t id : *ids) {
            auto data = m_doc->store().runs().load(id);
            QVERIFY(data);
            runs.push_back(*data);
        }

        ComparePage page;
        page.setRuns(runs);
        const CompareModel& model = *page.model();
        // Loss from the totals: 1 − 35,839.72 / 104,418.14 (the study's 65.83 % divides the per-thread averages).
        QVERIFY(std::fabs(model.lossPct(1) - (1 - 35839.72 / 104418.14) * 100) < 1e-9);
        QCOMPARE(cellText(model, "rps_loss", CompareModel::valueColumn(1)), QStringLiteral("65.68 %"));
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 1, "lossLine")->text(),
            QStringLiteral("65.68 % loss vs the baseline"));
        // wrk's Req/Sec row is stored: the study's "8.78k +/- 4.38k".
        QCOMPARE(model.value(QStringLiteral("thread_rps"), 0), 8780.0);
        QCOMPARE(model.value(QStringLiteral("thread_rps_stdev"), 0), 4380.0);
        QCOMPARE(
            cellText(model, "thread_rps_stdev", CompareModel::valueColumn(0)), QStringLiteral("± 4,380.0 (49.9 %)"));
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 0, "rpsSpread")->text(),
            QStringLiteral("per thread 8,780 ± 4,380"));
        QCOMPARE(cardLabel(page.findChild<CompareHeadlines*>(QStringLiteral("headlines")), 1, "rpsSpread")->text(),
            QStringLiteral("per thread 3,000 ± 398"));
        // A wrk report has no intervals: no spread over them.
        QVERIFY(std::isnan(model.value(QStringLiteral("rps_stdev"), 0)));
        QCOMPARE(cellText(model, "rps_stdev", CompareModel::valueColumn(0)), QStringLiteral("—"));
    }

    void copyCellsAndTable()
    {
        const std::vector<RunData> runs = threeLevels();
        const int64_t a = runs[0].run.id, b = runs[1].run.id, c = runs[2].run.id;
        ComparePage page;
        page.setRuns(runs);
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        CompareTableView* table = page.findChild<CompareTableView*>(QStringLiteral("table"));
        const CompareModel& model = *page.model();
        QCOMPARE(table->selectionMode(), QAbstractItemView::ExtendedSelection);
        QVERIFY(table->focusPolicy() & Qt::ClickFocus);

        // Docker's req/s and Δ, and k8s's p99 Δ: two rows, three columns, one gap.
        const int rps = model.rowOfMetric(QStringLiteral("rps"));
        const int p99 = model.rowOfMetric(QStringLiteral("p99"));
        QItemSelection selection(
            model.index(rps, CompareModel::valueColumn(1)), model.index(rps, CompareModel::deltaColumn(1)));
        selection.select(
            model.index(p99, CompareModel::deltaColumn(2)), model.index(p99, CompareModel::deltaColumn(2)));
        table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
        QGuiApplication::clipboard()->clear();
        table->setFocus();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        const QString p99Delta = cellText(model, "p99", CompareModel::deltaColumn(2));
        QVERIFY(p99Delta.startsWith(QStringLiteral("+"))); // 6–12 ms against 1–2 ms
        QCOMPARE(QGuiApplication::clipboard()->text(),
            QStringLiteral("Metric\t#%1 docker\tΔ vs #%2\tΔ vs #%2\n"
                           "Requests/s\t3,000.0\t−62.5 %\t\n"
                           "p99\t\t\t%3\n")
                .arg(b)
                .arg(a)
                .arg(p99Delta));

        // The whole table, tab-separated, from the context menu.
        std::unique_ptr<QMenu> menu(table->createContextMenu(0, nullptr));
        QVERIFY(actionNamed(menu.get(), QStringLiteral("Copy"))->isEnabled());
        actionNamed(menu.get(), QStringLiteral("Copy table"))->trigger();
        const QStringList tsv = QGuiApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(tsv.size(), model.rowCount() + 1);
        QCOMPARE(tsv[0],
            QStringLiteral("Metric\t#%1 native (baseline)\t#%2 docker\tΔ vs #%1\t#%3 k8s\tΔ vs #%1")
                .arg(a)
                .arg(b)
                .arg(c));
        QCOMPARE(tsv[1], QStringLiteral("Throughput\t\t\t\t\t"));
        QCOMPARE(tsv[2], QStringLiteral("Requests/s\t8,000.0\t3,000.0\t−62.5 %\t1,500.0\t−81.3 %"));
        QCOMPARE(tsv[3], QStringLiteral("Loss vs baseline (req/s)\t0.00 %\t62.50 %\t\t81.25 %\t"));
        QVERIFY(tsv.contains(QStringLiteral("Target\tnative\tdocker\t\tk8s\t")));
        QCOMPARE(tsv.last(), QStringLiteral("Notes\t\t\t\ttuned | default\t"));

        // As Markdown, for the wiki page.
        actionNamed(menu.get(), QStringLiteral("Copy table as Markdown"))->trigger();
        const QStringList md = QGuiApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(md[0],
            QStringLiteral("| Metric | #%1 native (baseline) | #%2 docker | Δ vs #%1 | #%3 k8s | Δ vs #%1 |")
                .arg(a)
                .arg(b)
                .arg(c));
        QCOMPARE(md[1], QStringLiteral("| :-- | --: | --: | --: | --: | --: |"));
        QCOMPARE(md[2], QStringLiteral("| **Throughput** |  |  |  |  |  |"));
        QCOMPARE(md[4], QStringLiteral("| Loss vs baseline (req/s) | 0.00 % | 62.50 % |  | 81.25 % |  |"));
        QCOMPARE(md.size(), model.rowCount() + 2);
        QCOMPARE(md.last(), QStringLiteral("| Notes |  |  |  | tuned \\| default |  |")); // a '|' would split the cell

        // Nothing selected: Copy is disabled and Ctrl+C leaves the clipboard alone.
        table->clearSelection();
        std::unique_ptr<QMenu> empty(table->createContextMenu(0, nullptr));
        QVERIFY(!actionNamed(empty.get(), QStringLiteral("Copy"))->isEnabled());
        QGuiApplication::clipboard()->setText(QStringLiteral("kept"));
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("kept"));
    }

    void reportOfManyRunsIsAsWideAsItsTable()
    {
        std::vector<RunData> runs;
        for (int i = 0; i < 8; ++i) {
            const QByteArray name = QStringLiteral("ingress-gateway-%1").arg(i + 1).toUtf8();
            const QByteArray url = QStringLiteral("http://10.0.1.%1/").arg(i + 1).toUtf8();
            SyntheticRun s;
            s.requestsPerS = 1000 + 250 * i;
            s.latencyUs = 900 + 100 * static_cast<uint64_t>(i);
            s.notes = "8 runs";
            runs.push_back(run(target(name.constData(), url.constData()), s));
        }
        ComparePage page;
        page.setRuns(runs);
        QCOMPARE(page.model()->columnCount(), 16);

        const int requested = 800;
        const QImage table = renderCompareTable(page.model(), requested);
        QVERIFY2(table.width() > requested, qPrintable(QString::number(table.width())));
        const QString path = m_dir.filePath(QStringLiteral("report-8.png"));
        QString error;
        QVERIFY2(page.exportReport(path, requested, &error), qPrintable(error));
        const QImage report(path);
        QVERIFY(!report.isNull());
        QCOMPARE(report.width(), table.width() + 2 * ComparePage::REPORT_MARGIN);

        // The table is in the report whole, its last column (the 8th run's Δ) included.
        const QRect at(
            QPoint(ComparePage::REPORT_MARGIN, ComparePage::REPORT_MARGIN + ComparePage::REPORT_TITLE_HEIGHT),
            table.size());
        QCOMPARE(report.copy(at).convertToFormat(QImage::Format_RGB32), table.convertToFormat(QImage::Format_RGB32));
        const int lastColumnX = table.width() - 40; // Δ cells are right-aligned
        bool inked = false;
        for (int x = lastColumnX; x < table.width() && !inked; ++x)
            for (int y = 0; y < table.height() && !inked; ++y)
                inked = qGray(table.pixel(x, y)) < 128;
        QVERIFY2(inked, "nothing drawn in the last column");

        // Asked wider than the table: as wide as asked, as before.
        QVERIFY2(page.exportReport(path, 2600, &error), qPrintable(error));
        QCOMPARE(QImage(path).width(), 2600 + 2 * ComparePage::REPORT_MARGIN);
    }

    // Two runs in a wide report: the runs' columns take the room, not the metric names (which took
    // 70% of the width).
    void aWideReportWidensTheRunsColumns()
    {
        ComparePage page;
        SyntheticRun s;
        page.setRuns({ run(target("nginx", "http://10.0.0.1/"), s), run(target("caddy", "http://10.0.0.2/"), s) });
        // No run has backends: the charts alone, without a tab bar.
        QVERIFY(page.lowerTabs()->isHidden());
        QCOMPARE(page.lowerTabs()->indexOf(page.frontDoor()), -1);
        QList<int> natural, wide;
        const QImage narrow = renderCompareTable(page.model(), 0, &natural);
        const QImage table = renderCompareTable(page.model(), 1200, &wide);
        QCOMPARE(wide.size(), natural.size());
        QCOMPARE(wide[0], natural[0]); // the metric names as wide as they need
        int sum = 0;
        for (int c = 0; c < wide.size(); ++c) {
            sum += wide[c];
            if (c > 0) {
                QVERIFY2(wide[c] > natural[c], qPrintable(QString::number(c)));
                QVERIFY(wide[c] <= 2 * natural[c]);
            }
        }
        QCOMPARE(table.width(), sum);
        QVERIFY(table.width() <= 1200);
        QVERIFY2(wide[0] * 100 / sum < 40, qPrintable(QStringLiteral("%1 of %2").arg(wide[0]).arg(sum)));
        QCOMPARE(narrow.width(), std::accumulate(natural.begin(), natural.end(), 0));
    }
};

WB_UI_TEST(CompareTest)
#include "compare_test.moc"
