// The target probe in the GUI: the Probe dialog against the built-in server
// (every phase on the waterfall, the status line and details), a refused
// connection, Esc cancelling a probe that hangs; the certificate expiry
// highlight; and the automatic pre-run probe: a target that refuses the
// connection gets no load until "Run anyway", Esc cancels the probe, and a
// probe that passed travels with the run's outcome as JSON.

#include "charts/probewaterfall.h"
#include "control/runtask.h"
#include "mainwindow.h"
#include "pages/probedetails.h"
#include "pages/probedialog.h"
#include "pages/profileeditor.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "session/sessiondocument.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QAbstractButton>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

/// A server that takes connections (the kernel completes them from the backlog)
/// and never answers: a probe against it waits for the first byte until cancelled.
class SilentServer
{
public:
    SilentServer()
        : m_fd(::socket(AF_INET, SOCK_STREAM, 0))
    {
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(m_fd, 16);
        socklen_t len = sizeof a;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &len);
        m_port = ntohs(a.sin_port);
    }
    ~SilentServer() { ::close(m_fd); }
    SilentServer(const SilentServer&) = delete;
    SilentServer& operator=(const SilentServer&) = delete;
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/"; }
    /// True once a connection waits in the accept queue: a probe has connected.
    bool hasPendingConnection() const
    {
        pollfd p { m_fd, POLLIN, 0 };
        return ::poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
    }

private:
    int m_fd;
    uint16_t m_port = 0;
};

Target target(const std::string& name, const std::string& url)
{
    Target t = uitest::makeTarget(name, url);
    t.id = 1;
    return t;
}

} // namespace

class ProbeTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    /// A window on a new session with one target at url and a short load.
    std::unique_ptr<MainWindow> windowWithTarget(const QString& file, const std::string& url)
    {
        auto w = std::make_unique<MainWindow>();
        if (!w->openStartupSession(m_dir.filePath(file))) return {};
        targetsPanel(*w)->addTarget();
        typeInto(
            targetsPanel(*w)->editor()->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QString::fromStdString(url));
        typeInto(profileEditor(*w)->field(QStringLiteral("duration")), QStringLiteral("1s"));
        typeInto(profileEditor(*w)->field(QStringLiteral("connections")), QStringLiteral("4"));
        return w;
    }

