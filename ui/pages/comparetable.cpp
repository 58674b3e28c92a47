#include "pages/comparetable.h"

#include "models/comparemodel.h"

#include <QHeaderView>
#include <QPainter>
#include <QTableView>

namespace wb::ui {

void CompareDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QRect cell = option.rect;
    if (index.data(CompareModel::IsSectionRole).toBool()) {
        painter->fillRect(cell, option.palette.color(QPalette::AlternateBase).darker(104));
        painter->save();
        painter->setPen(option.palette.color(QPalette::Mid));
        painter->drawLine(cell.topLeft(), cell.topRight());
        painter->restore();
    } else if (index.column() == CompareModel::valueColumn(0)) {
        QColor shade = option.palette.color(QPalette::Highlight);
        shade.setAlphaF(0.07f);
        painter->fillRect(cell, shade);
    } else if (index.data(CompareModel::IsDeltaRole).toBool()) {
        const QVariant fg = index.data(Qt::ForegroundRole);
        if (fg.canConvert<QColor>()) {
            QColor tint = fg.value<QColor>();
            tint.setAlphaF(0.12f);
            painter->fillRect(cell.adjusted(2, 2, -2, -2), tint);
        }
    }
    QStyledItemDelegate::paint(painter, option, index);
}

void setupCompareTable(QTableView* view)
{
    view->setItemDelegate(new CompareDelegate(view));
    view->setSelectionMode(QAbstractItemView::NoSelection);
    view->setFocusPolicy(Qt::NoFocus);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(22);
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setMinimumSectionSize(70);
}

void applyCompareSpans(QTableView* view, const CompareModel* model)
{
    view->clearSpans();
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, 0).data(CompareModel::IsSectionRole).toBool() && model->columnCount() > 1)
            view->setSpan(row, 0, 1, model->columnCount());
}

QImage renderCompareTable(CompareModel* model, int minWidth)
{
    QTableView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    setupCompareTable(&view);
    view.setModel(model);
    applyCompareSpans(&view, model);
    view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setFrameShape(QFrame::NoFrame);
    QPalette palette = view.palette();
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::AlternateBase, QColor(0xf4, 0xf5, 0xf7));
    palette.setColor(QPalette::Text, QColor(0x20, 0x20, 0x20));
    view.setPalette(palette);
    view.resize(minWidth, 400);
    view.show(); // not on screen (WA_DontShowOnScreen), but laid out, so the header knows its height
    view.resizeColumnsToContents();
    int width = 0;
    for (int c = 0; c < model->columnCount(); ++c)
        width += view.columnWidth(c);
    // Wider than needed: the metric column takes the rest.
    if (width < minWidth && model->columnCount() > 0) {
        view.horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
        view.setColumnWidth(0, view.columnWidth(0) + minWidth - width);
        width = minWidth;
    }
    int height = view.horizontalHeader()->sizeHint().height();
    for (int r = 0; r < model->rowCount(); ++r)
        height += view.rowHeight(r);
    view.resize(width, height);
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::white);
    view.render(&image);
    view.hide();
    return image;
}

} // namespace wb::ui
