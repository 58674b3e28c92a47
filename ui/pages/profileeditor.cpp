#include "pages/profileeditor.h"

#include "pages/dialogs.h"
#include "pages/fieldstate.h"
#include "parse/stageparse.h"
#include "session/recordequality.h"
#include "session/sessiondocument.h"
#include "text/format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStringListModel>

namespace wb::ui {

namespace {
struct FieldSpec
{
    const char* key;
    const char* label;
    const char* tip;
};
constexpr FieldSpec FIELDS[] = {
    { "threads", "Threads", "Worker threads, one event loop each (wrk -t)" },
    { "connections", "Connections", "Connections kept open, spread over the threads (wrk -c); 10k works" },
    { "duration", "Duration", "Measured duration: 30s, 2m, 500ms (wrk -d)" },
    { "warmup", "Warm-up", "Load sent before measuring; nothing from it is recorded" },
    { "timeout", "Timeout", "Per-request timeout; a timed-out connection is counted and replaced" },
    { "pipeline", "Pipelining", "HTTP/1.1 requests in flight per connection" },
    { "streams", "Streams", "HTTP/2 streams in flight per connection (h2load's -m); HTTP/1.1 targets ignore it" },
    { "rate", "Rate (req/s)",
        "Requests per second over all connections: an open model, latency corrected for "
        "coordinated omission (wrk2 -R)" },
    { "stages", "Stages", "Ramps: 10s:1000,30s:5000,10s:0 (rates) or 10s:50c,30s:200c (connections)" },
    { "loaders", "Loaders",
        "Where the load is made: 1 (this process), 4 (four child processes, merged into one run), or "
        "8 kubernetes namespace=load image=REG/wrkbench-cli:0.1.0 (an Indexed Job with your kubectl; also "
        "context=, cpu=, memory=). See docs/DISTRIBUTED.md; or remote vm1, vm2 (one loader on each remote "
        "loader of File → Loaders…, docs/AGENT.md)" },
    { "interval", "Chart interval", "How often the live charts get a point (100ms or more); also the stored series" },
    { "slo", "SLOs",
        "Thresholds each run is judged by, separated by commas: p99<250ms, errors<0.1%, rps>5000, non2xx<1%, "
        "ttfb_p99<100ms, connect_p99<5ms, tls_p99<20ms, service_p99<50ms (constant rate). Each run shows "
        "pass or fail per SLO" },
    { "backend_from", "Backends",
        "Which backend answered each response (docs/BACKENDS.md): body (the first line, as serve_hostname "
        "answers), header:NAME, or body-regex:RE; a Backends tab per run and a live strip. Empty: off" },
    { "upstream_time", "Upstream",
        "Split each response's time into the upstream's and the front door's: "
        "header:x-envoy-upstream-service-time (ms), header:X-Upstream-Time:s (nginx), server-timing:NAME. Empty: off" },
};
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
    for (const FieldSpec& spec : FIELDS) {
        auto* edit = new QLineEdit(this);
        edit->setToolTip(tr(spec.tip));
        m_fields.insert(QString::fromLatin1(spec.key), edit);
        form->addRow(tr(spec.label), edit);
        connect(edit, &QLineEdit::textEdited, this, &ProfileEditor::edited);
    }
    m_fields[QStringLiteral("rate")]->setPlaceholderText(QStringLiteral("2000"));
    m_fields[QStringLiteral("stages")]->setPlaceholderText(QStringLiteral("10s:1000,30s:5000,10s:0"));
    m_fields[QStringLiteral("slo")]->setPlaceholderText(QStringLiteral("p99<250ms, errors<0.1%"));
    m_fields[QStringLiteral("backend_from")]->setPlaceholderText(QStringLiteral("body"));
    m_fields[QStringLiteral("upstream_time")]->setPlaceholderText(
        QStringLiteral("header:x-envoy-upstream-service-time"));
    m_loaderCompletions = new QStringListModel(this);
    auto* completer = new QCompleter(m_loaderCompletions, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_fields[QStringLiteral("loaders")]->setCompleter(completer);
    m_sloAbort = new QCheckBox(tr("Abort when an error budget is spent"), this);
    m_sloAbort->setObjectName(QStringLiteral("sloAbortBox"));
    m_sloAbort->setToolTip(tr("Stop the run once an errors or non-2xx SLO can no longer be met (checked after 5 s "
                              "of measurement), as wrkbench-cli --slo-abort"));
    form->addRow(m_sloAbort); // the whole row: its text is wider than the fields
    connect(m_sloAbort, &QCheckBox::toggled, this, &ProfileEditor::edited);
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
    QString tip;
    for (const FieldSpec& spec : FIELDS)
        if (QLatin1String(spec.key) == QLatin1String("loaders")) tip = tr(spec.tip);
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
    m_fields[QStringLiteral("threads")]->setText(f.threads);
    m_fields[QStringLiteral("connections")]->setText(f.connections);
    m_fields[QStringLiteral("duration")]->setText(f.duration);
    m_fields[QStringLiteral("warmup")]->setText(f.warmup);
    m_fields[QStringLiteral("timeout")]->setText(f.timeout);
    m_fields[QStringLiteral("pipeline")]->setText(f.pipeline);
    m_fields[QStringLiteral("streams")]->setText(f.streams);
    m_fields[QStringLiteral("interval")]->setText(f.interval);
    m_fields[QStringLiteral("rate")]->setText(f.rate);
    m_fields[QStringLiteral("stages")]->setText(f.stages);
    m_fields[QStringLiteral("slo")]->setText(f.slos);
    m_fields[QStringLiteral("loaders")]->setText(f.loaders);
    m_fields[QStringLiteral("backend_from")]->setText(f.backendFrom);
    m_fields[QStringLiteral("upstream_time")]->setText(f.upstreamTime);
    m_sloAbort->setChecked(f.sloAbort);
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
    f.threads = m_fields[QStringLiteral("threads")]->text();
    f.connections = m_fields[QStringLiteral("connections")]->text();
    f.duration = m_fields[QStringLiteral("duration")]->text();
    f.warmup = m_fields[QStringLiteral("warmup")]->text();
    f.timeout = m_fields[QStringLiteral("timeout")]->text();
    f.pipeline = m_fields[QStringLiteral("pipeline")]->text();
    f.streams = m_fields[QStringLiteral("streams")]->text();
    f.interval = m_fields[QStringLiteral("interval")]->text();
    f.rate = m_fields[QStringLiteral("rate")]->text();
    f.stages = m_fields[QStringLiteral("stages")]->text();
    f.slos = m_fields[QStringLiteral("slo")]->text();
    f.loaders = m_fields[QStringLiteral("loaders")]->text();
    f.backendFrom = m_fields[QStringLiteral("backend_from")]->text();
    f.upstreamTime = m_fields[QStringLiteral("upstream_time")]->text();
    f.sloAbort = m_sloAbort->isChecked();
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
    for (const FieldSpec& spec : FIELDS)
        if (const QString key = QString::fromLatin1(spec.key); m_errors.contains(key))
            lines << QStringLiteral("%1: %2").arg(tr(spec.label), m_errors.value(key));
    for (auto it = m_errors.cbegin(); it != m_errors.cend(); ++it)
        if (!m_fields.contains(it.key()))
            lines << (it.key() == QLatin1String("form") ? it.value()
                                                        : QStringLiteral("%1: %2").arg(it.key(), it.value()));
    if (!lines.isEmpty()) {
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
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
