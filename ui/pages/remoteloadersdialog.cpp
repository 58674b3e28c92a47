#include "pages/remoteloadersdialog.h"

#include "agent/channel/agentanswer.h"
#include "pages/dialogs.h"
#include "pages/fieldstate.h"
#include "text/format.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>

namespace wb::ui {

namespace {
const QString OK_MARK = QStringLiteral("✔");

QString durationText(qint64 seconds)
{
    if (seconds <= 0) return QObject::tr("none");
    if (seconds % 3600 == 0) return QStringLiteral("%1h").arg(seconds / 3600);
    if (seconds % 60 == 0) return QStringLiteral("%1m").arg(seconds / 60);
    return QStringLiteral("%1s").arg(seconds);
}
} // namespace

RemoteLoadersDialog::RemoteLoadersDialog(RemoteLoaderRegistry registry, QWidget* parent)
    : QDialog(parent)
    , m_registry(std::move(registry))
    , m_list(m_registry.loaders())
{
    setObjectName(QStringLiteral("RemoteLoadersDialog"));
    setWindowTitle(tr("Remote loaders"));
    build();
    for (const AgentEndpoint& loader : m_list)
        m_names->addItem(QString::fromStdString(loader.name));
    select(m_list.isEmpty() ? -1 : 0);
}

void RemoteLoadersDialog::build()
{
    m_names = new QListWidget(this);
    m_names->setObjectName(QStringLiteral("loaderList"));
    m_names->setMaximumWidth(180);
    m_add = new QPushButton(tr("&Add"), this);
    m_remove = new QPushButton(tr("&Remove"), this);
    connect(m_add, &QPushButton::clicked, this, &RemoteLoadersDialog::addLoader);
    connect(m_remove, &QPushButton::clicked, this, &RemoteLoadersDialog::removeCurrent);
    connect(m_names, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_loading && row != m_row) select(row);
    });

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("loaderName"));
    m_name->setPlaceholderText(QStringLiteral("vm1"));
    m_name->setToolTip(tr("What the load profile's Loaders field says: remote vm1, vm2"));
    m_address = new QLineEdit(this);
    m_address->setObjectName(QStringLiteral("loaderAddress"));
    m_address->setPlaceholderText(QStringLiteral("10.20.0.5:7450"));
    m_address->setToolTip(tr("Where `wrkbench-cli agent --listen` listens: HOST:PORT, [::1]:7450 for IPv6. "
                             "Through `ssh -L 7450:127.0.0.1:7450 vm`: 127.0.0.1:7450"));
    m_fingerprint = new QLineEdit(this);
    m_fingerprint->setObjectName(QStringLiteral("loaderFingerprint"));
    m_fingerprint->setPlaceholderText(tr("pinned on the first Test connection"));
    m_fingerprint->setToolTip(tr("The SHA-256 fingerprint of the agent's certificate, as it prints it at start "
                                 "(hex, with or without colons). Only that certificate is trusted."));
    m_token = new QLineEdit(this);
    m_token->setObjectName(QStringLiteral("loaderToken"));
    m_token->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_token->setToolTip(tr("The agent's bearer token (its state dir's file 'token'). Kept in a file readable by "
                           "you only (%1), never in a session file.")
                            .arg(RemoteLoaderRegistry::tokenFilePath()));
    for (QLineEdit* edit : { m_name, m_address, m_fingerprint, m_token })
        connect(edit, &QLineEdit::textEdited, this, &RemoteLoadersDialog::edited);

    m_test = new QPushButton(tr("&Test connection"), this);
    m_test->setObjectName(QStringLiteral("testConnection"));
    m_test->setToolTip(tr("GET /v1/health with the token: checks TLS (the pinned certificate), the token, "
                          "and shows the agent's version, allowed targets and limits"));
    connect(m_test, &QPushButton::clicked, this, &RemoteLoadersDialog::testConnection);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("loaderProblem"));
    m_problem->setStyleSheet(errorLabelStyle());
    m_problem->setWordWrap(true);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("testResult"));
    m_result->setTextFormat(Qt::RichText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setWordWrap(true);
    m_result->setMinimumHeight(120);
    m_result->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    auto* listButtons = new QHBoxLayout;
    listButtons->addWidget(m_add);
    listButtons->addWidget(m_remove);
    auto* left = new QVBoxLayout;
    left->addWidget(m_names, 1);
    left->addLayout(listButtons);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("&Name"), m_name);
    form->addRow(tr("A&ddress"), m_address);
    form->addRow(tr("&Fingerprint"), m_fingerprint);
    form->addRow(tr("T&oken"), m_token);
    auto* right = new QVBoxLayout;
    right->addLayout(form);
    right->addWidget(m_problem);
    right->addWidget(m_test, 0, Qt::AlignLeft);
    right->addWidget(m_result, 1);

    auto* columns = new QHBoxLayout;
    columns->addLayout(left);
    columns->addLayout(right, 1);

    auto* note = new QLabel(tr("A remote loader is `wrkbench-cli agent` on a loader VM (docs/AGENT.md). "
                               "A load profile uses them with Loaders: <code>remote vm1, vm2</code>."),
        this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &RemoteLoadersDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);
    resize(720, 420);
}

