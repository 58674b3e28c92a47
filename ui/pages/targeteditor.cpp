#include "pages/targeteditor.h"

#include "pages/fieldstate.h"
#include "pages/metricsfield.h"
#include "pages/scriptfield.h"
#include "pages/tagedit.h"
#include "session/recordequality.h"
#include "session/sessiondocument.h"
#include "session/sessionpaths.h"
#include "text/format.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCryptographicHash>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace wb::ui {

namespace {

QToolButton* browseButton(QWidget* parent, QLineEdit* target, const QString& title)
{
    auto* button = new QToolButton(parent);
    button->setText(QStringLiteral("…"));
    button->setToolTip(title);
    QObject::connect(button, &QToolButton::clicked, parent, [parent, target, title] {
        const QString path = QFileDialog::getOpenFileName(parent, title, target->text());
        if (!path.isEmpty()) target->setText(path); // setText does not emit textEdited
        if (!path.isEmpty()) emit target->textEdited(path);
    });
    return button;
}

// The file a body was read from belongs to this machine, not to the session
// (a session file travels to other machines, where the path means nothing):
// it is kept in the application settings, per session file and target, with
// a digest of the bytes read so that a body changed since (by another window,
// a CLI import) is not credited to that file.
QString bodySourceKey(const QString& sessionPath, int64_t targetId)
{
    const QByteArray session
        = QCryptographicHash::hash(QFileInfo(sessionPath).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1)
              .toHex()
              .left(16);
    return QStringLiteral("targetBodyFiles/%1/%2").arg(QString::fromLatin1(session)).arg(targetId);
}

QString bodyDigest(const std::string& body)
{
    const QByteArray bytes = QByteArray::fromRawData(body.data(), static_cast<qsizetype>(body.size()));
    return QString::number(body.size()) + QLatin1Char(':')
        + QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex());
}

/// Lets a label wrap a long path at its slashes (a path has no spaces to wrap at).
QString wrappablePath(QString text)
{
    return text.replace(QLatin1Char('/'), QStringLiteral("/\u200B"));
}

} // namespace

TargetEditor::TargetEditor(QWidget* parent)
    : QWidget(parent)
{
    build();
    m_saveTimer.setSingleShot(true);
    m_saveTimer.setInterval(SAVE_DELAY_MS);
    connect(&m_saveTimer, &QTimer::timeout, this, &TargetEditor::commit);
    setEnabled(false);
}

