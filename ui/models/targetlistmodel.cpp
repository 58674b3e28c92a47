#include "models/targetlistmodel.h"

#include "charts/comparecharts.h"
#include "session/recordequality.h"
#include "session/sessiondocument.h"

#include <QStringList>

namespace wb::ui {

namespace {
QStringList toStringList(const std::vector<std::string>& items)
{
    QStringList out;
    for (const auto& s : items)
        out << QString::fromStdString(s);
    return out;
}
} // namespace

TargetListModel::TargetListModel(QObject* parent)
    : RowSyncModel<Target>(parent)
{ }

void TargetListModel::setDocument(SessionDocument* doc)
{
    if (m_doc) disconnect(m_doc, nullptr, this, nullptr);
    m_doc = doc;
    if (m_doc) {
        connect(m_doc, &SessionDocument::targetsChanged, this, &TargetListModel::refresh);
        // The run count shown in tooltips follows the runs.
        connect(m_doc, &SessionDocument::runsChanged, this, [this] {
            if (rowCount() > 0)
                emit dataChanged(index(0, 0), index(rowCount() - 1, 0), { RunCountRole, Qt::ToolTipRole });
        });
        connect(m_doc, &SessionDocument::runStored, this, [this](qint64 runId) {
            for (const RunRecord& r : m_doc->runs())
                if (r.id == runId)
                    if (const int row = rowOfId(r.targetId); row >= 0)
                        emit dataChanged(index(row, 0), index(row, 0), { RunCountRole, Qt::ToolTipRole });
        });
    }
    beginResetModel();
    m_rows = m_doc ? m_doc->targets() : std::vector<Target> {};
    endResetModel();
}

void TargetListModel::refresh()
{
    syncRows(m_doc ? m_doc->targets() : std::vector<Target> {}, sameTarget);
}

int TargetListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1;
}

QVariant TargetListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Target& t = record(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return QString::fromStdString(t.name);
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1 %2").arg(QString::fromStdString(t.method), QString::fromStdString(t.url));
        if (!t.tags.empty()) tip += QStringLiteral("\nTags: ") + toStringList(t.tags).join(QStringLiteral(", "));
        if (m_doc) tip += QStringLiteral("\nRuns: %1").arg(m_doc->runCountOf(t.id));
        return tip;
    }
    case Qt::DecorationRole:
    case ColorRole:
        return colorForTarget(t.id);
    case IdRole:
        return QVariant::fromValue<qint64>(t.id);
    case UrlRole:
        return QString::fromStdString(t.url);
    case TagsRole:
        return toStringList(t.tags);
    case RunCountRole:
        return m_doc ? m_doc->runCountOf(t.id) : 0;
    default:
        return {};
    }
}

QHash<int, QByteArray> TargetListModel::roleNames() const
{
    auto names = QAbstractTableModel::roleNames();
    names[IdRole] = "targetId";
    names[UrlRole] = "url";
    names[TagsRole] = "tags";
    names[ColorRole] = "color";
    names[RunCountRole] = "runCount";
    return names;
}

} // namespace wb::ui
