#include "pages/probedialog.h"

#include "charts/probewaterfall.h"
#include "pages/probedetails.h"
#include "remote/agentprobe.h"
#include "text/format.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace wb::ui {

ProbeDialog::ProbeDialog(QWidget* parent)
    : QDialog(parent)
    , m_title(new QLabel(this))
    , m_served(new QLabel(this))
    , m_busy(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_waterfall(new ProbeWaterfall(this))
    , m_details(new QTextBrowser(this))
    , m_again(new QPushButton(tr("Probe &again"), this))
    , m_copy(new QPushButton(tr("Copy as &JSON"), this))
{
    m_waterfall->setObjectName(QStringLiteral("waterfall"));
    setObjectName(QStringLiteral("ProbeDialog"));
    setWindowTitle(tr("Probe"));
    setSizeGripEnabled(true);
    resize(760, 680);

    m_title->setTextFormat(Qt::RichText);
    m_title->setObjectName(QStringLiteral("probeTitle"));
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_served->setObjectName(QStringLiteral("probeServed"));
    m_served->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_served->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_busy->setRange(0, 0); // indeterminate while the request is on its way
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);
    m_status->setObjectName(QStringLiteral("probeStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_details->setObjectName(QStringLiteral("probeDetails"));
    m_details->setOpenLinks(false);
    m_details->setMinimumHeight(180);
    m_copy->setToolTip(tr("Copy every field of the probe as JSON (as wrkbench-cli probe --json)"));

    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_busy);
    statusRow->addWidget(m_status, 1);

    auto* timing = new QGroupBox(tr("Where the time went"), this);
    auto* timingLayout = new QVBoxLayout(timing);
    timingLayout->addWidget(m_waterfall);
    auto* details = new QGroupBox(tr("Connection and response"), this);
    auto* detailsLayout = new QVBoxLayout(details);
    detailsLayout->addWidget(m_details);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_again, QDialogButtonBox::ActionRole);
    buttons->addButton(m_copy, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_again, &QPushButton::clicked, this, [this] {
        if (m_from)
            probe(m_target, *m_from);
        else
            probe(m_target);
    });
    connect(m_copy, &QPushButton::clicked, this, &ProbeDialog::copyJson);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_served);
    layout->addLayout(statusRow);
    layout->addWidget(timing);
    layout->addWidget(details, 1);
    layout->addWidget(buttons);
}

ProbeDialog::~ProbeDialog() = default; // a task still probing is a child: its destructor cancels and joins

void ProbeDialog::probe(const Target& target, const AgentEndpoint& from)
{
    dropTask();
    m_from = from;
    setTarget(target);
    m_status->setText(tr("Probing from %1…").arg(QString::fromStdString(from.name)));
    m_busy->show();
    m_waterfall->clear(tr("Probing…"));
    m_details->clear();
    m_copy->setEnabled(false);

    m_remote = new AgentProbe(this);
    connect(m_remote, &AgentProbe::finished, this, qOverload<const ProbeOutcome&>(&ProbeDialog::showOutcome));
    m_remote->start(target, from);
}

void ProbeDialog::probe(const Target& target)
{
    dropTask();
    m_from.reset();
    setTarget(target);
    m_status->setText(tr("Probing…"));
    m_busy->show();
    m_waterfall->clear(tr("Probing…"));
    m_details->clear();
    m_copy->setEnabled(false);

    m_task = new ProbeTask(this);
    connect(m_task, &ProbeTask::finished, this, qOverload<const ProbeOutcome&>(&ProbeDialog::showOutcome));
    m_task->start(target);
}

void ProbeDialog::dropTask()
{
    if (m_remote) {
        // Cancelled at once (an aborted reply), its answer no longer wanted.
        disconnect(m_remote, nullptr, this, nullptr);
        m_remote->cancel();
        m_remote->deleteLater();
        m_remote = nullptr;
    }
    if (!m_task) return;
    // The old probe's answer is no longer wanted; the task goes once its thread has ended.
    disconnect(m_task, nullptr, this, nullptr);
    if (m_task->isRunning()) {
        m_task->cancel();
        connect(m_task, &ProbeTask::finished, m_task, &QObject::deleteLater);
    } else {
        m_task->deleteLater();
    }
    m_task = nullptr;
}

