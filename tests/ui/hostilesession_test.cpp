// The window and a session file from someone else: a hostile session (a trigger, a view that never
// ends, any schema wrkbench did not make) is refused in a dialog that names the file and the
// reason, before the window reads anything from it, and the file is left byte for byte as it was.
// The dialogs here are the real QMessageBox (no error hook), found as the active modal widget.

#include "hostilesessions.h"
#include "mainwindow.h"
#include "session/sessiondocument.h"
#include "session/sessionpaths.h"
#include "testsupport.h"
#include "uitestsupport.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>

using namespace wb;
using namespace wb::ui;

namespace {

// The next modal message box, read and closed when it shows.
class DialogCatcher : public QObject
{
public:
    DialogCatcher()
    {
        m_poll = [this] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) {
                QTimer::singleShot(20, this, m_poll);
                return;
            }
            title = box->windowTitle();
            text = box->text();
            ++count;
            box->accept();
        };
        QTimer::singleShot(0, this, m_poll);
    }

    QString title;
    QString text;
    int count = 0;

private:
    std::function<void()> m_poll;
};

} // namespace

class HostileSessionTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string hostile(const QString& name, const std::string& sql)
    {
        const std::string path = m_dir.filePath(name).toStdString();
        if (const std::string error = test::makeSampleSession(path); !error.empty()) qFatal("%s", error.c_str());
        if (const std::string error = test::tamperSession(path, sql); !error.empty()) qFatal("%s", error.c_str());
        return path;
    }

    static std::string caseSql(const std::string& name)
    {
        for (const test::HostileSchema& c : test::hostileSchemas())
            if (c.name == name) return c.sql;
        qFatal("no case '%s'", name.c_str());
    }

    static std::string caseRefusal(const std::string& path, const std::string& name)
    {
        for (const test::HostileSchema& c : test::hostileSchemas())
            if (c.name == name) return test::refusalOf(path, c.refusal);
        return {};
    }

private slots:
    // Opened from the window (File > Open, a recent file): refused in a dialog; the session that
    // was open stays open; the trigger that would have deleted runs at the first write never ran.
    void aHostileSessionIsRefusedInADialogAndTheOpenOneStays()
    {
        const QString good = m_dir.filePath(QStringLiteral("good.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(good));
        const std::string name = "a trigger after update that deletes the other runs";
        const std::string bad = hostile(QStringLiteral("purge.wrkbench"), test::deadRunSql(3) + caseSql(name));
        const std::string before = test::readFile(bad);

        DialogCatcher dialog;
        QVERIFY(!w.openSession(QString::fromStdString(bad)));
        QCOMPARE(dialog.count, 1);
        QCOMPARE(dialog.title, QStringLiteral("Cannot open the session"));
        QCOMPARE(dialog.text, QString::fromStdString(caseRefusal(bad, name)));
        QCOMPARE(w.document()->path(), good);
        QVERIFY(test::readFile(bad) == before);
        QVERIFY(test::sideFiles(bad).empty());
    }

    // Given on the command line (a double-click): the dialog comes before the window shows or
    // reads anything, so a view that never ends cannot hang it; the default session opens instead.
    void aHostileSessionAtStartIsExplainedAndTheWindowStillOpens()
    {
        const std::string name = "a recursive view in place of the targets a listing joins";
        const std::string bad = hostile(QStringLiteral("forever.wrkbench"), caseSql(name));
        const std::string before = test::readFile(bad);
        MainWindow w;
        DialogCatcher dialog;
        QVERIFY(w.openStartupSession(QString::fromStdString(bad)));
        QCOMPARE(dialog.count, 1);
        QCOMPARE(dialog.text, QString::fromStdString(caseRefusal(bad, name)));
        QCOMPARE(w.document()->path(), QFileInfo(defaultSessionPath()).absoluteFilePath());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(test::readFile(bad) == before);
        QVERIFY(test::sideFiles(bad).empty());
    }

    void everyHostileSchemaIsRefusedInTheWindow()
    {
        MainWindow w;
        QVERIFY(w.openStartupSession(m_dir.filePath(QStringLiteral("home.wrkbench"))));
        int i = 0;
        for (const test::HostileSchema& c : test::hostileSchemas()) {
            const std::string bad = hostile(QStringLiteral("h%1.wrkbench").arg(i++), c.sql);
            const std::string before = test::readFile(bad);
            DialogCatcher dialog;
            QVERIFY2(!w.openSession(QString::fromStdString(bad)), c.name.c_str());
            QCOMPARE(dialog.count, 1);
            QCOMPARE(dialog.text, QString::fromStdString(test::refusalOf(bad, c.refusal)));
            QVERIFY2(test::readFile(bad) == before, c.name.c_str());
            QVERIFY2(test::sideFiles(bad).empty(), c.name.c_str());
        }
    }
};

WB_UI_TEST(HostileSessionTest)
#include "hostilesession_test.moc"
