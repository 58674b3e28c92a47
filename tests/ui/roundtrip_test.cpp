// What the editors show is what the session stores is what a run sends,
// for every editable field of a target and of a load profile: each field is set as a user
// sets it, the edit is saved, the session file is read back through a connection of its own,
// and the request is built by the engine (runConfigFor, buildRequest) from what was stored.
// Whatever would be sent differently from what is shown is refused with a message naming it;
// what a text box would change (CR LF, no-break spaces) never reaches the session. A profile
// changed since it was chosen says "(modified)" in the toolbar and in the panel.

#include "control/runsetup.h"
#include "forms/formvalidation.h"
#include "http/request.h"
#include "mainwindow.h"
#include "pages/profileeditor.h"
#include "pages/tagedit.h"
#include "pages/targeteditor.h"
#include "session/sessiondocument.h"
#include "session/sessionseed.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

/// The body of an HTTP/1.1 request as built: everything after the blank line.
std::string bodyOf(const std::string& request)
{
    const size_t end = request.find("\r\n\r\n");
    return end == std::string::npos ? std::string() : request.substr(end + 4);
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

class RoundTripTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<SessionDocument> m_doc;

    Target stored(int64_t id) { return storedTarget(m_path, id); }
    LoadProfile storedProfile(int64_t id)
    {
        auto store = SessionStore::open(m_path.toStdString());
        if (!store) return {};
        auto profiles = (*store)->profiles().all();
        if (profiles)
            for (const LoadProfile& p : *profiles)
                if (p.id == id) return p;
        return {};
    }
    int64_t addTarget(const std::string& name, const std::string& body = {})
    {
        Target t = makeTarget(name, "http://127.0.0.1:8080/");
        t.method = "POST";
        t.body = body;
        auto id = m_doc->addTarget(t);
        return id ? *id : 0;
    }
    /// Typed, then left with Enter (as a user leaves a field).
    static void typeAndLeave(QLineEdit* edit, const QString& text)
    {
        typeInto(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
    }
    static QString statusOf(const QWidget& editor)
    {
        return editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text();
    }

private slots:
    void init()
    {
        static int n = 0;
        m_path = m_dir.filePath(QStringLiteral("roundtrip-%1.wrkbench").arg(++n));
        QString error;
        m_doc = SessionDocument::open(m_path, true, &error);
        QVERIFY2(m_doc, qPrintable(error));
    }
    void cleanup() { m_doc.reset(); }

    void everyTargetFieldIsShownAsStoredAndSent()
    {
        const int64_t id = addTarget("round-trip");
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(id);
        auto* name = editor.nameEdit();
        auto* method = editor.findChild<QComboBox*>(QStringLiteral("methodCombo"));
        auto* url = editor.findChild<QLineEdit*>(QStringLiteral("urlEdit"));
        auto* headers = editor.findChild<QTableWidget*>(QStringLiteral("headersTable"));
        auto* body = editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"));
        auto* verify = editor.findChild<QCheckBox*>();
        auto* ca = editor.findChild<QLineEdit*>(QStringLiteral("caFileEdit"));
        auto* protocol = editor.findChild<QComboBox*>(QStringLiteral("protocolBox"));
        auto* tags = editor.findChild<TagEdit*>(QStringLiteral("tagEdit"));
        auto* notes = editor.findChild<QLineEdit*>(QStringLiteral("notesEdit"));
        QVERIFY(method && url && headers && body && verify && ca && protocol && tags && notes);

        typeAndLeave(name, QStringLiteral("  shop api  "));
        method->setCurrentText(QStringLiteral("PUT"));
        typeAndLeave(url, QStringLiteral(" http://127.0.0.1:8080/api/v1?q=a%20b "));
        headers->item(0, 0)->setText(QStringLiteral("  X-Env  "));
        headers->item(0, 1)->setText(QStringLiteral("  staging  "));
        // A JSON body with a no-break space inside a string and a second line.
        body->setPlainText(QStringLiteral("{\"k\":\"a\u00A0b\"}\nsecond line"));
        const QString caPath = writeFile(m_dir, QStringLiteral("ca.pem"), "not checked until a TLS run\n");
        typeAndLeave(ca, QStringLiteral("  %1  ").arg(caPath));
        verify->setChecked(false);
        QTest::keyClicks(tags->lineEdit(), QStringLiteral("zeta,alpha,"));
        typeAndLeave(notes, QStringLiteral("  notes keep their spaces  "));
        QVERIFY2(editor.isValid(), qPrintable(statusOf(editor)));
        QVERIFY(editor.commit());

        const Target t = stored(id);
        auto config = runConfigFor(t, RunConfig {});
        QVERIFY2(config.ok(), config ? "" : config.error().c_str());
        const std::string sent = buildRequest(config->request);

        QCOMPARE(name->text(), QStringLiteral("shop api")); // shown as stored once the field is left
        QCOMPARE(q(t.name), name->text());
        QCOMPARE(method->currentText(), QStringLiteral("PUT"));
        QCOMPARE(q(t.method), method->currentText());
        QVERIFY2(sent.rfind("PUT /api/v1?q=a%20b HTTP/1.1\r\n", 0) == 0, sent.c_str());
        QCOMPARE(url->text(), QStringLiteral("http://127.0.0.1:8080/api/v1?q=a%20b"));
        QCOMPARE(q(t.url), url->text());
        QVERIFY2(sent.find("\r\nHost: 127.0.0.1:8080\r\n") != std::string::npos, sent.c_str());
        QCOMPARE(headers->item(0, 0)->text(), QStringLiteral("X-Env"));
        QCOMPARE(headers->item(0, 1)->text(), QStringLiteral("staging"));
        QCOMPARE(t.headers.size(), size_t(1));
        QCOMPARE(q(t.headers[0].name + ": " + t.headers[0].value), QStringLiteral("X-Env: staging"));
        QVERIFY2(sent.find("\r\nX-Env: staging\r\n") != std::string::npos, sent.c_str());
        const QString shownBody = body->document()->toRawText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
        QCOMPARE(q(t.body), shownBody);
        QCOMPARE(q(bodyOf(sent)), shownBody); // the no-break space too, as UTF-8
        QVERIFY(bodyOf(sent).find("a\xC2\xA0"
                                  "b")
            != std::string::npos);
        QCOMPARE(ca->text(), caPath);
        QCOMPARE(q(t.tls.caFile), caPath);
        QCOMPARE(q(config->tls.caFile), caPath);
        QCOMPARE(t.tls.verifyPeer, verify->isChecked());
        QCOMPARE(config->tls.verifyPeer, false);
        QCOMPARE(config->httpVersion, HttpVersion::Http1);
        QStringList storedTags;
        for (const std::string& tag : t.tags)
            storedTags << q(tag);
        // The same tags (a set: the chips keep the order typed, the session lists them sorted).
        QStringList shownTags = tags->tags();
        shownTags.sort();
        QCOMPARE(shownTags, storedTags);
        QCOMPARE(storedTags, (QStringList { QStringLiteral("alpha"), QStringLiteral("zeta") }));
        QCOMPARE(q(t.notes), notes->text());

        // The protocol: HTTP/2 shown, stored and run (h2c with prior knowledge over http).
        protocol->setCurrentIndex(1);
        QVERIFY(editor.commit());
        QCOMPARE(stored(id).httpVersion, HttpVersion::Http2);
        QCOMPARE(runConfigFor(stored(id), RunConfig {})->httpVersion, HttpVersion::Http2);

        // A request mix typed as a relative path: stored (and shown, once left) as the file it reads.
        const QString mix = writeFile(m_dir, QStringLiteral("mix.txt"),
            "GET http://127.0.0.1:8080/a\n\nPOST http://127.0.0.1:8080/b\nContent-Type: text/plain\n\n");
        const QString cwd = QDir::currentPath();
        QDir::setCurrent(m_dir.path());
        typeAndLeave(editor.findChild<QLineEdit*>(QStringLiteral("requestMixEdit")), QStringLiteral("mix.txt"));
        editor.findChild<QComboBox*>(QStringLiteral("mixOrderBox"))->setCurrentIndex(1);
        const bool committed = editor.commit();
        QDir::setCurrent(cwd);
        QVERIFY2(committed, qPrintable(statusOf(editor)));
        QCOMPARE(editor.findChild<QLineEdit*>(QStringLiteral("requestMixEdit"))->text(), mix);
        QCOMPARE(q(stored(id).requestMix), mix);
        auto mixed = runConfigFor(stored(id), RunConfig {});
        QVERIFY2(mixed.ok(), mixed ? "" : mixed.error().c_str());
        QCOMPARE(mixed->mix.entries.size(), size_t(2));
        QCOMPARE(mixed->mix.order, MixOrder::Random);
    }

    void whatWouldBeSentDifferentlyIsRefused()
    {
        const int64_t id = addTarget("refused");
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(id);
        auto* method = editor.findChild<QComboBox*>(QStringLiteral("methodCombo"));
        auto* url = editor.findChild<QLineEdit*>(QStringLiteral("urlEdit"));

        // Methods are case-sensitive: "post" is not sent as POST behind the user's back.
        method->setCurrentText(QStringLiteral("post"));
        QVERIFY(!editor.isValid());
        QVERIFY2(statusOf(editor).contains(QStringLiteral("case-sensitive")), qPrintable(statusOf(editor)));
        QVERIFY2(statusOf(editor).contains(QStringLiteral("type POST")), qPrintable(statusOf(editor)));
        QVERIFY(!editor.commit());
        QCOMPARE(stored(id).method, std::string("POST"));
        method->setCurrentText(QStringLiteral("POST"));
        QVERIFY(editor.isValid());

        // A fragment never leaves the browser: shown, it would not be sent.
        typeAndLeave(url, QStringLiteral("http://127.0.0.1:8080/page#section-2"));
        QVERIFY(!editor.isValid());
        QVERIFY2(statusOf(editor).contains(QStringLiteral("'#section-2' is never sent")), qPrintable(statusOf(editor)));
        QVERIFY(!editor.commit());
        QCOMPARE(stored(id).url, std::string("http://127.0.0.1:8080/"));
        QCOMPARE(url->text(), QStringLiteral("http://127.0.0.1:8080/page#section-2")); // left as typed, to fix

        // The same rules on their own.
        TargetForm f;
        f.name = QStringLiteral("x");
        f.url = QStringLiteral("http://127.0.0.1/");
        f.method = QStringLiteral("Get");
        QVERIFY(checkTargetForm(f, {}, nullptr).value(QStringLiteral("method")).contains(QStringLiteral("type GET")));
        f.method = QStringLiteral("GET");
        QVERIFY(checkTargetForm(f, {}, nullptr).isEmpty());
    }

    // A body the text box cannot show byte for byte (CR LF line ends, no-break spaces that
    // toPlainText() would turn into spaces) is kept exactly as stored when another field changes.
    void aBodyTheBoxWouldChangeIsKeptAsStored()
    {
        const std::string crlf = "line one\r\nline two\r\n";
        const std::string nbsp = "{\"k\":\"a\xC2\xA0"
                                 "b\"}";
        for (const std::string& original : { crlf, nbsp }) {
            const int64_t id = addTarget(original == crlf ? "crlf" : "nbsp", original);
            TargetEditor editor;
            editor.setDocument(m_doc.get());
            editor.setTargetId(id);
            QTest::keyClicks(editor.nameEdit(), QStringLiteral(" renamed"));
            QVERIFY(editor.commit());
            QCOMPARE(stored(id).name, (original == crlf ? "crlf" : "nbsp") + std::string(" renamed"));
            QCOMPARE(stored(id).body, original);
            auto config = runConfigFor(stored(id), RunConfig {});
            QVERIFY(config.ok());
            QCOMPARE(bodyOf(buildRequest(config->request)), original);
            if (original == crlf) {
                // Not put in the box (it would show LF): the line under the body says what is stored.
                QVERIFY(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->toPlainText().isEmpty());
                QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))->toolTip(),
                    QStringLiteral("Stored body: 20 bytes of text"));
            }
        }
    }

    void everyProfileFieldIsShownAsStoredAndSent()
    {
        LoadProfile profile;
        profile.name = "all fields";
        profile.load = defaultLoad();
        auto id = m_doc->addProfile(profile);
        QVERIFY(id.ok());
        profile.id = *id;
        const QMap<QString, QString> typed { { QStringLiteral("threads"), QStringLiteral("3") },
            { QStringLiteral("connections"), QStringLiteral("12") },
            { QStringLiteral("duration"), QStringLiteral("7s") },
            { QStringLiteral("warmup"), QStringLiteral("1500ms") }, { QStringLiteral("timeout"), QStringLiteral("3s") },
            { QStringLiteral("pipeline"), QStringLiteral("2") }, { QStringLiteral("streams"), QStringLiteral("4") },
            { QStringLiteral("interval"), QStringLiteral("500ms") }, { QStringLiteral("rate"), QStringLiteral("150") },
            { QStringLiteral("slo"), QStringLiteral("p99<250ms, errors<1%") },
            { QStringLiteral("loaders"), QStringLiteral("2") } };
        {
            ProfileEditor editor;
            editor.setDocument(m_doc.get());
            editor.setProfile(profile);
            editor.findChild<QComboBox*>(QStringLiteral("modeCombo"))->setCurrentIndex(1); // constant rate
            for (auto it = typed.cbegin(); it != typed.cend(); ++it)
                typeAndLeave(editor.field(it.key()), it.value());
            QVERIFY2(editor.isValid(), qPrintable(statusOf(editor)));
            QVERIFY(editor.commit());
            for (auto it = typed.cbegin(); it != typed.cend(); ++it)
                QCOMPARE(editor.field(it.key())->text(), it.value());
        }
        const LoadProfile back = storedProfile(profile.id);
        QCOMPARE(back.name, profile.name);
        // Shown again as typed when reopened from what the session holds.
        ProfileEditor reopened;
        reopened.setDocument(m_doc.get());
        reopened.setProfile(back);
        for (auto it = typed.cbegin(); it != typed.cend(); ++it)
            QCOMPARE(reopened.field(it.key())->text(), it.value());
        QCOMPARE(reopened.findChild<QComboBox*>(QStringLiteral("modeCombo"))->currentIndex(), 1);
        QVERIFY(!reopened.findChild<QCheckBox*>(QStringLiteral("sloAbortBox"))->isChecked());
        QVERIFY(!reopened.isModified());

        // Sent: the run's configuration built from the stored profile, for an HTTP/1.1 and an HTTP/2 target.
        Target h1 = makeTarget("h1", "http://127.0.0.1:8080/");
        auto c1 = runConfigFor(h1, back.load);
        QVERIFY2(c1.ok(), c1 ? "" : c1.error().c_str());
        QCOMPARE(c1->threads, 3u);
        QCOMPARE(c1->connections, 12u);
        QCOMPARE(c1->durationUs, uint64_t(7'000'000));
        QCOMPARE(c1->warmupUs, uint64_t(1'500'000));
        QCOMPARE(c1->timeoutUs, uint64_t(3'000'000));
        QCOMPARE(c1->pipeline, 2u);
        QCOMPARE(c1->intervalUs, uint64_t(500'000));
        QCOMPARE(c1->ratePerS, 150.0);
        QCOMPARE(c1->slos.size(), size_t(2));
        QCOMPARE(q(c1->slos[0].expr + ", " + c1->slos[1].expr), typed[QStringLiteral("slo")]);
        QVERIFY(!c1->sloAbort);
        QCOMPARE(c1->loaders.count, 2u);
        Target h2 = h1;
        h2.httpVersion = HttpVersion::Http2;
        auto c2 = runConfigFor(h2, back.load);
        QVERIFY(c2.ok());
        QCOMPARE(c2->streams, 4u);

        // The abort box (one loader: a budget is not split over several).
        typeAndLeave(reopened.field(QStringLiteral("loaders")), QStringLiteral("1"));
        reopened.findChild<QCheckBox*>(QStringLiteral("sloAbortBox"))->setChecked(true);
        QVERIFY2(reopened.isValid(), qPrintable(statusOf(reopened)));
        QVERIFY(reopened.commit());
        QVERIFY(storedProfile(profile.id).load.sloAbort);
        QCOMPARE(storedProfile(profile.id).load.loaders.count, 1u);
        QVERIFY(runConfigFor(h1, storedProfile(profile.id).load)->sloAbort);
    }

    // Stages set the run's length and, as connection stages, its connections: the fields the
    // stages decide show what is sent, not a number the run ignores.
    void stagesShowTheDurationAndConnectionsTheySend()
    {
        LoadProfile profile;
        profile.name = "ramp";
        profile.load = defaultLoad();
        auto id = m_doc->addProfile(profile);
        QVERIFY(id.ok());
        profile.id = *id;
        ProfileEditor editor;
        editor.setDocument(m_doc.get());
        editor.setProfile(profile);
        editor.findChild<QComboBox*>(QStringLiteral("modeCombo"))->setCurrentIndex(2);
        typeAndLeave(editor.field(QStringLiteral("warmup")), QStringLiteral("0s"));
        typeAndLeave(editor.field(QStringLiteral("stages")), QStringLiteral("5s:20c,10s:80c"));
        QVERIFY2(editor.isValid(), qPrintable(statusOf(editor)));
        QVERIFY(editor.commit());
        const RunConfig sent
            = runConfigFor(makeTarget("t", "http://127.0.0.1:8080/"), storedProfile(*id).load)->normalized();
        QCOMPARE(sent.connections, 80u);
        QCOMPARE(sent.durationUs, uint64_t(15'000'000));
        QCOMPARE(editor.field(QStringLiteral("connections"))->text(), QStringLiteral("80"));
        QVERIFY(!editor.field(QStringLiteral("connections"))->isEnabled());
        QCOMPARE(editor.field(QStringLiteral("duration"))->text(), QStringLiteral("15s"));
        QCOMPARE(storedProfile(*id).load.connections, 80u);

        // Rate stages leave the connections to the field.
        typeAndLeave(editor.field(QStringLiteral("stages")), QStringLiteral("2s:100,2s:200"));
        QVERIFY(editor.field(QStringLiteral("connections"))->isEnabled());
        QCOMPARE(editor.field(QStringLiteral("duration"))->text(), QStringLiteral("4s"));
    }

    // "Default (modified)": what Run uses is not the profile as chosen, in the toolbar and the panel.
    void aChangedProfileSaysModified()
    {
        m_doc.reset();
        MainWindow w;
        QVERIFY(w.openSession(m_path));
        QComboBox* combo = profileCombo(w);
        ProfileEditor* editor = profileEditor(w);
        combo->setCurrentIndex(0);
        const QString chosen = combo->currentText();
        QVERIFY(chosen.startsWith(QStringLiteral("Default")));
        QVERIFY(!chosen.contains(QStringLiteral("modified")));
        QLineEdit* threads = editor->field(QStringLiteral("threads"));
        const QString before = threads->text();
        typeAndLeave(threads, QStringLiteral("3"));
        QCOMPARE(combo->currentText(), chosen + QStringLiteral(" (modified)"));
        QLabel* title = nullptr;
        for (QLabel* l : editor->findChildren<QLabel*>())
            if (l->text().contains(QStringLiteral("<b>"))) title = l;
        QVERIFY(title);
        QVERIFY2(
            title->text().contains(chosen.toHtmlEscaped() + QStringLiteral(" (modified)")), qPrintable(title->text()));
        // Back as shipped: no longer modified.
        typeAndLeave(threads, before);
        QCOMPARE(combo->currentText(), chosen);
        QVERIFY(!title->text().contains(QStringLiteral("(modified)")));
    }
};

WB_UI_TEST(RoundTripTest)
#include "roundtrip_test.moc"
