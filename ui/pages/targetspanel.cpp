#include "pages/targetspanel.h"

#include "models/targetlistmodel.h"
#include "pages/dialogs.h"
#include "pages/targetdelegate.h"
#include "pages/targeteditor.h"
#include "session/sessiondocument.h"
#include "text/format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QScrollArea>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace wb::ui {

namespace {
QToolButton* toolButton(QWidget* parent, const QString& text, const QString& tip)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}
} // namespace

TargetsPanel::TargetsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new TargetListModel(this))
    , m_list(new QListView(this))
    , m_editor(new TargetEditor(this))
{
    m_list->setObjectName(QStringLiteral("list"));
    m_add = toolButton(this, QStringLiteral("+"), tr("Add a target (Ctrl+T)"));
    m_duplicate = toolButton(this, tr("Copy"), tr("Duplicate the selected target"));
    m_delete = toolButton(this, QStringLiteral("−"), tr("Delete the selected target and its runs"));
    m_probe
        = toolButton(this, tr("Probe"), tr("Probe the selected target: one request, timed phase by phase (Ctrl+P)"));
    m_probe->setObjectName(QStringLiteral("probeTargetButton"));

    // The dock's title already says "Targets": only the buttons here.
    auto* header = new QHBoxLayout;
    header->setContentsMargins(6, 2, 2, 0);
    header->addWidget(m_probe);
    header->addStretch();
    header->addWidget(m_add);
    header->addWidget(m_duplicate);
    header->addWidget(m_delete);

    m_list->setModel(m_model);
    m_list->setItemDelegate(new TargetDelegate(m_list));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setUniformItemSizes(true);
    m_list->setMinimumHeight(120);
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    topLayout->addLayout(header);
    topLayout->addWidget(m_list, 1);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_editor);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(scroll);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_add, &QToolButton::clicked, this, &TargetsPanel::addTarget);
    connect(m_duplicate, &QToolButton::clicked, this, &TargetsPanel::duplicateTarget);
    connect(m_delete, &QToolButton::clicked, this, &TargetsPanel::deleteTarget);
    connect(m_probe, &QToolButton::clicked, this, &TargetsPanel::probeRequested);
    connect(m_list, &QWidget::customContextMenuRequested, this, &TargetsPanel::showContextMenu);
    connect(m_editor, &TargetEditor::validityChanged, this, &TargetsPanel::updateButtons);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, &TargetsPanel::currentChanged);
    // A row removed under the selection (a deletion, another process) moves the current row: follow it.
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &TargetsPanel::currentChanged);
    updateButtons();
}

void TargetsPanel::setDocument(SessionDocument* doc)
{
    m_doc = doc;
    m_model->setDocument(doc);
    m_editor->setDocument(doc);
    selectTarget(0);
    updateButtons();
}

int64_t TargetsPanel::currentTargetId() const
{
    const QModelIndex current = m_list->currentIndex();
    return current.isValid() ? current.data(TargetListModel::IdRole).toLongLong() : 0;
}

void TargetsPanel::selectTarget(int64_t id)
{
    int row = id ? m_model->rowOfId(id) : -1;
    if (row < 0 && m_model->rowCount() > 0) row = 0;
    if (row < 0) {
        m_list->setCurrentIndex({});
        currentChanged();
        return;
    }
    m_list->setCurrentIndex(m_model->index(row, 0));
    m_list->scrollTo(m_model->index(row, 0)); // a new target at the end of a long list is seen
    currentChanged();
}

void TargetsPanel::currentChanged()
{
    const int64_t id = currentTargetId();
    if (id == 0 && m_model->rowCount() > 0) {
        m_list->setCurrentIndex(m_model->index(0, 0));
        return; // currentChanged() again from the selection model
    }
    m_editor->setTargetId(id);
    updateButtons();
    emit currentTargetChanged(id);
}

void TargetsPanel::setBusyTargetId(int64_t id)
{
    if (id == m_busyTargetId) return;
    m_busyTargetId = id;
    updateButtons();
}

void TargetsPanel::updateButtons()
{
    const bool writable = m_doc && !m_doc->isReadOnly();
    const bool busy = currentTargetId() != 0 && currentTargetId() == m_busyTargetId;
    m_add->setEnabled(writable);
    m_duplicate->setEnabled(writable && currentTargetId() != 0);
    m_delete->setEnabled(writable && currentTargetId() != 0 && !busy);
    m_delete->setToolTip(busy ? tr("A run of this target is in progress: stop it (Esc) before deleting the target")
                              : tr("Delete the selected target and its runs"));
    m_probe->setEnabled(currentTargetId() != 0 && m_editor->isValid());
}