QList<AgentEndpoint> RemoteLoadersDialog::othersThan(int row) const
{
    QList<AgentEndpoint> out = m_list;
    if (row >= 0 && row < out.size()) out.removeAt(row);
    return out;
}

void RemoteLoadersDialog::select(int row)
{
    if (m_call) m_call->abort(); // its answer is about the entry left
    m_row = row >= 0 && row < m_list.size() ? row : -1;
    m_loading = true;
    m_names->setCurrentRow(m_row);
    m_loading = false;
    setResult({}, false);
    showCurrent();
}

void RemoteLoadersDialog::showCurrent()
{
    m_loading = true;
    const AgentEndpoint loader = m_row >= 0 ? m_list[m_row] : AgentEndpoint {};
    m_name->setText(QString::fromStdString(loader.name));
    m_address->setText(QString::fromStdString(loader.address));
    m_fingerprint->setText(displayFingerprint(QString::fromStdString(loader.fingerprint)));
    m_token->setText(QString::fromStdString(loader.token));
    m_loading = false;
    updateState();
}

void RemoteLoadersDialog::addLoader()
{
    AgentEndpoint loader;
    // A free name to start with: vm1, vm2...
    for (int i = 1;; ++i) {
        loader.name = "vm" + std::to_string(i);
        bool taken = false;
        for (const AgentEndpoint& other : m_list)
            taken = taken || other.name == loader.name;
        if (!taken) break;
    }
    loader.address = "127.0.0.1:7450";
    m_list << loader;
    m_names->addItem(QString::fromStdString(loader.name));
    select(static_cast<int>(m_list.size()) - 1);
    m_name->setFocus();
    m_name->selectAll();
}

void RemoteLoadersDialog::removeCurrent()
{
    if (m_row < 0) return;
    const int row = m_row;
    m_list.removeAt(row);
    m_loading = true;
    delete m_names->takeItem(row);
    m_loading = false;
    select(std::min(row, static_cast<int>(m_list.size()) - 1));
}

void RemoteLoadersDialog::edited()
{
    if (m_loading || m_row < 0) return;
    AgentEndpoint& loader = m_list[m_row];
    loader.name = m_name->text().trimmed().toStdString();
    loader.address = m_address->text().trimmed().toStdString();
    // Kept as typed until it is a fingerprint; the field's mark says what is wrong meanwhile.
    loader.fingerprint = normalizeFingerprint(m_fingerprint->text()).value_or(m_fingerprint->text()).toStdString();
    loader.token = m_token->text().trimmed().toStdString();
    m_names->item(m_row)->setText(QString::fromStdString(loader.name));
    updateState();
}

void RemoteLoadersDialog::updateState()
{
    const bool has = m_row >= 0;
    for (QWidget* w : std::initializer_list<QWidget*> { m_name, m_address, m_fingerprint, m_token, m_remove })
        w->setEnabled(has);
    QString problem;
    if (has) problem = remoteLoaderProblem(m_list[m_row], othersThan(m_row));
    m_problem->setText(problem);
    setFieldProblem(m_name, problem.startsWith(tr("Name")) ? problem : QString());
    setFieldProblem(m_address, problem.startsWith(tr("Address")) ? problem : QString());
    setFieldProblem(m_fingerprint, problem.startsWith(tr("Fingerprint")) ? problem : QString());
    setFieldProblem(m_token, problem.startsWith(tr("Token")) ? problem : QString());
    m_test->setEnabled(has && problem.isEmpty() && !m_call);
}

void RemoteLoadersDialog::testConnection()
{
    if (m_row < 0 || m_call || !remoteLoaderProblem(m_list[m_row], othersThan(m_row)).isEmpty()) return;
    m_call = new AgentCall(m_list[m_row], this);
    const int row = m_row;
    connect(m_call, &AgentCall::finished, this, [this, row](const AgentAnswer& answer) {
        m_call->deleteLater();
        m_call = nullptr;
        updateState();
        if (!answer.cancelled && row == m_row) showAnswer(answer);
        emit testFinished(answer);
    });
    setResult(tr("Testing %1…").arg(QString::fromStdString(m_list[m_row].address).toHtmlEscaped()), false);
    m_call->get(QStringLiteral("/v1/health"));
    updateState();
}

