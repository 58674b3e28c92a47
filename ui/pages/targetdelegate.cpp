#include "pages/targetdelegate.h"

#include "models/targetlistmodel.h"

#include <QApplication>
#include <QPainter>

namespace wb::ui {

namespace {
constexpr int PAD = 6;
constexpr int DOT = 10;
} // namespace

QSize TargetDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const
{
    const QFontMetrics fm(option.font);
    return { 200, 2 * fm.height() + 3 * PAD };
}

void TargetDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    opt.icon = QIcon();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // selection and focus background

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const bool selected = option.state & QStyle::State_Selected;
    const QPalette::ColorGroup group = option.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    const QColor text = option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    QColor dim = text;
    dim.setAlphaF(0.6f);

    const QRect r = option.rect.adjusted(PAD, PAD, -PAD, -PAD);
    QFont bold = option.font;
    bold.setBold(true);
    const QFontMetrics fm(option.font);
    const int line1 = r.top();
    const int line2 = r.top() + fm.height() + PAD / 2;

    const QColor color = index.data(TargetListModel::ColorRole).value<QColor>();
    // A light ring keeps the dot visible on the selection colour.
    painter->setPen(selected ? QPen(option.palette.color(QPalette::HighlightedText), 1.5) : QPen(Qt::NoPen));
    painter->setBrush(color);
    painter->drawEllipse(QRect(r.left(), line1 + (fm.height() - DOT) / 2, DOT, DOT));

    const int textLeft = r.left() + DOT + PAD;
    painter->setFont(bold);
    painter->setPen(text);
    const QString name = QFontMetrics(bold).elidedText(index.data().toString(), Qt::ElideRight, r.right() - textLeft);
    painter->drawText(QRect(textLeft, line1, r.right() - textLeft, fm.height()), Qt::AlignVCenter, name);

    // Tags as chips, then the URL in what is left.
    QFont small = option.font;
    small.setPointSizeF(option.font.pointSizeF() * 0.85);
    painter->setFont(small);
    const QFontMetrics sfm(small);
    int x = textLeft;
    for (const QString& tag : index.data(TargetListModel::TagsRole).toStringList()) {
        const int w = sfm.horizontalAdvance(tag) + 10;
        if (x + w > r.right() - 40) break;
        const QRect chip(x, line2 + 1, w, fm.height() - 2);
        QColor fill = color;
        fill.setAlphaF(selected ? 0.45f : 0.18f);
        painter->setPen(Qt::NoPen);
        painter->setBrush(fill);
        painter->drawRoundedRect(chip, 6, 6);
        painter->setPen(text);
        painter->drawText(chip, Qt::AlignCenter, tag);
        x += w + 4;
    }
    painter->setPen(dim);
    const QString url = sfm.elidedText(index.data(TargetListModel::UrlRole).toString(), Qt::ElideMiddle, r.right() - x);
    painter->drawText(QRect(x, line2, r.right() - x, fm.height()), Qt::AlignVCenter, url);
    painter->restore();
}

} // namespace wb::ui
