#include "pages/profileeditor.h"

#include "pages/dialogs.h"
#include "pages/fieldstate.h"
#include "parse/stageparse.h"
#include "session/recordequality.h"
#include "session/sessiondocument.h"
#include "settings/runsettings.h"
#include "text/format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStringListModel>

namespace wb::ui {

namespace {

QString keyOf(const RunSetting& setting)
{
    return QString::fromLatin1(setting.key.data(), static_cast<qsizetype>(setting.key.size()));
}

QString textOf(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace

ProfileEditor::ProfileEditor(QWidget* parent)
    : QWidget(parent)
{
    build();
    m_saveTimer.setSingleShot(true);
    m_saveTimer.setInterval(SAVE_DELAY_MS);
    connect(&m_saveTimer, &QTimer::timeout, this, &ProfileEditor::commit);
}

void ProfileEditor::build()
{
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("modeCombo"));
    m_mode->addItems({ tr("Closed loop (as wrk)"), tr("Constant rate (open model)"), tr("Stages (ramps)") });
    m_mode->setToolTip(tr("Closed loop: each connection sends when its last answer arrived.\n"
                          "Constant rate: requests follow a schedule, latency is corrected (wrk2).\n"
                          "Stages: ramps of rate or of connections."));
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Mode"), m_mode);
    // One field per load setting the window shows (settings/runsettings.h): its label, its help as
    // the tooltip, an example where it is empty by default. The details of protocols and timing
    // go under "More settings", folded away.
    m_more = new QGroupBox(tr("More settings"), this);
    m_more->setObjectName(QStringLiteral("moreSettings"));
    m_more->setCheckable(true);
    m_more->setChecked(false);
    m_more->setToolTip(tr("Source addresses, HTTP/2 flow control and header table, the send spin, the backends kept"));
    auto* moreFields = new QWidget(m_more);
    auto* moreForm = new QFormLayout(moreFields);
    moreForm->setContentsMargins(0, 0, 0, 0);
    moreForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* moreLayout = new QVBoxLayout(m_more);
    moreLayout->addWidget(moreFields);
    for (const RunSetting& setting : runSettings()) {
        if (setting.label.empty()) continue;
        QFormLayout* into = setting.advanced ? moreForm : form;
        if (setting.flag) {
            auto* box = new QCheckBox(textOf(setting.label), this);
            // "slo_abort" -> "sloAbortBox"
            QString name;
            bool upper = false;
            for (const QChar c : keyOf(setting)) {
                if (c == QLatin1Char('_')) {
                    upper = true;
                    continue;
                }
                name += upper ? c.toUpper() : c;
                upper = false;
            }
            box->setObjectName(name + QStringLiteral("Box"));
            box->setToolTip(textOf(setting.help));
            m_flags.insert(keyOf(setting), box);
            into->addRow(box); // the whole row: its text is wider than the fields
            connect(box, &QCheckBox::toggled, this, &ProfileEditor::edited);
            continue;
        }
        auto* edit = new QLineEdit(this);
        edit->setToolTip(textOf(setting.help));
        if (!setting.example.empty()) edit->setPlaceholderText(textOf(setting.example));
        m_fields.insert(keyOf(setting), edit);
        into->addRow(textOf(setting.label), edit);
        connect(edit, &QLineEdit::textEdited, this, &ProfileEditor::edited);
    }
    // Folded unless a profile sets one of them (load() opens it): nothing set hides there.
    connect(m_more, &QGroupBox::toggled, moreFields, &QWidget::setVisible);
    moreFields->setVisible(false);
    form->addRow(m_more);
    m_loaderCompletions = new QStringListModel(this);
    auto* completer = new QCompleter(m_loaderCompletions, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_fields[QStringLiteral("loaders")]->setCompleter(completer);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        updateModeFields();
        edited();
    });

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setWordWrap(true);
    m_saveAs = new QPushButton(tr("Save as…"), this);
    m_saveAs->setToolTip(tr("Keep this load as a named profile in the session"));
    m_delete = new QPushButton(tr("Delete"), this);
    m_delete->setToolTip(tr("Delete this profile from the session (its runs keep their configuration)"));
    connect(m_saveAs, &QPushButton::clicked, this, &ProfileEditor::askSaveAs);
    connect(m_delete, &QPushButton::clicked, this, &ProfileEditor::deleteCurrent);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_saveAs);
    buttons->addWidget(m_delete);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_title);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    layout->addStretch();
}

void ProfileEditor::setDocument(SessionDocument* doc)
{
    if (m_dirty) commit(); // into the session the edits belong to
    m_dirty = false;
    m_doc = doc;
}

