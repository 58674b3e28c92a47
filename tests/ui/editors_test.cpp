// The target editor, tag chips, profile editor and targets panel driven like a
// user, against real session files read back through a second SessionStore
// connection: a binary body replaced by typed text, cleared, read from a file
// (stored with its bytes, the file named on the form), an unreadable file
// refused with nothing saved and Run disabled; the profile's problems under
// the form's labels; chips that wrap in a 380 px dock; duplicate; headers;
// a target with a run in progress that cannot be deleted.

#include "control/runevents.h"
#include "control/runsetup.h"
#include "forms/formvalidation.h"
#include "http/request.h"
#include "mainwindow.h"
#include "pages/dialogs.h"
#include "pages/fieldstate.h"
#include "pages/loaderstrip.h"
#include "pages/profileeditor.h"
#include "pages/rundetailpage.h"
#include "pages/tagedit.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "session/sessiondocument.h"
#include "session/sessionseed.h"
#include "text/format.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <unistd.h>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {
const std::string BINARY("\x00\x01\x02\xff\xfe binary payload", 21);
} // namespace

class EditorsTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<SessionDocument> m_doc;

    Target stored(int64_t id) { return storedTarget(m_path, id); }
    int64_t addTarget(const std::string& name, const std::string& body = {})
    {
        Target t = makeTarget(name, "http://10.0.0.1:8080/api");
        t.method = "POST";
        t.body = body;
        auto id = m_doc->addTarget(t);
        return id ? *id : 0;
    }
    static QByteArray bytes(const std::string& s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

private slots:
    void init()
    {
        static int n = 0;
        m_path = m_dir.filePath(QStringLiteral("editors-%1.wrkbench").arg(++n));
        QString error;
        m_doc = SessionDocument::open(m_path, true, &error);
        QVERIFY2(m_doc, qPrintable(error));
    }
    void cleanup()
    {
        setConfirmHandler(nullptr);
        m_doc.reset();
    }

    void binaryBodyIsReplacedByTypedText()
    {
        const int64_t id = addTarget("upload", BINARY);
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(id);
        QVERIFY(editor.isValid());
        QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(),
            1); // a binary body shows as a file body
        QVERIFY2(editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))
                     ->toolTip()
                     .contains(QStringLiteral("21 bytes of binary data")),
            qPrintable(editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))->toolTip()));

        // Only switching to Text keeps the body: the empty box means "cannot show", not "empty".
        editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->setCurrentIndex(0);
        QVERIFY(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))
                    ->placeholderText()
                    .contains(QStringLiteral("binary data")));
        QVERIFY(editor.commit());
        QCOMPARE(stored(id).body, BINARY);

        // Typing replaces it, saved after the pause like any edit.
        editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->setFocus();
        QTest::keyClicks(
            editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit")), QStringLiteral("{\"id\":42}"));
        QVERIFY(editor.isValid());
        QTRY_COMPARE_WITH_TIMEOUT(stored(id).body, std::string("{\"id\":42}"), 10'000);
        QCOMPARE(m_doc->targetById(id)->body, std::string("{\"id\":42}"));
        QCOMPARE(
            editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text(), QStringLiteral("Saved in the session"));
        QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))->toolTip(),
            QStringLiteral("Stored body: 9 bytes of text"));

        // And it comes back as text.
        TargetEditor again;
        again.setDocument(m_doc.get());
        again.setTargetId(id);
        QCOMPARE(again.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(), 0);
        QCOMPARE(again.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->toPlainText(),
            QStringLiteral("{\"id\":42}"));
    }

    void aLargeTextBodyStaysOutOfTheTextBox()
    {
        // Over 256 KB the box would take long to fill on the UI thread: the body is described, kept, replaceable.
        const std::string large(300 * 1024, 'x');
        const int64_t id = addTarget("large", large);
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(id);
        QVERIFY(editor.isValid());
        QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(), 1);
        editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->setCurrentIndex(0);
        QVERIFY(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->toPlainText().isEmpty());
        QVERIFY2(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))
                     ->placeholderText()
                     .contains(QStringLiteral("307,200 bytes of text")),
            qPrintable(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->placeholderText()));
        editor.nameEdit()->selectAll();
        QTest::keyClicks(editor.nameEdit(), QStringLiteral("large, renamed"));
        QVERIFY(editor.commit());
        QCOMPARE(stored(id).name, std::string("large, renamed"));
        QCOMPARE(stored(id).body, large); // not emptied by the empty box
        editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->setFocus();
        QTest::keyClicks(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit")), QStringLiteral("small"));
        QTRY_COMPARE_WITH_TIMEOUT(stored(id).body, std::string("small"), 10'000);
    }

    void clearingTheBodyClearsIt()
    {
        // A binary body: the Clear button.
        const int64_t binary = addTarget("binary", BINARY);
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(binary);
        QVERIFY(editor.findChild<QToolButton*>(QStringLiteral("bodyClearButton"))->isEnabled());
        QTest::mouseClick(editor.findChild<QToolButton*>(QStringLiteral("bodyClearButton")), Qt::LeftButton);
        QVERIFY(editor.commit());
        QCOMPARE(stored(binary).body, std::string());
        QCOMPARE(
            editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))->toolTip(), QStringLiteral("Stored body: none"));
        QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(), 0);

        // A binary body: typed over in Text mode, then the text deleted.
        const int64_t typed = addTarget("typed over", BINARY);
        editor.setTargetId(typed);
        editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->setCurrentIndex(0);
        editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->setFocus();
        QTest::keyClicks(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit")), QStringLiteral("ab"));
        QTest::keyClick(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit")), Qt::Key_Backspace);
        QTest::keyClick(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit")), Qt::Key_Backspace);
        QVERIFY(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->toPlainText().isEmpty());
        QVERIFY(editor.commit());
        QCOMPARE(stored(typed).body, std::string());

        // A text body: select all, delete.
        const int64_t text = addTarget("text", "name=value");
        editor.setTargetId(text);
        QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(), 0);
        QCOMPARE(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->toPlainText(),
            QStringLiteral("name=value"));
        editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->setFocus();
        editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->selectAll();
        QTest::keyClick(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit")), Qt::Key_Delete);
        QTRY_COMPARE_WITH_TIMEOUT(stored(text).body, std::string(), 10'000);
        // The other targets were not touched on the way.
        QCOMPARE(stored(binary).name, std::string("binary"));
    }

    void fileBodyIsStoredWithItsBytes()
    {
        const int64_t id = addTarget("from file", "old text");
        QByteArray content = bytes(BINARY);
        content.append(QByteArray(3000, '\x07'));
        const QString file = writeFile(m_dir, QStringLiteral("request.bin"), content);
        {
            TargetEditor editor;
            editor.setDocument(m_doc.get());
            editor.setTargetId(id);
            QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(), 0);
            editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->setCurrentIndex(1);
            QVERIFY(!editor.isValid()); // File mode without a file says so
            QVERIFY(fieldProblem(editor.findChild<QLineEdit*>(QStringLiteral("bodyFileEdit")))
                        .contains(QStringLiteral("choose the file")));
            typeInto(editor.findChild<QLineEdit*>(QStringLiteral("bodyFileEdit")), file);
            QVERIFY2(editor.isValid(), qPrintable(editor.errors().values().join(QLatin1Char(';'))));
            QVERIFY(editor.commit());
            QCOMPARE(bytes(stored(id).body), content);
            QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))->toolTip(),
                QStringLiteral("Stored body: %1 of binary data from %2").arg(countText(3021, "byte", "bytes"), file));
            QVERIFY(editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text().contains(QStringLiteral("Saved")));
        }
        {
            // Shown again (another editor, as after a restart): a file body, and from which file.
            TargetEditor editor;
            editor.setDocument(m_doc.get());
            editor.setTargetId(id);
            QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(), 1);
            QVERIFY(editor.findChild<QLineEdit*>(QStringLiteral("bodyFileEdit"))->text().isEmpty());
            QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))->toolTip(),
                QStringLiteral("Stored body: %1 of binary data from %2").arg(countText(3021, "byte", "bytes"), file));
            // An edit elsewhere keeps the body as it is.
            typeInto(editor.nameEdit(), QStringLiteral("renamed"));
            QVERIFY(editor.commit());
            QCOMPARE(stored(id).name, std::string("renamed"));
            QCOMPARE(bytes(stored(id).body), content);
        }

        // A text file keeps its file too, and the file is read as it is when the edit is saved.
        const QString json = writeFile(m_dir, QStringLiteral("request.json"), "{\"v\":1}");
        const int64_t textId = addTarget("json file");
        {
            TargetEditor editor;
            editor.setDocument(m_doc.get());
            editor.setTargetId(textId);
            editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->setCurrentIndex(1);
            typeInto(editor.findChild<QLineEdit*>(QStringLiteral("bodyFileEdit")), json);
            QVERIFY(editor.isValid());
            QVERIFY(!writeFile(m_dir, QStringLiteral("request.json"), "{\"v\":2, \"more\":true}").isEmpty());
            QVERIFY(editor.commit());
            QCOMPARE(stored(textId).body, std::string("{\"v\":2, \"more\":true}"));
        }
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(textId);
        QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(), 1);
        QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))->toolTip(),
            QStringLiteral("Stored body: 20 bytes of text from %1").arg(json));
        // The text box holds it, so switching to Text edits the same body.
        QCOMPARE(editor.findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->toPlainText(),
            QStringLiteral("{\"v\":2, \"more\":true}"));

        // Changed by someone else: the file is no longer credited with it.
        Target changed = *m_doc->targetById(textId);
        changed.body = "{\"v\":3, \"more\":true}"; // same size, other bytes
        QVERIFY(m_doc->updateTarget(changed));
        QCOMPARE(editor.findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->currentIndex(), 0);
        QCOMPARE(editor.findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))->toolTip(),
            QStringLiteral("Stored body: 20 bytes of text"));
    }

    void unreadableBodyFileIsAnErrorAndNothingIsSaved()
    {
        MainWindow w;
        QVERIFY(w.openStartupSession(m_path));
        const int64_t id = targetsPanel(w)->addTarget();
        QVERIFY(id > 0);
        TargetEditor* editor = targetsPanel(w)->editor();
        editor->findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit"))->setFocus();
        QTest::keyClicks(editor->findChild<QPlainTextEdit*>(QStringLiteral("bodyTextEdit")), QStringLiteral("keep me"));
        QVERIFY(editor->commit());
        QCOMPARE(stored(id).body, std::string("keep me"));
        QVERIFY(runAction(w)->isEnabled());

        const QString missing = m_dir.filePath(QStringLiteral("missing.bin"));
        QStringList unreadable { missing, m_dir.path() };
        if (geteuid() != 0) { // root reads anything: only then is a mode-000 file readable
            const QString locked = writeFile(m_dir, QStringLiteral("locked.bin"), "secret");
            QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
            unreadable << locked;
        }
        for (const QString& path : unreadable) {
            editor->findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->setCurrentIndex(1);
            typeInto(editor->findChild<QLineEdit*>(QStringLiteral("bodyFileEdit")), path);
            QVERIFY(!editor->isValid());
            QVERIFY2(fieldProblem(editor->findChild<QLineEdit*>(QStringLiteral("bodyFileEdit"))).contains(path),
                qPrintable(path));
            QVERIFY2(editor->findChild<QLabel*>(QStringLiteral("statusLabel"))
                         ->text()
                         .startsWith(QStringLiteral("Body file: ")),
                qPrintable(editor->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
            QVERIFY(editor->findChild<QLabel*>(QStringLiteral("statusLabel"))
                        ->text()
                        .contains(QStringLiteral("Not saved")));
            QVERIFY(editor->findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))
                        ->toolTip()
                        .startsWith(QStringLiteral("Stored body: 7 bytes of text")));
            QVERIFY(!runAction(w)->isEnabled());
            QVERIFY(!editor->commit());
            QTest::qWait(TargetEditor::SAVE_DELAY_MS + 100);
            QCOMPARE(stored(id).body, std::string("keep me"));
        }

        // A file that was there when checked and is gone when saved: an error as well, nothing saved.
        const QString gone = writeFile(m_dir, QStringLiteral("gone.bin"), bytes(BINARY));
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("bodyFileEdit")), gone);
        QVERIFY(editor->isValid());
        QVERIFY(runAction(w)->isEnabled());
        QVERIFY(QFile::remove(gone));
        QVERIFY(!editor->commit());
        QVERIFY(fieldProblem(editor->findChild<QLineEdit*>(QStringLiteral("bodyFileEdit")))
                    .contains(QStringLiteral("does not exist")));
        QVERIFY(!runAction(w)->isEnabled());
        QCOMPARE(stored(id).body, std::string("keep me"));

        // Back to Text: the body is the text box again, Run is back.
        editor->findChild<QComboBox*>(QStringLiteral("bodyModeCombo"))->setCurrentIndex(0);
        QVERIFY(editor->isValid());
        QVERIFY(runAction(w)->isEnabled());
        QVERIFY(fieldProblem(editor->findChild<QLineEdit*>(QStringLiteral("bodyFileEdit"))).isEmpty());
    }

    void profileProblemsUseTheFormLabels()
    {
        ProfileEditor editor;
        editor.setDocument(m_doc.get());
        LoadProfile profile;
        profile.id = -1;
        profile.name = "preset";
        profile.load = defaultLoad();
        editor.setProfile(profile);
        QVERIFY(editor.isValid());
        typeInto(editor.field(QStringLiteral("pipeline")), QStringLiteral("5000"));
        typeInto(editor.field(QStringLiteral("interval")), QStringLiteral("10ms"));
        typeInto(editor.field(QStringLiteral("warmup")), QStringLiteral("soon"));
        QVERIFY(!editor.isValid());
        const QStringList lines
            = editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        // In the order of the form, under its labels.
        QVERIFY2(lines[0].startsWith(QStringLiteral("Warm-up: ")), qPrintable(lines[0]));
        QVERIFY2(lines[1].startsWith(QStringLiteral("Pipelining: must be between 1 and 1024")), qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith(QStringLiteral("Chart interval: must be at least 100ms")), qPrintable(lines[2]));
        QVERIFY(lines[3].contains(QStringLiteral("Run is disabled")));
        for (const QString& line : lines)
            for (const char* key : { "pipeline", "interval", "warmup" })
                QVERIFY2(!line.startsWith(QLatin1String(key)), qPrintable(line)); // no internal names
    }

    // The SLO field and its checkbox: typed as on the command line, saved with the session
    // profile (read back through a connection of its own), shown again when it is reopened.
    void profileSlosAreSavedAndLoadedBack()
    {
        LoadProfile profile;
        profile.name = "judged";
        profile.load = defaultLoad();
        auto id = m_doc->addProfile(profile);
        QVERIFY(id.ok());
        profile.id = *id;
        {
            ProfileEditor editor;
            editor.setDocument(m_doc.get());
            editor.setProfile(profile);
            QVERIFY(editor.findChild<QCheckBox*>(QStringLiteral("sloAbortBox"))
                && !editor.findChild<QCheckBox*>(QStringLiteral("sloAbortBox"))->isChecked());
            typeInto(editor.field(QStringLiteral("slo")), QStringLiteral("p99 < 250ms, errors<1%,rps>10"));
            editor.findChild<QCheckBox*>(QStringLiteral("sloAbortBox"))->click();
            QVERIFY2(editor.isValid(), qPrintable(editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
            QVERIFY(editor.isModified());
            QVERIFY(editor.commit());
        }
        auto store = SessionStore::open(m_path.toStdString());
        QVERIFY(store.ok());
        auto profiles = (*store)->profiles().all();
        QVERIFY(profiles.ok());
        const auto it = std::find_if(
            profiles->begin(), profiles->end(), [&](const LoadProfile& p) { return p.id == profile.id; });
        QVERIFY(it != profiles->end());
        QCOMPARE(it->load.slos.size(), size_t(3));
        QCOMPARE(it->load.slos[0].expr, std::string("p99<250ms"));
        QCOMPARE(it->load.slos[1].expr, std::string("errors<1%"));
        QCOMPARE(it->load.slos[2].expr, std::string("rps>10"));
        QVERIFY(it->load.sloAbort);

        ProfileEditor reopened;
        reopened.setDocument(m_doc.get());
        reopened.setProfile(*it);
        QCOMPARE(reopened.field(QStringLiteral("slo"))->text(), QStringLiteral("p99<250ms, errors<1%, rps>10"));
        QVERIFY(reopened.findChild<QCheckBox*>(QStringLiteral("sloAbortBox"))->isChecked());
        QVERIFY(!reopened.isModified());
    }

    // Editing only the HTTP/2 streams of a session profile is an edit like any other: saved.
    void profileStreamsAloneAreSaved()
    {
        LoadProfile profile;
        profile.name = "h2";
        profile.load = defaultLoad();
        auto id = m_doc->addProfile(profile);
        QVERIFY(id.ok());
        profile.id = *id;
        {
            ProfileEditor editor;
            editor.setDocument(m_doc.get());
            editor.setProfile(profile);
            typeInto(editor.field(QStringLiteral("streams")), QStringLiteral("16"));
            QVERIFY2(editor.isValid(), qPrintable(editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
            QVERIFY(editor.isModified());
            QVERIFY(editor.commit());
        }
        auto store = SessionStore::open(m_path.toStdString());
        QVERIFY(store.ok());
        auto profiles = (*store)->profiles().all();
        QVERIFY(profiles.ok());
        const auto it = std::find_if(
            profiles->begin(), profiles->end(), [&](const LoadProfile& p) { return p.id == profile.id; });
        QVERIFY(it != profiles->end());
        QCOMPARE(it->load.streams, 16u);
    }

    // A wrong SLO gets the red border and its reason under the form's label: the parser's
    // words, naming the character; then what RunConfig::validate() refuses; nothing is saved.
    void badSlosAreInlineErrors()
    {
        LoadProfile profile;
        profile.name = "strict";
        profile.load = defaultLoad();
        auto id = m_doc->addProfile(profile);
        QVERIFY(id.ok());
        profile.id = *id;
        ProfileEditor editor;
        editor.setDocument(m_doc.get());
        editor.setProfile(profile);
        QLineEdit* slo = editor.field(QStringLiteral("slo"));
        const auto firstLine = [&] {
            return editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text().split(QLatin1Char('\n')).value(0);
        };

        typeInto(slo, QStringLiteral("p99<1s, p99<25x"));
        QVERIFY(!editor.isValid());
        QCOMPARE(
            fieldProblem(slo), QStringLiteral("SLO 'p99<25x': at character 7, unknown unit 'x' (use us, ms or s)"));
        QCOMPARE(
            firstLine(), QStringLiteral("SLOs: SLO 'p99<25x': at character 7, unknown unit 'x' (use us, ms or s)"));

        typeInto(slo, QStringLiteral("service_p99<5ms"));
        QVERIFY(!editor.isValid());
        QVERIFY2(fieldProblem(slo).contains(QStringLiteral("open model only")), qPrintable(fieldProblem(slo)));
        editor.findChild<QComboBox*>(QStringLiteral("modeCombo"))
            ->setCurrentIndex(static_cast<int>(ProfileForm::Mode::ConstantRate));
        typeInto(editor.field(QStringLiteral("rate")), QStringLiteral("100"));
        QVERIFY2(editor.isValid(), qPrintable(editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
        editor.findChild<QComboBox*>(QStringLiteral("modeCombo"))
            ->setCurrentIndex(static_cast<int>(ProfileForm::Mode::ClosedLoop));

        typeInto(slo, QStringLiteral("p99<1s"));
        editor.findChild<QCheckBox*>(QStringLiteral("sloAbortBox"))->click();
        QVERIFY(!editor.isValid());
        QCOMPARE(
            fieldProblem(slo), QStringLiteral("aborting watches an errors or non-2xx budget: add one, e.g. errors<1%"));
        QVERIFY(!editor.commit());
        typeInto(slo, QStringLiteral("p99<1s, non2xx<5"));
        QVERIFY2(editor.isValid(), qPrintable(editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));
        QVERIFY(fieldProblem(slo).isEmpty());
    }

    void tagChipsWrapInANarrowDock()
    {
        const int64_t id = addTarget("tagged");
        TargetsPanel panel;
        panel.setDocument(m_doc.get());
        panel.resize(380, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.selectTarget(id);
        TagEdit* tags = panel.editor()->findChild<TagEdit*>(QStringLiteral("tagEdit"));
        QLineEdit* input = tags->lineEdit();
        QTest::keyClicks(input, QStringLiteral("NEG"));
        QTest::keyClick(input, Qt::Key_Return);
        QTRY_COMPARE(tags->chips().size(), 1);
        QTRY_VERIFY(tags->chips()[0]->isVisible());
        const int oneLine = tags->height();
        QVERIFY(oneLine > 0);

        QTest::keyClicks(input, QStringLiteral("NodePort,GKE,Envoy gateway,Ambassador,Service,eu-west1,baseline,"));
        QCOMPARE(tags->tags().size(), 8);
        QTRY_VERIFY2(tags->height() >= 2 * oneLine, qPrintable(QString::number(tags->height())));
        QTRY_VERIFY(tags->chips().last()->isVisible());
        QVERIFY(tags->width() < 380);
        // Every chip and the input within the widget, on more than one line; the input stays usable.
        QSet<int> lineTops;
        for (QWidget* chip : tags->chips()) {
            QVERIFY(tags->rect().contains(chip->geometry()));
            lineTops << chip->geometry().top();
        }
        QVERIFY(lineTops.size() >= 2);
        QVERIFY(tags->rect().contains(input->geometry()));
        QVERIFY(input->width() >= TagEdit::MIN_INPUT_WIDTH);
        // Chips do not overlap.
        const QList<QWidget*> chips = tags->chips();
        for (int i = 0; i < chips.size(); ++i)
            for (int j = i + 1; j < chips.size(); ++j)
                QVERIFY(!chips[i]->geometry().intersects(chips[j]->geometry()));
        QTRY_COMPARE_WITH_TIMEOUT(stored(id).tags.size(), size_t(8), 10'000);
        QCOMPARE(panel.editor()->findChild<QLabel*>(QStringLiteral("statusLabel"))->text(),
            QStringLiteral("Saved in the session"));
        // Saved, the chips stay where they were typed (the session lists tags sorted: no reload).
        QCOMPARE(tags->tags().first(), QStringLiteral("NEG"));
        QCOMPARE(tags->tags().last(), QStringLiteral("baseline"));

        // Removing chips makes it shorter again.
        for (int i = 0; i < 7; ++i) {
            QTRY_VERIFY(tags->chips().last()->isVisible());
            qobject_cast<QToolButton*>(tags->chips().last())->click();
        }
        QCOMPARE(tags->tags(), QStringList { QStringLiteral("NEG") });
        QTRY_COMPARE(tags->height(), oneLine);
    }

    void duplicateCopiesRequestAndBody()
    {
        Target t = makeTarget("GKE NEG", "https://10.0.0.1:8443/api?x=1", { "NEG" });
        t.method = "PUT";
        t.headers = { { "Host", "api.example" }, { "X-Trace", "1" } };
        t.body = BINARY;
        t.tls.verifyPeer = false;
        auto id = m_doc->addTarget(t);
        QVERIFY(id);
        TargetsPanel panel;
        panel.setDocument(m_doc.get());
        panel.selectTarget(*id);
        const int64_t copyId = panel.duplicateTarget();
        QVERIFY(copyId > 0 && copyId != *id);
        QCOMPARE(panel.currentTargetId(), copyId);
        const Target copy = stored(copyId);
        QCOMPARE(copy.name, std::string("GKE NEG copy"));
        QCOMPARE(copy.url, t.url);
        QCOMPARE(copy.method, t.method);
        QCOMPARE(copy.headers, t.headers);
        QCOMPARE(copy.body, BINARY);
        QCOMPARE(copy.tags, t.tags);
        QVERIFY(!copy.tls.verifyPeer);
        QCOMPARE(stored(*id).name, std::string("GKE NEG")); // the original stays
        // The editor shows the copy, binary body kept as it is.
        QCOMPARE(panel.editor()->targetId(), copyId);
        QVERIFY(panel.editor()
                    ->findChild<QLabel*>(QStringLiteral("bodyInfoLabel"))
                    ->toolTip()
                    .contains(QStringLiteral("binary data")));
    }

    void requestMixFileIsCheckedStoredAndSent()
    {
        MainWindow w;
        QVERIFY(w.openStartupSession(m_path));
        const int64_t id = targetsPanel(w)->addTarget();
        QVERIFY(id > 0);
        TargetEditor* editor = targetsPanel(w)->editor();
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")), QStringLiteral("http://127.0.0.1:8089/"));
        QVERIFY(editor->commit());

        // A broken file: the Mix field says where, nothing is saved, Run is off.
        const QString broken = writeFile(
            m_dir, QStringLiteral("broken.txt"), "GET http://127.0.0.1:8089/a\n\nGTE http://127.0.0.1:8089/b\n");
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("requestMixEdit")), broken);
        QVERIFY(!editor->isValid());
        QVERIFY2(fieldProblem(editor->findChild<QLineEdit*>(QStringLiteral("requestMixEdit")))
                     .contains(broken + QStringLiteral(":3: unknown method 'GTE'")),
            qPrintable(fieldProblem(editor->findChild<QLineEdit*>(QStringLiteral("requestMixEdit")))));
        QVERIFY(editor->findChild<QLabel*>(QStringLiteral("statusLabel"))->text().startsWith(QStringLiteral("Mix: ")));
        QVERIFY(!runAction(w)->isEnabled());
        // Another origin than the URL's.
        const QString elsewhere = writeFile(m_dir, QStringLiteral("elsewhere.txt"), "GET http://127.0.0.2:9/a\n");
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("requestMixEdit")), elsewhere);
        QVERIFY(fieldProblem(editor->findChild<QLineEdit*>(QStringLiteral("requestMixEdit")))
                    .contains(QStringLiteral("the mix goes to http://127.0.0.2:9/")));

        const QString good = writeFile(m_dir, QStringLiteral("good.jsonl"),
            "{\"url\": \"http://127.0.0.1:8089/a\", \"weight\": 3}\n{\"method\": \"POST\", \"url\": "
            "\"http://127.0.0.1:8089/b\", \"body\": \"x\"}\n");
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("requestMixEdit")), good);
        editor->findChild<QComboBox*>(QStringLiteral("mixOrderBox"))->setCurrentIndex(2);
        QVERIFY(editor->isValid());
        QVERIFY(editor->commit());
        const Target t = stored(id);
        QCOMPARE(QString::fromStdString(t.requestMix), QFileInfo(good).absoluteFilePath());
        QCOMPARE(t.mixOrder, MixOrder::Weighted);

        // What a run of it sends: the file's entries, in the weighted order.
        auto config = runConfigFor(t, RunConfig {});
        QVERIFY2(config.ok(), config ? "" : config.error().c_str());
        QCOMPARE(config->mix.entries.size(), size_t(2));
        QCOMPARE(config->mix.order, MixOrder::Weighted);
        QCOMPARE(config->mix.entries[1].request.method, std::string("POST"));
        QCOMPARE(config->mix.entries[0].weight, 3.0);
        // The file is read at each run: a file broken since is the run's error, in words.
        writeFile(m_dir, QStringLiteral("good.jsonl"), "{\"url\": 5}\n");
        auto broke = runConfigFor(t, RunConfig {});
        QVERIFY(!broke.ok());
        QVERIFY2(broke.error().rfind("request mix: ", 0) == 0, broke.error().c_str());
    }

    void runDetailsShowEachMixEntry()
    {
        RunData data;
        data.run.targetName = "api";
        data.run.hasTotals = true;
        data.run.totals.durationS = 2;
        data.run.config.request.url = *parseUrl("http://127.0.0.1:8089/");
        data.run.config.mix.source = "mix.txt";
        for (const char* label : { "GET /a", "HEAD /b" }) {
            MixRequest e;
            e.request.url = data.run.config.request.url;
            e.label = label;
            data.run.config.mix.entries.push_back(e);
        }
        data.entries.resize(2);
        data.entries[0].addResponse(200, 1500, true);
        data.entries[0].addResponse(503, 2500, true);
        data.entries[1].errors.timeout = 1;
        RunDetailPage page(data);
        QTableWidget* table = page.findChild<QTableWidget*>(QStringLiteral("entriesTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("GET /a"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("2"));
        QCOMPARE(table->item(0, 7)->text(), QStringLiteral("1")); // one 503
        QCOMPARE(table->item(0, 8)->text(), QStringLiteral("200: 1, 503: 1"));
        QCOMPARE(table->item(1, 4)->text(), QStringLiteral("—")); // no answer, no latency
        QCOMPARE(table->item(1, 6)->text(), QStringLiteral("1"));

        RunData single;
        single.run.config.request.url = data.run.config.request.url;
        RunDetailPage plain(single);
        QVERIFY(!plain.findChild<QTableWidget*>(QStringLiteral("entriesTable")));
    }

    void runDetailsShowTheLoaders()
    {
        RunData data;
        data.run.targetName = "api";
        data.run.hasTotals = true;
        data.run.config.request.url = *parseUrl("http://127.0.0.1:8089/");
        data.loaders = { { 0, "loader-a", 3, 1200, 0, 600.0, 0.0, "synchronized", "completed", {} },
            { 1, "pod-b", 2, 700, 4, 350.0, 12.5, "not synchronized", "died: killed by signal 9", {} } };
        data.loaders[1].cost.workerWallUs = 1'000'000; // pod-b had no CPU to spare
        data.loaders[1].cost.workerCpuUs = 400'000;
        data.loaders[1].cost.workerWaitUs = 570'000;
        RunDetailPage page(data);
        QTableWidget* table = page.findChild<QTableWidget*>(QStringLiteral("loadersTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("pod-b"));
        QCOMPARE(table->item(1, 2)->text(), QStringLiteral("2"));
        QCOMPARE(table->item(1, 5)->text(), QStringLiteral("4"));
        QCOMPARE(table->item(1, 6)->text(), QStringLiteral("12.5"));
        QCOMPARE(table->item(1, 8)->text(), QStringLiteral("died: killed by signal 9"));
        QCOMPARE(table->item(0, 9)->text(), QStringLiteral("–")); // not measured
        QCOMPARE(table->item(1, 9)->text(), QStringLiteral("97 % (saturated)"));

        RunData single;
        single.run.config.request.url = data.run.config.request.url;
        RunDetailPage plain(single);
        QVERIFY(!plain.findChild<QTableWidget*>(QStringLiteral("loadersTable")));
    }

    void loaderStripShowsALaggingLoader()
    {
        IntervalRecord r;
        r.startS = 2;
        r.endS = 2.5;
        r.loaderRequests = { 500, 480, 200 };
        const LiveInterval live = liveIntervalOf(r, {});
        QCOMPARE(live.loaderRequestsPerS.size(), size_t(3));
        QCOMPARE(live.loaderRequestsPerS[2], 400.0); // per second over the half-second interval
        LoaderStrip strip;
        QVERIFY(!strip.isVisibleTo(nullptr));
        strip.setRates(QVector<double>(live.loaderRequestsPerS.begin(), live.loaderRequestsPerS.end()));
        QVERIFY(!strip.isHidden());
        QCOMPARE(strip.lagging(), QVector<int> { 2 });
        QCOMPARE(strip.sizeHint().height() > 40, true);
        strip.resize(400, strip.sizeHint().height());
        QImage image(strip.size(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        strip.render(&image);
        QCOMPARE(image.pixelColor(60, 3 + 2 * 17 + 7), QColor(0xc6, 0x28, 0x28)); // the lagging bar is red
        strip.clear();
        QVERIFY(strip.isHidden());
    }

    // What is shown is what is stored is what is sent: "Name: value" typed or pasted into one cell
    // is split (and shown split); a colon in the Header cell beside a value is refused.
    void headerTypedWholeIntoOneCellIsSplitAsSent()
    {
        const int64_t id = addTarget("header-split");
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(id);
        QTableWidget* table = editor.findChild<QTableWidget*>(QStringLiteral("headersTable"));
        table->item(0, 0)->setText(QStringLiteral("X-Env: staging"));
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("X-Env"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("staging"));
        // Pasted into the Value cell of an empty row; the value's own colon stays.
        table->item(1, 1)->setText(QStringLiteral("Authorization: Bearer a:b"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("Authorization"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("Bearer a:b"));
        QVERIFY(editor.commit());
        const Target t = stored(id);
        QCOMPARE(t.headers.size(), size_t(2));
        QCOMPARE(t.headers[0].name, std::string("X-Env"));
        QCOMPARE(t.headers[0].value, std::string("staging"));
        QCOMPARE(t.headers[1].name, std::string("Authorization"));
        QCOMPARE(t.headers[1].value, std::string("Bearer a:b"));
        auto config = runConfigFor(t, RunConfig {});
        QVERIFY2(config.ok(), config ? "" : config.error().c_str());
        const std::string sent = buildRequest(config->request);
        QVERIFY2(sent.find("\r\nX-Env: staging\r\n") != std::string::npos, sent.c_str());
        QVERIFY2(sent.find("\r\nAuthorization: Bearer a:b\r\n") != std::string::npos, sent.c_str());

        // A colon in the Header cell and a value beside it: which is meant? Refused, nothing saved.
        table->item(0, 0)->setText(QStringLiteral("X-Env: prod"));
        table->item(0, 1)->setText(QStringLiteral("staging"));
        QVERIFY(!editor.isValid());
        QVERIFY(editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text().contains(QStringLiteral("colon")));
        QVERIFY(!editor.commit());
        QCOMPARE(stored(id).headers[0].value, std::string("staging"));

        // The rules on their own.
        QCOMPARE(splitHeaderCells(QStringLiteral(" A : b "), QString()).name, QStringLiteral("A"));
        QCOMPARE(splitHeaderCells(QStringLiteral(" A : b "), QString()).value, QStringLiteral("b"));
        QCOMPARE(splitHeaderCells(QStringLiteral("A:"), QString()).value, QString());
        QCOMPARE(splitHeaderCells(QString(), QStringLiteral("http://x")).name, QString()); // no name before it
        QCOMPARE(splitHeaderCells(QString(), QStringLiteral("not a name: v")).name, QString());
        QVERIFY(splitHeaderCells(QStringLiteral("A"), QStringLiteral("b:c")).problem.isEmpty());
        QCOMPARE(splitHeaderCells(QStringLiteral("A"), QStringLiteral("b:c")).value, QStringLiteral("b:c"));
    }

    void headersTableEditsAreStored()
    {
        const int64_t id = addTarget("headers");
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(id);
        QTableWidget* table = editor.findChild<QTableWidget*>(QStringLiteral("headersTable"));
        QCOMPARE(table->rowCount(), 1); // the empty row to type into
        table->item(0, 0)->setText(QStringLiteral("X-Api-Key"));
        table->item(0, 1)->setText(QStringLiteral("s3cret"));
        QCOMPARE(table->rowCount(), 2); // a new empty row follows
        table->item(1, 0)->setText(QStringLiteral("Host"));
        table->item(1, 1)->setText(QStringLiteral("api.example"));
        QTRY_COMPARE_WITH_TIMEOUT(stored(id).headers.size(), size_t(2), 10'000);
        const Target t = stored(id);
        QCOMPARE(t.headers[0].name, std::string("X-Api-Key"));
        QCOMPARE(t.headers[0].value, std::string("s3cret"));
        QCOMPARE(t.headers[1].name, std::string("Host"));

        // A bad name is marked on its row and nothing is saved.
        table->item(0, 0)->setText(QStringLiteral("Bad Name"));
        QVERIFY(!editor.isValid());
        QVERIFY(
            editor.findChild<QLabel*>(QStringLiteral("statusLabel"))->text().startsWith(QStringLiteral("Header 1: ")));
        QVERIFY(!editor.commit());
        QCOMPARE(stored(id).headers[0].name, std::string("X-Api-Key"));
        // Emptying a row removes the header.
        table->item(0, 0)->setText(QString());
        table->item(0, 1)->setText(QString());
        QVERIFY(editor.commit());
        QCOMPARE(stored(id).headers.size(), size_t(1));
        QCOMPARE(stored(id).headers[0].name, std::string("Host"));
    }

    // Ctrl+V on a selected cell: header lines as copied from a browser's request or a spreadsheet
    // fill rows from the selected one; one plain line goes into the cell.
    void pastingIntoTheHeadersTableFillsRows()
    {
        const int64_t id = addTarget("pasted");
        TargetEditor editor;
        editor.setDocument(m_doc.get());
        editor.setTargetId(id);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QTableWidget* table = editor.findChild<QTableWidget*>(QStringLiteral("headersTable"));
        table->setFocus();
        table->setCurrentCell(0, 0);
        QApplication::clipboard()->setText(QStringLiteral("Accept: application/json\r\nX-Trace:  abc \r\n"
                                                          "Cache-Control\tno-cache\n\n"));
        QTest::keySequence(table, QKeySequence::Paste);
        QCOMPARE(table->rowCount(), 4); // three headers and the empty row to type into
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("Accept"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("application/json"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("X-Trace"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("abc"));
        QCOMPARE(table->item(2, 0)->text(), QStringLiteral("Cache-Control"));
        QCOMPARE(table->item(2, 1)->text(), QStringLiteral("no-cache"));
        QVERIFY(editor.commit());
        QCOMPARE(stored(id).headers.size(), size_t(3));
        QCOMPARE(stored(id).headers[1].value, std::string("abc"));

        // One plain line into a Value cell: that cell alone.
        table->setCurrentCell(1, 1);
        QApplication::clipboard()->setText(QStringLiteral("xyz"));
        QTest::keySequence(table, QKeySequence::Paste);
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("X-Trace"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("xyz"));
        QVERIFY(editor.commit());
        QCOMPARE(stored(id).headers[1].value, std::string("xyz"));
    }

    void deletingATargetWithARunInProgressIsRefused()
    {
        const int64_t id = addTarget("live");
        const int64_t other = addTarget("other");
        QVERIFY(addSyntheticRun(m_doc->store(), id, {}) > 0);
        m_doc->reload();
        TargetsPanel panel;
        panel.setDocument(m_doc.get());
        panel.selectTarget(id);
        QSignalSpy messages(&panel, &TargetsPanel::message);
        int asked = 0;
        setConfirmHandler([&](const QString&) {
            ++asked;
            return true;
        });

        // This window runs it (MainWindow sets the busy target from its RunTask).
        QToolButton* deleteButton = nullptr;
        for (QToolButton* b : panel.findChildren<QToolButton*>())
            if (b->text() == QStringLiteral("−")) deleteButton = b;
        QVERIFY(deleteButton);
        QVERIFY(deleteButton->isEnabled());
        panel.setBusyTargetId(id);
        QVERIFY(!deleteButton->isEnabled());
        QVERIFY(!panel.deleteTarget());
        QCOMPARE(asked, 0); // refused before asking
        QVERIFY(messages.last()[0].toString().contains(QStringLiteral("being run right now")));
        QVERIFY(m_doc->targetById(id));
        QCOMPARE(m_doc->runCountOf(id), 1);
        // Another target can go meanwhile.
        panel.selectTarget(other);
        QVERIFY(deleteButton->isEnabled());
        QVERIFY(panel.deleteTarget());
        QCOMPARE(asked, 1);
        QVERIFY(!stored(other).id);
        asked = 0;

        // Another process records a run of it into the session.
        panel.setBusyTargetId(0);
        panel.selectTarget(id);
        auto cli = SessionStore::open(m_path.toStdString());
        QVERIFY(cli);
        NewRun run;
        run.targetId = id;
        run.config.request.url = *parseUrl("http://10.0.0.1:8080/api");
        run.startedAtMs = wallClockNowMs();
        auto runId = (*cli)->runs().begin(run);
        QVERIFY(runId);
        QVERIFY(!panel.deleteTarget());
        QVERIFY(messages.last()[0].toString().contains(QStringLiteral("run #%1").arg(*runId)));
        QCOMPARE(stored(id).name, std::string("live"));
        QCOMPARE(asked, 0);

        // Once it has ended the target can be deleted, runs and all.
        RunResult result;
        result.config = run.config;
        QVERIFY((*cli)->runs().finish(*runId, FinishedRun::of(result, wallClockNowMs())));

        // A run that begins while the question is open (an experiment's next run) still
        // stops the delete: it is checked again after the answer.
        int64_t lateRun = 0;
        setConfirmHandler([&](const QString&) {
            ++asked;
            auto begun = (*cli)->runs().begin(run);
            lateRun = begun ? *begun : 0;
            return true;
        });
        QVERIFY(!panel.deleteTarget());
        QCOMPARE(asked, 1);
        QVERIFY(lateRun > 0);
        QVERIFY(messages.last()[0].toString().contains(QStringLiteral("run #%1").arg(lateRun)));
        QCOMPARE(stored(id).name, std::string("live"));
        QVERIFY((*cli)->runs().finish(lateRun, FinishedRun::of(result, wallClockNowMs())));
        asked = 0;
        setConfirmHandler([&](const QString&) {
            ++asked;
            return true;
        });
        QVERIFY(panel.deleteTarget());
        QCOMPARE(asked, 1);
        QVERIFY(!stored(id).id);
        QVERIFY(m_doc->runs().empty());
    }
};

WB_UI_TEST(EditorsTest)
#include "editors_test.moc"
