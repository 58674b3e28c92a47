#pragma once
// The session's targets for the targets panel: one row each, in the session's
// order (by name). Kept in sync with the SessionDocument without resets.

#include "models/rowsyncmodel.h"
#include "store/sessiontypes.h"

#include <QPointer>

namespace wb::ui {

class SessionDocument;

class TargetListModel : public RowSyncModel<Target>
{
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        UrlRole,
        TagsRole, ///< QStringList
        ColorRole, ///< QColor: the target's colour everywhere in the UI
        RunCountRole,
    };

    explicit TargetListModel(QObject* parent = nullptr);
    /// Follows doc's targets (null: empty).
    void setDocument(SessionDocument* doc);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    void refresh();

    QPointer<SessionDocument> m_doc;
};

} // namespace wb::ui
