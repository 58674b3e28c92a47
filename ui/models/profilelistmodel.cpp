#include "models/profilelistmodel.h"

#include "session/recordequality.h"
#include "session/sessiondocument.h"
#include "session/sessionseed.h"
#include "text/format.h"

#include <QFont>

namespace wb::ui {

ProfileListModel::ProfileListModel(QObject* parent)
    : RowSyncModel<LoadProfile>(parent)
{
    m_rows = all();
}

void ProfileListModel::setDocument(SessionDocument* doc)
{
    if (m_doc) disconnect(m_doc, nullptr, this, nullptr);
    m_doc = doc;
    if (m_doc) connect(m_doc, &SessionDocument::profilesChanged, this, &ProfileListModel::refresh);
    beginResetModel();
    m_rows = all();
    endResetModel();
}

std::vector<LoadProfile> ProfileListModel::all() const
{
    std::vector<LoadProfile> rows = presetProfiles();
    if (m_doc) rows.insert(rows.end(), m_doc->profiles().begin(), m_doc->profiles().end());
    return rows;
}

void ProfileListModel::refresh()
{
    syncRows(all(), sameProfile);
}

void ProfileListModel::setModifiedId(int64_t id)
{
    if (id == m_modifiedId) return;
    const int64_t before = m_modifiedId;
    m_modifiedId = id;
    for (const int64_t changed : { before, id })
        if (const int row = changed ? rowOfId(changed) : -1; row >= 0)
            emit dataChanged(index(row, 0), index(row, 0), { Qt::DisplayRole });
}

int ProfileListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1;
}

QVariant ProfileListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const LoadProfile& p = record(index.row());
    switch (role) {
    case Qt::DisplayRole:
        // What Run will use is not the profile as chosen: the combo says so.
        if (p.id == m_modifiedId && p.id != 0) return tr("%1 (modified)").arg(QString::fromStdString(p.name));
        return QString::fromStdString(p.name);
    case Qt::EditRole:
        return QString::fromStdString(p.name);
    case Qt::ToolTipRole:
        return (p.id < 0 ? QStringLiteral("Preset: ") : QStringLiteral("Session profile: ")) + describeLoad(p.load);
    case Qt::FontRole:
        if (p.id < 0) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    case IdRole:
        return QVariant::fromValue<qint64>(p.id);
    case IsPresetRole:
        return p.id < 0;
    case LoadTextRole:
        return describeLoad(p.load);
    default:
        return {};
    }
}

} // namespace wb::ui
