// The runs history and a run's details against real session files: errors
// and non-2xx responses counted apart (values, colours, numeric sorting, the
// run detail's summary), a run opened on double-click or Enter but never on a
// single click (desktops that activate items on one click included), and
// deletion that never touches a run still being recorded, down to a live run
// of the main window that is then stored completely.

#include "control/runtask.h"
#include "experiment/experimentresults.h"
#include "import/wrkimport.h"
#include "mainwindow.h"
#include "models/experimentresultsmodel.h"
#include "models/runsfiltermodel.h"
#include "models/runstablemodel.h"
#include "pages/dialogs.h"
#include "pages/experimentpage.h"
#include "pages/profileeditor.h"
#include "pages/rundetailpage.h"
#include "pages/runspage.h"
#include "pages/slobadges.h"
#include "pages/targetspanel.h"
#include "session/sessiondocument.h"
#include "text/format.h"
#include "uitestsupport.h"
#include "windowparts.h"
#include "wrk/wrklog.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QProxyStyle>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

/// The style hint KDE (and other single-click desktops) set: item views emit
/// activated() on every click.
class SingleClickActivation : public QProxyStyle
{
public:
    int styleHint(
        StyleHint hint, const QStyleOption* option, const QWidget* widget, QStyleHintReturn* data) const override
    {
        if (hint == QStyle::SH_ItemView_ActivateItemOnSingleClick) return 1;
        return QProxyStyle::styleHint(hint, option, widget, data);
    }
};

constexpr QRgb RED = 0xc62828;
constexpr QRgb AMBER = 0xb26a00;

} // namespace

class HistoryTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<SessionDocument> m_doc;
    int64_t m_target = 0;
    QStringList m_questions; ///< every confirm() text, in order
    bool m_answer = true; ///< what confirm() answers
    QStringList m_errors; ///< every showError() text

    /// The five runs of the error tests. Counts over 8 intervals of 0.25 s.
    struct Runs
    {
        int64_t notFound = 0; ///< every response a 503 (the "404 demo target" case): 0 errors, 800 non-2xx
        int64_t socket = 0; ///< 16 read errors, no non-2xx
        int64_t both = 0; ///< 120 errors, 40 non-2xx
        int64_t mixed = 0; ///< 80 errors, 96 non-2xx
        int64_t failed = 0; ///< never started: no numbers at all
    };

    /// A second connection to the session, as wrkbench-cli would have.
    std::unique_ptr<SessionStore> otherConnection() const
    {
        auto store = SessionStore::open(m_path.toStdString());
        return store ? std::move(*store) : nullptr;
    }
    /// requestsPerS responses a second, errorsPerS read errors and non2xxPerS 503s among them.
    static SyntheticRun synthetic(double requestsPerS, double errorsPerS = 0, double non2xxPerS = 0)
    {
        SyntheticRun s;
        s.requestsPerS = requestsPerS;
        s.errorsPerS = errorsPerS;
        s.non2xxPerS = non2xxPerS;
        return s;
    }
    int64_t addRun(const SyntheticRun& s)
    {
        auto store = otherConnection();
        return store ? addSyntheticRun(*store, m_target, s) : 0;
    }
    Runs addErrorRuns()
    {
        Runs r;
        r.notFound = addRun(synthetic(400, 0, 400));
        r.socket = addRun(synthetic(1000, 8));
        r.both = addRun(synthetic(1000, 60, 20));
        r.mixed = addRun(synthetic(1000, 40, 48));
        auto store = otherConnection();
        NewRun failed;
        failed.targetId = m_target;
        failed.config.request.url = *parseUrl("http://127.0.0.1:9/");
        failed.startedAtMs = wallClockNowMs();
        if (auto id = store->runs().addFailed(failed, "connection refused")) r.failed = *id;
        m_doc->reload();
        return r;
    }
    /// A run this process is recording (status running), begun on another connection as a recorder does.
    int64_t beginRunningRun()
    {
        auto store = otherConnection();
        if (!store) return 0;
        NewRun run;
        run.targetId = m_target;
        run.config.request.url = *parseUrl("http://127.0.0.1:8080/");
        run.startedAtMs = wallClockNowMs();
        auto id = store->runs().begin(run);
        m_doc->reload();
        return id ? *id : 0;
    }
    /// The stored status of run id, or nullopt when the session no longer has it.
    std::optional<RunStatus> storedStatus(int64_t id) const
    {
        auto store = otherConnection();
        if (!store) return std::nullopt;
        auto record = store->runs().record(id);
        return record ? std::optional<RunStatus>(record->status) : std::nullopt;
    }

    static int rowOf(const RunsPage& page, int64_t id)
    {
        for (int row = 0; row < page.filter()->rowCount(); ++row)
            if (page.filter()->index(row, 0).data(RunsTableModel::RunIdRole).toLongLong() == id) return row;
        return -1;
    }
    static QModelIndex cellOf(const RunsTableModel& model, int64_t id, int column)
    {
        for (int row = 0; row < model.rowCount(); ++row)
            if (model.index(row, 0).data(RunsTableModel::RunIdRole).toLongLong() == id) return model.index(row, column);
        return {};
    }
    static QList<qint64> shownOrder(const RunsPage& page)
    {
        QList<qint64> ids;
        for (int row = 0; row < page.filter()->rowCount(); ++row)
            ids << page.filter()->index(row, 0).data(RunsTableModel::RunIdRole).toLongLong();
        return ids;
    }
    /// The summary row called label: its value cell, or null.
    static QTableWidgetItem* summaryValue(const RunDetailPage& page, const QString& label)
    {
        QTableWidget* t = page.findChild<QTableWidget*>(QStringLiteral("summaryTable"));
        for (int row = 0; row < t->rowCount(); ++row)
            if (t->item(row, 0) && t->item(row, 0)->text() == label) return t->item(row, 1);
        return nullptr;
    }
    static bool showAndActivate(QWidget& w)
    {
        w.show();
        QApplication::setActiveWindow(&w);
        return QTest::qWaitForWindowActive(&w);
    }
    /// A double-click as the window system delivers it: press, release, double-click, release
    /// (QTest::mouseDClick() on a widget sends the double-click event alone).
    static void doubleClick(QWidget* widget, QPoint pos)
    {
        QTest::mousePress(widget, Qt::LeftButton, {}, pos);
        QTest::mouseRelease(widget, Qt::LeftButton, {}, pos);
        QTest::mouseDClick(widget, Qt::LeftButton, {}, pos);
        QTest::mouseRelease(widget, Qt::LeftButton, {}, pos);
    }
    static QPoint centerOf(const QTableView* view, int row, int column)
    {
        return view->visualRect(view->model()->index(row, column)).center();
    }

