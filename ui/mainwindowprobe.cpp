// MainWindow: the target probe, on its own (the Probe dialog) and before a run
// (a failed pre-run probe asks whether to run anyway).
#include "mainwindow.h"
#include "pages/probedialog.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "run/runsession.h"

#include <QAction>
#include <QMessageBox>
#include <QPushButton>

namespace wb::ui {

bool MainWindow::probeTarget()
{
    if (!m_probeAction->isEnabled()) return false;
    m_targets->editor()->commit(); // probe what the session holds, as Run does
    if (!m_probeDialog) m_probeDialog = new ProbeDialog(this);
    m_probeDialog->probe(m_targets->editor()->currentTarget());
    m_probeDialog->show();
    m_probeDialog->raise();
    m_probeDialog->activateWindow();
    return true;
}

void MainWindow::askRunAnyway(const RunOutcome& outcome)
{
    if (m_probeFailedBox) m_probeFailedBox->close();
    RunPlan plan = m_run->plan();
    const QString name = QString::fromStdString(plan.target.name);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("The target did not answer"),
        tr("The probe of “%1” failed: %2").arg(name, outcome.error), QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("probeFailedBox"));
    box->setInformativeText(
        tr("No load was sent. Run anyway? The run then starts with its own check (name resolution, a connection, "
           "the TLS handshake) and is stored whatever happens."));
    QPushButton* runAnyway = box->addButton(tr("Run anyway"), QMessageBox::AcceptRole);
    QPushButton* cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_probeFailedBox = box;
    connect(box, &QMessageBox::finished, this, [this, box, runAnyway, plan]() mutable {
        if (m_probeFailedBox == box) m_probeFailedBox = nullptr;
        if (box->clickedButton() != runAnyway) {
            showMessage(tr("Run cancelled: the target did not answer the probe"));
            return;
        }
        plan.probeFirst = false;
        if (m_run->start(plan))
            showMessage(tr("Running %1 without a probe…").arg(QString::fromStdString(plan.target.url)));
    });
    box->open(); // window-modal, without a nested event loop: drains and redraws go on
}

} // namespace wb::ui
