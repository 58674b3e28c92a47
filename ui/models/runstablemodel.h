#pragma once
// The runs history: one row per run in the session, oldest first (views sort).
// Display text is formatted; SortRole holds the raw value (numbers sort as
// numbers, NaN "unknown" values sort first). Notes are editable in place.
// Errors and Non-2xx are counted apart, as in the Live header and Compare: a
// run against a target answering 404 has non-2xx responses, not errors.

#include "models/rowsyncmodel.h"
#include "store/sessiontypes.h"

#include <QPointer>

namespace wb::ui {

class SessionDocument;

class RunsTableModel : public RowSyncModel<RunRecord>
{
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        TargetColumn,
        TagsColumn,
        StartedColumn,
        StatusColumn,
        LoadColumn,
        RequestsPerSColumn,
        P50Column,
        P99Column,
        ErrorsColumn, ///< socket, TLS and parse errors: every error kind but non-2xx/3xx responses
        Non2xxColumn, ///< complete responses with a status outside 2xx/3xx
        SloColumn, ///< the run's SLO verdicts at a glance: "✓ 3/3", "✗ 1 of 3 failed" (empty without SLOs)
        OriginColumn,
        NotesColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, ///< raw value: number, ms timestamp or text
        RunIdRole,
        TargetIdRole,
        TagsRole, ///< QStringList: the run's tags and its target's
        StatusRole, ///< "completed", "imported", ...
        SearchTextRole, ///< everything the text filter matches against
    };

    explicit RunsTableModel(QObject* parent = nullptr);
    void setDocument(SessionDocument* doc);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    /// Every tag used by a run or its target, sorted.
    QStringList allTags() const;
    /// Tags of row's run and its target.
    QStringList tagsOf(const RunRecord& run) const;

    /// What the Errors column counts: everything that went wrong except non-2xx/3xx responses.
    static uint64_t errorsOf(const RunTotals& totals) { return totals.errors.transportErrors(); }
    /// What the Non-2xx column counts.
    static uint64_t non2xxOf(const RunTotals& totals) { return totals.non2xx; }

private:
    void refresh();
    QVariant displayOf(const RunRecord& run, int column) const;
    QVariant sortValueOf(const RunRecord& run, int column) const;

    QPointer<SessionDocument> m_doc;
};

} // namespace wb::ui