void TargetsPanel::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_list->indexAt(pos);
    if (index.isValid()) m_list->setCurrentIndex(index);
    if (currentTargetId() == 0) return;
    QMenu menu(this);
    menu.addAction(tr("Probe"), QKeySequence(Qt::CTRL | Qt::Key_P), this, &TargetsPanel::probeRequested)
        ->setEnabled(m_probe->isEnabled());
    menu.addAction(tr("Run over HTTP/1.1 and HTTP/2, then compare"), this, &TargetsPanel::bothProtocolsRequested)
        ->setEnabled(m_probe->isEnabled());
    menu.addSeparator();
    menu.addAction(tr("Duplicate"), this, &TargetsPanel::duplicateTarget)->setEnabled(m_duplicate->isEnabled());
    menu.addAction(tr("Delete…"), this, &TargetsPanel::deleteTarget)->setEnabled(m_delete->isEnabled());
    menu.exec(m_list->viewport()->mapToGlobal(pos));
}

int64_t TargetsPanel::addTarget()
{
    if (!m_doc) return 0;
    Target t;
    t.name = m_doc->uniqueTargetName("New target");
    t.url = "http://builtin/";
    auto id = m_doc->addTarget(t);
    if (!id) {
        emit message(tr("Could not add a target: %1").arg(QString::fromStdString(id.error())));
        return 0;
    }
    selectTarget(*id);
    m_editor->nameEdit()->setFocus();
    m_editor->nameEdit()->selectAll();
    return *id;
}

int64_t TargetsPanel::duplicateTarget()
{
    const Target* source = m_doc ? m_doc->targetById(currentTargetId()) : nullptr;
    if (!source) return 0;
    m_editor->commit();
    Target copy = *m_doc->targetById(currentTargetId());
    copy.name = m_doc->uniqueTargetName(copy.name + " copy");
    auto id = m_doc->addTarget(copy);
    if (!id) {
        emit message(tr("Could not duplicate the target: %1").arg(QString::fromStdString(id.error())));
        return 0;
    }
    selectTarget(*id);
    return *id;
}

QString TargetsPanel::deleteRefusal(int64_t id) const
{
    const Target* t = m_doc ? m_doc->targetById(id) : nullptr;
    const QString name = t ? QString::fromStdString(t->name) : QString();
    if (id == m_busyTargetId)
        return tr("'%1' is being run right now: stop the run (Esc) before deleting the target").arg(name);
    // Runs recorded by other processes (wrkbench-cli, another window, an experiment). Runs left
    // 'running' by a process that died are recovered first, so that they do not block for ever.
    SessionStore& store = m_doc->store();
    if (auto recovered = store.recoverDeadRuns(); recovered && !recovered->empty()) m_doc->reload();
    RunFilter filter;
    filter.status = RunStatus::Running;
    if (auto running = store.runs().list(filter))
        for (const RunRecord& run : *running)
            if (run.targetId == id) {
                const QString where
                    = run.hostName.empty() ? QString() : tr(" on %1").arg(QString::fromStdString(run.hostName));
                return tr("A run of '%1' is being recorded right now (run #%2%3): delete the target once it has "
                          "ended")
                    .arg(name)
                    .arg(run.id)
                    .arg(where);
            }
    return {};
}

bool TargetsPanel::deleteTarget()
{
    const Target* t = m_doc ? m_doc->targetById(currentTargetId()) : nullptr;
    if (!t) return false;
    if (const QString refusal = deleteRefusal(t->id); !refusal.isEmpty()) {
        emit message(refusal);
        return false;
    }
    t = m_doc->targetById(currentTargetId()); // the check may have reloaded the session
    if (!t) return false;
    const int runs = m_doc->runCountOf(t->id);
    const QString name = QString::fromStdString(t->name);
    const QString text = runs == 0 ? tr("Delete the target '%1'?").arg(name)
                                   : tr("Delete the target '%1' and its %2? This cannot be undone.")
                                         .arg(name, countText(runs, "stored run", "stored runs"));
    const int64_t id = t->id;
    // A run of it that begins while the question is open (wrkbench-cli, an experiment) is
    // refused by the store itself, in the delete's transaction.
    if (!confirm(this, tr("Delete target"), text, tr("Delete"))) return false;
    const int row = m_model->rowOfId(id);
    if (wb::Status st = m_doc->deleteTarget(id); !st) {
        emit message(tr("Could not delete the target: %1").arg(QString::fromStdString(st.error())));
        return false;
    }
    if (m_model->rowCount() > 0)
        selectTarget(m_model->record(std::min(row, m_model->rowCount() - 1)).id);
    else
        selectTarget(0);
    emit message(tr("Deleted the target '%1'").arg(name));
    return true;
}

} // namespace wb::ui
