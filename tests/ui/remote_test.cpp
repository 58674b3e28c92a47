// Remote loaders in the GUI (docs/AGENT.md, docs/GUI.md "Remote loaders"):
// the registry's round trip and its 0600 token file; File → Loaders…'s Test
// connection against a real `wrkbench-cli agent` on loopback (pinned, not pinned
// yet: asked, a changed certificate: refused loudly, a wrong token: 401); the
// probe asked from the agent; a profile naming an unknown loader stopped before
// anything starts; and a GUI run on two remote loaders, merged live with a rate per
// loader and stored with its loaders rows.

#include "agent/channel/agentanswer.h"
#include "agent/client/agentclient.h"
#include "control/runcoordinator.h"
#include "control/runtask.h"
#include "pages/dialogs.h"
#include "pages/livepage.h"
#include "pages/probedialog.h"
#include "pages/remoteloadersdialog.h"
#include "pages/runheader.h"
#include "remote/agentcall.h"
#include "remote/agentprobe.h"
#include "remote/remoteloaders.h"
#include "serve/builtinserver.h"
#include "session/sessiondocument.h"
#include "session/sessionpaths.h"
#include "session/sessionseed.h"
#include "store/sessionstore.h"
#include "uitestsupport.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/prctl.h>
#include <sys/stat.h>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

constexpr int WAIT_MS = 60'000; // a wait for an event, never a bound: a busy 2-core machine is slow

unsigned modeOf(const QString& path)
{
    struct stat st
    { };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) return 0;
    return st.st_mode & 0777;
}

/// `wrkbench-cli agent` on a free loopback port, with its own state dir (certificate, token).
struct Agent
{
    QTemporaryDir state;
    QProcess process;
    QString address;
    QString fingerprint; ///< of its cert.pem, lower-case hex
    QString token;
    QByteArray output;

    bool start(const QString& allow)
    {
        const QString cli = qEnvironmentVariable("WB_CLI");
        if (cli.isEmpty()) return false;
        address = QStringLiteral("127.0.0.1:%1").arg(closedPort());
        process.setProcessChannelMode(QProcess::MergedChannels);
        // Gone with the test even when it crashes: an orphan would keep the port and the
        // descriptors it inherited (a build lock held by whoever runs the test).
        process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        QObject::connect(&process, &QProcess::readyRead, [this] { output += process.readAll(); });
        process.start(cli,
            { QStringLiteral("agent"), QStringLiteral("--listen"), address, QStringLiteral("--allow"), allow,
                QStringLiteral("--state-dir"), state.path() });
        if (!process.waitForStarted(WAIT_MS)) return false;
        // Listening once it says so; its certificate and token are in the state dir by then.
        if (!QTest::qWaitFor(
                [this] { return output.contains("listening") || process.state() != QProcess::Running; }, WAIT_MS))
            return false;
        if (process.state() != QProcess::Running) return false;
        const auto certs = QSslCertificate::fromPath(state.filePath(QStringLiteral("cert.pem")));
        if (certs.isEmpty()) return false;
        fingerprint = certificateFingerprint(certs.first());
        QFile file(state.filePath(QStringLiteral("token")));
        if (!file.open(QIODevice::ReadOnly)) return false;
        token = QString::fromUtf8(file.readAll()).trimmed();
        return !token.isEmpty();
    }
    ~Agent()
    {
        if (process.state() == QProcess::NotRunning) return;
        process.terminate();
        if (!process.waitForFinished(WAIT_MS)) process.kill();
    }
    AgentEndpoint loader(const QString& name) const
    {
        return { name.toStdString(), address.toStdString(), token.toStdString(), fingerprint.toStdString(), {} };
    }
};

/// The error of a result, "" when it holds a value (QVERIFY2 evaluates its message either way).
template<typename T> const char* errorOf(const Result<T>& r)
{
    return r.ok() ? "" : r.error().c_str();
}

const QString OTHER_FINGERPRINT = QStringLiteral("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");

} // namespace

class RemoteTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QStringList m_questions;
    QStringList m_errors;
    bool m_answer = true;
    std::unique_ptr<Agent> m_agent;

    /// The dialog on one entry, tested; returns the last answer (after a pin question's retest).
    AgentAnswer test(RemoteLoadersDialog& dialog, int expectedTests = 1)
    {
        QSignalSpy done(&dialog, &RemoteLoadersDialog::testFinished);
        dialog.findChild<QPushButton*>(QStringLiteral("testConnection"))->click();
        if (!QTest::qWaitFor([&] { return done.count() >= expectedTests && !dialog.isTesting(); }, WAIT_MS)) {
            return {};
        }
        return done.last().first().value<AgentAnswer>();
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<AgentAnswer>();
        setConfirmHandler([this](const QString& text) {
            m_questions << text;
            return m_answer;
        });
        setErrorHandler([this](const QString& text) { m_errors << text; });
        m_agent = std::make_unique<Agent>();
        QVERIFY2(m_agent->start(QStringLiteral("127.0.0.1")), m_agent->output.constData());
    }
    void init()
    {
        m_questions.clear();
        m_errors.clear();
        m_answer = true;
    }

    void fingerprintsAreReadWithOrWithoutColons_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("normalized");
        const QString hex = QStringLiteral("3a91") + QString(58, QLatin1Char('0')) + QStringLiteral("c4");
        QTest::newRow("lower") << hex << hex;
        QTest::newRow("upper, colons") << displayFingerprint(hex) << hex;
        QTest::newRow("spaces around") << QStringLiteral("  ") + hex.toUpper() + QStringLiteral(" ") << hex;
        QTest::newRow("empty: not pinned") << QString() << QString();
        QTest::newRow("short") << hex.left(62) << QStringLiteral("!");
        QTest::newRow("not hex") << QString(64, QLatin1Char('g')) << QStringLiteral("!");
    }
    void fingerprintsAreReadWithOrWithoutColons()
    {
        QFETCH(QString, text);
        QFETCH(QString, normalized);
        const auto got = normalizeFingerprint(text);
        if (normalized == QStringLiteral("!")) {
            QVERIFY(!got);
        } else {
            QVERIFY(got);
            QCOMPARE(*got, normalized);
        }
        QCOMPARE(displayFingerprint(OTHER_FINGERPRINT).count(QLatin1Char(':')), 31);
    }

    /// Names, addresses and pins in the settings; tokens only in the 0600 file beside them.
    void theRegistryRoundTripsAndKeepsTokensInA0600File()
    {
        const QString tokens = RemoteLoaderRegistry::tokenFilePath();
        QCOMPARE(QFileInfo(tokens).absolutePath(), QFileInfo(appSettings()->fileName()).absolutePath());
        // An old file readable by others is replaced by a private one, whatever the umask.
        QDir().mkpath(QFileInfo(tokens).absolutePath());
        QFile old(tokens);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("stale secret\n");
        old.close();
        QVERIFY(::chmod(QFile::encodeName(tokens).constData(), 0644) == 0);
        const mode_t umaskBefore = ::umask(0);

        RemoteLoaderRegistry registry;
        registry.setLoaders({ { "vm1", "10.20.0.5:7450", "secret-one", OTHER_FINGERPRINT.toStdString(), {} },
            { "vm2", "[::1]:7450", "secret-two", {}, {} } });
        const Status saved = registry.save();
        ::umask(umaskBefore);
        QVERIFY2(saved.ok(), saved.error().c_str());
        QCOMPARE(modeOf(tokens), 0600u);

        const RemoteLoaderRegistry back = RemoteLoaderRegistry::load();
        QCOMPARE(back.loaders(), registry.loaders());
        QCOMPARE(back.names(), QStringList({ QStringLiteral("vm1"), QStringLiteral("vm2") }));
        QFile settings(appSettings()->fileName());
        QVERIFY(settings.open(QIODevice::ReadOnly));
        const QByteArray settingsText = settings.readAll();
        QVERIFY(settingsText.contains("10.20.0.5:7450"));
        QVERIFY(!settingsText.contains("secret"));

        // A name, or an address one entry has; unknown names and missing pins say what to do.
        auto found = back.endpoints({ "vm1", "10.20.0.5:7450" });
        QVERIFY2(found.ok(), errorOf(found));
        QCOMPARE(found->size(), size_t(2));
        QCOMPARE((*found)[0].token, std::string("secret-one"));
        QCOMPARE((*found)[0].fingerprint, OTHER_FINGERPRINT.toStdString());
        QCOMPARE((*found)[1].name, std::string("vm1"));
        auto unknown = back.endpoints({ "vm1", "vm9" });
        QVERIFY(!unknown.ok());
        QVERIFY2(QString::fromStdString(unknown.error()).contains(QStringLiteral("'vm9'")), errorOf(unknown));
        QVERIFY(QString::fromStdString(unknown.error()).contains(QStringLiteral("vm1, vm2")));
        auto unpinned = back.endpoints({ "vm2" });
        QVERIFY(!unpinned.ok());
        QVERIFY(QString::fromStdString(unpinned.error()).contains(QStringLiteral("fingerprint")));

        registry.setLoaders({});
        QVERIFY(registry.save().ok());
        QVERIFY(RemoteLoaderRegistry::load().loaders().isEmpty());
    }

    void testConnectionWithThePinnedCertificateShowsTheAgent()
    {
        RemoteLoaderRegistry registry;
        registry.setLoaders({ m_agent->loader(QStringLiteral("a")) });
        RemoteLoadersDialog dialog(registry);
        const AgentAnswer answer = test(dialog);
        QVERIFY2(answer.ok(), qPrintable(answer.error + QLatin1Char(' ') + dialog.resultText()));
        QCOMPARE(answer.trust, AgentAnswer::Trust::Pinned);
        const QString shown = dialog.resultText();
        QVERIFY2(shown.contains(QStringLiteral("TLS ok")), qPrintable(shown));
        QVERIFY(shown.contains(QStringLiteral("token ok")));
        QVERIFY(shown.contains(QStringLiteral("allowed targets: 127.0.0.1")));
        QVERIFY(shown.contains(QStringLiteral("idle")));
        QVERIFY(shown.contains(QStringLiteral("longest run: 1h")));
        QVERIFY(shown.contains(QStringLiteral("clock: ")));
        QVERIFY(m_questions.isEmpty());
        QVERIFY(m_errors.isEmpty());
    }

    /// Trust on first use: the fingerprint is shown and the user asked; yes pins it and tests again.
    void withoutAPinTheFingerprintIsShownAndTheUserAsked()
    {
        AgentEndpoint loader = m_agent->loader(QStringLiteral("a"));
        loader.fingerprint.clear();
        RemoteLoaderRegistry registry;
        registry.setLoaders({ loader });

        m_answer = false;
        RemoteLoadersDialog refused(registry);
        AgentAnswer answer = test(refused);
        QCOMPARE(answer.trust, AgentAnswer::Trust::NotPinned);
        QCOMPARE(answer.peerFingerprint, m_agent->fingerprint);
        QCOMPARE(m_questions.size(), 1);
        QVERIFY2(
            m_questions.first().contains(displayFingerprint(m_agent->fingerprint)), qPrintable(m_questions.first()));
        QVERIFY(refused.findChild<QLineEdit*>(QStringLiteral("loaderFingerprint"))->text().isEmpty());
        QVERIFY(refused.resultText().contains(QStringLiteral("Not pinned")));

        m_questions.clear();
        m_answer = true;
        RemoteLoadersDialog pinned(registry);
        answer = test(pinned, 2); // the first answer asks, the second is the test with the pin
        QCOMPARE(m_questions.size(), 1);
        QCOMPARE(answer.trust, AgentAnswer::Trust::Pinned);
        QVERIFY2(answer.ok(), qPrintable(answer.error));
        QCOMPARE(*normalizeFingerprint(pinned.findChild<QLineEdit*>(QStringLiteral("loaderFingerprint"))->text()),
            m_agent->fingerprint);
        QCOMPARE(pinned.registry().loaders().first().fingerprint, std::string()); // saved only by OK
        pinned.accept();
        QCOMPARE(RemoteLoaderRegistry::load().find("a")->fingerprint, m_agent->fingerprint.toStdString());
        QVERIFY(m_errors.isEmpty());
    }

    /// The GUI's client (Qt Network) and the engine's (OpenSSL) read the agent by one set of rules
    /// (agentchannel/agentanswer.h): a wrong token, a changed certificate and the health answer
    /// come out the same from both, against the same agent.
    void theGuiAndTheEngineClientReadTheAgentAlike()
    {
        auto viaGui = [](const AgentEndpoint& loader) {
            AgentCall call(loader);
            QSignalSpy finished(&call, &AgentCall::finished);
            call.get(QStringLiteral("/v1/health"));
            if (!QTest::qWaitFor([&] { return finished.count() == 1; }, WAIT_MS)) return AgentAnswer {};
            return finished.first().first().value<AgentAnswer>();
        };
        AgentEndpoint wrongToken = m_agent->loader(QStringLiteral("a"));
        wrongToken.token = "not-the-token";
        const AgentAnswer gui = viaGui(wrongToken);
        AgentClient engine(wrongToken);
        const auto reply = engine.call("GET", "/v1/health", "", 10'000'000);
        QVERIFY2(reply.ok(), errorOf(reply));
        QCOMPARE(gui.status, 401);
        QCOMPARE(reply->status, 401);
        QCOMPARE(gui.error, m_agent->address + QStringLiteral(": ") + QString::fromStdString(reply->errorText()));

        AgentEndpoint changed = m_agent->loader(QStringLiteral("a"));
        changed.fingerprint = OTHER_FINGERPRINT.toStdString();
        const AgentAnswer guiChanged = viaGui(changed);
        AgentClient engineChanged(changed);
        const auto refused = engineChanged.call("GET", "/v1/health", "", 10'000'000);
        QVERIFY(!refused.ok());
        QCOMPARE(guiChanged.error.toStdString(), refused.error());

        const AgentAnswer healthy = viaGui(m_agent->loader(QStringLiteral("a")));
        QVERIFY2(healthy.ok(), qPrintable(healthy.error));
        const auto health = parseAgentHealth(std::string_view(healthy.body.constData(), healthy.body.size()));
        QVERIFY(health.has_value());
        QCOMPARE(health->allow, std::vector<std::string> { "127.0.0.1" });
        QVERIFY(!health->version.empty());
        QVERIFY(health->maxDurationS > 0);
        QVERIFY(health->maxConnections > 0);
    }

    /// A certificate that is not the pinned one: refused, loudly, naming both fingerprints; nothing pinned.
    void aChangedCertificateIsRefusedLoudly()
    {
        AgentEndpoint loader = m_agent->loader(QStringLiteral("a"));
        loader.fingerprint = OTHER_FINGERPRINT.toStdString();
        RemoteLoaderRegistry registry;
        registry.setLoaders({ loader });
        RemoteLoadersDialog dialog(registry);
        const AgentAnswer answer = test(dialog);
        QCOMPARE(answer.trust, AgentAnswer::Trust::Changed);
        QVERIFY(!answer.ok());
        QCOMPARE(answer.status, 0); // nothing was sent: no HTTP answer
        QCOMPARE(m_errors.size(), 1);
        QVERIFY2(m_errors.first().contains(displayFingerprint(OTHER_FINGERPRINT)), qPrintable(m_errors.first()));
        QVERIFY(m_errors.first().contains(displayFingerprint(m_agent->fingerprint)));
        QVERIFY(m_questions.isEmpty()); // never offered as a question
        QCOMPARE(*normalizeFingerprint(dialog.findChild<QLineEdit*>(QStringLiteral("loaderFingerprint"))->text()),
            OTHER_FINGERPRINT);
        QVERIFY(dialog.resultText().contains(QStringLiteral("CHANGED")));
    }

    void aWrongTokenIsRefused()
    {
        AgentEndpoint loader = m_agent->loader(QStringLiteral("a"));
        loader.token = "not-the-token";
        RemoteLoaderRegistry registry;
        registry.setLoaders({ loader });
        RemoteLoadersDialog dialog(registry);
        const AgentAnswer answer = test(dialog);
        QCOMPARE(answer.trust, AgentAnswer::Trust::Pinned);
        QCOMPARE(answer.status, 401);
        QVERIFY2(dialog.resultText().contains(QStringLiteral("token refused")), qPrintable(dialog.resultText()));
        QVERIFY(dialog.resultText().contains(QStringLiteral("TLS ok")));
    }

    /// The probe asked from the agent: the target's answer, and one outside --allow refused by it.
    void theProbeIsAskedFromTheAgent()
    {
        const auto port = ensureBuiltinServer();
        QVERIFY(port.ok());
        Target target = makeTarget("t", "http://127.0.0.1:" + std::to_string(*port) + "/");
        AgentProbe probe;
        QSignalSpy done(&probe, &AgentProbe::finished);
        QVERIFY(probe.start(target, m_agent->loader(QStringLiteral("a"))));
        QVERIFY(done.wait(WAIT_MS));
        auto outcome = done.first().first().value<ProbeOutcome>();
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.result.statusCode, 200);
        QCOMPARE(outcome.probedFrom, QStringLiteral("a"));

        // The Probe dialog says where the request came from.
        ProbeDialog dialog;
        QSignalSpy shown(&dialog, &ProbeDialog::probeFinished);
        dialog.probe(target, m_agent->loader(QStringLiteral("a")));
        QVERIFY(dialog.isProbing());
        QVERIFY(shown.wait(WAIT_MS));
        QVERIFY2(dialog.outcome().ok, qPrintable(dialog.statusText()));
        auto* served = dialog.findChild<QLabel*>(QStringLiteral("probeServed"));
        QVERIFY(served);
        QVERIFY2(served->text().contains(QStringLiteral("probed from a")), qPrintable(served->text()));

        target.url = "http://127.0.0.2:" + std::to_string(*port) + "/"; // not in --allow
        AgentProbe refused;
        QSignalSpy refusedDone(&refused, &AgentProbe::finished);
        refused.start(target, m_agent->loader(QStringLiteral("a")));
        QVERIFY(refusedDone.wait(WAIT_MS));
        outcome = refusedDone.first().first().value<ProbeOutcome>();
        QVERIFY(!outcome.ok);
        QVERIFY2(
            outcome.error.contains(QStringLiteral("probed from a")) || outcome.error.contains(QStringLiteral("403")),
            qPrintable(outcome.error));
    }

    /// A profile naming a remote loader nobody added: said before anything starts, nothing stored.
    void anUnknownRemoteLoaderStopsTheRunBeforeItStarts()
    {
        RemoteLoaderRegistry registry;
        registry.setLoaders({ m_agent->loader(QStringLiteral("a")) });
        QVERIFY(registry.save().ok());
        QString error;
        auto doc = SessionDocument::open(m_dir.filePath(QStringLiteral("unknown.wrkbench")), true, &error);
        QVERIFY2(doc, qPrintable(error));
        Target target = makeTarget("t", "http://127.0.0.1:9/");
        target.id = *doc->addTarget(target);
        RunCoordinator coordinator;
        coordinator.setDocument(doc.get());
        QSignalSpy refused(&coordinator, &RunCoordinator::runRefused);
        LoadProfile profile;
        profile.name = "remote";
        profile.load = defaultLoad();
        profile.load.loaders.on = LoaderPlacement::On::Agents;
        profile.load.loaders.agents = { "a", "nobody" };
        profile.load.loaders.count = 2;
        QVERIFY(!coordinator.start(RunCoordinator::setupFor(target, profile, false)));
        QVERIFY(!coordinator.isBusy());
        QCOMPARE(refused.count(), 1); // the window shows it (MainWindow: "The run did not start")
        const QString why = refused.first().first().toString();
        QVERIFY2(why.contains(QStringLiteral("'nobody'")), qPrintable(why));
        QVERIFY(m_errors.isEmpty()); // run control shows nothing itself
        QVERIFY(doc->runs().empty());
    }

    /// Stop (Esc) while the agent is being asked to probe: the request is aborted, nothing starts.
    void stopDuringTheRemoteProbeCancelsIt()
    {
        RemoteLoaderRegistry registry;
        registry.setLoaders({ m_agent->loader(QStringLiteral("a")) });
        QVERIFY(registry.save().ok());
        QString error;
        auto doc = SessionDocument::open(m_dir.filePath(QStringLiteral("stopped.wrkbench")), true, &error);
        QVERIFY2(doc, qPrintable(error));
        Target target = makeTarget("t", "http://127.0.0.1:9/");
        target.id = *doc->addTarget(target);
        RunCoordinator coordinator;
        coordinator.setDocument(doc.get());
        QSignalSpy messages(&coordinator, &RunCoordinator::message);
        LoadProfile profile;
        profile.name = "remote";
        profile.load = defaultLoad();
        profile.load.loaders.on = LoaderPlacement::On::Agents;
        profile.load.loaders.agents = { "a" };
        // The Live page, wired as the window wires it, says where the probe is asked from.
        LivePage live(coordinator.task());
        connect(&coordinator, &RunCoordinator::remoteProbeStarted, &live, &LivePage::beginRemoteProbe);
        connect(&coordinator, &RunCoordinator::remoteProbeEnded, &live, &LivePage::endRemoteProbe);
        QVERIFY(coordinator.start(RunCoordinator::setupFor(target, profile, false)));
        QVERIFY(coordinator.remoteProbe());
        QVERIFY(coordinator.canStop());
        QCOMPARE(live.header()->phaseText(), QStringLiteral("probing from a…"));
        coordinator.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!coordinator.isBusy(), WAIT_MS);
        QCOMPARE(live.header()->phaseText(), QStringLiteral("cancelled"));
        QVERIFY(!coordinator.task()->isActive());
        QCOMPARE(messages.last().first().toString(), QStringLiteral("Run cancelled before the load started"));
        QVERIFY(doc->runs().empty());
    }

    /// Run with the profile's Loaders "remote a, b" (two agents): probed from the first, run on both,
    /// merged live with a rate per loader (the Live page's strip) and stored here as one run with its
    /// two loaders rows.
    void aRunOnRemoteLoadersIsMergedLiveAndStoredWithItsLoaders()
    {
        Agent second;
        QVERIFY2(second.start(QStringLiteral("127.0.0.1")), second.output.constData());
        RemoteLoaderRegistry registry;
        registry.setLoaders({ m_agent->loader(QStringLiteral("a")), second.loader(QStringLiteral("b")) });
        QVERIFY(registry.save().ok());
        const auto port = ensureBuiltinServer();
        QVERIFY(port.ok());
        QString error;
        auto doc = SessionDocument::open(m_dir.filePath(QStringLiteral("remote.wrkbench")), true, &error);
        QVERIFY2(doc, qPrintable(error));
        Target target = makeTarget("t", "http://127.0.0.1:" + std::to_string(*port) + "/");
        target.id = *doc->addTarget(target);
        RunCoordinator coordinator;
        coordinator.setDocument(doc.get());
        LoadProfile profile;
        profile.name = "remote";
        profile.load = defaultLoad();
        profile.load.threads = 1;
        profile.load.connections = 2;
        profile.load.durationUs = 1'000'000;
        profile.load.intervalUs = 250'000;
        profile.load.loaders.on = LoaderPlacement::On::Agents;
        profile.load.loaders.agents = { "a", "b" };
        profile.load.loaders.count = 2;

        QSignalSpy finished(coordinator.task(), &RunTask::finished);
        QSignalSpy intervals(coordinator.task(), &RunTask::intervalReceived);
        QVERIFY(coordinator.start(RunCoordinator::setupFor(target, profile, false)));
        QVERIFY(coordinator.isBusy()); // the probe from the agent, then the run
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, WAIT_MS);
        const auto outcome = finished.first().first().value<RunOutcome>();
        QVERIFY2(outcome.status == RunStatus::Completed, qPrintable(outcome.error));
        QVERIFY(outcome.runId > 0);
        QVERIFY(outcome.requests > 0);
        QVERIFY(m_errors.isEmpty());
        // Live as for local loaders: merged intervals, each with one rate per loader.
        QVERIFY(intervals.count() > 0);
        for (const QList<QVariant>& args : intervals)
            QCOMPARE(args.first().value<LiveInterval>().loaderRequestsPerS.size(), size_t(2));

        auto store = SessionStore::open(doc->path().toStdString());
        QVERIFY2(store.ok(), errorOf(store));
        auto run = (*store)->runs().load(outcome.runId);
        QVERIFY2(run.ok(), errorOf(run));
        QCOMPARE(run->loaders.size(), size_t(2));
        QCOMPARE(run->loaders[0].requests + run->loaders[1].requests, run->run.totals.requests);
        QVERIFY(run->loaders[0].requests > 0 && run->loaders[1].requests > 0);
        QCOMPARE(run->run.config.loaders.agents, std::vector<std::string>({ "a", "b" })); // names, no secret
        QVERIFY(run->run.configJson.find(m_agent->token.toStdString()) == std::string::npos);
        auto probed = ProbeResult::fromJsonText(run->run.probeJson); // the agent's probe, stored
        QVERIFY2(probed.ok(), errorOf(probed));
        QCOMPARE(probed->statusCode, 200);
    }
};

WB_UI_TEST(RemoteTest)
#include "remote_test.moc"
