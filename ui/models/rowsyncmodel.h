#pragma once
// A table model over a vector of records with an `id`, brought up to date by
// syncRows() with the smallest set of remove/move/insert/change notifications.
// Reloading the session after every external write then keeps the views'
// selection, current row and scroll position.

#include <QAbstractTableModel>
#include <algorithm>
#include <functional>
#include <vector>

namespace wb::ui {

template<typename T> class RowSyncModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }
    /// The record of row, which must be valid.
    const T& record(int row) const { return m_rows[static_cast<size_t>(row)]; }
    const std::vector<T>& records() const { return m_rows; }
    /// The row of the record with that id, or -1.
    int rowOfId(int64_t id) const
    {
        for (size_t i = 0; i < m_rows.size(); ++i)
            if (m_rows[i].id == id) return static_cast<int>(i);
        return -1;
    }

protected:
    void syncRows(std::vector<T> next, const std::function<bool(const T&, const T&)>& same)
    {
        auto inNext = [&](int64_t id) {
            return std::any_of(next.begin(), next.end(), [id](const T& r) { return r.id == id; });
        };
        for (int row = rowCount() - 1; row >= 0; --row) {
            if (inNext(m_rows[static_cast<size_t>(row)].id)) continue;
            beginRemoveRows({}, row, row);
            m_rows.erase(m_rows.begin() + row);
            endRemoveRows();
        }
        for (size_t i = 0; i < next.size(); ++i) {
            const int row = static_cast<int>(i);
            const int found = rowOfId(next[i].id);
            if (found < 0) {
                beginInsertRows({}, row, row);
                m_rows.insert(m_rows.begin() + row, std::move(next[i]));
                endInsertRows();
                continue;
            }
            if (found != row) {
                // Qt's move destination is the row before which the moved row lands (before the move).
                beginMoveRows({}, found, found, {}, row);
                T moved = std::move(m_rows[static_cast<size_t>(found)]);
                m_rows.erase(m_rows.begin() + found);
                m_rows.insert(m_rows.begin() + row, std::move(moved));
                endMoveRows();
            }
            if (!same(m_rows[i], next[i])) {
                m_rows[i] = std::move(next[i]);
                emit dataChanged(index(row, 0), index(row, columnCount() - 1));
            }
        }
    }

    /// One record added or replaced: a replaced row changes in place, a new one is
    /// inserted at rowIfNew (clamped to the rows there are).
    void putRow(T record, int rowIfNew)
    {
        if (const int found = rowOfId(record.id); found >= 0) {
            m_rows[static_cast<size_t>(found)] = std::move(record);
            emit dataChanged(index(found, 0), index(found, columnCount() - 1));
            return;
        }
        const int row = std::clamp(rowIfNew, 0, rowCount());
        beginInsertRows({}, row, row);
        m_rows.insert(m_rows.begin() + row, std::move(record));
        endInsertRows();
    }

    std::vector<T> m_rows;
};

} // namespace wb::ui