void TargetEditor::build()
{
    m_name = new QLineEdit(this);
    m_method = new QComboBox(this);
    m_method->setObjectName(QStringLiteral("methodCombo"));
    m_method->setEditable(true);
    m_method->addItems({ QStringLiteral("GET"), QStringLiteral("POST"), QStringLiteral("PUT"), QStringLiteral("PATCH"),
        QStringLiteral("DELETE"), QStringLiteral("HEAD") });
    m_method->setMinimumContentsLength(6);
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setPlaceholderText(tr("https://10.0.0.1/api   or   http://builtin/"));
    m_url->setToolTip(tr("http or https URL. Host \"builtin\" is the built-in test server (started on demand)."));
    auto* urlRow = new QHBoxLayout;
    urlRow->setSpacing(4);
    urlRow->addWidget(m_method);
    urlRow->addWidget(m_url, 1);

    m_headers = new QTableWidget(0, 2, this);
    m_headers->setObjectName(QStringLiteral("headersTable"));
    m_headers->setHorizontalHeaderLabels({ tr("Header"), tr("Value") });
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->setVisible(false);
    m_headers->verticalHeader()->setDefaultSectionSize(22);
    m_headers->setMaximumHeight(96);
    m_headers->setToolTip(tr("Request headers; they replace wrkbench's defaults of the same name (e.g. Host)"));

    m_bodyMode = new QComboBox(this);
    m_bodyMode->setObjectName(QStringLiteral("bodyModeCombo"));
    m_bodyMode->addItems({ tr("Text"), tr("File") });
    m_bodyMode->setToolTip(tr("Text: the box below is the body. File: the file's content is read when the "
                              "edit is saved and stored in the session."));
    m_bodyClear = new QToolButton(this);
    m_bodyClear->setObjectName(QStringLiteral("bodyClearButton"));
    m_bodyClear->setText(tr("Clear"));
    m_bodyClear->setToolTip(tr("Remove the body"));
    m_bodyClear->setAutoRaise(true);
    m_bodyText = new QPlainTextEdit(this);
    m_bodyText->setObjectName(QStringLiteral("bodyTextEdit"));
    m_bodyText->setPlaceholderText(tr("request body (sets Content-Length)"));
    m_bodyText->setMaximumHeight(60);
    m_bodyFile = new QLineEdit(this);
    m_bodyFile->setObjectName(QStringLiteral("bodyFileEdit"));
    m_bodyFile->setPlaceholderText(tr("file sent as the body"));
    auto* filePage = new QWidget(this);
    auto* fileRow = new QHBoxLayout(filePage);
    fileRow->setContentsMargins(0, 0, 0, 0);
    fileRow->setAlignment(Qt::AlignTop); // under the mode combo, not centred in the text box's height
    fileRow->addWidget(m_bodyFile, 1);
    fileRow->addWidget(browseButton(this, m_bodyFile, tr("Body file")));
    m_bodyStack = new QStackedWidget(this);
    m_bodyStack->addWidget(m_bodyText);
    m_bodyStack->addWidget(filePage);
    m_bodyStack->setMaximumHeight(60);
    m_bodyInfo = new QLabel(this);
    m_bodyInfo->setObjectName(QStringLiteral("bodyInfoLabel"));
    m_bodyInfo->setTextFormat(Qt::PlainText);
    m_bodyInfo->setWordWrap(true);
    m_bodyInfo->setStyleSheet(QStringLiteral("color: palette(mid);"));
    auto* bodyModeRow = new QHBoxLayout;
    bodyModeRow->setSpacing(4);
    bodyModeRow->addWidget(m_bodyMode);
    bodyModeRow->addStretch(1);
    bodyModeRow->addWidget(m_bodyClear);
    auto* bodyBox = new QVBoxLayout;
    bodyBox->setSpacing(2);
    bodyBox->addLayout(bodyModeRow);
    bodyBox->addWidget(m_bodyStack);
    bodyBox->addWidget(m_bodyInfo);

    m_verify = new QCheckBox(tr("verify certificate"), this);
    m_caFile = new QLineEdit(this);
    m_caFile->setObjectName(QStringLiteral("caFileEdit"));
    m_caFile->setPlaceholderText(tr("CA file (PEM); empty = system store"));
    auto* tlsRow = new QHBoxLayout;
    tlsRow->setSpacing(4);
    tlsRow->addWidget(m_verify);
    tlsRow->addWidget(m_caFile, 1);
    tlsRow->addWidget(browseButton(this, m_caFile, tr("CA certificates")));

    m_protocol = new QComboBox(this);
    m_protocol->setObjectName(QStringLiteral("protocolBox"));
    m_protocol->addItems({ tr("HTTP/1.1"), tr("HTTP/2"), tr("HTTP/3") });
    m_protocol->setToolTip(tr("HTTP/2: h2 by ALPN over https (the server must select it), h2c with prior "
                              "knowledge over http. HTTP/3: QUIC over UDP, https only. The profile's Streams "
                              "field sets streams per connection."));

    // A request mix file instead of the one request: its entries go to this URL's origin.
    m_requestMix = new QLineEdit(this);
    m_requestMix->setObjectName(QStringLiteral("requestMixEdit"));
    m_requestMix->setPlaceholderText(tr("optional: a request mix file (sent instead of the request above)"));
    m_requestMix->setToolTip(tr("METHOD URL lines with headers and @body lines (vegeta's format), or JSON Lines "
                                "with weights. The headers above apply to every entry."));
    m_mixOrder = new QComboBox(this);
    m_mixOrder->setObjectName(QStringLiteral("mixOrderBox"));
    m_mixOrder->addItems({ tr("round-robin"), tr("random"), tr("weighted") });
    m_mixOrder->setToolTip(tr("How each connection walks the mix"));
    auto* mixRow = new QHBoxLayout;
    mixRow->setSpacing(4);
    mixRow->addWidget(m_requestMix, 1);
    mixRow->addWidget(browseButton(this, m_requestMix, tr("Request mix")));
    mixRow->addWidget(m_mixOrder);

    m_script = new ScriptField(this);
    m_script->setObjectName(QStringLiteral("scriptField"));
    connect(m_script, &ScriptField::edited, this, &TargetEditor::edited);

    m_tags = new TagEdit(this);
    m_tags->setObjectName(QStringLiteral("tagEdit"));
    m_metrics = new MetricsField(this);
    m_notes = new QLineEdit(this);
    m_notes->setObjectName(QStringLiteral("notesEdit"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);

    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);
    auto* form = new QFormLayout;
    outer->addLayout(form);
    outer->addStretch(1); // rows keep their natural height when the dock is tall
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Request"), urlRow);
    form->addRow(tr("Headers"), m_headers);
    form->addRow(tr("Body"), bodyBox);
    form->addRow(tr("Protocol"), m_protocol);
    form->addRow(tr("Mix"), mixRow);
    form->addRow(tr("Script"), m_script);
    form->addRow(tr("TLS"), tlsRow);
    form->addRow(tr("Metrics"), m_metrics);
    form->addRow(tr("Tags"), m_tags);
    form->addRow(tr("Notes"), m_notes);
    form->addRow(m_status);

    for (QLineEdit* edit : { m_name, m_url, m_bodyFile, m_caFile, m_notes, m_requestMix })
        connect(edit, &QLineEdit::textEdited, this, &TargetEditor::edited);
    for (QLineEdit* edit : { m_name, m_url, m_caFile, m_requestMix })
        connect(edit, &QLineEdit::editingFinished, this, &TargetEditor::showAsStored);
    connect(m_method, &QComboBox::currentTextChanged, this, &TargetEditor::edited);
    connect(m_metrics, &MetricsField::edited, this, &TargetEditor::edited);
    // A table pastes nothing by itself: a selected cell takes the clipboard's lines (an editor open
    // in the cell has the focus, and pastes into its own text as usual).
    auto* paste = new QShortcut(QKeySequence::Paste, m_headers, nullptr, nullptr, Qt::WidgetShortcut);
    connect(paste, &QShortcut::activated, this, [this] { pasteHeaders(QApplication::clipboard()->text()); });
    connect(m_headers, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_loading) return;
        splitHeaderRow(item->row());
        ensureEmptyHeaderRow();
        edited();
    });
    connect(m_bodyMode, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_bodyStack->setCurrentIndex(index);
        edited();
    });
    connect(m_bodyText, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading) return;
        m_bodyTyped = true;
        edited();
    });
    connect(m_bodyClear, &QToolButton::clicked, this, &TargetEditor::clearBody);
    connect(m_verify, &QCheckBox::toggled, this, &TargetEditor::edited);
    connect(m_protocol, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading) edited();
    });
    connect(m_mixOrder, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading) edited();
    });
    connect(m_tags, &TagEdit::tagsChanged, this, &TargetEditor::edited);
}

