#include "pages/tagedit.h"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QToolButton>

namespace wb::ui {

TagEdit::TagEdit(QWidget* parent)
    : QWidget(parent)
    , m_chips(new QHBoxLayout)
    , m_edit(new QLineEdit(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    m_chips->setSpacing(4);
    layout->addLayout(m_chips);
    layout->addWidget(m_edit, 1);
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
    while (QLayoutItem* item = m_chips->takeAt(0)) {
        // Later: rebuild() runs inside a chip's own clicked() signal.
        if (QWidget* w = item->widget()) {
            w->hide();
            w->deleteLater();
        }
        delete item;
    }
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
        m_chips->addWidget(chip);
    }
}

} // namespace wb::ui