QLineEdit* ProfileEditor::field(const QString& name) const
{
    return m_fields.value(name);
}

void ProfileEditor::setRemoteLoaderNames(const QStringList& names)
{
    QStringList completions;
    for (const QString& name : names)
        completions << QStringLiteral("remote ") + name;
    if (names.size() > 1) completions << QStringLiteral("remote ") + names.join(QStringLiteral(", "));
    m_loaderCompletions->setStringList(completions);
    QString tip = textOf(findRunSetting("loaders")->help);
    tip += names.isEmpty() ? tr("\nNo remote loaders yet: File → Loaders… adds them.")
                           : tr("\nRemote loaders: %1").arg(names.join(QStringLiteral(", ")));
    setFieldToolTip(m_fields[QStringLiteral("loaders")], tip);
}

void ProfileEditor::setProfile(const LoadProfile& profile)
{
    if (m_dirty) commit();
    m_saveTimer.stop();
    m_dirty = false;
    load(profile);
}

void ProfileEditor::load(const LoadProfile& profile)
{
    m_loading = true;
    m_profile = profile;
    m_edited = profile.load;
    const ProfileForm f = profileFormOf(profile.load);
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        it.value()->setText(f.value(it.key()));
    for (auto it = m_flags.cbegin(); it != m_flags.cend(); ++it)
        it.value()->setChecked(f.value(it.key()) == QLatin1String("true"));
    // What is set among the folded settings opens them.
    bool moreSet = false;
    for (const RunSetting& setting : runSettings())
        if (setting.advanced && !setting.label.empty() && !setting.isDefault(profile.load)) moreSet = true;
    m_more->setChecked(moreSet);
    m_mode->setCurrentIndex(static_cast<int>(f.mode));
    updateModeFields();
    m_loading = false;
    m_delete->setEnabled(profile.id > 0 && m_doc && !m_doc->isReadOnly());
    check();
}

void ProfileEditor::updateTitle()
{
    const QString name = QString::fromStdString(m_profile.name).toHtmlEscaped();
    // Run uses the fields, not the profile as chosen: the title says so where the name is.
    const QString shown = isModified() ? tr("%1 (modified)").arg(name) : name;
    m_title->setText(m_profile.id < 0 ? tr("<b>%1</b><br><small>preset: edits are used by Run but not saved; "
                                           "“Save as…” keeps them</small>")
                                            .arg(shown)
                                      : tr("<b>%1</b><br><small>session profile: edits are saved</small>").arg(shown));
    if (const bool modified = isModified(); modified != m_wasModified) {
        m_wasModified = modified;
        emit modifiedChanged(modified);
    }
}

void ProfileEditor::showStagesDerivedFields()
{
    if (static_cast<ProfileForm::Mode>(m_mode->currentIndex()) != ProfileForm::Mode::Stages) return;
    auto plan = parseStages(m_fields[QStringLiteral("stages")]->text().trimmed().toStdString());
    QLineEdit* connections = m_fields[QStringLiteral("connections")];
    connections->setEnabled(!plan || !plan->connections);
    if (!plan) return;
    RunConfig sent;
    sent.stages = plan->stages;
    sent.stagesAreConnections = plan->connections;
    sent.threads = m_edited.threads;
    sent = sent.normalized();
    const bool wasLoading = m_loading;
    m_loading = true;
    if (const QString d = durationText(sent.durationUs); m_fields[QStringLiteral("duration")]->text() != d)
        m_fields[QStringLiteral("duration")]->setText(d);
    if (plan->connections && connections->text() != QString::number(sent.connections))
        connections->setText(QString::number(sent.connections));
    m_loading = wasLoading;
}

ProfileForm ProfileEditor::form() const
{
    ProfileForm f;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        f.values[it.key()] = it.value()->text();
    for (auto it = m_flags.cbegin(); it != m_flags.cend(); ++it)
        f.values[it.key()] = it.value()->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    f.mode = static_cast<ProfileForm::Mode>(m_mode->currentIndex());
    return f;
}

void ProfileEditor::updateModeFields()
{
    const auto mode = static_cast<ProfileForm::Mode>(m_mode->currentIndex());
    m_fields[QStringLiteral("rate")]->setEnabled(mode == ProfileForm::Mode::ConstantRate);
    m_fields[QStringLiteral("stages")]->setEnabled(mode == ProfileForm::Mode::Stages);
    m_fields[QStringLiteral("duration")]->setEnabled(mode != ProfileForm::Mode::Stages);
    m_fields[QStringLiteral("connections")]->setEnabled(true); // connection stages disable it
    showStagesDerivedFields();
}