void TargetEditor::setDocument(SessionDocument* doc)
{
    if (m_dirty) commit(); // into the session the edits belong to
    m_dirty = false;
    if (m_doc) disconnect(m_doc, nullptr, this, nullptr);
    m_doc = doc;
    if (m_doc) connect(m_doc, &SessionDocument::targetsChanged, this, &TargetEditor::onTargetsChanged);
    setTargetId(0);
}

void TargetEditor::setTargetId(int64_t id)
{
    if (id == m_target.id && id != 0) return;
    if (m_dirty) commit(); // leaving a target keeps its valid edits
    const Target* t = m_doc && id ? m_doc->targetById(id) : nullptr;
    m_saveTimer.stop();
    m_dirty = false;
    m_saveError.clear();
    load(t ? *t : Target {});
    setEnabled(t != nullptr);
}

void TargetEditor::onTargetsChanged()
{
    if (!m_doc || m_target.id == 0) return;
    const Target* t = m_doc->targetById(m_target.id);
    if (!t) {
        setTargetId(0); // deleted (here or by another process)
        return;
    }
    // Changed elsewhere (another window, a CLI import): show it unless the user is typing.
    if (!m_dirty && !sameTarget(*t, m_target)) load(*t);
}

void TargetEditor::load(const Target& t)
{
    m_loading = true;
    m_target = t;
    m_edited = t;
    const TargetForm f = targetFormOf(t);
    m_name->setText(f.name);
    m_method->setCurrentText(f.method.isEmpty() ? QStringLiteral("GET") : f.method);
    m_url->setText(f.url);
    m_headers->setRowCount(0);
    for (const auto& [name, value] : f.headers) {
        const int row = m_headers->rowCount();
        m_headers->insertRow(row);
        m_headers->setItem(row, 0, new QTableWidgetItem(name));
        m_headers->setItem(row, 1, new QTableWidgetItem(value));
    }
    ensureEmptyHeaderRow();
    m_bodySource = recalledBodySource(t);
    m_editedSource = m_bodySource;
    m_bodyFile->clear();
    showStoredBody(true);
    // A body that came from a file, or that only a file can give, shows as a file body.
    m_bodyMode->setCurrentIndex(!t.body.empty() && (bodyHiddenFromBox() || !m_bodySource.isEmpty()) ? 1 : 0);
    m_bodyStack->setCurrentIndex(m_bodyMode->currentIndex());
    m_verify->setChecked(f.verifyTls);
    m_caFile->setText(f.caFile);
    m_protocol->setCurrentIndex(f.http3 ? 2 : f.http2 ? 1 : 0);
    m_requestMix->setText(f.requestMix);
    m_mixOrder->setCurrentIndex(f.mixOrder);
    m_script->setValues(f.script, f.scriptArgs);
    m_tags->setTags(f.tags);
    m_metrics->setSpec(t.scrape);
    m_notes->setText(f.notes);
    m_loading = false;
    check();
}

