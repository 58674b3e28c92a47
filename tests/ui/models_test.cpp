// The item models against real session files: targets, profiles, runs (with
// sorting, filters, notes and runs written by another connection), comparison.
// Every model runs under QAbstractItemModelTester.

#include "charts/comparecharts.h"
#include "models/comparemodel.h"
#include "models/profilelistmodel.h"
#include "models/runsfiltermodel.h"
#include "models/runstablemodel.h"
#include "models/targetlistmodel.h"
#include "session/sessiondocument.h"
#include "session/sessionseed.h"
#include "text/format.h"
#include "uitestsupport.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class ModelsTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<SessionDocument> m_doc;

    std::unique_ptr<SessionStore> otherConnection()
    {
        auto store = SessionStore::open(m_path.toStdString());
        return store ? std::move(*store) : nullptr;
    }
    static QString cell(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole)
    {
        return m.data(m.index(row, column), role).toString();
    }

private slots:
    void init()
    {
        static int n = 0;
        m_path = m_dir.filePath(QStringLiteral("models-%1.wrkbench").arg(++n));
        QString error;
        m_doc = SessionDocument::open(m_path, true, &error);
        QVERIFY2(m_doc, qPrintable(error));
        QVERIFY(m_doc->wasCreated());
    }
    void cleanup() { m_doc.reset(); }

    void targetModelFollowsTheSessionWithoutResets()
    {
        TargetListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(m_doc.get());
        QCOMPARE(model.rowCount(), 0);

        auto b = m_doc->addTarget(makeTarget("NodePort", "http://10.0.0.2/", { "NodePort" }));
        QVERIFY(b);
        QCOMPARE(model.rowCount(), 1);
        const QPersistentModelIndex nodePort = model.index(0, 0);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);

        QVERIFY(m_doc->addTarget(makeTarget("NEG ingress", "https://10.0.0.1/", { "NEG" })));
        QCOMPARE(model.rowCount(), 2);
        // The session orders by name: NEG first; the persistent index followed NodePort.
        QCOMPARE(cell(model, 0, 0), QStringLiteral("NEG ingress"));
        QCOMPARE(nodePort.row(), 1);
        QCOMPARE(nodePort.data(TargetListModel::UrlRole).toString(), QStringLiteral("http://10.0.0.2/"));
        QCOMPARE(nodePort.data(TargetListModel::TagsRole).toStringList(), QStringList { QStringLiteral("NodePort") });
        QCOMPARE(nodePort.data(TargetListModel::ColorRole).value<QColor>(), colorForTarget(*b));

        // Renaming moves the row; the persistent index follows it.
        Target renamed = *m_doc->targetById(*b);
        renamed.name = "Alpha NodePort";
        QVERIFY(m_doc->updateTarget(renamed));
        QCOMPARE(nodePort.row(), 0);
        QCOMPARE(cell(model, 0, 0), QStringLiteral("Alpha NodePort"));

        QVERIFY(m_doc->deleteTarget(*b));
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(!nodePort.isValid());
        QCOMPARE(resets.count(), 0);
    }

    void profileModelListsPresetsThenSessionProfiles()
    {
        ProfileListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(m_doc.get());
        const int presets = static_cast<int>(presetProfiles().size());
        QCOMPARE(model.rowCount(), presets);
        QVERIFY(model.index(0, 0).data(ProfileListModel::IsPresetRole).toBool());
        QCOMPARE(model.index(0, 0).data(ProfileListModel::LoadTextRole).toString(), QStringLiteral("-t2 -c50 -d10s"));
        // The classics from the studies ship as presets.
        QStringList loads;
        for (int i = 0; i < presets; ++i)
            loads << model.index(i, 0).data(ProfileListModel::LoadTextRole).toString();
        QVERIFY(loads.contains(QStringLiteral("-t12 -c400 -d30s")));
        QVERIFY(loads.contains(QStringLiteral("-t100 -c100 -d2m")));

        LoadProfile p;
        p.name = "Rate 2k";
        p.load = defaultLoad();
        p.load.ratePerS = 2000;
        auto id = m_doc->addProfile(p);
        QVERIFY(id);
        QCOMPARE(model.rowCount(), presets + 1);
        const QModelIndex last = model.index(presets, 0);
        QCOMPARE(last.data().toString(), QStringLiteral("Rate 2k"));
        QVERIFY(!last.data(ProfileListModel::IsPresetRole).toBool());
        QCOMPARE(last.data(ProfileListModel::IdRole).toLongLong(), *id);
        QVERIFY(last.data(ProfileListModel::LoadTextRole).toString().contains(QStringLiteral("-R2000")));
        QVERIFY(m_doc->deleteProfile(*id));
        QCOMPARE(model.rowCount(), presets);
    }

    void runsModelShowsStoredNumbers()
    {
        auto neg = m_doc->addTarget(makeTarget("NEG", "http://10.0.0.1/", { "NEG" }));
        QVERIFY(neg);
        SyntheticRun fast;
        fast.requestsPerS = 4000;
        fast.latencyUs = 800;
        fast.tags = { "baseline" };
        const int64_t id = addSyntheticRun(m_doc->store(), *neg, fast);
        QVERIFY(id > 0);
        m_doc->reload();

        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(m_doc.get());
        QCOMPARE(model.rowCount(), 1);
        const RunRecord& r = model.record(0);
        QVERIFY(r.hasTotals);
        QCOMPARE(cell(model, 0, RunsTableModel::IdColumn), QString::number(id));
        QCOMPARE(cell(model, 0, RunsTableModel::TargetColumn), QStringLiteral("NEG"));
        QCOMPARE(cell(model, 0, RunsTableModel::StatusColumn), QStringLiteral("completed"));
        QCOMPARE(cell(model, 0, RunsTableModel::LoadColumn), QStringLiteral("-t2 -c50 -d2s"));
        // Tags of the run and of its target.
        QCOMPARE(model.index(0, 0).data(RunsTableModel::TagsRole).toStringList(),
            (QStringList { QStringLiteral("baseline"), QStringLiteral("NEG") }));
        // Numbers: raw in SortRole, formatted with separators and right-aligned for display.
        const double rps = model.index(0, RunsTableModel::RequestsPerSColumn).data(RunsTableModel::SortRole).toDouble();
        QCOMPARE(rps, r.totals.requestsPerS);
        QVERIFY(std::fabs(rps - 4000) < 1);
        QCOMPARE(cell(model, 0, RunsTableModel::RequestsPerSColumn), QStringLiteral("4,000.0"));
        const double p50 = model.index(0, RunsTableModel::P50Column).data(RunsTableModel::SortRole).toDouble();
        QVERIFY2(p50 >= 1100 && p50 <= 1300, qPrintable(QString::number(p50))); // uniform over [800, 1600)
        QCOMPARE(cell(model, 0, RunsTableModel::P50Column), formatUsAsMs(p50));
        const auto align = model.index(0, RunsTableModel::RequestsPerSColumn).data(Qt::TextAlignmentRole).toInt();
        QVERIFY(align & Qt::AlignRight);
        QCOMPARE(cell(model, 0, RunsTableModel::ErrorsColumn), QStringLiteral("0"));
        QVERIFY(
            model.headerData(RunsTableModel::P99Column, Qt::Horizontal).toString().contains(QStringLiteral("(ms)")));
    }

    void runsFilterSortsAndFilters()
    {
        auto neg = m_doc->addTarget(makeTarget("NEG ingress", "http://10.0.0.1/", { "NEG" }));
        auto np = m_doc->addTarget(makeTarget("NodePort", "http://10.0.0.2/", { "NodePort" }));
        QVERIFY(neg && np);
        SyntheticRun a;
        a.requestsPerS = 3000;
        SyntheticRun b;
        b.requestsPerS = 12000;
        b.notes = "after the kernel upgrade";
        SyntheticRun c;
        c.requestsPerS = 800;
        c.tags = { "canary" };
        addSyntheticRun(m_doc->store(), *neg, a);
        addSyntheticRun(m_doc->store(), *np, b);
        addSyntheticRun(m_doc->store(), *np, c);
        m_doc->reload();

        RunsTableModel source;
        source.setDocument(m_doc.get());
        RunsFilterModel proxy;
        proxy.setSourceModel(&source);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(proxy.rowCount(), 3);

        // Numeric sort, not text sort ("12,000.0" < "3,000.0" as text).
        proxy.sort(RunsTableModel::RequestsPerSColumn, Qt::DescendingOrder);
        QCOMPARE(cell(proxy, 0, RunsTableModel::RequestsPerSColumn), QStringLiteral("12,000.0"));
        QCOMPARE(cell(proxy, 2, RunsTableModel::RequestsPerSColumn), QStringLiteral("800.0"));

        proxy.setTag(QStringLiteral("NodePort"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setTag(QStringLiteral("canary"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setTag({});
        proxy.setText(QStringLiteral("kernel"));
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(cell(proxy, 0, RunsTableModel::TargetColumn), QStringLiteral("NodePort"));
        proxy.setText(QStringLiteral("nodeport completed"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setText(QStringLiteral("nothing-like-this"));
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setText({});
        QCOMPARE(source.allTags(),
            (QStringList { QStringLiteral("canary"), QStringLiteral("NEG"), QStringLiteral("NodePort") }));
    }

    void notesAreEditedInPlaceAndStored()
    {
        auto t = m_doc->addTarget(makeTarget("svc", "http://10.0.0.3/"));
        const int64_t id = addSyntheticRun(m_doc->store(), *t, {});
        m_doc->reload();
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(m_doc.get());
        const QModelIndex notes = model.index(0, RunsTableModel::NotesColumn);
        QVERIFY(model.flags(notes) & Qt::ItemIsEditable);
        QVERIFY(!(model.flags(model.index(0, RunsTableModel::RequestsPerSColumn)) & Qt::ItemIsEditable));
        QVERIFY(model.setData(notes, QStringLiteral("NEG warm, 3 pods")));
        QCOMPARE(notes.data().toString(), QStringLiteral("NEG warm, 3 pods"));
        auto other = otherConnection();
        QVERIFY(other);
        auto stored = other->runs().record(id);
        QVERIFY(stored);
        QCOMPARE(stored->notes, std::string("NEG warm, 3 pods"));
    }

    void runsWrittenByAnotherProcessAppear()
    {
        auto t = m_doc->addTarget(makeTarget("svc", "http://10.0.0.3/"));
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(m_doc.get());
        QCOMPARE(model.rowCount(), 0);
        // Another connection to the file, as wrkbench-cli run --db would use.
        auto other = otherConnection();
        QVERIFY(other);
        QVERIFY(addSyntheticRun(*other, *t, {}) > 0);
        QVERIFY(addSyntheticRun(*other, *t, {}) > 0);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, 15'000); // noticed by the file watcher
        QVERIFY(model.record(1).hasTotals);
        // And a deletion there disappears here.
        QVERIFY(other->runs().remove(model.record(0).id));
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1, 15'000);
    }

    void compareModelComputesDeltasAgainstTheBaseline()
    {
        auto neg = m_doc->addTarget(makeTarget("NEG", "http://10.0.0.1/"));
        auto np = m_doc->addTarget(makeTarget("NodePort", "http://10.0.0.2/"));
        SyntheticRun a;
        a.requestsPerS = 10000;
        a.latencyUs = 1000;
        SyntheticRun b;
        b.requestsPerS = 6000;
        b.latencyUs = 3000;
        b.errorsPerS = 40;
        const int64_t ia = addSyntheticRun(m_doc->store(), *neg, a);
        const int64_t ib = addSyntheticRun(m_doc->store(), *np, b);
        m_doc->reload();
        auto ra = m_doc->store().runs().record(ia);
        auto rb = m_doc->store().runs().record(ib);
        QVERIFY(ra && rb);

        CompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({ *ra, *rb });
        QCOMPARE(model.columnCount(), 4); // metric, baseline, run, delta
        QVERIFY(model.headerData(1, Qt::Horizontal).toString().contains(QStringLiteral("baseline")));

        const int rps = model.rowOfMetric(QStringLiteral("rps"));
        QVERIFY(rps >= 0);
        QCOMPARE(model.index(rps, CompareModel::valueColumn(0)).data(CompareModel::ValueRole).toDouble(),
            ra->totals.requestsPerS);
        QCOMPARE(model.index(rps, CompareModel::valueColumn(1)).data(CompareModel::ValueRole).toDouble(),
            rb->totals.requestsPerS);
        const double expected = (rb->totals.requestsPerS - ra->totals.requestsPerS) / ra->totals.requestsPerS * 100;
        const QModelIndex delta = model.index(rps, CompareModel::deltaColumn(1));
        QCOMPARE(delta.data(CompareModel::ValueRole).toDouble(), expected);
        QVERIFY(std::fabs(expected + 40) < 0.5);
        QCOMPARE(delta.data().toString(), QStringLiteral("−40.0 %"));
        // Fewer req/s is worse: red. More latency is worse: red too.
        QCOMPARE(delta.data(Qt::ForegroundRole).value<QColor>(), deltaColor(-40, true));
        QVERIFY(delta.data(Qt::ToolTipRole).toString().contains(QStringLiteral("loss")));
        const QModelIndex p99 = model.index(model.rowOfMetric(QStringLiteral("p99")), CompareModel::deltaColumn(1));
        QVERIFY(p99.data(CompareModel::ValueRole).toDouble() > 100);
        QCOMPARE(p99.data(Qt::ForegroundRole).value<QColor>(), deltaColor(150, false));
        // Errors from zero: shown as an absolute increase, red.
        const QModelIndex errors
            = model.index(model.rowOfMetric(QStringLiteral("socket_errors")), CompareModel::deltaColumn(1));
        QCOMPARE(
            errors.data().toString(), QStringLiteral("+") + formatCount(static_cast<double>(rb->totals.errors.read)));
        QVERIFY(std::isnan(errors.data(CompareModel::ValueRole).toDouble()));
        QCOMPARE(errors.data(Qt::ForegroundRole).value<QColor>(), deltaColor(100, false));
        // Text rows carry the configuration.
        QCOMPARE(
            model.index(model.rowOfMetric(QStringLiteral("target")), CompareModel::valueColumn(1)).data().toString(),
            QStringLiteral("NodePort"));

        // The other run as baseline: the delta turns around.
        model.setBaseline(1);
        QCOMPARE(model.runs()[0].id, ib);
        QVERIFY(model.deltaPct(QStringLiteral("rps"), 1) > 60);

        // CSV: raw numbers, one row per metric, no section rows.
        const QStringList lines = model.toCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines[0], QStringLiteral("metric,run %1 NodePort,run %2 NEG,delta_pct vs run %1").arg(ib).arg(ia));
        const QStringList rpsRow
            = lines.filter(QRegularExpression(QStringLiteral("^rps_req_per_s,")))[0].split(QLatin1Char(','));
        QCOMPARE(rpsRow[1].toDouble(), rb->totals.requestsPerS);
        QVERIFY(!model.toCsv().contains(QStringLiteral("throughput")));
    }

    void compareModelOfThreeRuns()
    {
        auto t = m_doc->addTarget(makeTarget("svc", "http://10.0.0.3/"));
        std::vector<RunRecord> runs;
        for (double rps : { 1000.0, 2000.0, 500.0 }) {
            SyntheticRun s;
            s.requestsPerS = rps;
            auto r = m_doc->store().runs().record(addSyntheticRun(m_doc->store(), *t, s));
            QVERIFY(r);
            runs.push_back(*r);
        }
        CompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns(runs);
        QCOMPARE(model.columnCount(), 6);
        QCOMPARE(CompareModel::deltaColumn(2), 5);
        QVERIFY(std::fabs(model.deltaPct(QStringLiteral("rps"), 1) - 100) < 0.5);
        QVERIFY(std::fabs(model.deltaPct(QStringLiteral("rps"), 2) + 50) < 0.5);
        model.setRuns(std::vector<RunData> {});
        QCOMPARE(model.rowCount(), 0);
    }
};

WB_UI_TEST(ModelsTest)
#include "models_test.moc"
