#include "pages/runspage.h"

#include "experiment/study.h"
#include "models/runsfiltermodel.h"
#include "models/runstablemodel.h"
#include "pages/dialogs.h"
#include "session/sessiondocument.h"
#include "store/csvexport.h"
#include "text/format.h"

#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace wb::ui {

namespace {

/// "#3, #4, #7", the first ten.
QString idList(const QList<qint64>& ids)
{
    QStringList names;
    for (qint64 id : ids)
        names << QStringLiteral("#%1").arg(id);
    return names.mid(0, 10).join(QStringLiteral(", ")) + (names.size() > 10 ? QStringLiteral("…") : QString());
}

} // namespace

RunsPage::RunsPage(QWidget* parent)
    : QWidget(parent)
    , m_model(new RunsTableModel(this))
    , m_filter(new RunsFilterModel(this))
    , m_view(new QTableView(this))
{
    m_view->setObjectName(QStringLiteral("view"));
    m_filter->setSourceModel(m_model);

    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("filterEdit"));
    m_text->setPlaceholderText(tr("Filter: target, tag, status, notes, URL… (all words must match)"));
    m_text->setClearButtonEnabled(true);
    m_tag = new QComboBox(this);
    m_tag->setObjectName(QStringLiteral("tagCombo"));
    m_tag->setMinimumContentsLength(12);
    m_tag->setToolTip(tr("Only runs whose target or run carries this tag"));
    m_count = new QLabel(this);
    m_open = new QPushButton(tr("Open"), this);
    m_open->setToolTip(tr("Open the run: charts, summary, status codes, percentiles (double-click)"));
    m_compare = new QPushButton(tr("Compare"), this);
    m_compare->setToolTip(tr("Compare the selected runs side by side (Ctrl+Shift+C); the first is the baseline"));
    m_delete = new QPushButton(tr("Delete…"), this);
    m_tagButton = new QPushButton(tr("Tag…"), this);
    m_tagButton->setToolTip(tr("Add or remove tags on the selected runs, e.g. to group them for a study"));
    m_export = new QPushButton(tr("Export CSV…"), this);
    m_export->setToolTip(tr("The runs shown, as CSV"));
    m_study = new QPushButton(tr("Study…"), this);
    m_study->setObjectName(QStringLiteral("studyButton"));
    m_study->setToolTip(tr("The selected runs as a study: the experiment's table, verdicts and reports, with "
                           "nothing run (groups, variants and the baseline are asked)"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_text, 3);
    bar->addWidget(m_tag, 1);
    bar->addWidget(m_count);
    bar->addStretch();
    bar->addWidget(m_open);
    bar->addWidget(m_compare);
    bar->addWidget(m_tagButton);
    bar->addWidget(m_study);
    bar->addWidget(m_export);
    bar->addWidget(m_delete);

    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RunsTableModel::IdColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Only Notes is editable, so a double-click edits there and opens the run anywhere else.
    m_view->setEditTriggers(
        QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked | QAbstractItemView::DoubleClicked);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(24);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    static const int WIDTHS[RunsTableModel::ColumnCount]
        = { 44, 170, 110, 136, 86, 120, 86, 70, 70, 60, 64, 96, 116, 200 };
    for (int c = 0; c < RunsTableModel::ColumnCount; ++c)
        m_view->setColumnWidth(c, WIDTHS[c]);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_text, &QLineEdit::textChanged, m_filter, &RunsFilterModel::setText);
    connect(
        m_tag, &QComboBox::currentIndexChanged, this, [this] { m_filter->setTag(m_tag->currentData().toString()); });
    // Not QAbstractItemView::activated: desktops that activate items on a single
    // click (KDE) emit it for every click, Ctrl+clicks while selecting runs to
    // compare included. A double-click opens (Enter: see eventFilter()).
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        // doubleClicked comes before the edit trigger: an editable Notes cell is being edited instead.
        if (index.column() == RunsTableModel::NotesColumn && (index.flags() & Qt::ItemIsEditable)) return;
        emit openRequested(index.data(RunsTableModel::RunIdRole).toLongLong());
    });
    m_view->installEventFilter(this);
    connect(m_view, &QTableView::customContextMenuRequested, this, &RunsPage::contextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPage::updateButtons);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRunIds();
        if (!ids.isEmpty()) emit openRequested(ids.first());
    });
    connect(m_compare, &QPushButton::clicked, this, [this] { emit compareRequested(selectedRunIds()); });
    connect(m_delete, &QPushButton::clicked, this, &RunsPage::deleteSelected);
    connect(m_tagButton, &QPushButton::clicked, this, &RunsPage::tagSelected);
    connect(m_study, &QPushButton::clicked, this, &RunsPage::studySelected);
    connect(m_export, &QPushButton::clicked, this, &RunsPage::askExport);
    for (auto signal : { &QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved })
        connect(m_filter, signal, this, [this] {
            updateTags();
            updateButtons();
        });
    connect(m_filter, &QAbstractItemModel::modelReset, this, [this] {
        updateTags();
        updateButtons();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &RunsPage::updateTags);
    updateTags();
    updateButtons();
}

void RunsPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Keyboard first: arrows, Ctrl+A, Enter (open) and Ctrl+Shift+C (compare) work at once.
    m_view->setFocus();
    if (!m_view->currentIndex().isValid() && m_filter->rowCount() > 0)
        m_view->selectionModel()->setCurrentIndex(m_filter->index(0, 0), QItemSelectionModel::NoUpdate);
}

bool RunsPage::eventFilter(QObject* watched, QEvent* event)
{
    // Enter opens the current run. The view would emit activated() for it,
    // which is no longer connected (see the constructor). A key the notes
    // editor did not take reaches the view too: only keys typed in the view
    // itself count, so Enter in the editor still just commits the edit.
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        const Qt::KeyboardModifiers mods = key->modifiers() & ~Qt::KeypadModifier;
        if (enter && mods == Qt::NoModifier && m_view->hasFocus()) {
            QModelIndex index = m_view->currentIndex();
            if (!index.isValid()) {
                const QModelIndexList rows = m_view->selectionModel()->selectedRows();
                if (!rows.isEmpty()) index = rows.first();
            }
            if (index.isValid()) emit openRequested(index.data(RunsTableModel::RunIdRole).toLongLong());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void RunsPage::setDocument(SessionDocument* doc)
{
    m_doc = doc;
    m_model->setDocument(doc);
}

QList<qint64> RunsPage::selectedRunIds() const
{
    QList<qint64> ids;
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    for (const QModelIndex& index : rows)
        ids << index.data(RunsTableModel::RunIdRole).toLongLong();
    return ids;
}

void RunsPage::selectRuns(const QList<qint64>& ids)
{
    QItemSelection selection;
    QModelIndex first;
    for (int row = 0; row < m_filter->rowCount(); ++row) {
        const QModelIndex index = m_filter->index(row, 0);
        if (!ids.contains(index.data(RunsTableModel::RunIdRole).toLongLong())) continue;
        selection.select(index, m_filter->index(row, RunsTableModel::ColumnCount - 1));
        if (!first.isValid()) first = index;
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (first.isValid()) {
        m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
        m_view->scrollTo(first);
    }
}

void RunsPage::updateTags()
{
    const QString current = m_tag->currentData().toString();
    const QStringList tags = m_model->allTags();
    QStringList shown;
    for (int i = 1; i < m_tag->count(); ++i)
        shown << m_tag->itemData(i).toString();
    if (shown != tags || m_tag->count() == 0) {
        const QSignalBlocker block(m_tag);
        m_tag->clear();
        m_tag->addItem(tr("All tags"), QString());
        for (const QString& t : tags)
            m_tag->addItem(t, t);
        const int index = m_tag->findData(current);
        m_tag->setCurrentIndex(index < 0 ? 0 : index);
        if (index < 0) m_filter->setTag({});
    }
    m_count->setText(tr("%1 of %2").arg(m_filter->rowCount()).arg(countText(m_model->rowCount(), "run", "runs")));
}

void RunsPage::updateButtons()
{
    const int n = static_cast<int>(selectedRunIds().size());
    const bool writable = m_doc && !m_doc->isReadOnly();
    m_open->setEnabled(n >= 1);
    m_compare->setEnabled(n >= 2);
    m_compare->setText(n >= 2 ? tr("Compare %1").arg(n) : tr("Compare"));
    m_delete->setEnabled(writable && n >= 1);
    m_tagButton->setEnabled(writable && n >= 1);
    m_study->setEnabled(writable && n >= 2);
    m_export->setEnabled(m_filter->rowCount() > 0);
    m_count->setText(tr("%1 of %2").arg(m_filter->rowCount()).arg(countText(m_model->rowCount(), "run", "runs")));
}

QList<qint64> RunsPage::runningAmong(const QList<qint64>& ids) const
{
    // The document's cached status is enough: a run never goes back to running,
    // so a stale cache can only call a run running that just finished (refused
    // once more), never let a run being recorded through as finished.
    QList<qint64> running;
    if (!m_doc) return running;
    for (const RunRecord& r : m_doc->runs())
        if (r.status == RunStatus::Running && ids.contains(r.id)) running << r.id;
    return running;
}

bool RunsPage::deleteSelected()
{
    const QList<qint64> selected = selectedRunIds();
    if (selected.isEmpty() || !m_doc) return false;
    // A running run is being written by its recorder (this window's live run or
    // a wrkbench-cli): deleting it under the recorder loses the run and makes
    // it report "not stored completely". Such runs are never deleted. With a
    // mix (Ctrl+A during a live run), the finished runs are deleted and the
    // running ones kept, and the question says exactly that before anything
    // happens: Yes deletes only what it lists, No deletes nothing. Refusing the
    // whole selection instead would send the user hunting for one row in a
    // long selection to get what they evidently meant.
    const QList<qint64> running = runningAmong(selected);
    QList<qint64> ids;
    for (qint64 id : selected)
        if (!running.contains(id)) ids << id;
    const QString runningText = running.size() == 1 ? tr("Run %1 is still running").arg(idList(running))
                                                    : tr("Runs %1 are still running").arg(idList(running));
    if (ids.isEmpty()) {
        showError(this, tr("Cannot delete runs"),
            tr("%1: a run cannot be deleted while it is being recorded. Stop it or wait until it finishes, then "
               "delete it.")
                .arg(runningText));
        return false;
    }
    QString text = tr("Delete %1 (%2) with their charts and data? This cannot be undone.")
                       .arg(countText(ids.size(), "run", "runs"), idList(ids));
    if (!running.isEmpty())
        text += QStringLiteral("\n\n")
            + tr("%1 and will be kept: a run cannot be deleted while it is being recorded.").arg(runningText);
    if (!confirm(this, tr("Delete runs"), text, tr("Delete"))) return false;
    std::vector<int64_t> runIds(ids.begin(), ids.end());
    if (wb::Status st = m_doc->deleteRuns(runIds); !st) {
        emit message(tr("Could not delete: %1").arg(QString::fromStdString(st.error())));
        return false;
    }
    emit message(running.isEmpty()
            ? tr("Deleted %1").arg(countText(ids.size(), "run", "runs"))
            : tr("Deleted %1; kept %2 (still running)").arg(countText(ids.size(), "run", "runs"), idList(running)));
    return true;
}

bool RunsPage::tagSelected()
{
    const QList<qint64> ids = selectedRunIds();
    if (ids.isEmpty() || !m_doc) return false;
    QStringList present;
    for (const RunRecord& r : m_doc->runs())
        if (ids.contains(r.id))
            for (const std::string& t : r.tags)
                if (!present.contains(QString::fromStdString(t))) present << QString::fromStdString(t);
    present.sort();
    const auto change = askTagChange(this, tr("Tag %1").arg(countText(ids.size(), "run", "runs")), present);
    if (!change || (change->add.isEmpty() && change->remove.isEmpty())) return false;
    auto toStd = [](const QStringList& l) {
        std::vector<std::string> out;
        for (const QString& s : l)
            out.push_back(s.toStdString());
        return out;
    };
    const std::vector<int64_t> runIds(ids.begin(), ids.end());
    if (wb::Status st = m_doc->changeRunTags(runIds, toStd(change->add), toStd(change->remove)); !st) {
        showError(this, tr("Cannot tag runs"), QString::fromStdString(st.error()));
        return false;
    }
    emit message(tr("Tagged %1").arg(countText(ids.size(), "run", "runs")));
    selectRuns(ids); // the reload keeps the selection where it was
    return true;
}

bool RunsPage::studySelected()
{
    QList<qint64> ids = selectedRunIds();
    if (ids.size() < 2 || !m_doc) return false;
    std::sort(ids.begin(), ids.end());
    // The tags a study can use: the runs' own and their targets'.
    QStringList present;
    auto addTags = [&present](const std::vector<std::string>& tags) {
        for (const std::string& t : tags)
            if (!present.contains(QString::fromStdString(t))) present << QString::fromStdString(t);
    };
    for (const RunRecord& r : m_doc->runs()) {
        if (!ids.contains(r.id)) continue;
        addTags(r.tags);
        for (const Target& t : m_doc->targets())
            if (t.id == r.targetId) addTags(t.tags);
    }
    present.sort();
    const auto choice = askStudyChoice(this, tr("Study from %1").arg(countText(ids.size(), "run", "runs")), present);
    if (!choice) return false;
    auto toStd = [](const QStringList& l) {
        std::vector<std::string> out;
        for (const QString& s : l)
            out.push_back(s.toStdString());
        return out;
    };
    StudySpec spec;
    spec.name = choice->name.toStdString();
    for (qint64 id : ids) {
        spec.runIds.push_back(id);
        spec.runs += (spec.runs.empty() ? "" : ",") + std::to_string(id);
    }
    spec.variantTags = toStd(choice->variantTags);
    spec.groupTags = toStd(choice->groupTags);
    spec.level = studyLevelFromName(choice->level.toStdString()).value_or(StudyLevel::Connections);
    spec.baseline = choice->baseline.toStdString();
    spec.metric = rateMetricFromName(choice->metric.toStdString()).value_or(RateMetric::Total);
    auto id = createStudy(m_doc->store(), spec);
    if (!id) {
        showError(this, tr("Cannot make the study"), QString::fromStdString(id.error()));
        return false;
    }
    m_doc->reload(); // the Experiments tab lists it
    emit message(tr("Study %1 made from %2").arg(*id).arg(countText(ids.size(), "run", "runs")));
    emit studyCreated(*id);
    return true;
}

bool RunsPage::exportCsv(const QString& path, QString* error) const
{
    std::vector<RunRecord> shown;
    for (int row = 0; row < m_filter->rowCount(); ++row)
        shown.push_back(m_model->record(m_filter->mapToSource(m_filter->index(row, 0)).row()));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(QByteArray::fromStdString(runsCsv(shown))) < 0 || !file.flush()) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

void RunsPage::askExport()
{
    const QString path = chooseSaveFile(this, tr("Export runs as CSV"), QStringLiteral("runs.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportCsv(path, &error))
        emit message(tr("Wrote %1").arg(path));
    else
        showError(this, tr("Export failed"), tr("Could not write '%1': %2").arg(path, error));
}

void RunsPage::contextMenu(const QPoint& pos)
{
    QMenu menu(this);
    const int n = static_cast<int>(selectedRunIds().size());
    menu.addAction(tr("Open"), this, [this] { emit openRequested(selectedRunIds().first()); })->setEnabled(n >= 1);
    menu.addAction(tr("Compare selected"), this, [this] { emit compareRequested(selectedRunIds()); })
        ->setEnabled(n >= 2);
    const QModelIndex index = m_view->indexAt(pos);
    if (index.isValid()
        && m_model->flags(m_filter->mapToSource(index.siblingAtColumn(RunsTableModel::NotesColumn)))
            & Qt::ItemIsEditable)
        menu.addAction(tr("Edit notes"), this,
            [this, index] { m_view->edit(index.siblingAtColumn(RunsTableModel::NotesColumn)); });
    menu.addSeparator();
    menu.addAction(tr("Tag…"), this, &RunsPage::tagSelected)->setEnabled(m_tagButton->isEnabled());
    menu.addAction(tr("Study from selected runs…"), this, &RunsPage::studySelected)->setEnabled(n >= 2);
    menu.addAction(tr("Export CSV…"), this, &RunsPage::askExport);
    menu.addAction(tr("Delete…"), this, &RunsPage::deleteSelected)->setEnabled(m_delete->isEnabled());
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace wb::ui