// "Name: value" typed into one cell is shown split, as it is stored and sent (splitHeaderCells).
void TargetEditor::splitHeaderRow(int row)
{
    QTableWidgetItem* name = m_headers->item(row, 0);
    QTableWidgetItem* value = m_headers->item(row, 1);
    if (!name || !value) return;
    const HeaderCells cells = splitHeaderCells(name->text(), value->text());
    // Trimmed too: the spaces around a name or a value are not sent, so they are not shown either.
    if (!cells.problem.isEmpty() || (cells.name == name->text() && cells.value == value->text())) return;
    const bool wasLoading = m_loading;
    m_loading = true;
    name->setText(cells.name);
    value->setText(cells.value);
    m_loading = wasLoading;
}

void TargetEditor::pasteHeaders(const QString& text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString& line : lines)
        if (line.endsWith(QLatin1Char('\r'))) line.chop(1);
    while (!lines.isEmpty() && lines.back().trimmed().isEmpty())
        lines.removeLast();
    if (lines.isEmpty()) return;
    int row = std::max(0, m_headers->currentRow());
    const int column = std::clamp(m_headers->currentColumn(), 0, 1);
    m_loading = true;
    const auto cell = [this](int r, int c) {
        while (m_headers->rowCount() <= r) {
            const int added = m_headers->rowCount();
            m_headers->insertRow(added);
            m_headers->setItem(added, 0, new QTableWidgetItem);
            m_headers->setItem(added, 1, new QTableWidgetItem);
        }
        if (!m_headers->item(r, c)) m_headers->setItem(r, c, new QTableWidgetItem);
        return m_headers->item(r, c);
    };
    const int first = row;
    if (lines.size() == 1 && !lines[0].contains(QLatin1Char('\t'))) {
        // Into the cell, as typed there; a whole header line in the Header cell replaces the row.
        cell(row, column)->setText(lines[0]);
        if (column == 0 && lines[0].contains(QLatin1Char(':'))) cell(row, 1)->setText(QString());
        ++row;
    } else {
        for (const QString& line : std::as_const(lines)) {
            if (line.trimmed().isEmpty()) continue;
            const qsizetype tab = line.indexOf(QLatin1Char('\t'));
            cell(row, 0)->setText(tab >= 0 ? line.left(tab) : line); // "Name: value" is split below
            cell(row, 1)->setText(tab >= 0 ? line.mid(tab + 1) : QString());
            ++row;
        }
    }
    m_loading = false;
    for (int r = first; r < row; ++r)
        splitHeaderRow(r);
    ensureEmptyHeaderRow();
    edited();
}