void ProfileEditor::edited()
{
    if (m_loading) return;
    m_dirty = true;
    check();
    if (!isValid()) return;
    emit loadChanged();
    if (m_profile.id > 0) m_saveTimer.start();
}

void ProfileEditor::check()
{
    const bool wasValid = isValid();
    RunConfig load = m_profile.load;
    m_errors = checkProfileForm(form(), &load);
    if (m_errors.isEmpty()) m_edited = load;
    if (m_errors.isEmpty() && !m_edited.stages.empty()) {
        const QString duration = m_fields[QStringLiteral("duration")]->text();
        const QString connections = m_fields[QStringLiteral("connections")]->text();
        showStagesDerivedFields();
        // Stored as shown: the fields the stages set are checked again with what they show now.
        if (duration != m_fields[QStringLiteral("duration")]->text()
            || connections != m_fields[QStringLiteral("connections")]->text()) {
            load = m_profile.load;
            m_errors = checkProfileForm(form(), &load);
            if (m_errors.isEmpty()) m_edited = load;
        }
    }
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        setFieldProblem(it.value(), it.value()->isEnabled() ? m_errors.value(it.key()) : QString());
    // In the order of the form, each under the label the user sees there.
    QStringList lines;
    for (const RunSetting& setting : runSettings())
        if (const QString key = keyOf(setting); m_errors.contains(key))
            lines << QStringLiteral("%1: %2").arg(textOf(setting.label), m_errors.value(key));
    for (auto it = m_errors.cbegin(); it != m_errors.cend(); ++it)
        if (!m_fields.contains(it.key()) && !m_flags.contains(it.key()))
            lines << (it.key() == QLatin1String("form") ? it.value()
                                                        : QStringLiteral("%1: %2").arg(it.key(), it.value()));
    if (!lines.isEmpty()) {
        m_status->setStyleSheet(errorTextStyle());
        m_status->setText(lines.join(QLatin1Char('\n')) + tr("\nRun is disabled until this is fixed."));
    } else {
        m_status->setStyleSheet(QString());
        m_status->setText(QStringLiteral("<small>%1</small>").arg(describeLoad(m_edited).toHtmlEscaped()));
    }
    m_saveAs->setEnabled(isValid() && m_doc && !m_doc->isReadOnly());
    updateTitle();
    if (wasValid != isValid()) emit validityChanged(isValid());
}

LoadProfile ProfileEditor::currentProfile() const
{
    LoadProfile p = m_profile;
    p.load = m_edited;
    return p;
}

bool ProfileEditor::isModified() const
{
    return !sameLoad(m_edited, m_profile.load);
}

bool ProfileEditor::commit()
{
    m_saveTimer.stop();
    if (!isValid()) return false;
    if (m_profile.id <= 0 || !m_dirty || !m_doc) return true;
    m_dirty = false;
    if (!isModified()) return true;
    LoadProfile p = currentProfile();
    if (wb::Status st = m_doc->updateProfile(p); !st) {
        m_dirty = true;
        emit message(tr("The profile was not saved: %1").arg(QString::fromStdString(st.error())));
        return false;
    }
    m_profile = p;
    updateTitle();
    return true;
}

int64_t ProfileEditor::saveAs(const QString& name)
{
    if (!isValid() || !m_doc || name.trimmed().isEmpty()) return 0;
    LoadProfile p;
    p.name = name.trimmed().toStdString();
    p.load = m_edited;
    auto id = m_doc->addProfile(p);
    if (!id) {
        emit message(tr("The profile was not saved: %1").arg(QString::fromStdString(id.error())));
        return 0;
    }
    emit profileCreated(*id);
    return *id;
}

void ProfileEditor::askSaveAs()
{
    if (!m_doc) return;
    const QString suggestion = QString::fromStdString(m_doc->uniqueProfileName(describeLoad(m_edited).toStdString()));
    bool ok = false;
    const QString name = QInputDialog::getText(
        this, tr("Save load profile"), tr("Name of the profile:"), QLineEdit::Normal, suggestion, &ok);
    if (ok) saveAs(name);
}

void ProfileEditor::deleteCurrent()
{
    if (!m_doc || m_profile.id <= 0) return;
    const QString name = QString::fromStdString(m_profile.name);
    if (!confirm(this, tr("Delete profile"),
            tr("Delete the load profile '%1'? Runs made with it keep their configuration.").arg(name), tr("Delete")))
        return;
    m_dirty = false; // its pending edits go with it
    m_saveTimer.stop();
    if (wb::Status st = m_doc->deleteProfile(m_profile.id); !st)
        emit message(tr("Could not delete the profile: %1").arg(QString::fromStdString(st.error())));
}

} // namespace wb::ui
