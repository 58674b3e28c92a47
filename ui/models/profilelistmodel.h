#pragma once
// Load profiles for the toolbar combo and the profile editor: the shipped
// presets (negative ids, not stored) first, then the session's profiles.

#include "models/rowsyncmodel.h"
#include "store/sessiontypes.h"

#include <QPointer>

namespace wb::ui {

class SessionDocument;

class ProfileListModel : public RowSyncModel<LoadProfile>
{
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        IsPresetRole,
        LoadTextRole, ///< "-t2 -c50 -d10s"
    };

    explicit ProfileListModel(QObject* parent = nullptr);
    void setDocument(SessionDocument* doc);

    /// The profile (by id) whose fields were changed since it was chosen: it reads "Default (modified)";
    /// 0: none.
    void setModifiedId(int64_t id);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    std::vector<LoadProfile> all() const;
    void refresh();

    QPointer<SessionDocument> m_doc;
    int64_t m_modifiedId = 0;
};

} // namespace wb::ui
