#pragma once
// Sorting and filtering over RunsTableModel: a free-text filter (every word
// must appear somewhere in the row: target, tags, status, notes, URL...), and
// a tag filter (the run or its target carries the tag).

#include <QSortFilterProxyModel>

namespace wb::ui {

class RunsFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RunsFilterModel(QObject* parent = nullptr);

    void setText(const QString& text);
    QString text() const { return m_words.join(QLatin1Char(' ')); }
    /// Empty: no tag filter.
    void setTag(const QString& tag);
    QString tag() const { return m_tag; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QStringList m_words;
    QString m_tag;
};

} // namespace wb::ui