void ProbeDialog::setTarget(const Target& target)
{
    m_target = target;
    m_outcome = {};
    const QString name = QString::fromStdString(target.name);
    const QString method = QString::fromStdString(target.method.empty() ? std::string("GET") : target.method);
    setWindowTitle(tr("Probe — %1").arg(name));
    QString title
        = QStringLiteral("<b>%1</b>&nbsp;&nbsp;%2 %3")
              .arg(name.toHtmlEscaped(), method.toHtmlEscaped(), QString::fromStdString(target.url).toHtmlEscaped());
    // A script or a mix decides what a run sends. Here the probe runs the script's setup(), init()
    // and request() once and sends the first request a run sends; one request cannot stand for a
    // mix, nor a script on a remote loader (which runs no code of ours), and then the probe says
    // what it sends instead of passing for the run's request.
    QString note;
    if (!target.script.empty() && !m_from)
        note = tr("The probe sends the first request a run sends: its script (%1) runs setup(), init() and "
                  "request() once to make it.")
                   .arg(QString::fromStdString(target.script));
    else if (!target.script.empty() || !target.requestMix.empty())
        note = tr("The probe sends this request; a run sends what %1 makes of it (method, path, "
                  "headers, body may differ).")
                   .arg(!target.script.empty()
                           ? tr("its script (%1)").arg(QString::fromStdString(target.script))
                           : tr("its request mix (%1)").arg(QString::fromStdString(target.requestMix)));
    if (!note.isEmpty()) title += QStringLiteral("<br><span style='color:#b26a00'>%1</span>").arg(note.toHtmlEscaped());
    m_title->setText(title);
    m_served->hide();
    m_status->setStyleSheet(QString());
}

void ProbeDialog::showOutcome(const Target& target, const ProbeOutcome& outcome)
{
    dropTask();
    setTarget(target);
    showOutcome(outcome);
}

bool ProbeDialog::isProbing() const
{
    return (m_task && m_task->isRunning()) || (m_remote && m_remote->isRunning());
}

void ProbeDialog::showOutcome(const ProbeOutcome& outcome)
{
    m_outcome = outcome;
    m_busy->hide();
    if (outcome.cancelled) {
        m_status->setText(tr("Cancelled"));
        m_waterfall->clear(tr("Cancelled"));
    } else if (!outcome.ok) {
        m_status->setStyleSheet(errorLabelStyle());
        m_status->setText(outcome.error);
        if (!outcome.probedFrom.isEmpty()) {
            m_served->setText(tr("probed from %1").arg(outcome.probedFrom));
            m_served->show();
        }
        m_waterfall->clear(tr("No answer"));
    } else {
        const ProbeResult& r = outcome.result;
        const QString status
            = QString::fromStdString(r.statusLine.empty() ? std::to_string(r.statusCode) : r.statusLine);
        m_status->setText(
            tr("<b>%1</b> in %2")
                .arg(status.toHtmlEscaped(), ProbeWaterfall::formatPhaseMs(static_cast<double>(r.totalUs) / 1000.0)));
        m_waterfall->setPhases(waterfallPhases(r), static_cast<double>(r.totalUs) / 1000.0);
        m_details->setHtml(probeDetailsHtml(r));
        m_copy->setEnabled(true);
        // A built-in target's URL says "builtin": show where the request really went, and from where.
        QStringList served;
        if (!outcome.probedFrom.isEmpty()) served << tr("probed from %1").arg(outcome.probedFrom);
        const QString method = QString::fromStdString(r.method);
        const QString targetMethod = QString::fromStdString(m_target.method.empty() ? "GET" : m_target.method);
        if (QString::fromStdString(r.url) != QString::fromStdString(m_target.url) || method != targetMethod)
            served << tr("sent %1 %2").arg(method, QString::fromStdString(r.url));
        m_served->setText(served.join(QStringLiteral(" · ")));
        m_served->setVisible(!served.isEmpty());
    }
    emit probeFinished(outcome);
}

QString ProbeDialog::statusText() const
{
    return m_status->text();
}

QString ProbeDialog::detailsText() const
{
    return m_details->toPlainText();
}

void ProbeDialog::copyJson()
{
    if (m_outcome.ok) QApplication::clipboard()->setText(QString::fromStdString(m_outcome.result.toJsonText()));
}

void ProbeDialog::done(int result)
{
    if (m_task && m_task->isRunning()) m_task->cancel();
    if (m_remote) m_remote->cancel();
    QDialog::done(result);
}

} // namespace wb::ui
