// wrk scripts from the GUI: the target editor's Script field (a file checked when chosen, a syntax
// error shown with its line, the text shown, the arguments), read again at each run; a run from
// the window sends what the script builds (counted in nginx's own log), keeps what done() printed
// and shows it with the script in the run's details; a Lua error fails the run with its message.

#include "control/runevents.h"
#include "control/runsetup.h"
#include "control/runtask.h"
#include "forms/scriptform.h"
#include "mainwindow.h"
#include "nginx.h"
#include "pages/fieldstate.h"
#include "pages/profileeditor.h"
#include "pages/rundetailpage.h"
#include "pages/scriptfield.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "session/sessiondocument.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <thread>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

// Each thread counts in its path, after the prefix init(args) gave it; done() prints the run's
// count as wrk's summary gives it.
constexpr const char* COUNTER = R"lua(
function init(args)
  prefix = args[1] or "none"
  n = 0
end
function request()
  n = n + 1
  return wrk.format(nil, "/mix/" .. prefix .. "-" .. n)
end
function done(summary, latency, requests)
  print(string.format("script saw %d requests", summary.requests))
end
)lua";

} // namespace

class ScriptTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    test::Nginx m_nginx;
    bool m_nginxUp = false;

    QString nginxUrl() const { return QStringLiteral("http://127.0.0.1:%1/").arg(m_nginx.port()); }
    // nginx's log lines from `before` on, once two reads 50 ms apart agree (it logs after answering).
    std::vector<std::string> served(size_t before) const
    {
        std::vector<std::string> lines = test::splitLines(m_nginx.requestLog());
        for (int i = 0; i < 40; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            auto again = test::splitLines(m_nginx.requestLog());
            const bool settled = again.size() == lines.size();
            lines = std::move(again);
            if (settled) break;
        }
        return { lines.begin() + static_cast<long>(std::min(before, lines.size())), lines.end() };
    }

