// "Find capacity…" as a user meets it: Run > Find capacity on a target and the current profile,
// two servers whose capacity is known (the built-in server's admission at a fixed rate: beyond it
// a 503), compared; the search shows each trial as a point, ends in the result, and lands in the
// session as an experiment of kind capacity whose page shows the same text. Offscreen, real runs.

#include "capacity/capacityrunner.h"
#include "charts/capacitychart.h"
#include "mainwindow.h"
#include "pages/capacitydialog.h"
#include "pages/experimentpage.h"
#include "pages/profileeditor.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "serve/targetserver.h"
#include "session/sessiondocument.h"
#include "store/sessionstore.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
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
        dialog->close();
    }
};

WB_UI_TEST_MAIN(CapacityTest)
#include "capacity_test.moc"