void RemoteLoadersDialog::showAnswer(const AgentAnswer& answer)
{
    AgentEndpoint& entry = m_list[m_row];
    // As the dialog's sentences use them.
    const struct
    {
        QString name, address, fingerprint;
    } loader { QString::fromStdString(entry.name), QString::fromStdString(entry.address),
        QString::fromStdString(entry.fingerprint) };
    const QString presented = displayFingerprint(answer.peerFingerprint);
    switch (answer.trust) {
    case AgentAnswer::Trust::Changed:
        // Loud, and nothing changes: the user must clear the pin on purpose to accept a new certificate.
        setResult(tr("✘ The certificate CHANGED. Pinned: %1<br>Presented: %2<br>Refused; nothing was sent.")
                      .arg(displayFingerprint(loader.fingerprint), presented),
            true);
        showError(this, tr("The certificate of %1 changed").arg(loader.name),
            tr("The agent at %1 presented a certificate that is not the one pinned for “%2”.\n\n"
               "Pinned:    %3\nPresented: %4\n\n"
               "Someone may be intercepting the connection, or the agent got a new certificate (a new state "
               "dir). Nothing was sent. If you know why it changed, compare the new fingerprint with what the "
               "agent printed at start, clear the Fingerprint field and test again to pin it.")
                .arg(loader.address, loader.name, displayFingerprint(loader.fingerprint), presented));
        return;
    case AgentAnswer::Trust::NotPinned: {
        setResult(tr("The certificate is not pinned yet. SHA-256: %1").arg(presented), false);
        const bool pin = confirm(this, tr("Pin the certificate of %1?").arg(loader.name),
            tr("%1 presents a certificate with the SHA-256 fingerprint\n\n%2\n\n"
               "Compare it with what the agent printed at start (journalctl -u wrkbench-agent, or its terminal). "
               "Pin it? From then on only this certificate is trusted for “%3”.")
                .arg(loader.address, presented, loader.name),
            tr("Pin and test again"));
        if (!pin) {
            setResult(tr("Not pinned: the certificate presented (SHA-256 %1) is not trusted.").arg(presented), true);
            return;
        }
        entry.fingerprint = answer.peerFingerprint.toStdString();
        showCurrent();
        testConnection(); // now with the pin: TLS, token and the agent's answer
        return;
    }
    case AgentAnswer::Trust::Unknown:
        setResult(tr("✘ %1").arg(answer.error.toHtmlEscaped()), true);
        return;
    case AgentAnswer::Trust::Pinned:
        break;
    }
    const QString tls = tr("%1 TLS ok: the pinned certificate (SHA-256 %2)").arg(OK_MARK, presented);
    if (answer.status == 401) {
        setResult(tls + QStringLiteral("<br>") + tr("✘ token refused (401): check the token"), true);
        return;
    }
    if (!answer.ok()) {
        setResult(tls + QStringLiteral("<br>✘ ") + answer.error.toHtmlEscaped(), true);
        return;
    }
    const auto health
        = parseAgentHealth(std::string_view(answer.body.constData(), static_cast<size_t>(answer.body.size())));
    if (!health) {
        setResult(tls + QStringLiteral("<br>") + tr("✘ the answer is not a wrkbench agent's"), true);
        return;
    }
    QStringList lines;
    lines << tls;
    lines << tr("%1 token ok").arg(OK_MARK);
    lines << tr("agent %1 on %2, %3")
                 .arg(QString::fromStdString(health->version).toHtmlEscaped(),
                     QString::fromStdString(health->host).toHtmlEscaped(),
                     health->busy ? tr("<b>busy</b> (a run is going)") : tr("idle"));
    QStringList allow;
    for (const std::string& allowed : health->allow)
        allow << QString::fromStdString(allowed);
    lines << tr("allowed targets: %1")
                 .arg(allow.isEmpty() ? tr("<b>none</b> (start it with --allow)")
                                      : allow.join(QStringLiteral(", ")).toHtmlEscaped());
    lines << tr("longest run: %1").arg(durationText(static_cast<qint64>(health->maxDurationS)));
    lines << tr("clock: %1").arg(QString::fromStdString(health->clock).toHtmlEscaped());
    setResult(lines.join(QStringLiteral("<br>")), false);
}

void RemoteLoadersDialog::setResult(const QString& html, bool error)
{
    m_result->setStyleSheet(error ? errorLabelStyle() : QString());
    m_result->setText(html);
}

QString RemoteLoadersDialog::resultText() const
{
    QTextDocument doc;
    doc.setHtml(m_result->text());
    return doc.toPlainText();
}

void RemoteLoadersDialog::accept()
{
    for (int i = 0; i < m_list.size(); ++i) {
        if (const QString problem = remoteLoaderProblem(m_list[i], othersThan(i)); !problem.isEmpty()) {
            select(i);
            return; // the form shows what is wrong
        }
    }
    m_registry.setLoaders(m_list);
    if (Status saved = m_registry.save(); !saved) {
        showError(this, tr("The remote loaders were not saved"), QString::fromStdString(saved.error()));
        return;
    }
    QDialog::accept();
}

} // namespace wb::ui
