#include "pages/tagedit.h"

#include <QLayout>
#include <QLineEdit>
#include <QToolButton>
#include <algorithm>

namespace wb::ui {

namespace {

/// Lays its items out left to right and wraps onto a new line when the next
/// one does not fit; the last item (the line edit) fills the rest of its line
/// and wraps once that rest is narrower than its minimum width. The height
/// follows the width (heightForWidth), so a form row grows as chips wrap.
class ChipFlowLayout : public QLayout
{
public:
    explicit ChipFlowLayout(QWidget* parent)
        : QLayout(parent)
    { }
    ~ChipFlowLayout() override
    {
        while (QLayoutItem* item = takeAt(0))
            delete item;
    }

    void addItem(QLayoutItem* item) override
    {
        m_items.append(item);
        invalidate();
    }
    int count() const override { return static_cast<int>(m_items.size()); }
    QLayoutItem* itemAt(int index) const override { return m_items.value(index); }
    QLayoutItem* takeAt(int index) override
    {
        if (index < 0 || index >= m_items.size()) return nullptr;
        QLayoutItem* item = m_items.takeAt(index);
        invalidate();
        return item;
    }
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
    void setGeometry(const QRect& rect) override
    {
        QLayout::setGeometry(rect);
        arrange(rect, true);
    }
    /// As narrow as the widest item: everything else wraps.
    QSize minimumSize() const override
    {
        QSize size;
        for (const QLayoutItem* item : m_items)
            if (!item->isEmpty()) size = size.expandedTo(item->minimumSize());
        const QMargins m = contentsMargins();
        return size + QSize(m.left() + m.right(), m.top() + m.bottom());
    }
    QSize sizeHint() const override { return minimumSize(); }

private:
    /// Places the items in rect (when apply) and returns the height they need.
    int arrange(const QRect& rect, bool apply) const
    {
        const QRect area = rect.marginsRemoved(contentsMargins());
        const int gap = spacing() >= 0 ? spacing() : 4;
        struct Placed
        {
            QLayoutItem* item;
            QRect geometry;
        };
        QList<Placed> line;
        int x = area.x();
        int y = area.y();
        int lineHeight = 0;
        bool any = false;
        auto endLine = [&] {
            if (line.isEmpty()) return;
            for (const Placed& p : line) {
                QRect g = p.geometry;
                g.moveTop(y + (lineHeight - g.height()) / 2); // chips and the edit share a centre line
                if (apply) p.item->setGeometry(g);
            }
            y += lineHeight + gap;
            x = area.x();
            lineHeight = 0;
            line.clear();
        };
        const int right = area.x() + area.width();
        QLayoutItem* filler = nullptr;
        for (auto it = m_items.crbegin(); it != m_items.crend() && !filler; ++it)
            if (!(*it)->isEmpty()) filler = *it;
        for (QLayoutItem* item : m_items) {
            if (item->isEmpty()) continue;
            any = true;
            const QSize hint = item->sizeHint();
            int width = item == filler ? item->minimumSize().width() : std::min(hint.width(), area.width());
            if (x > area.x() && x + width > right) endLine();
            if (item == filler) width = std::max(width, right - x);
            line.append({ item, QRect(x, y, width, hint.height()) });
            x += width + gap;
            lineHeight = std::max(lineHeight, hint.height());
        }
        endLine();
        const QMargins m = contentsMargins();
        return (any ? y - gap - area.y() : 0) + m.top() + m.bottom();
    }

    QList<QLayoutItem*> m_items;
};

} // namespace

TagEdit::TagEdit(QWidget* parent)
    : QWidget(parent)
    , m_flow(new ChipFlowLayout(this))
    , m_edit(new QLineEdit(this))
{
    m_flow->setContentsMargins(0, 0, 0, 0);
    m_flow->setSpacing(4);
    m_edit->setMinimumWidth(MIN_INPUT_WIDTH);
    m_flow->addWidget(m_edit);
    m_edit->setPlaceholderText(tr("add a tag: NEG, NodePort…"));
    connect(m_edit, &QLineEdit::returnPressed, this, &TagEdit::commitTyped);
    connect(m_edit, &QLineEdit::editingFinished, this, &TagEdit::commitTyped);
    connect(m_edit, &QLineEdit::textEdited, this, [this](const QString& text) {
        if (text.contains(QLatin1Char(','))) commitTyped();
    });
}

void TagEdit::setTags(const QStringList& tags)
{
    if (tags == m_tags) return;
    m_tags = tags;
    rebuild();
}

void TagEdit::commitTyped()
{
    bool changed = false;
    for (const QString& part : m_edit->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString tag = part.trimmed();
        if (tag.isEmpty() || m_tags.contains(tag)) continue;
        m_tags << tag;
        changed = true;
    }
    m_edit->clear();
    if (!changed) return;
    rebuild();
    emit tagsChanged();
}

void TagEdit::rebuild()
{
    for (QWidget* chip : std::as_const(m_chipWidgets)) {
        m_flow->removeWidget(chip);
        // Later: rebuild() runs inside a chip's own clicked() signal.
        chip->hide();
        chip->deleteLater();
    }
    m_chipWidgets.clear();
    m_flow->removeWidget(m_edit); // added again after the chips: the edit stays last
    for (const QString& tag : m_tags) {
        auto* chip = new QToolButton(this);
        chip->setText(tag + QStringLiteral("  ×"));
        chip->setToolTip(tr("Remove the tag '%1'").arg(tag));
        chip->setAutoRaise(false);
        chip->setStyleSheet(QStringLiteral("QToolButton { border: 1px solid palette(mid); border-radius: 9px;"
                                           " padding: 1px 7px; background: palette(alternate-base); }"));
        connect(chip, &QToolButton::clicked, this, [this, tag] {
            m_tags.removeAll(tag);
            rebuild();
            emit tagsChanged();
        });
        m_flow->addWidget(chip);
        m_chipWidgets << chip;
    }
    m_flow->addWidget(m_edit);
    updateGeometry(); // the height for the width may have changed
}

} // namespace wb::ui