private slots:
    // A scripted target: the probe runs the script's setup, init and request() once and sends the
    // first request a run sends (here a 404 the URL alone would not get), and says so.
    void aScriptedTargetsProbeSendsWhatTheRunSends()
    {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("status404.lua"));
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("init = function(args) wrk.method = 'HEAD' end\n"
                   "request = function() return wrk.format(nil, '/status/404') end\n");
        file.close();
        ProbeDialog dialog;
        Target t = target("scripted", "http://builtin/");
        t.script = script.toStdString();
        QSignalSpy finished(&dialog, &ProbeDialog::probeFinished);
        dialog.probe(t);
        QVERIFY(finished.wait(10'000));
        QVERIFY2(dialog.outcome().ok, qPrintable(dialog.outcome().error));
        QCOMPARE(dialog.outcome().result.statusCode, 404);
        QCOMPARE(QString::fromStdString(dialog.outcome().result.method), QStringLiteral("HEAD"));
        auto* title = dialog.findChild<QLabel*>(QStringLiteral("probeTitle"));
        QVERIFY(title);
        QVERIFY2(title->text().contains(QStringLiteral("The probe sends the first request a run sends: its script (")),
            qPrintable(title->text()));
        auto* served = dialog.findChild<QLabel*>(QStringLiteral("probeServed"));
        QVERIFY2(served->text().contains(QStringLiteral("sent HEAD http://127.0.0.1:"))
                && served->text().contains(QStringLiteral("/status/404")),
            qPrintable(served->text()));

        // A script that cannot make its request: the probe says why and sends nothing.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("request = function() return nil .. 'x' end\n");
        file.close();
        dialog.probe(t);
        QVERIFY(finished.wait(10'000));
        QVERIFY(!dialog.outcome().ok);
        QVERIFY2(dialog.statusText().contains(QStringLiteral("the script could not make its first request: ")),
            qPrintable(dialog.statusText()));

        dialog.probe(target("plain", "http://builtin/"));
        QVERIFY(finished.wait(10'000));
        QVERIFY2(!title->text().contains(QStringLiteral("script")), qPrintable(title->text()));
    }

    void probeDialogShowsEveryPhaseOfTheBuiltinServer()
    {
        ProbeDialog dialog;
        dialog.resize(760, 680);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QSignalSpy finished(&dialog, &ProbeDialog::probeFinished);
        dialog.probe(target("Demo: large answers", "http://builtin/bytes/16384"));
        QVERIFY(dialog.isProbing());
        QVERIFY(dialog.statusText().contains(QStringLiteral("Probing")));
        QVERIFY(finished.wait(10'000));
        const ProbeOutcome& outcome = dialog.outcome();
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QVERIFY(!dialog.isProbing());

        // Six rows in the order of a request; TLS did not happen over http.
        const QVector<WaterfallPhase>& phases
            = dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->phases();
        const QStringList expected
            = { "DNS lookup", "TCP connect", "TLS handshake", "request sent", "first byte", "body" };
        QCOMPARE(phases.size(), expected.size());
        double endMs = 0;
        double sumMs = 0;
        for (qsizetype i = 0; i < phases.size(); ++i) {
            const WaterfallPhase& p = phases[i];
            QCOMPARE(p.label, expected[i]);
            QVERIFY2(p.durationMs >= 0 && p.startMs >= 0, qPrintable(p.label));
            QVERIFY2(std::abs(p.startMs - endMs) < 1e-9, qPrintable(p.label)); // each phase starts where the last ended
            endMs = p.startMs + p.durationMs;
            sumMs += p.durationMs;
            QCOMPARE(p.happened, p.label != QStringLiteral("TLS handshake"));
            QCOMPARE(
                dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->barRect(static_cast<int>(i)).isEmpty(),
                !p.happened);
        }
        QCOMPARE(phases[2].note, QStringLiteral("no TLS (http)"));
        QVERIFY(std::abs(sumMs - dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->totalMs()) < 1e-6);
        QCOMPARE(dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->totalMs(),
            static_cast<double>(outcome.result.totalUs) / 1000.0);
        QVERIFY(phases[4].durationMs > 0); // the server's answer takes some time to arrive

        // The status line, and the details the CLI prints.
        QVERIFY2(dialog.statusText().contains(QStringLiteral("HTTP/1.1 200 OK")), qPrintable(dialog.statusText()));
        const QString details = dialog.detailsText();
        QVERIFY2(details.contains(QStringLiteral("HTTP/1.1 200 OK")), qPrintable(details));
        QVERIFY(details.contains(QStringLiteral("127.0.0.1:%1").arg(outcome.result.remotePort)));
        QVERIFY(details.contains(QStringLiteral("16,384 bytes")));
        QVERIFY(details.contains(QStringLiteral("none (plain http)")));
        QVERIFY(details.contains(QStringLiteral("Content-Length: 16384")));
        QCOMPARE(outcome.result.bodyBytes, uint64_t(16384));

        // Drawn: every bar of a phase that happened is there in its colour.
        QTRY_COMPARE(dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->height(),
            dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->sizeHint().height()); // laid out
        if (const QString shots = qEnvironmentVariable("WB_PROBE_SHOT"); !shots.isEmpty()) dialog.grab().save(shots);
        const QImage image = dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))
                                 ->grab()
                                 .toImage()
                                 .convertToFormat(QImage::Format_RGB32);
        for (int row : { 0, 1, 3, 4, 5 }) {
            const QRect bar = dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->barRect(row);
            QVERIFY(bar.width() >= 2 && image.rect().contains(bar));
            QCOMPARE(QColor(image.pixel(bar.center())), phases[row].color);
        }
    }

    void probeDialogSaysWhyAClosedPortFailed()
    {
        ProbeDialog dialog;
        QSignalSpy finished(&dialog, &ProbeDialog::probeFinished);
        const uint16_t port = uitest::closedPort();
        dialog.probe(target("closed", "http://127.0.0.1:" + std::to_string(port) + "/"));
        QVERIFY(finished.wait(10'000));
        QVERIFY(!dialog.outcome().ok);
        QVERIFY(!dialog.outcome().cancelled);
        const QString reason = QStringLiteral("connection refused by 127.0.0.1:%1").arg(port);
        QVERIFY2(dialog.statusText().contains(reason), qPrintable(dialog.statusText()));
        QVERIFY(dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->phases().isEmpty());
        QVERIFY(dialog.detailsText().isEmpty());
    }

    void escapeCancelsAProbeThatHangs()
    {
        SilentServer silent;
        ProbeDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QSignalSpy finished(&dialog, &ProbeDialog::probeFinished);
        dialog.probe(target("silent", silent.url()));
        // Connected, waiting for a first byte that never comes.
        QTRY_VERIFY_WITH_TIMEOUT(silent.hasPendingConnection(), 4000);
        QVERIFY(dialog.isProbing());
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QVERIFY(!dialog.isVisible());
        QVERIFY(finished.wait(10'000)); // a guard: by then the probe has ended either way (its timeout is 5 s)
        // Ended by the cancel: the server never answers, so a probe that ignored it ends
        // in its 5 s timeout, reported as a timeout and not as cancelled.
        QVERIFY(dialog.outcome().cancelled);
    }

    void certificateExpiryIsHighlighted()
    {
        QCOMPARE(expiryColor(-3), EXPIRED_COLOR);
        QCOMPARE(expiryColor(0), EXPIRY_WARNING_COLOR);
        QCOMPARE(expiryColor(EXPIRY_WARNING_DAYS - 1), EXPIRY_WARNING_COLOR);
        QVERIFY(!expiryColor(EXPIRY_WARNING_DAYS).isValid());
        QCOMPARE(expiryText(1), QStringLiteral("1 day left"));
        QCOMPARE(expiryText(-2), QStringLiteral("expired 2 days ago"));

        ProbeResult r;
        r.method = "GET";
        r.url = "https://api.example.test/";
        r.tlsVersion = "TLSv1.3";
        r.cipher = "TLS_AES_256_GCM_SHA384";
        r.alpn = "http/1.1";
        r.httpVersion = "HTTP/1.1";
        r.dnsUs = 100, r.connectUs = 400, r.tlsUs = 15'000, r.requestSentUs = 15'100, r.firstByteUs = 15'900;
        r.totalUs = 16'000;
        r.statusLine = "HTTP/1.1 200 OK";
        r.certificates = { { "CN=api.example.test", "CN=Example CA", { "DNS:api.example.test" }, "2026-01-01T00:00:00Z",
                               "2026-12-01T00:00:00Z", 12 },
            { "CN=Example CA", "CN=Example Root", {}, "2020-01-01T00:00:00Z", "2025-01-01T00:00:00Z", -5 },
            { "CN=Example Root", "CN=Example Root", {}, "2020-01-01T00:00:00Z", "2040-01-01T00:00:00Z", 5000 } };
        const QString html = probeDetailsHtml(r);
        QVERIFY(
            html.contains(QStringLiteral("color:%1; font-weight:bold'>12 days left").arg(EXPIRY_WARNING_COLOR.name())));
        QVERIFY(
            html.contains(QStringLiteral("color:%1; font-weight:bold'>expired 5 days ago").arg(EXPIRED_COLOR.name())));
        QVERIFY(html.contains(QStringLiteral("(5000 days left)"))); // far off: not highlighted
        QVERIFY(html.contains(QStringLiteral("TLSv1.3, TLS_AES_256_GCM_SHA384")));
        QVERIFY(html.contains(QStringLiteral("DNS:api.example.test")));

        // Rendered: the two highlighted expiries are on screen in their colours.
        ProbeDialog dialog;
        dialog.resize(760, 720);
        ProbeOutcome outcome;
        outcome.ok = true;
        outcome.result = r;
        dialog.showOutcome(target("api", r.url), outcome);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.detailsText().contains(QStringLiteral("expired 5 days ago")));
        QVERIFY(dialog.statusText().contains(QStringLiteral("HTTP/1.1 200 OK")));
        QCOMPARE(dialog.findChild<ProbeWaterfall*>(QStringLiteral("waterfall"))->phases().size(), 6);
        if (const QString shot = qEnvironmentVariable("WB_PROBE_TLS_SHOT"); !shot.isEmpty()) dialog.grab().save(shot);
        const QImage details = dialog.findChild<QWidget*>(QStringLiteral("probeDetails"))->grab().toImage();
        const auto pixelsOf = [&details](const QColor& color) {
            int n = 0;
            for (int y = 0; y < details.height(); ++y)
                for (int x = 0; x < details.width(); ++x)
                    n += QColor(details.pixel(x, y)) == color ? 1 : 0;
            return n;
        };
        QVERIFY(pixelsOf(EXPIRY_WARNING_COLOR) > 10);
        QVERIFY(pixelsOf(EXPIRED_COLOR) > 10);

        const QVector<WaterfallPhase> rows = waterfallPhases(r);
        QCOMPARE(rows.size(), 6);
        for (const WaterfallPhase& p : rows)
            QVERIFY(p.happened);
        QCOMPARE(rows[2].durationMs, 14.6); // TLS: 0.4 ms to 15 ms
        QCOMPARE(rows[5].startMs + rows[5].durationMs, 16.0);
    }

    void probeActionOpensTheDialogForTheSelectedTarget()
    {
        auto w = windowWithTarget(QStringLiteral("action.wrkbench"), "http://builtin/status/404");
        QVERIFY(w);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(probeAction(*w)->isEnabled());
        QCOMPARE(probeAction(*w)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));
        QVERIFY(targetsPanel(*w)->findChild<QToolButton*>(QStringLiteral("probeTargetButton"))->isEnabled());
        probeAction(*w)->trigger();
        QVERIFY(probeDialog(*w));
        QVERIFY(probeDialog(*w)->isVisible());
        QSignalSpy finished(probeDialog(*w), &ProbeDialog::probeFinished);
        QVERIFY(finished.wait(10'000));
        // A 404 is an answer: the probe passed, and shows it.
        QVERIFY2(probeDialog(*w)->outcome().ok, qPrintable(probeDialog(*w)->outcome().error));
        QVERIFY(probeDialog(*w)->statusText().contains(QStringLiteral("404")));
        QCOMPARE(probeDialog(*w)->target().url, std::string("http://builtin/status/404"));
        probeDialog(*w)->close();
        // A target with a field in red cannot be probed.
        typeInto(targetsPanel(*w)->editor()->findChild<QLineEdit*>(QStringLiteral("urlEdit")),
            QStringLiteral("htp://nowhere"));
        QVERIFY(!probeAction(*w)->isEnabled());
        QVERIFY(!targetsPanel(*w)->findChild<QToolButton*>(QStringLiteral("probeTargetButton"))->isEnabled());
    }

    void preRunProbeThatPassesTravelsWithTheRun()
    {
        auto w = windowWithTarget(QStringLiteral("passes.wrkbench"), "http://builtin/");
        QVERIFY(w);
        QSignalSpy finished(runTask(*w), &RunTask::finished);
        QVERIFY(w->startRun());
        QVERIFY(runTask(*w)->setup().probeFirst);
        QVERIFY(finished.wait(15'000));
        const auto outcome = finished[0][0].value<RunOutcome>();
        QCOMPARE(outcome.status, RunStatus::Completed);
        QVERIFY(!outcome.probeFailed);
        QVERIFY(!outcome.probeJson.isEmpty());
        auto probe = ProbeResult::fromJsonText(outcome.probeJson.toStdString());
        QVERIFY2(probe, probe ? "" : probe.error().c_str());
        QCOMPARE(probe->statusCode, 200);
        QVERIFY(QString::fromStdString(probe->url).startsWith(QStringLiteral("http://127.0.0.1:")));
        QVERIFY(!probeFailedBox(*w));
        // Stored with the run it preceded.
        w->document()->reload();
        QCOMPARE(w->document()->runs().size(), size_t(1));
        QCOMPARE(QString::fromStdString(w->document()->runs()[0].probeJson), outcome.probeJson);
    }

    void preRunProbeBlocksARefusedTargetUntilRunAnyway()
    {
        const uint16_t port = uitest::closedPort();
        auto w = windowWithTarget(QStringLiteral("refused.wrkbench"), "http://127.0.0.1:" + std::to_string(port) + "/");
        QVERIFY(w);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const QString reason = QStringLiteral("connection refused by 127.0.0.1:%1").arg(port);
        QSignalSpy finished(runTask(*w), &RunTask::finished);
        QSignalSpy started(runTask(*w), &RunTask::started);

        // Run, then Cancel in the question: no load, nothing stored.
        QString asked;
        bool clicked = false;
        std::function<void()> answer; // polls for the modal question, then clicks `choice`
        QString choice = QStringLiteral("Cancel");
        answer = [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) {
                QTimer::singleShot(20, this, answer);
                return;
            }
            asked = box->text();
            if (QAbstractButton* b = buttonNamed(box, choice)) {
                b->click();
                clicked = true;
            }
        };
        QTimer::singleShot(0, this, answer);
        QVERIFY(w->startRun());
        QTRY_VERIFY_WITH_TIMEOUT(clicked, 10'000);
        QVERIFY2(asked.contains(reason), qPrintable(asked));
        QCOMPARE(finished.count(), 1);
        const auto blocked = finished[0][0].value<RunOutcome>();
        QVERIFY(blocked.probeFailed);
        QCOMPARE(blocked.runId, int64_t(0));
        QVERIFY(blocked.error.contains(reason));
        QTRY_VERIFY(!probeFailedBox(*w));
        QVERIFY(!runTask(*w)->isActive());
        QCOMPARE(started.count(), 0);
        w->document()->reload();
        QVERIFY(w->document()->runs().empty()); // nothing stored
        QVERIFY(runAction(*w)->isEnabled());

        // Run again, then "Run anyway": the run goes ahead with the engine's own check, and is stored.
        clicked = false;
        asked.clear();
        choice = QStringLiteral("Run anyway");
        QTimer::singleShot(0, this, answer);
        QVERIFY(w->startRun());
        QTRY_VERIFY_WITH_TIMEOUT(clicked, 10'000);
        QVERIFY(asked.contains(reason));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 15'000); // the blocked run, the second probe, the run
        const auto ran = finished[2][0].value<RunOutcome>();
        QVERIFY(!ran.probeFailed);
        QVERIFY(!runTask(*w)->setup().probeFirst);
        QVERIFY(ran.runId > 0);
        w->document()->reload();
        QCOMPARE(w->document()->runs().size(), size_t(1));
        const RunRecord& stored = w->document()->runs()[0];
        QCOMPARE(stored.id, ran.runId);
        // Whatever the engine makes of it, the stored run shows the failure.
        QVERIFY2(
            stored.status == RunStatus::Failed || (stored.totals.errors.transportErrors() + stored.totals.non2xx) > 0,
            qPrintable(QString::fromUtf8(runStatusName(stored.status))));
        if (stored.status == RunStatus::Failed)
            QVERIFY2(QString::fromStdString(stored.error).contains(QStringLiteral("refused")), stored.error.c_str());
    }

    void escapeDuringThePreRunProbeCancelsIt()
    {
        SilentServer silent;
        auto w = windowWithTarget(QStringLiteral("silent.wrkbench"), silent.url());
        QVERIFY(w);
        w->show();
        QApplication::setActiveWindow(w.get());
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QSignalSpy finished(runTask(*w), &RunTask::finished);
        QTest::keyClick(w.get(), Qt::Key_F5);
        QVERIFY(runTask(*w)->isActive());
        QCOMPARE(runTask(*w)->phase(), RunTask::Phase::Probing);
        QTRY_VERIFY_WITH_TIMEOUT(silent.hasPendingConnection(), 4000); // connected, waiting for the first byte
        QCOMPARE(runTask(*w)->phase(), RunTask::Phase::Probing);
        QVERIFY(stopAction(*w)->isEnabled());
        QTest::keyClick(w.get(), Qt::Key_Escape);
        QVERIFY(finished.wait(10'000)); // a guard: by then the probe has ended either way (its timeout is 5 s)
        // Ended by the Stop: a probe that ignored it would end in its timeout, a failed probe.
        const auto outcome = finished[0][0].value<RunOutcome>();
        QVERIFY(outcome.cancelled);
        QVERIFY(!outcome.probeFailed);
        QCOMPARE(outcome.runId, int64_t(0));
        QVERIFY(!probeFailedBox(*w)); // no question after a cancel
        w->document()->reload();
        QVERIFY(w->document()->runs().empty());
    }
};

WB_UI_TEST(ProbeTest)
#include "probe_test.moc"
