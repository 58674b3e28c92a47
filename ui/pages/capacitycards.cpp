#include "pages/capacitycards.h"

#include "capacity/capacitycompare.h"
#include "text/format.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace wb::ui {

namespace {

QLabel* wrapped(QWidget* parent, const QString& text, const QString& style = {})
{
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (!style.isEmpty()) label->setStyleSheet(style);
    return label;
}

} // namespace

CapacityCard capacityCard(
    const QString& name, const QColor& color, const CapacityResult& result, const std::vector<Slo>& slos)
{
    CapacityCard card;
    card.name = name;
    card.color = color;
    card.headline = capacityHeadline(result);
    card.slos = QObject::tr("under %1").arg(toQString(capacitySlosText(slos)));
    return card;
}

QString capacityRatioText(
    const CapacityResult& base, const CapacityResult& other, const QString& baseName, const QString& name)
{
    const auto ratio = capacityRatio(base, other);
    return ratio ? toQString(describeRatio(*ratio, baseName.toStdString(), name.toStdString())) : QString();
}

std::vector<CapacityCard> capacityCards(
    const CapacityReport& report, const QStringList& names, const QList<QColor>& colors)
{
    std::vector<CapacityCard> out;
    for (size_t i = 0; i < report.targets.size(); ++i) {
        const CapacityReportTarget& t = report.targets[i];
        const int at = static_cast<int>(i);
        CapacityCard card = capacityCard(at < names.size() ? names[at] : toQString(t.label + " " + t.url),
            at < colors.size() ? colors[at] : QColor(Qt::darkGray), t.result, report.slos);
        if (i > 0) {
            const QString base = names.isEmpty() ? toQString(report.targets.front().label) : names.front();
            card.comparison = capacityRatioText(report.targets.front().result, t.result, base, card.name);
            if (card.comparison.isEmpty())
                card.comparison = QObject::tr("not compared: one of them has no rate that passed");
        }
        card.source = countText(static_cast<qint64>(t.result.trials.size()), "trial", "trials");
        out.push_back(std::move(card));
    }
    return out;
}

CapacityCards::CapacityCards(QWidget* parent)
    : QWidget(parent)
    , m_row(new QHBoxLayout(this))
{
    setObjectName(QStringLiteral("CapacityCards"));
    m_row->setContentsMargins(0, 0, 0, 0);
    m_row->addStretch(1);
}

void CapacityCards::setCards(std::vector<CapacityCard> cards)
{
    qDeleteAll(m_cardWidgets);
    m_cardWidgets.clear();
    m_cards = std::move(cards);
    for (size_t i = 0; i < m_cards.size(); ++i) {
        const CapacityCard& c = m_cards[i];
        auto* card = new QFrame(this);
        card->setObjectName(QStringLiteral("capacityCard%1").arg(i));
        card->setFrameShape(QFrame::StyledPanel);
        card->setStyleSheet(
            QStringLiteral("QFrame#%1 { border-left: 4px solid %2; }").arg(card->objectName(), c.color.name()));
        card->setMinimumWidth(200);
        card->setMaximumWidth(360);
        auto* box = new QVBoxLayout(card);
        auto* name = wrapped(card, c.name, QStringLiteral("font-weight: bold; color: %1;").arg(c.color.name()));
        name->setObjectName(QStringLiteral("name"));
        auto* value = wrapped(card, toQString(c.headline.value));
        value->setObjectName(QStringLiteral("value"));
        QFont big = value->font();
        big.setPointSizeF(big.pointSizeF() * 1.6);
        big.setBold(true);
        value->setFont(big);
        box->addWidget(name);
        box->addWidget(value);
        auto* detail = wrapped(card, toQString(c.headline.detail));
        detail->setObjectName(QStringLiteral("detail"));
        box->addWidget(detail);
        if (!c.comparison.isEmpty()) {
            auto* comparison = wrapped(card, c.comparison, QStringLiteral("font-weight: bold;"));
            comparison->setObjectName(QStringLiteral("comparison"));
            box->addWidget(comparison);
        }
        auto* foot = wrapped(card, c.slos + QStringLiteral(" · ") + c.source, QStringLiteral("color: palette(mid);"));
        foot->setObjectName(QStringLiteral("source"));
        box->addWidget(foot);
        box->addStretch(1);
        m_row->insertWidget(static_cast<int>(i), card, 1);
        m_cardWidgets.append(card);
    }
    setVisible(!m_cards.empty());
}

QWidget* CapacityCards::cardOf(int i) const
{
    return i >= 0 && i < m_cardWidgets.size() ? m_cardWidgets[i] : nullptr;
}

} // namespace wb::ui