private slots:
    void initTestCase()
    {
        test::NginxOptions o;
        o.requestLog = true;
        m_nginxUp = test::Nginx::available() && m_nginx.start(o);
    }

    void argumentsSplitAsTypedAndShowAsSplit()
    {
        const std::vector<std::string> args { "plain", "two words", "", "say \"hi\"", "back\\slash" };
        const QString shown = joinScriptArgs(args);
        QCOMPARE(shown, QStringLiteral("plain \"two words\" \"\" \"say \\\"hi\\\"\" \"back\\\\slash\""));
        QCOMPARE(splitScriptArgs(shown), args);
        QCOMPARE(splitScriptArgs(QStringLiteral("  a   b\t\"c d\" ")), (std::vector<std::string> { "a", "b", "c d" }));
        QVERIFY(splitScriptArgs(QString()).empty());
    }

    // Chosen, the file is checked (a syntax error shows with its line, Run is off), shown, and
    // with its arguments stored; each run reads the file again.
    void scriptFieldIsCheckedShownStoredAndReadAtEachRun()
    {
        MainWindow w;
        QVERIFY(w.openStartupSession(m_dir.filePath(QStringLiteral("field.wrkbench"))));
        const int64_t id = targetsPanel(w)->addTarget();
        QVERIFY(id > 0);
        TargetEditor* editor = targetsPanel(w)->editor();
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QStringLiteral("http://127.0.0.1:8089/"));
        QVERIFY(editor->commit());
        auto* field = editor->findChild<ScriptField*>(QStringLiteral("scriptField"));
        QVERIFY(field);
        QVERIFY(!field->view()->isVisibleTo(field));

        const QString broken = writeFile(m_dir, QStringLiteral("broken.lua"), "wrk.method = 'POST'\nlocal x = = 1\n");
        typeInto(field->pathEdit(), broken);
        QVERIFY(!editor->isValid());
        const QString problem = fieldProblem(field->pathEdit());
        QVERIFY2(problem.startsWith(broken + QStringLiteral(":2: unexpected symbol near '='")), qPrintable(problem));
        QVERIFY2(
            editor->findChild<QLabel*>(QStringLiteral("statusLabel"))->text().contains(broken + QStringLiteral(":2:")),
            qPrintable(editor->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
        QVERIFY(!runAction(w)->isEnabled());
        QVERIFY(field->view()->isVisibleTo(field)); // what is wrong can be seen
        QVERIFY(field->view()->toPlainText().contains(QStringLiteral("local x = = 1")));

        typeInto(field->pathEdit(), m_dir.filePath(QStringLiteral("missing.lua")));
        QVERIFY(fieldProblem(field->pathEdit()).contains(QStringLiteral("does not exist")));

        const QString good = writeFile(m_dir, QStringLiteral("post.lua"), "wrk.method = 'POST'\nwrk.body = 'a=1'\n");
        typeInto(field->pathEdit(), good);
        typeInto(field->argsEdit(), QStringLiteral("first \"second arg\""));
        QVERIFY2(editor->isValid(), qPrintable(editor->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
        QCOMPARE(field->view()->toPlainText(), QStringLiteral("wrk.method = 'POST'\nwrk.body = 'a=1'\n"));
        QVERIFY(editor->commit());
        auto store = SessionStore::open(w.document()->path().toStdString());
        QVERIFY(store);
        auto t = (*store)->targets().get(id);
        QVERIFY(t);
        QCOMPARE(QString::fromStdString(t->script), QFileInfo(good).absoluteFilePath());
        QCOMPARE(t->scriptArgs, (std::vector<std::string> { "first", "second arg" }));

        // What a run takes: the file's text now, with its name and arguments; the file changed
        // since is what the next run takes, and a file gone is the run's error, in words.
        auto config = runConfigFor(*t, RunConfig {});
        QVERIFY2(config.ok(), config ? "" : config.error().c_str());
        QCOMPARE(config->script.text, std::string("wrk.method = 'POST'\nwrk.body = 'a=1'\n"));
        QCOMPARE(config->script.args, t->scriptArgs);
        writeFile(m_dir, QStringLiteral("post.lua"), "wrk.method = 'PUT'\n");
        config = runConfigFor(*t, RunConfig {});
        QVERIFY(config.ok());
        QCOMPARE(config->script.text, std::string("wrk.method = 'PUT'\n"));
        QFile::remove(good);
        config = runConfigFor(*t, RunConfig {});
        QVERIFY(!config.ok());
        QVERIFY2(config.error().rfind("script: cannot read the script", 0) == 0, config.error().c_str());

        // A script and a request mix at once: the script builds the requests, so it is one or the other.
        writeFile(m_dir, QStringLiteral("post.lua"), "wrk.method = 'POST'\n");
        const QString mix = writeFile(m_dir, QStringLiteral("mix.txt"), "GET http://127.0.0.1:8089/a\n");
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("requestMixEdit")), mix);
        QVERIFY(!editor->isValid());
        QVERIFY(fieldProblem(field->pathEdit()).contains(QStringLiteral("not both")));
    }

    // Run from the window: nginx served exactly the paths the script built, the run counted them,
    // done()'s output is kept with the run and shown with the script in its details.
    void aRunFromTheWindowSendsWhatTheScriptBuilds()
    {
        if (!m_nginxUp) QSKIP("nginx is not installed or did not start");
        MainWindow w;
        QVERIFY(w.openStartupSession(m_dir.filePath(QStringLiteral("run.wrkbench"))));
        targetsPanel(w)->addTarget();
        TargetEditor* editor = targetsPanel(w)->editor();
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")), nginxUrl());
        auto* field = editor->findChild<ScriptField*>(QStringLiteral("scriptField"));
        typeInto(field->pathEdit(), writeFile(m_dir, QStringLiteral("counter.lua"), COUNTER));
        typeInto(field->argsEdit(), QStringLiteral("gui"));
        QVERIFY2(editor->isValid(), qPrintable(editor->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
        QVERIFY(editor->commit());
        typeInto(profileEditor(w)->field(QStringLiteral("duration")), QStringLiteral("1s"));
        typeInto(profileEditor(w)->field(QStringLiteral("connections")), QStringLiteral("2"));
        typeInto(profileEditor(w)->field(QStringLiteral("threads")), QStringLiteral("1"));
        QVERIFY(profileEditor(w)->isValid());

        const size_t before = test::splitLines(m_nginx.requestLog()).size();
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QVERIFY(w.startRun());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        const auto outcome = finished[0][0].value<RunOutcome>();
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.status, RunStatus::Completed);
        QVERIFY(outcome.requests > 0);

        // One thread, one counter: /mix/gui-2, -3, ... each once (as wrk, the first request() call
        // builds the request that is checked, not sent), and besides them only the pre-run probe's
        // GET /; what was counted was served, and at most the two connections' last requests were
        // still in flight.
        const auto lines = served(before);
        std::map<int, int> seen;
        size_t scripted = 0;
        const QRegularExpression path(QStringLiteral("^GET /mix/gui-(\\d+) 200$"));
        for (const std::string& l : lines) {
            const auto m = path.match(QString::fromStdString(l));
            if (!m.hasMatch()) {
                QCOMPARE(QString::fromStdString(l), QStringLiteral("GET / 200")); // the probe
                continue;
            }
            ++seen[m.captured(1).toInt()];
            ++scripted;
        }
        QVERIFY(lines.size() - scripted <= 1);
        QVERIFY(!seen.empty());
        QCOMPARE(seen.begin()->first, 2);
        QCOMPARE(size_t(seen.rbegin()->first), seen.size() + 1);
        for (const auto& [n, times] : seen)
            QCOMPARE(times, 1);
        QVERIFY2(scripted >= outcome.requests && scripted <= outcome.requests + 2,
            qPrintable(QStringLiteral("%1 served, %2 counted").arg(scripted).arg(outcome.requests)));

        // done() printed the run's count; kept with the run, shown in its details with the script.
        const QString printed = QStringLiteral("script saw %1 requests\n").arg(outcome.requests);
        QCOMPARE(outcome.scriptOutput, printed);
        auto store = SessionStore::open(w.document()->path().toStdString());
        QVERIFY(store);
        auto record = (*store)->runs().record(outcome.runId);
        QVERIFY(record);
        QCOMPARE(QString::fromStdString(record->scriptOutput), printed);
        QCOMPARE(record->config.script.text, std::string(COUNTER));
        QCOMPARE(record->config.script.args, std::vector<std::string> { "gui" });
        w.openRun(outcome.runId);
        auto* detail = qobject_cast<RunDetailPage*>(tabs(w)->currentWidget());
        QVERIFY(detail);
        auto* output = detail->findChild<QPlainTextEdit*>(QStringLiteral("scriptOutputView"));
        auto* text = detail->findChild<QPlainTextEdit*>(QStringLiteral("scriptTextView"));
        QVERIFY(output && text);
        QCOMPARE(output->toPlainText(), printed);
        QCOMPARE(text->toPlainText(), QString::fromUtf8(COUNTER));
        // The summary says a script decided what was sent, next to the URL.
        auto* summary = detail->findChild<QTableWidget*>(QStringLiteral("summaryTable"));
        QVERIFY(summary);
        QString scriptRow;
        for (int row = 0; row < summary->rowCount(); ++row)
            if (summary->item(row, 0)->text() == QStringLiteral("Script")) scriptRow = summary->item(row, 1)->toolTip();
        QVERIFY2(scriptRow.startsWith(QString::fromStdString(record->config.script.name) + QStringLiteral(" gui — ")),
            qPrintable(scriptRow));
    }

    // A Lua error in request() stops the run: failed, with the message, what was measured kept.
    void aLuaErrorFailsTheRunWithItsMessage()
    {
        if (!m_nginxUp) QSKIP("nginx is not installed or did not start");
        const QString session = m_dir.filePath(QStringLiteral("error.wrkbench"));
        QString error;
        auto doc = SessionDocument::open(session, true, &error);
        QVERIFY2(doc, qPrintable(error));
        Target t;
        t.name = "scripted";
        t.url = nginxUrl().toStdString();
        t.script = writeFile(m_dir, QStringLiteral("boom.lua"),
            "n = 0\nfunction request()\n  n = n + 1\n  if n > 10 then error('boom from the GUI') end\n"
            "  return wrk.format()\nend\n")
                       .toStdString();
        auto id = doc->addTarget(t);
        QVERIFY(id);
        t.id = *id;
        RunSetup setup;
        setup.target = t;
        setup.profile.name = "short";
        setup.profile.load.threads = 1;
        setup.profile.load.connections = 1;
        setup.profile.load.durationUs = 20'000'000;
        setup.sessionPath = session;
        RunTask run;
        QSignalSpy finished(&run, &RunTask::finished);
        QVERIFY(run.start(setup));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000); // long before the 20 s
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Failed);
        QVERIFY(outcome.failedWhileRunning);
        QVERIFY2(outcome.error.contains(QStringLiteral("boom from the GUI")), qPrintable(outcome.error));
        QCOMPARE(outcome.requests, uint64_t(9)); // request() built 10: the first is checked, not sent
        auto record = doc->store().runs().record(outcome.runId);
        QVERIFY(record);
        QCOMPARE(record->status, RunStatus::Failed);
        QVERIFY(record->error.find("boom from the GUI") != std::string::npos);

        // An error in done() leaves the run as it was (completed, stored) and is said, and kept
        // with what the script printed, as an experiment's run keeps it.
        t.script = writeFile(m_dir, QStringLiteral("late.lua"),
            "function done(summary, latency, requests)\n  print('done ran')\n  error('boom in done')\nend\n")
                       .toStdString();
        QVERIFY(doc->updateTarget(t));
        setup.target = t;
        setup.profile.load.durationUs = 300'000;
        QVERIFY(run.start(setup));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60'000);
        const auto late = finished[1][0].value<RunOutcome>();
        QCOMPARE(late.status, RunStatus::Completed);
        QVERIFY2(late.scriptDoneError.contains(QStringLiteral("boom in done")), qPrintable(late.scriptDoneError));
        QVERIFY2(late.scriptOutput.startsWith(QStringLiteral("done ran\n")), qPrintable(late.scriptOutput));
        QVERIFY(late.scriptOutput.contains(QStringLiteral("boom in done")));
        auto stored = doc->store().runs().record(late.runId);
        QVERIFY(stored);
        QCOMPARE(QString::fromStdString(stored->scriptOutput), late.scriptOutput);
    }
};

WB_UI_TEST(ScriptTest)
#include "script_test.moc"
