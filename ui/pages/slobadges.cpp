#include "pages/slobadges.h"

#include "text/slotext.h"

#include <QHBoxLayout>
#include <QLabel>

namespace wb::ui {

SloBadges::SloBadges(QWidget* parent)
    : QWidget(parent)
    , m_row(new QHBoxLayout(this))
    , m_caption(new QLabel(tr("SLOs"), this))
{
    m_row->setContentsMargins(0, 2, 0, 2);
    m_row->setSpacing(6);
    m_caption->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_row->addWidget(m_caption);
    m_row->addStretch();
    hide();
}

QLabel* SloBadges::addBadge(const QString& text, const QColor& color, const QString& tip)
{
    auto* badge = new QLabel(text, this);
    badge->setToolTip(tip);
    badge->setStyleSheet(
        QStringLiteral("QLabel { color: white; background: %1; border-radius: 4px; padding: 1px 6px; }")
            .arg(color.name()));
    m_row->insertWidget(m_row->count() - 1, badge); // before the stretch
    m_badges.push_back(badge);
    return badge;
}

void SloBadges::clear()
{
    for (QLabel* badge : m_badges)
        delete badge;
    m_badges.clear();
    hide();
}

void SloBadges::setPending(const std::vector<Slo>& slos)
{
    clear();
    for (const Slo& slo : slos)
        addBadge(tr("%1 · pending").arg(QString::fromStdString(slo.expr)), QColor(0x75, 0x75, 0x75),
            tr("Judged on the whole run when it ends"));
    setVisible(!m_badges.empty());
}

void SloBadges::setVerdicts(const std::vector<SloVerdict>& verdicts)
{
    clear();
    for (const SloVerdict& v : verdicts)
        addBadge(
            QStringLiteral("%1 %2  %3")
                .arg(v.ok ? QStringLiteral("✓") : QStringLiteral("✗"), QString::fromStdString(v.expr), sloValueText(v)),
            sloColor(v.ok), sloVerdictLine(v));
    setVisible(!m_badges.empty());
}

QStringList SloBadges::badgeTexts() const
{
    QStringList out;
    for (const QLabel* badge : m_badges)
        out << badge->text();
    return out;
}

} // namespace wb::ui