void TargetEditor::ensureEmptyHeaderRow()
{
    const bool wasLoading = m_loading;
    m_loading = true;
    auto isEmptyRow = [this](int row) {
        for (int c = 0; c < 2; ++c)
            if (auto* item = m_headers->item(row, c); item && !item->text().trimmed().isEmpty()) return false;
        return true;
    };
    const int rows = m_headers->rowCount();
    if (rows == 0 || !isEmptyRow(rows - 1)) {
        m_headers->insertRow(rows);
        m_headers->setItem(rows, 0, new QTableWidgetItem);
        m_headers->setItem(rows, 1, new QTableWidgetItem);
    }
    m_loading = wasLoading;
}

void TargetEditor::showStoredBody(bool inTextBox)
{
    const bool wasLoading = m_loading;
    m_loading = true;
    m_binaryBody = !isTextBody(m_target.body);
    m_crBody = m_target.body.find('\r') != std::string::npos;
    if (inTextBox) {
        m_bodyTyped = false;
        m_bodyText->setPlainText(bodyHiddenFromBox() ? QString() : QString::fromStdString(m_target.body));
    }
    const QString stored = describeBody(static_cast<qint64>(m_target.body.size()), !m_binaryBody, m_bodySource);
    m_bodyText->setPlaceholderText(bodyHiddenFromBox() ? tr("%1 stored: type here to replace them").arg(stored)
                                                       : tr("request body (sets Content-Length)"));
    m_bodyFile->setPlaceholderText(
        m_target.body.empty() ? tr("file sent as the body") : tr("choose a file to replace the stored body"));
    m_loading = wasLoading;
}

TargetEditor::BodyChoice TargetEditor::bodyChoice() const
{
    if (m_bodyMode->currentIndex() == 1) {
        // No file chosen: a body that came from a file (or that only a file can give) stays.
        const bool keepable = !m_target.body.empty() && (bodyHiddenFromBox() || !m_bodySource.isEmpty());
        return keepable && m_bodyFile->text().trimmed().isEmpty() ? BodyChoice::Stored : BodyChoice::File;
    }
    // An empty box over a body it does not show means "not shown", not "empty": only typing replaces it.
    return bodyHiddenFromBox() && !m_bodyTyped ? BodyChoice::Stored : BodyChoice::Text;
}

void TargetEditor::clearBody()
{
    if (m_target.id == 0) return;
    m_loading = true;
    m_bodyMode->setCurrentIndex(0);
    m_bodyStack->setCurrentIndex(0);
    m_bodyFile->clear();
    m_bodyText->clear();
    m_loading = false;
    m_bodyTyped = true; // the empty box is the body now, even over a binary body
    edited();
}

QString TargetEditor::recalledBodySource(const Target& target) const
{
    if (!m_doc || target.id == 0 || target.body.empty()) return {};
    const QStringList entry = appSettings()->value(bodySourceKey(m_doc->path(), target.id)).toStringList();
    if (entry.size() != 2) return {};
    // The size first: most bodies are not worth hashing to learn that they changed.
    if (!entry[1].startsWith(QString::number(target.body.size()) + QLatin1Char(':'))) return {};
    return entry[1] == bodyDigest(target.body) ? entry[0] : QString();
}

void TargetEditor::rememberBodySource()
{
    if (!m_doc || m_target.id == 0) return;
    const QString key = bodySourceKey(m_doc->path(), m_target.id);
    if (m_bodySource.isEmpty() || m_target.body.empty())
        appSettings()->remove(key);
    else
        appSettings()->setValue(key, QStringList { m_bodySource, bodyDigest(m_target.body) });
}

TargetForm TargetEditor::form() const
{
    TargetForm f;
    f.name = m_name->text();
    f.method = m_method->currentText();
    f.url = m_url->text();
    for (int row = 0; row < m_headers->rowCount(); ++row) {
        auto text = [&](int c) { return m_headers->item(row, c) ? m_headers->item(row, c)->text() : QString(); };
        f.headers.push_back({ text(0), text(1) });
    }
    const BodyChoice body = bodyChoice();
    f.bodyFromFile = body == BodyChoice::File;
    f.bodyText = body == BodyChoice::Text ? bodyBoxText() : QString();
    f.bodyFile = m_bodyFile->text();
    f.verifyTls = m_verify->isChecked();
    f.caFile = m_caFile->text();
    f.http2 = m_protocol->currentIndex() == 1;
    f.http3 = m_protocol->currentIndex() == 2;
    f.requestMix = m_requestMix->text();
    f.mixOrder = m_mixOrder->currentIndex();
    f.script = m_script->path();
    f.scriptArgs = m_script->args();
    f.tags = m_tags->tags();
    f.notes = m_notes->text();
    return f;
}

