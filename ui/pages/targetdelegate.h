#pragma once
// Two-line target entries: a dot in the target's colour and its name, then its
// tags as small chips and the URL, greyed.

#include <QStyledItemDelegate>

namespace wb::ui {

class TargetDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace wb::ui