private slots:
    void initTestCase()
    {
        setConfirmHandler([this](const QString& text) {
            m_questions << text;
            return m_answer;
        });
        setErrorHandler([this](const QString& text) { m_errors << text; });
    }
    void cleanupTestCase()
    {
        setConfirmHandler(nullptr);
        setErrorHandler(nullptr);
    }
    void init()
    {
        static int n = 0;
        m_path = m_dir.filePath(QStringLiteral("history-%1.wrkbench").arg(++n));
        QString error;
        m_doc = SessionDocument::open(m_path, true, &error);
        QVERIFY2(m_doc, qPrintable(error));
        auto target = m_doc->addTarget(makeTarget("Demo: 404", "http://127.0.0.1:8080/missing"));
        QVERIFY(target);
        m_target = *target;
        m_questions.clear();
        m_errors.clear();
        m_answer = true;
    }
    void cleanup() { m_doc.reset(); }

    // A run an experiment made is marked in the Runs table (and found by the filter).
    void experimentRunsAreMarked()
    {
        auto store = otherConnection();
        QVERIFY(store);
        auto experiment = store->experiments().add("NEG vs NodePort", "{}");
        QVERIFY(experiment);
        NewRun run;
        run.targetId = m_target;
        run.config.request.url = *parseUrl("http://127.0.0.1:9/");
        run.startedAtMs = wallClockNowMs();
        run.experiment = ExperimentSlot { *experiment, 1, 0 };
        auto id = store->runs().addFailed(run, "connection refused");
        QVERIFY(id);
        const int64_t plain = addRun(synthetic(1000, 0));
        m_doc->reload();
        RunsTableModel model;
        model.setDocument(m_doc.get());
        QCOMPARE(cellOf(model, *id, RunsTableModel::OriginColumn).data().toString(),
            QStringLiteral("experiment #%1, level 2, repetition 1").arg(*experiment));
        QVERIFY(cellOf(model, *id, RunsTableModel::OriginColumn)
                    .data(RunsTableModel::SearchTextRole)
                    .toString()
                    .contains(QStringLiteral("experiment #")));
        QVERIFY(cellOf(model, plain, RunsTableModel::OriginColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("wrkbench ")));
    }

    void errorsAndNon2xxAreSeparateColumns()
    {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(m_doc.get());
        const Runs r = addErrorRuns();
        QVERIFY(r.notFound && r.socket && r.both && r.mixed && r.failed);
        QCOMPARE(model.rowCount(), 5);

        const int E = RunsTableModel::ErrorsColumn;
        const int N = RunsTableModel::Non2xxColumn;
        QCOMPARE(model.headerData(E, Qt::Horizontal).toString(), QStringLiteral("Errors"));
        QCOMPARE(model.headerData(N, Qt::Horizontal).toString(), QStringLiteral("Non-2xx"));
        QVERIFY(!model.headerData(E, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("plus")));

        struct Expected
        {
            int64_t id;
            const char* errors;
            const char* non2xx;
        };
        for (const Expected& e :
            { Expected { r.notFound, "0", "800" }, Expected { r.socket, "16", "0" }, Expected { r.both, "120", "40" },
                Expected { r.mixed, "80", "96" }, Expected { r.failed, "—", "—" } }) {
            const QModelIndex errors = cellOf(model, e.id, E);
            const QModelIndex non2xx = cellOf(model, e.id, N);
            QVERIFY(errors.isValid());
            QCOMPARE(errors.data().toString(), QString::fromUtf8(e.errors));
            QCOMPARE(non2xx.data().toString(), QString::fromUtf8(e.non2xx));
            // Numbers right-aligned like every numeric column.
            QVERIFY(non2xx.data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight);
        }

        // The 404 target: its requests are non-2xx, not errors; amber as in the Live header, the errors plain.
        QVERIFY(!cellOf(model, r.notFound, E).data(Qt::ForegroundRole).isValid());
        QCOMPARE(cellOf(model, r.notFound, N).data(Qt::ForegroundRole).value<QColor>(), QColor(AMBER));
        QCOMPARE(cellOf(model, r.socket, E).data(Qt::ForegroundRole).value<QColor>(), QColor(RED));
        QVERIFY(!cellOf(model, r.socket, N).data(Qt::ForegroundRole).isValid());
        QCOMPARE(cellOf(model, r.both, E).data(Qt::ForegroundRole).value<QColor>(), QColor(RED));
        QCOMPARE(cellOf(model, r.both, N).data(Qt::ForegroundRole).value<QColor>(), QColor(AMBER));
        QVERIFY(!cellOf(model, r.failed, E).data(Qt::ForegroundRole).isValid());
        QVERIFY(!cellOf(model, r.failed, N).data(Qt::ForegroundRole).isValid());
        // The errors tooltip breaks down what it counts, read errors here; non-2xx is not among them.
        const QString tip = cellOf(model, r.both, E).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("read 120")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("2xx")), qPrintable(tip));

        // Raw numbers to sort on; the failed run's are unknown (NaN).
        QCOMPARE(cellOf(model, r.both, E).data(RunsTableModel::SortRole).toDouble(), 120.0);
        QCOMPARE(cellOf(model, r.notFound, N).data(RunsTableModel::SortRole).toDouble(), 800.0);
        QVERIFY(std::isnan(cellOf(model, r.failed, N).data(RunsTableModel::SortRole).toDouble()));
    }

    void errorsAndNon2xxSortAsNumbers()
    {
        const Runs r = addErrorRuns();
        RunsPage page;
        page.setDocument(m_doc.get());
        QCOMPARE(page.filter()->rowCount(), 5);
        QTableView* view = page.findChild<QTableView*>(QStringLiteral("view"));

        // As text "120" < "16" < "80" and "800" < "96": the order below is numeric, unknown first.
        view->sortByColumn(RunsTableModel::ErrorsColumn, Qt::AscendingOrder);
        QCOMPARE(shownOrder(page), (QList<qint64> { r.failed, r.notFound, r.socket, r.mixed, r.both }));
        view->sortByColumn(RunsTableModel::ErrorsColumn, Qt::DescendingOrder);
        QCOMPARE(shownOrder(page), (QList<qint64> { r.both, r.mixed, r.socket, r.notFound, r.failed }));
        view->sortByColumn(RunsTableModel::Non2xxColumn, Qt::AscendingOrder);
        QCOMPARE(shownOrder(page), (QList<qint64> { r.failed, r.socket, r.both, r.mixed, r.notFound }));

        // A click on the header sorts by the column too, in the order its indicator shows.
        page.resize(1400, 400);
        QVERIFY(showAndActivate(page));
        view->sortByColumn(RunsTableModel::IdColumn, Qt::AscendingOrder);
        QHeaderView* header = view->horizontalHeader();
        const int section = RunsTableModel::Non2xxColumn;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
            QPoint(header->sectionViewportPosition(section) + header->sectionSize(section) / 2, header->height() / 2));
        QCOMPARE(header->sortIndicatorSection(), section);
        const QList<qint64> expected = header->sortIndicatorOrder() == Qt::AscendingOrder
            ? QList<qint64> { r.failed, r.socket, r.both, r.mixed, r.notFound }
            : QList<qint64> { r.notFound, r.mixed, r.both, r.socket, r.failed };
        QCOMPARE(shownOrder(page), expected);
    }

    void runDetailShowsErrorsAndNon2xxApart()
    {
        const Runs r = addErrorRuns();
        const QString errorsLabel = QStringLiteral("Errors (socket, TLS, parse)");
        const QString non2xxLabel = QStringLiteral("Non-2xx/3xx responses");
        {
            auto data = m_doc->store().runs().load(r.notFound);
            QVERIFY(data);
            RunDetailPage page(std::move(*data));
            QVERIFY(!summaryValue(page, QStringLiteral("Errors (all kinds)")));
            QTableWidgetItem* errors = summaryValue(page, errorsLabel);
            QTableWidgetItem* non2xx = summaryValue(page, non2xxLabel);
            QVERIFY(errors && non2xx);
            QCOMPARE(errors->text(), QStringLiteral("0"));
            QCOMPARE(non2xx->text(), QStringLiteral("800"));
            QCOMPARE(non2xx->foreground().color(), QColor(AMBER));
            QVERIFY(errors->foreground().color() != QColor(RED));
            // The status codes tab has the same 800 responses.
            QCOMPARE(page.findChild<QTableWidget*>(QStringLiteral("statusTable"))->item(0, 0)->text(),
                QStringLiteral("503"));
            QCOMPARE(page.findChild<QTableWidget*>(QStringLiteral("statusTable"))->item(0, 1)->text(),
                QStringLiteral("800"));
        }
        {
            auto data = m_doc->store().runs().load(r.both);
            QVERIFY(data);
            RunDetailPage page(std::move(*data));
            QCOMPARE(summaryValue(page, errorsLabel)->text(), QStringLiteral("120"));
            QCOMPARE(summaryValue(page, errorsLabel)->foreground().color(), QColor(RED));
            QCOMPARE(summaryValue(page, non2xxLabel)->text(), QStringLiteral("40"));
        }
        {
            // A run that never started has no numbers to show.
            auto data = m_doc->store().runs().load(r.failed);
            QVERIFY(data);
            RunDetailPage page(std::move(*data));
            QVERIFY(!summaryValue(page, errorsLabel));
            QVERIFY(!summaryValue(page, non2xxLabel));
        }
    }

    /// A run judged by SLOs: a badge per SLO over its details (pass or fail with the value,
    /// as formatSloValue() says it), a summary row each, and the Runs table's SLO column.
    void runDetailAndRunsTableShowSloVerdicts()
    {
        SyntheticRun s;
        s.latencyUs = 2000; // 2 to 4 ms
        s.non2xxPerS = 100; // 10 % of 1,000 req/s
        s.slos = { "p99<60s", "p99<1ms", "non2xx<50%" };
        const int64_t judged = addRun(s);
        SyntheticRun met;
        met.slos = { "p99<60s" };
        const int64_t passed = addRun(met);
        const int64_t plain = addRun(SyntheticRun {});
        QVERIFY(judged && passed && plain);
        m_doc->reload();
        {
            auto data = m_doc->store().runs().load(judged);
            QVERIFY(data);
            RunDetailPage page(std::move(*data));
            const QStringList badges = page.findChild<SloBadges*>(QStringLiteral("sloBadges"))->badgeTexts();
            QCOMPARE(badges.size(), 3);
            QVERIFY2(badges[0].startsWith(QStringLiteral("✓ p99<60s  ")), qPrintable(badges[0]));
            QVERIFY2(badges[1].startsWith(QStringLiteral("✗ p99<1ms  ")), qPrintable(badges[1]));
            QCOMPARE(badges[2], QStringLiteral("✓ non2xx<50%  10.00 %"));
            QVERIFY(!page.findChild<SloBadges*>(QStringLiteral("sloBadges"))->isHidden());
            QTableWidgetItem* failed = summaryValue(page, QStringLiteral("SLO p99<1ms"));
            QVERIFY(failed);
            QVERIFY2(failed->text().startsWith(QStringLiteral("FAILED (")), qPrintable(failed->text()));
            QCOMPARE(failed->foreground().color(), QColor(RED));
            QCOMPARE(summaryValue(page, QStringLiteral("SLO non2xx<50%"))->text(), QStringLiteral("met (10.00 %)"));
        }
        {
            auto data = m_doc->store().runs().load(plain);
            QVERIFY(data);
            RunDetailPage page(std::move(*data));
            QVERIFY(page.findChild<SloBadges*>(QStringLiteral("sloBadges"))->badgeTexts().isEmpty());
            QVERIFY(page.findChild<SloBadges*>(QStringLiteral("sloBadges"))->isHidden());
        }
        RunsTableModel model;
        model.setDocument(m_doc.get());
        const auto sloCell = [&](int64_t id) {
            for (int row = 0; row < model.rowCount(); ++row)
                if (model.index(row, 0).data(RunsTableModel::RunIdRole).toLongLong() == id)
                    return model.index(row, RunsTableModel::SloColumn);
            return QModelIndex();
        };
        QCOMPARE(model.headerData(RunsTableModel::SloColumn, Qt::Horizontal).toString(), QStringLiteral("SLO"));
        QCOMPARE(sloCell(judged).data().toString(), QStringLiteral("✗ 1 of 3 failed"));
        QCOMPARE(sloCell(judged).data(Qt::ForegroundRole).value<QColor>(), QColor(RED));
        QVERIFY(sloCell(judged).data(Qt::ToolTipRole).toString().contains(QStringLiteral("SLO p99<1ms: FAILED")));
        QCOMPARE(sloCell(passed).data().toString(), QStringLiteral("✓ 1/1"));
        QCOMPARE(sloCell(plain).data().toString(), QString());
    }

    /// Open model: the run's details show the generator's send lag, and warn (amber) when its
    /// p99 exceeds 10% of the corrected p50, as the CLI's report does.
    void runDetailWarnsWhenGeneratorLagIsNoticeable()
    {
        const QString lagLabel = QStringLiteral("Send lag p50 / p99 (ms)");
        const QString warningLabel = QStringLiteral("Warning");
        SyntheticRun quiet = synthetic(1000);
        quiet.latencyUs = 2000; // corrected p50 ~3 ms
        quiet.sendLagUs = 20;
        SyntheticRun lagging = quiet;
        lagging.sendLagUs = 900; // 30% of the p50
        const int64_t quietId = addRun(quiet);
        const int64_t laggingId = addRun(lagging);
        const int64_t closedId = addRun(synthetic(1000));
        {
            auto data = m_doc->store().runs().load(quietId);
            QVERIFY(data);
            RunDetailPage page(std::move(*data));
            QTableWidgetItem* lag = summaryValue(page, lagLabel);
            QVERIFY(lag);
            QCOMPARE(lag->text(), QStringLiteral("%1 / %2").arg(formatUsAsMs(20), formatUsAsMs(20)));
            QVERIFY(!summaryValue(page, warningLabel));
        }
        {
            auto data = m_doc->store().runs().load(laggingId);
            QVERIFY(data);
            RunDetailPage page(std::move(*data));
            QTableWidgetItem* warning = summaryValue(page, warningLabel);
            QVERIFY(warning);
            QVERIFY2(warning->text().startsWith(QStringLiteral("generator lag is a noticeable part")),
                qPrintable(warning->text()));
            QCOMPARE(warning->foreground().color(), QColor(AMBER));
        }
        {
            auto data = m_doc->store().runs().load(closedId);
            QVERIFY(data);
            RunDetailPage page(std::move(*data));
            QVERIFY(!summaryValue(page, lagLabel)); // closed loop: nothing was scheduled
            QVERIFY(!summaryValue(page, warningLabel));
        }
    }

    void doubleClickOrEnterOpensARunSingleClickDoesNot()
    {
        const int64_t first = addRun(synthetic(500));
        const int64_t second = addRun(synthetic(700));
        const int64_t third = addRun(synthetic(900));
        QVERIFY(first && second && third);
        m_doc->reload();
        SingleClickActivation style; // outlives the page, which does not own it
        RunsPage page;
        page.setDocument(m_doc.get());
        page.resize(1400, 400);
        QTableView* view = page.findChild<QTableView*>(QStringLiteral("view"));
        view->setStyle(&style);
        QVERIFY(view->style()->styleHint(QStyle::SH_ItemView_ActivateItemOnSingleClick, nullptr, view));
        QVERIFY(showAndActivate(page));
        QSignalSpy opened(&page, &RunsPage::openRequested);
        QSignalSpy activated(view, &QAbstractItemView::activated);

        // A click, then a Ctrl+click to select a second run for comparing: both activate, neither opens.
        const int target = RunsTableModel::TargetColumn;
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, centerOf(view, rowOf(page, first), target));
        QTest::mouseClick(
            view->viewport(), Qt::LeftButton, Qt::ControlModifier, centerOf(view, rowOf(page, second), target));
        QCOMPARE(activated.count(), 2); // the single-click desktop really is simulated
        QCOMPARE(page.selectedRunIds().size(), 2);
        QCOMPARE(opened.count(), 0);
        emit view->activated(view->model()->index(rowOf(page, third), target));
        QCOMPARE(opened.count(), 0);

        // A double-click opens the run under the mouse.
        doubleClick(view->viewport(), centerOf(view, rowOf(page, third), target));
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.takeFirst().at(0).toLongLong(), third);

        // Enter and the keypad's Enter open the current run.
        page.selectRuns({ second });
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.takeFirst().at(0).toLongLong(), second);
        QTest::keyClick(view, Qt::Key_Enter, Qt::KeypadModifier);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.takeFirst().at(0).toLongLong(), second);

        // Double-clicking a note edits it; Enter in the editor stores the note and opens nothing.
        const int notes = RunsTableModel::NotesColumn;
        doubleClick(view->viewport(), centerOf(view, rowOf(page, first), notes));
        auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(editor && view->viewport()->isAncestorOf(editor));
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("warm cache"));
        QTest::keyClick(editor, Qt::Key_Return);
        QCOMPARE(opened.count(), 0);
        QTRY_VERIFY(!view->viewport()->isAncestorOf(QApplication::focusWidget()));
        auto stored = otherConnection()->runs().record(first);
        QVERIFY(stored);
        QCOMPARE(stored->notes, std::string("warm cache"));
    }

    void tagChangesTheSelectedRunsAtOnce()
    {
        const int64_t first = addRun(synthetic(1000));
        const int64_t second = addRun(synthetic(1000));
        const int64_t other = addRun(synthetic(1000));
        m_doc->reload();
        RunsPage page;
        page.setDocument(m_doc.get());
        QSignalSpy messages(&page, &RunsPage::message);
        page.selectRuns({ first, second });
        QStringList shown;
        setTagChangeHandler([&](const QStringList& present) {
            shown = present;
            return std::optional<TagChange>(TagChange { { QStringLiteral("native"), QStringLiteral("4 nodes") }, {} });
        });
        QVERIFY(page.tagSelected());
        auto tagsOf = [&](int64_t id) { return otherConnection()->runs().record(id)->tags; };
        QCOMPARE(tagsOf(first), (std::vector<std::string> { "4 nodes", "native" }));
        QCOMPARE(tagsOf(second), (std::vector<std::string> { "4 nodes", "native" }));
        QVERIFY(tagsOf(other).empty());
        QCOMPARE(messages.takeLast().at(0).toString(), QStringLiteral("Tagged 2 runs"));
        QCOMPARE(page.selectedRunIds().size(), 2); // still selected, for the next step

        // The dialog shows what the selection carries; removing one tag leaves the other.
        page.selectRuns({ second });
        setTagChangeHandler([&](const QStringList& present) {
            shown = present;
            return std::optional<TagChange>(TagChange { {}, { QStringLiteral("native") } });
        });
        QVERIFY(page.tagSelected());
        QCOMPARE(shown, (QStringList { QStringLiteral("4 nodes"), QStringLiteral("native") }));
        QCOMPARE(tagsOf(second), std::vector<std::string> { "4 nodes" });
        QCOMPARE(tagsOf(first), (std::vector<std::string> { "4 nodes", "native" }));

        // A tag the store refuses is one error, and nothing changes.
        setTagChangeHandler([](const QStringList&) {
            return std::optional<TagChange>(TagChange { { QStringLiteral("bad\ttag") }, {} });
        });
        const int errors = m_errors.size();
        QVERIFY(!page.tagSelected());
        QCOMPARE(m_errors.size(), errors + 1);
        QCOMPARE(tagsOf(second), std::vector<std::string> { "4 nodes" });
        // Cancelled: nothing happens.
        setTagChangeHandler([](const QStringList&) { return std::optional<TagChange>(); });
        QVERIFY(!page.tagSelected());
        setTagChangeHandler(nullptr);
    }

    // "Study from selected runs…" builds the container study from the imported
    // reference log, and the Experiments tab shows it with its own verdicts.
    void studyFromSelectedRunsAppearsInTheExperimentsTab()
    {
        // The shared reference logs sit beside the source tree (tests/ui/../../../shared).
        QFile file(
            QStringLiteral(QT_TESTCASE_SOURCEDIR "/../../../shared/reference/container-performance-comparison.txt"));
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const std::string log = file.readAll().toStdString();
        auto store = otherConnection();
        QVERIFY(store);
        auto ids = importWrkReports(*store, parseWrkLog(log).reports, ImportOptions {});
        QVERIFY(ids && ids->size() == 8);
        const auto run = [&](size_t i) { return ids->at(i); };
        for (const auto& [runs, tag] : std::vector<std::pair<std::vector<size_t>, std::string>> {
                 { { 0, 1, 6, 7 }, "native" }, { { 2, 3 }, "docker" }, { { 4, 5 }, "kubernetes" },
                 { { 0, 2, 4 }, "http-pkg" }, { { 1, 3, 5 }, "go-gin" }, { { 6 }, "actix" }, { { 7 }, "rocket" } }) {
            std::vector<int64_t> tagged;
            for (size_t i : runs)
                tagged.push_back(run(i));
            QVERIFY(store->runs().changeTags(tagged, { tag }, {}));
        }
        m_doc->reload();
        RunsPage page;
        page.setDocument(m_doc.get());
        ExperimentPage experiments;
        experiments.setDocument(m_doc.get());
        QSignalSpy created(&page, &RunsPage::studyCreated);
        QList<qint64> selected;
        for (int64_t id : *ids)
            selected << id;
        page.selectRuns(selected);

        // A tag no run carries: one error, nothing stored.
        QStringList shown;
        setStudyChoiceHandler([&](const QStringList& present) {
            shown = present;
            StudyChoice c;
            c.variantTags = QStringList { QStringLiteral("native"), QStringLiteral("k8s") };
            return std::optional<StudyChoice>(c);
        });
        const int errors = m_errors.size();
        QVERIFY(!page.studySelected());
        QCOMPARE(m_errors.size(), errors + 1);
        QVERIFY(m_errors.last().contains(QStringLiteral("tag 'k8s' (--variant-by-tags) is carried by none")));
        QVERIFY(shown.contains(QStringLiteral("go-gin")) && shown.contains(QStringLiteral("kubernetes")));
        QVERIFY(otherConnection()->experiments().all()->empty());

        setStudyChoiceHandler([](const QStringList&) {
            StudyChoice c;
            c.name = QStringLiteral("Container performance");
            c.variantTags
                = QStringList { QStringLiteral("native"), QStringLiteral("docker"), QStringLiteral("kubernetes") };
            c.groupTags = QStringList { QStringLiteral("http-pkg"), QStringLiteral("go-gin"), QStringLiteral("actix"),
                QStringLiteral("rocket") };
            c.baseline = QStringLiteral("native");
            c.metric = QStringLiteral("per-thread");
            return std::optional<StudyChoice>(c);
        });
        QVERIFY(page.studySelected());
        setStudyChoiceHandler(nullptr);
        QCOMPARE(created.count(), 1);
        const qint64 study = created.takeFirst().at(0).toLongLong();
        auto stored = otherConnection()->experiments().get(study);
        QVERIFY(stored);
        QVERIFY(stored->kind == ExperimentKind::Study);

        // The Experiments tab lists it (the document's reload told it) and shows its table.
        QTRY_VERIFY(experiments.selectExperiment(study));
        const auto* model = experiments.findChild<QTableView*>(QStringLiteral("ExperimentResults"))->model();
        QVERIFY(model);
        QCOMPARE(model->rowCount(), 8);
        QCOMPARE(model->headerData(ExperimentResultsModel::RpsColumn, Qt::Horizontal).toString(),
            QStringLiteral("Req/s per thread (mean ± sd)"));
        bool found = false;
        for (int r = 0; r < model->rowCount(); ++r) {
            if (model->index(r, ExperimentResultsModel::LevelColumn).data().toString()
                    != QStringLiteral("go-gin · c400")
                || !model->index(r, ExperimentResultsModel::TargetColumn)
                        .data()
                        .toString()
                        .startsWith(QStringLiteral("docker")))
                continue;
            found = true;
            // Against go-gin's own native run: 1 - 2.95k / 9.01k, not the write-up's 66.40%.
            QVERIFY(std::fabs(model->index(r, ExperimentResultsModel::LossColumn)
                                  .data(ExperimentResultsModel::ValueRole)
                                  .toDouble()
                        - (1.0 - 2950.0 / 9010.0) * 100.0)
                < 1e-9);
            QCOMPARE(model->index(r, ExperimentResultsModel::VerdictColumn).data().toString(),
                QStringLiteral("one run each: no confidence interval, no verdict"));
        }
        QVERIFY(found);
    }

    void deleteAsksFirstAndNoDeletesNothing()
    {
        const int64_t first = addRun(synthetic(1000));
        const int64_t second = addRun(synthetic(1000));
        m_doc->reload();
        RunsPage page;
        page.setDocument(m_doc.get());
        QSignalSpy messages(&page, &RunsPage::message);
        page.selectRuns({ first, second });

        m_answer = false;
        QVERIFY(!page.deleteSelected());
        QCOMPARE(m_questions.size(), 1);
        QCOMPARE(m_questions.last(),
            QStringLiteral("Delete 2 runs (#%1, #%2) with their charts and data? This cannot be undone.")
                .arg(second)
                .arg(first));
        QVERIFY(storedStatus(first) == RunStatus::Completed);
        QVERIFY(storedStatus(second) == RunStatus::Completed);
        QCOMPARE(page.filter()->rowCount(), 2);
        QCOMPARE(messages.count(), 0);

        m_answer = true;
        QVERIFY(page.deleteSelected());
        QVERIFY(!storedStatus(first));
        QVERIFY(!storedStatus(second));
        QCOMPARE(page.filter()->rowCount(), 0);
        QCOMPARE(messages.takeLast().at(0).toString(), QStringLiteral("Deleted 2 runs"));
        QVERIFY(m_errors.isEmpty());
    }

    void aRunningRunIsNeverDeleted()
    {
        const int64_t finished = addRun(synthetic(1000));
        const int64_t running = beginRunningRun();
        QVERIFY(finished && running);
        RunsPage page;
        page.setDocument(m_doc.get());
        QCOMPARE(page.filter()->rowCount(), 2);

        // Alone: refused with the reason and the run's id, no question asked, nothing deleted.
        page.selectRuns({ running });
        QVERIFY(!page.deleteSelected());
        QCOMPARE(m_questions.size(), 0);
        QCOMPARE(m_errors.size(), 1);
        QVERIFY2(m_errors.last().startsWith(QStringLiteral("Run #%1 is still running").arg(running)),
            qPrintable(m_errors.last()));
        QVERIFY(storedStatus(running) == RunStatus::Running);

        // With a finished run: the question names what goes and what stays; No deletes nothing.
        page.selectRuns({ finished, running });
        m_answer = false;
        QVERIFY(!page.deleteSelected());
        QCOMPARE(m_questions.size(), 1);
        const QString question = m_questions.last();
        QVERIFY2(question.startsWith(QStringLiteral("Delete 1 run (#%1) with their charts and data?").arg(finished)),
            qPrintable(question));
        QVERIFY2(question.contains(QStringLiteral("Run #%1 is still running and will be kept").arg(running)),
            qPrintable(question));
        QVERIFY(storedStatus(finished) == RunStatus::Completed);
        QVERIFY(storedStatus(running) == RunStatus::Running);

        // Yes deletes the finished run only.
        m_answer = true;
        QVERIFY(page.deleteSelected());
        QVERIFY(!storedStatus(finished));
        QVERIFY(storedStatus(running) == RunStatus::Running);
        QCOMPARE(shownOrder(page), QList<qint64> { running });
        QCOMPARE(m_errors.size(), 1);
    }

    void aLiveRunSurvivesDeletingEverythingAndIsStoredWhole()
    {
        // The issue's case: Ctrl+A, Delete during a live run of this window.
        m_doc.reset();
        const QString path = m_dir.filePath(QStringLiteral("live.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        const int64_t target = targetsPanel(w)->addTarget();
        QVERIFY(target > 0);
        const int64_t earlier = addSyntheticRun(w.document()->store(), target, synthetic(1000));
        QVERIFY(earlier);
        w.document()->reload();
        QLineEdit* duration = profileEditor(w)->field(QStringLiteral("duration"));
        duration->setFocus();
        duration->selectAll();
        QTest::keyClick(duration, Qt::Key_Backspace);
        QTest::keyClicks(duration, QStringLiteral("30s"));
        QVERIFY(profileEditor(w)->isValid());
        QVERIFY(showAndActivate(w));

        QSignalSpy finished(runTask(w), &RunTask::finished);
        QSignalSpy intervals(runTask(w), &RunTask::intervalReceived);
        QVERIFY(w.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= 2, 30'000);
        // The session file already has the live run, as 'running'; the history shows it.
        int64_t live = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                w.document()->reload();
                for (const RunRecord& r : w.document()->runs())
                    if (r.status == RunStatus::Running) live = r.id;
                return live != 0;
            }(),
            15'000);

        RunsPage* runs = runsPage(w);
        w.showTab(MainWindow::RunsTab);
        runs->findChild<QTableView*>(QStringLiteral("view"))->setFocus();
        QTest::keyClick(runs->findChild<QTableView*>(QStringLiteral("view")), Qt::Key_A, Qt::ControlModifier);
        QCOMPARE(runs->selectedRunIds().size(), 2);
        m_answer = true;
        QVERIFY(runs->deleteSelected());
        QVERIFY2(m_questions.last().contains(QStringLiteral("Run #%1 is still running and will be kept").arg(live)),
            qPrintable(m_questions.last()));
        QCOMPARE(runs->filter()->rowCount(), 1);
        QCOMPARE(runs->filter()->index(0, 0).data(RunsTableModel::RunIdRole).toLongLong(), live);

        // The run goes on and, stopped, is stored whole: no "not stored completely".
        QTRY_VERIFY_WITH_TIMEOUT(intervals.count() >= 4, 30'000);
        w.stopRun();
        QVERIFY(finished.wait(20'000)); // (a run left to its 30 s end would be stored as completed, below)
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.runId, live);
        QVERIFY2(outcome.storageWarning.isEmpty(), qPrintable(outcome.storageWarning));
        auto stored = w.document()->store().runs().load(live);
        QVERIFY(stored);
        QCOMPARE(stored->run.status, RunStatus::Stopped);
        QVERIFY(stored->intervals.size() >= 4);

        // Now finished, the run opens with a double-click and can be deleted.
        const QTableView* view = runs->findChild<QTableView*>(QStringLiteral("view"));
        doubleClick(view->viewport(), centerOf(view, 0, RunsTableModel::TargetColumn));
        auto* detail = qobject_cast<RunDetailPage*>(tabs(w)->currentWidget());
        QVERIFY(detail);
        QCOMPARE(detail->runId(), live);
        w.showTab(MainWindow::RunsTab);
        runs->selectRuns({ live });
        QVERIFY(runs->deleteSelected());
        QVERIFY(w.document()->runs().empty());
        QVERIFY(m_errors.isEmpty());
    }
};

WB_UI_TEST(HistoryTest)
#include "history_test.moc"