QString TargetEditor::bodyBoxText() const
{
    QString text = m_bodyText->document()->toRawText();
    // A line break is a paragraph (or, with Shift+Enter, a line) separator inside the box: LF as sent.
    text.replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
    text.replace(QChar::LineSeparator, QLatin1Char('\n'));
    return text;
}

void TargetEditor::showAsStored()
{
    if (m_loading || m_target.id == 0 || !m_errors.isEmpty()) return;
    const bool wasLoading = m_loading;
    m_loading = true;
    auto show = [](QLineEdit* edit, const std::string& stored) {
        const QString text = QString::fromStdString(stored);
        if (edit->text() != text) edit->setText(text);
    };
    show(m_name, m_edited.name);
    show(m_url, m_edited.url);
    show(m_caFile, m_edited.tls.caFile);
    show(m_requestMix, m_edited.requestMix);
    m_loading = wasLoading;
}

void TargetEditor::edited()
{
    if (m_loading || m_target.id == 0) return;
    m_dirty = true;
    m_saveError.clear();
    check();
    if (m_errors.isEmpty()) m_saveTimer.start();
}

void TargetEditor::check()
{
    const bool wasValid = isValid();
    QStringList taken;
    if (m_doc)
        for (const Target& t : m_doc->targets())
            if (t.id != m_target.id) taken << QString::fromStdString(t.name);
    Target edited = m_target;
    const TargetForm f = form();
    m_errors = m_target.id ? checkTargetForm(f, taken, &edited) : FieldErrors {};
    if (m_target.id) {
        if (auto scrape = m_metrics->spec())
            edited.scrape = *scrape;
        else
            m_errors.insert(QStringLiteral("metrics"), QString::fromStdString(scrape.error()));
    }
    if (m_errors.isEmpty()) {
        const BodyChoice body = bodyChoice();
        if (body == BodyChoice::Stored) edited.body = m_target.body;
        // The session gives tags back sorted: so does the edited target, or every save would read
        // back as a change made elsewhere and reload the form under the user's hands.
        std::sort(edited.tags.begin(), edited.tags.end());
        m_editedSource = body == BodyChoice::File ? QFileInfo(f.bodyFile.trimmed()).absoluteFilePath()
            : edited.body == m_target.body        ? m_bodySource
                                                  : QString();
        m_editedText
            = body == BodyChoice::Text || (body == BodyChoice::Stored ? !m_binaryBody : isTextBody(edited.body));
        m_edited = edited;
    }
    showProblems();
    if (wasValid != isValid()) emit validityChanged(isValid());
}

