// "Find capacity…" as a user meets it: Run > Find capacity on a target and the current profile,
// two servers whose capacity is known (the built-in server's admission at a fixed rate: beyond it
// a 503), compared; the search shows each trial as a point, ends in the result, and lands in the
// session as an experiment of kind capacity whose page shows the same text. Offscreen, real runs.

#include "capacity/capacitycompare.h"
#include "capacity/capacityrunner.h"
#include "charts/capacitychart.h"
#include "experiment/experimentrunner.h"
#include "mainwindow.h"
#include "pages/capacitycards.h"
#include "pages/capacitydialog.h"
#include "pages/comparepage.h"
#include "pages/experimentpage.h"
#include "pages/profileeditor.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "run/slo.h"
#include "serve/targetserver.h"
#include "session/sessiondocument.h"
#include "store/sessionstore.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class CapacityTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static std::unique_ptr<TargetServer> limited(double perS)
    {
        TargetServerOptions options;
        options.capacityPerS = perS;
        auto server = std::make_unique<TargetServer>(options);
        if (!server->start().ok()) return {};
        return server;
    }

    /// Adds a target at url through the Targets panel; its id.
    static int64_t addTarget(MainWindow& w, const std::string& url)
    {
        targetsPanel(w)->addTarget();
        typeInto(
            targetsPanel(w)->editor()->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QString::fromStdString(url));
        targetsPanel(w)->editor()->commit();
        return targetsPanel(w)->currentTargetId();
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void findsComparesAndStoresTheCapacitiesOfTwoServers()
    {
        auto slow = limited(300);
        auto fast = limited(600);
        QVERIFY(slow && fast);
        MainWindow w;
        const QString path = m_dir.filePath(QStringLiteral("capacity.wrkbench"));
        QVERIFY(w.openStartupSession(path));
        const int64_t b = addTarget(w, "http://127.0.0.1:" + std::to_string(fast->port()) + "/");
        const int64_t a = addTarget(w, "http://127.0.0.1:" + std::to_string(slow->port()) + "/");
        QVERIFY(a > 0 && b > 0 && a != b);
        typeInto(profileEditor(w)->field(QStringLiteral("threads")), QStringLiteral("1"));
        typeInto(profileEditor(w)->field(QStringLiteral("connections")), QStringLiteral("8"));

        const size_t targetsBefore = w.document()->targets().size();
        QAction* action = w.findChild<QAction*>(QStringLiteral("findCapacityAction"));
        QVERIFY(action && action->isEnabled());
        CapacityDialog* dialog = w.findCapacity();
        QVERIFY(dialog);
        dialog->setTargetChecked(b, true);
        // Without an SLO there is nothing to search for: the dialog asks, and nothing starts.
        dialog->sloEdit()->setText(QString());
        QVERIFY(!dialog->startSearch());
        QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("capacityProblem"))->text().contains(QStringLiteral("SLO")));
        QVERIFY(!dialog->isSearching());

        dialog->sloEdit()->setText(QStringLiteral("non2xx<1%"));
        dialog->optionEdit(QStringLiteral("from"))->setText(QStringLiteral("100"));
        dialog->optionEdit(QStringLiteral("trial"))->setText(QStringLiteral("300ms"));
        dialog->optionEdit(QStringLiteral("final"))->setText(QStringLiteral("500ms"));
        dialog->optionEdit(QStringLiteral("repeat"))->setText(QStringLiteral("1"));
        dialog->optionEdit(QStringLiteral("precision"))->setText(QStringLiteral("10%"));
        dialog->optionEdit(QStringLiteral("budget"))->setText(QStringLiteral("90s"));
        QSignalSpy stored(dialog, &CapacityDialog::searchStored);
        QVERIFY(dialog->startSearch());
        QVERIFY(dialog->isSearching());
        QVERIFY(!action->isEnabled() || dialog->isModal() || dialog->windowModality() != Qt::NonModal);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isSearching(), 180'000);
        QCOMPARE(stored.count(), 1);
        const qint64 searchId = stored.at(0).at(0).toLongLong();
        QVERIFY(searchId > 0);

        // What the window shows is what is stored: every trial a point, the same result text.
        auto store = SessionStore::open(path.toStdString());
        QVERIFY(store.ok());
        auto report = storedCapacityReport(**store, searchId);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().c_str());
        QCOMPARE(report->targets.size(), size_t(2));
        size_t trials = 0;
        QString text;
        for (const CapacityReportTarget& t : report->targets) {
            trials += t.result.trials.size();
            text += QString::fromStdString(capacitySummaryText(t, report->options));
        }
        text += QString::fromStdString(capacityComparisonText(*report));
        QVERIFY(trials >= 4); // each target passed and failed at least once
        QCOMPARE(static_cast<size_t>(dialog->chart()->points().size()), trials);
        QCOMPARE(dialog->resultText(), text);
        QVERIFY2(dialog->statusText().contains(QStringLiteral("Stored as experiment %1").arg(searchId)),
            qPrintable(dialog->statusText()));
        // The trials alternate between the targets (drift hits both alike), the baseline first.
        QCOMPARE(dialog->chart()->points().front().target, 0);
        QCOMPARE(dialog->chart()->points().at(1).target, 1);
        // Each trial is a run of the session, of the target searched (no target made from its URL).
        QCOMPARE(w.document()->runs().size(), trials);
        QCOMPARE(w.document()->targets().size(), targetsBefore);
        size_t ofA = 0, ofB = 0;
        for (const RunRecord& r : w.document()->runs()) {
            ofA += r.targetId == a;
            ofB += r.targetId == b;
        }
        QCOMPARE(ofA, report->targets[0].result.trials.size());
        QCOMPARE(ofB, report->targets[1].result.trials.size());

        // It lands in Experiments, selected, with the same text.
        auto* experiments = w.findChild<ExperimentPage*>();
        QVERIFY(experiments);
        QCOMPARE(experiments->selectedExperimentId(), searchId);
        auto* shown = experiments->findChild<QPlainTextEdit*>(QStringLiteral("ExperimentCapacity"));
        QVERIFY(shown && !shown->isHidden());
        QCOMPARE(shown->toPlainText(), text);

        // The result as cards, one per target, named as the session names them: the dialog's, the
        // Experiments page's and Compare's say what the stored search says.
        std::map<int64_t, std::string> names;
        for (const Target& t : w.document()->targets())
            names[t.id] = t.name;
        const auto ratio = capacityRatio(report->targets[0].result, report->targets[1].result);
        QVERIFY(ratio);
        const QString compared = QString::fromStdString(describeRatio(*ratio, names[a], names[b]));
        QVERIFY2(compared.contains(QStringLiteral("carries")), qPrintable(compared + QStringLiteral("\n") + text));
        const auto checkCards = [&](const std::vector<CapacityCard>& cards, const char* where) {
            QVERIFY2(cards.size() == 2, where);
            for (size_t i = 0; i < 2; ++i) {
                const CapacityHeadline expected = capacityHeadline(report->targets[i].result);
                QCOMPARE(cards[i].name.toStdString(), names[i == 0 ? a : b]);
                QCOMPARE(cards[i].headline.value, expected.value);
                QCOMPARE(cards[i].headline.detail, expected.detail);
                QVERIFY2(cards[i].slos.contains(QStringLiteral("non2xx<1%")), where);
            }
            QVERIFY2(cards[0].comparison.isEmpty(), where);
            QVERIFY2(cards[1].comparison.startsWith(compared), qPrintable(cards[1].comparison));
        };
        QVERIFY(!dialog->cards()->isHidden());
        checkCards(dialog->cards()->cards(), "dialog");
        checkCards(experiments->findChild<CapacityCards*>()->cards(), "experiments");
        dialog->close();

        // Compare a trial of each: the Capacity tab beside the charts shows both, the baseline
        // run's target first, and follows the baseline.
        qint64 runA = 0, runB = 0;
        for (const RunRecord& r : w.document()->runs()) {
            if (r.targetId == a && !runA) runA = r.id;
            if (r.targetId == b && !runB) runB = r.id;
        }
        w.compareRuns({ runA, runB });
        auto* compare = w.findChild<ComparePage*>();
        QVERIFY(compare);
        QTabWidget* tabs = compare->lowerTabs();
        QStringList tabNames;
        for (int i = 0; i < tabs->count(); ++i)
            tabNames << tabs->tabText(i);
        QVERIFY2(tabNames.contains(QStringLiteral("Capacity")), qPrintable(tabNames.join(QLatin1Char(','))));
        checkCards(compare->capacityCards()->cards(), "compare");

        QVERIFY2(compare->capacityCards()->cards()[1].source.contains(QString::number(searchId)),
            qPrintable(compare->capacityCards()->cards()[1].source));
        compare->setBaselineRun(runB);
        QCOMPARE(compare->capacityCards()->cards().at(0).name.toStdString(), names[b]);
        QVERIFY(compare->capacityCards()->cards().at(1).comparison.startsWith(QString::fromStdString(
            describeRatio(*capacityRatio(report->targets[1].result, report->targets[0].result), names[b], names[a]))));

        // Capacities from two searches are compared with a note (their trials did not
        // alternate); under other SLOs they are not compared at all; none: no tab.
        auto latest = latestCapacities(**store, { b, a });
        QVERIFY(latest.ok() && latest->size() == 2);
        QCOMPARE(latest->at(0).searchId, searchId);
        (*latest)[1].searchId += 1000;
        compare->setCapacities(*latest);
        QVERIFY2(compare->capacityCards()->cards().at(1).comparison.contains(QStringLiteral("separate searches")),
            qPrintable(compare->capacityCards()->cards().at(1).comparison));
        (*latest)[1].slos.pop_back();
        (*latest)[1].slos.push_back(*parseSlo("p99<20ms"));
        compare->setCapacities(*latest);
        QVERIFY2(compare->capacityCards()->cards().at(1).comparison.startsWith(QStringLiteral("not compared")),
            qPrintable(compare->capacityCards()->cards().at(1).comparison));
        compare->setCapacities({});
        for (int i = 0; i < tabs->count(); ++i)
            QVERIFY(tabs->tabText(i) != QStringLiteral("Capacity"));
        QVERIFY(compare->capacityCards()->cards().empty());
    }

    void aPlansSearchRunsInTheWindow()
    {
        // "New from plan" with a plan that has "search": the capacity dialog on the plan's targets
        // (found or created by name), SLOs and options, not an experiment of fixed loads.
        MainWindow w;
        const QString path = m_dir.filePath(QStringLiteral("plan.wrkbench"));
        QVERIFY(w.openStartupSession(path));
        const QString planPath = m_dir.filePath(QStringLiteral("search.json"));
        QFile plan(planPath);
        QVERIFY(plan.open(QIODevice::WriteOnly));
        plan.write("{\"name\": \"two doors\", "
                   "\"targets\": [{\"name\": \"slow door\", \"url\": \"http://builtin/capacity/300\"}, "
                   "{\"name\": \"fast door\", \"url\": \"http://builtin/capacity/600\"}], "
                   "\"load\": {\"threads\": 1, \"connections\": 8}, "
                   "\"search\": {\"slo\": [\"non2xx<1%\"], \"from\": 100, \"trial\": \"300ms\", \"final\": \"500ms\", "
                   "\"repeat\": 1, "
                   "\"precision\": \"10%\", \"budget\": \"90s\"}} ");
        plan.close();
        ExperimentPage* page = experimentPage(w);
        QCOMPARE(page->createFromPlanFile(planPath), int64_t(0)); // nothing stored until it starts
        auto* dialog = page->findChild<CapacityDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->sloEdit()->text(), QStringLiteral("non2xx<1%"));
        QCOMPARE(dialog->optionEdit(QStringLiteral("precision"))->text(), QStringLiteral("10%"));
        QCOMPARE(dialog->optionEdit(QStringLiteral("trial"))->text(), QStringLiteral("300ms"));
        std::map<std::string, int64_t> ids;
        for (const Target& t : w.document()->targets())
            ids[t.name] = t.id;
        QVERIFY(ids.count("slow door") && ids.count("fast door"));
        QSignalSpy stored(dialog, &CapacityDialog::searchStored);
        QVERIFY(dialog->startSearch());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isSearching(), 180'000);
        QCOMPARE(stored.count(), 1);
        const qint64 searchId = stored.at(0).at(0).toLongLong();

        // Stored under the plan's name, each trial a run of the plan's named target, the first
        // the baseline; the cards name them so.
        auto store = SessionStore::open(path.toStdString());
        QVERIFY(store.ok());
        auto record = (*store)->experiments().get(searchId);
        QVERIFY(record.ok());
        QCOMPARE(record->name, std::string("two doors"));
        QCOMPARE(record->kind, ExperimentKind::Capacity);
        auto targets = capacitySearchTargets(**store, searchId);
        QVERIFY(targets.ok());
        QCOMPARE(*targets, (std::vector<int64_t> { ids["slow door"], ids["fast door"] }));
        const auto& cards = dialog->cards()->cards();
        QCOMPARE(cards.size(), size_t(2));
        QCOMPARE(cards[0].name, QStringLiteral("slow door"));
        QVERIFY2(cards[1].comparison.startsWith(QStringLiteral("fast door carries")), qPrintable(cards[1].comparison));
        QCOMPARE(page->selectedExperimentId(), searchId);
        dialog->close();

        // A plan with "search" is never run as a matrix of fixed loads.
        auto parsed = parseExperimentPlan("{\"targets\": [{\"name\": \"x\", \"url\": \"http://builtin/\"}, {\"name\": "
                                          "\"y\", \"url\": \"http://builtin/\"}], "
                                          "\"search\": {\"slo\": [\"p99<1s\"]}} ");
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
        auto made = ExperimentRunner::create(**store, *parsed);
        QVERIFY(!made.ok());
        QVERIFY2(made.error().find("capacity search") != std::string::npos, made.error().c_str());
    }
};

WB_UI_TEST(CapacityTest)
#include "capacity_test.moc"
