#include "models/runsfiltermodel.h"

#include "models/runstablemodel.h"

#include <cmath>

namespace wb::ui {

RunsFilterModel::RunsFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RunsTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void RunsFilterModel::setText(const QString& text)
{
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words) return;
    m_words = words;
    invalidateRowsFilter();
}

void RunsFilterModel::setTag(const QString& tag)
{
    if (tag == m_tag) return;
    m_tag = tag;
    invalidateRowsFilter();
}

bool RunsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_tag.isEmpty()) {
        const QStringList tags = index.data(RunsTableModel::TagsRole).toStringList();
        if (!tags.contains(m_tag, Qt::CaseInsensitive)) return false;
    }
    if (m_words.isEmpty()) return true;
    const QString text = index.data(RunsTableModel::SearchTextRole).toString();
    for (const QString& word : m_words)
        if (!text.contains(word, Qt::CaseInsensitive)) return false;
    return true;
}

bool RunsFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    // Unknown numbers (runs still going, failed runs) sort before every number.
    if (a.typeId() == QMetaType::Double && b.typeId() == QMetaType::Double) {
        const double x = a.toDouble();
        const double y = b.toDouble();
        if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && !std::isnan(y);
        return x < y;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace wb::ui
