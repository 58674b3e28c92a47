#pragma once
// How the comparison table looks, shared by the Compare tab and the PNG
// report: section rows spanning the table, the baseline column shaded, Δ %
// cells tinted green or red.

#include <QImage>
#include <QStyledItemDelegate>

class QTableView;

namespace wb::ui {

class CompareModel;

class CompareDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

/// Headers, delegate, selection and sizes of a comparison table.
void setupCompareTable(QTableView* view);
/// Section rows span every column (call after each model reset).
void applyCompareSpans(QTableView* view, const CompareModel* model);
/// The whole table (no scroll bars), at least minWidth wide, on white.
QImage renderCompareTable(CompareModel* model, int minWidth);

} // namespace wb::ui
