#include "pages/targeteditor.h"

#include "pages/fieldstate.h"
#include "pages/tagedit.h"
#include "session/recordequality.h"
#include "session/sessiondocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QStringDecoder>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace wb::ui {

namespace {

bool isText(const std::string& bytes)
{
    if (bytes.find('\0') != std::string::npos) return false;
    QStringDecoder utf8(QStringDecoder::Utf8);
    (void)utf8.decode(QByteArrayView(bytes.data(), static_cast<qsizetype>(bytes.size())));
    return !utf8.hasError();
}

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
    m_method->setEditable(true);
    m_method->addItems({ QStringLiteral("GET"), QStringLiteral("POST"), QStringLiteral("PUT"), QStringLiteral("PATCH"),
        QStringLiteral("DELETE"), QStringLiteral("HEAD") });
    m_method->setMinimumContentsLength(6);
    m_url = new QLineEdit(this);
    m_url->setPlaceholderText(tr("https://10.0.0.1/api   or   http://builtin/"));
    m_url->setToolTip(tr("http or https URL. Host \"builtin\" is the built-in test server (started on demand)."));
    auto* urlRow = new QHBoxLayout;
    urlRow->setSpacing(4);
    urlRow->addWidget(m_method);
    urlRow->addWidget(m_url, 1);

    m_headers = new QTableWidget(0, 2, this);
    m_headers->setHorizontalHeaderLabels({ tr("Header"), tr("Value") });
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->setVisible(false);
    m_headers->verticalHeader()->setDefaultSectionSize(22);
    m_headers->setMaximumHeight(96);
    m_headers->setToolTip(tr("Request headers; they replace wrkbench's defaults of the same name (e.g. Host)"));

    m_bodyMode = new QComboBox(this);
    m_bodyMode->addItems({ tr("Text"), tr("File") });
    m_bodyText = new QPlainTextEdit(this);
    m_bodyText->setPlaceholderText(tr("request body (sets Content-Length)"));
    m_bodyText->setMaximumHeight(60);
    m_bodyFile = new QLineEdit(this);
    m_bodyFile->setPlaceholderText(tr("file sent as the body"));
    auto* filePage = new QWidget(this);
    auto* fileRow = new QHBoxLayout(filePage);
    fileRow->setContentsMargins(0, 0, 0, 0);
    fileRow->addWidget(m_bodyFile, 1);
    fileRow->addWidget(browseButton(this, m_bodyFile, tr("Body file")));
    m_bodyStack = new QStackedWidget(this);
    m_bodyStack->addWidget(m_bodyText);
    m_bodyStack->addWidget(filePage);
    m_bodyStack->setMaximumHeight(60);
    auto* bodyBox = new QVBoxLayout;
    bodyBox->setSpacing(2);
    bodyBox->addWidget(m_bodyMode, 0, Qt::AlignLeft);
    bodyBox->addWidget(m_bodyStack);

    m_verify = new QCheckBox(tr("verify certificate"), this);
    m_caFile = new QLineEdit(this);
    m_caFile->setPlaceholderText(tr("CA file (PEM); empty = system store"));
    auto* tlsRow = new QHBoxLayout;
    tlsRow->setSpacing(4);
    tlsRow->addWidget(m_verify);
    tlsRow->addWidget(m_caFile, 1);
    tlsRow->addWidget(browseButton(this, m_caFile, tr("CA certificates")));

    m_tags = new TagEdit(this);
    m_notes = new QLineEdit(this);
    m_status = new QLabel(this);
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
    form->addRow(tr("TLS"), tlsRow);
    form->addRow(tr("Tags"), m_tags);
    form->addRow(tr("Notes"), m_notes);
    form->addRow(m_status);

    for (QLineEdit* edit : { m_name, m_url, m_bodyFile, m_caFile, m_notes })
        connect(edit, &QLineEdit::textEdited, this, &TargetEditor::edited);
    connect(m_method, &QComboBox::currentTextChanged, this, &TargetEditor::edited);
    connect(m_headers, &QTableWidget::itemChanged, this, [this] {
        if (m_loading) return;
        ensureEmptyHeaderRow();
        edited();
    });
    connect(m_bodyMode, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_bodyStack->setCurrentIndex(index);
        edited();
    });
    connect(m_bodyText, &QPlainTextEdit::textChanged, this, &TargetEditor::edited);
    connect(m_verify, &QCheckBox::toggled, this, &TargetEditor::edited);
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
    m_binaryBody = !isText(t.body);
    m_bodyMode->setCurrentIndex(m_binaryBody ? 1 : 0);
    m_bodyStack->setCurrentIndex(m_bodyMode->currentIndex());
    m_bodyText->setPlainText(m_binaryBody ? QString() : f.bodyText);
    m_bodyFile->clear();
    m_bodyFile->setPlaceholderText(m_binaryBody
            ? tr("%1 bytes loaded from a file; choose a file to replace them").arg(t.body.size())
            : tr("file sent as the body"));
    m_verify->setChecked(f.verifyTls);
    m_caFile->setText(f.caFile);
    m_tags->setTags(f.tags);
    m_notes->setText(f.notes);
    m_loading = false;
    check();
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
    f.bodyFromFile = m_bodyMode->currentIndex() == 1;
    f.bodyText = m_bodyText->toPlainText();
    f.bodyFile = m_bodyFile->text();
    if (f.bodyFromFile && m_binaryBody && f.bodyFile.trimmed().isEmpty()) f.bodyFromFile = false; // keep it
    f.verifyTls = m_verify->isChecked();
    f.caFile = m_caFile->text();
    f.tags = m_tags->tags();
    f.notes = m_notes->text();
    return f;
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
    if (m_errors.isEmpty()) {
        if (m_binaryBody && !f.bodyFromFile) edited.body = m_target.body;
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
    setFieldProblem(m_tags->lineEdit(), m_errors.value(QStringLiteral("tags")));
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
        { QStringLiteral("tags"), tr("Tags") } };
    QStringList lines;
    for (auto it = m_errors.cbegin(); it != m_errors.cend(); ++it) {
        const QString label = it.key().startsWith(QStringLiteral("header:"))
            ? tr("Header %1").arg(it.key().mid(7).toInt() + 1)
            : LABELS.value(it.key(), it.key());
        lines << QStringLiteral("%1: %2").arg(label, it.value());
    }
    if (!lines.isEmpty()) {
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_status->setText(lines.join(QLatin1Char('\n')) + tr("\nNot saved; Run is disabled until this is fixed."));
    } else if (!m_saveError.isEmpty()) {
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
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
    if (!isValid()) return false;
    if (!m_dirty) return true;
    if (!m_doc) return false;
    if (sameTarget(m_edited, m_target)) {
        m_dirty = false;
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
    showProblems();
    emit saved(edited.id);
    return true;
}

Target TargetEditor::currentTarget() const
{
    return m_edited;
}

} // namespace wb::ui