void TargetEditor::showProblems()
{
    setFieldProblem(m_name, m_errors.value(QStringLiteral("name")));
    setFieldProblem(m_url, m_errors.value(QStringLiteral("url")));
    setFieldProblem(m_method, m_errors.value(QStringLiteral("method")));
    setFieldProblem(m_bodyFile, m_errors.value(QStringLiteral("bodyFile")));
    setFieldProblem(m_caFile, m_errors.value(QStringLiteral("caFile")));
    setFieldProblem(m_protocol, m_errors.value(QStringLiteral("protocol")));
    setFieldProblem(m_requestMix, m_errors.value(QStringLiteral("requestMix")));
    setFieldProblem(m_script->pathEdit(), m_errors.value(QStringLiteral("script")));
    setFieldProblem(m_tags->lineEdit(), m_errors.value(QStringLiteral("tags")));
    setFieldProblem(m_metrics->endpointsEdit(), m_errors.value(QStringLiteral("metrics")));
    QStringList headerProblems;
    for (int row = 0; row < m_headers->rowCount(); ++row) {
        const QString problem = m_errors.value(QStringLiteral("header:%1").arg(row));
        for (int c = 0; c < 2; ++c)
            if (QTableWidgetItem* item = m_headers->item(row, c)) {
                const bool wasLoading = m_loading;
                m_loading = true; // colouring a cell emits itemChanged
                item->setBackground(problem.isEmpty() ? QBrush() : QBrush(QColor(0xff, 0xeb, 0xee)));
                item->setToolTip(problem);
                m_loading = wasLoading;
            }
        if (!problem.isEmpty()) headerProblems << problem;
    }
    setFieldProblem(m_headers, headerProblems.join(QLatin1Char('\n')));

    static const QMap<QString, QString> LABELS { { QStringLiteral("name"), tr("Name") },
        { QStringLiteral("url"), tr("URL") }, { QStringLiteral("method"), tr("Method") },
        { QStringLiteral("bodyFile"), tr("Body file") }, { QStringLiteral("caFile"), tr("CA file") },
        { QStringLiteral("requestMix"), tr("Mix") }, { QStringLiteral("tags"), tr("Tags") },
        { QStringLiteral("metrics"), tr("Metrics") }, { QStringLiteral("protocol"), tr("Protocol") } };
    QStringList lines;
    for (auto it = m_errors.cbegin(); it != m_errors.cend(); ++it) {
        const QString label = it.key().startsWith(QStringLiteral("header:"))
            ? tr("Header %1").arg(it.key().mid(7).toInt() + 1)
            : LABELS.value(it.key(), it.key());
        lines << QStringLiteral("%1: %2").arg(label, it.value());
    }
    QString body;
    if (m_target.id != 0) {
        const bool pending = m_errors.isEmpty() && (m_edited.body != m_target.body || m_editedSource != m_bodySource);
        body = pending ? tr("Body to be saved: %1")
                             .arg(describeBody(static_cast<qint64>(m_edited.body.size()), m_editedText, m_editedSource))
                       : tr("Stored body: %1")
                             .arg(describeBody(static_cast<qint64>(m_target.body.size()), !m_binaryBody, m_bodySource));
    }
    m_bodyInfo->setText(wrappablePath(body));
    m_bodyInfo->setToolTip(body);

    if (!lines.isEmpty()) {
        m_status->setStyleSheet(errorTextStyle());
        m_status->setText(lines.join(QLatin1Char('\n')) + tr("\nNot saved; Run is disabled until this is fixed."));
    } else if (!m_saveError.isEmpty()) {
        m_status->setStyleSheet(errorTextStyle());
        m_status->setText(tr("Not saved: %1").arg(m_saveError));
    } else {
        m_status->setStyleSheet(QStringLiteral("color: palette(mid);"));
        m_status->setText(m_target.id == 0 ? tr("No target selected")
                : m_dirty                  ? tr("Editing…")
                                           : tr("Saved in the session"));
    }
}

bool TargetEditor::commit()
{
    m_saveTimer.stop();
    // A file body is read as the file is now; one gone since the last check is a
    // field error, and nothing is saved.
    if (m_dirty && m_target.id != 0 && bodyChoice() == BodyChoice::File) check();
    if (!isValid()) return false;
    if (!m_dirty) return true;
    if (!m_doc) return false;
    const bool fromFile = bodyChoice() == BodyChoice::File;
    if (sameTarget(m_edited, m_target)) {
        m_dirty = false;
        if (m_bodySource != m_editedSource) {
            m_bodySource = m_editedSource;
            rememberBodySource();
        }
        showProblems();
        return true;
    }
    const Target edited = m_edited;
    const Target before = m_target;
    // Before the update: its targetsChanged() must find nothing to reload over the user's typing.
    m_dirty = false;
    m_target = edited;
    if (wb::Status st = m_doc->updateTarget(edited); !st) {
        m_dirty = true;
        m_target = before;
        m_saveError = QString::fromStdString(st.error());
        showProblems();
        return false;
    }
    m_bodySource = m_editedSource;
    rememberBodySource();
    // A body read from a file is shown in the text box too (or said to be binary there). Typed text
    // stays as it is: the user may still be typing.
    showStoredBody(fromFile);
    showProblems();
    emit saved(edited.id);
    return true;
}

Target TargetEditor::currentTarget() const
{
    return m_edited;
}

} // namespace wb::ui
