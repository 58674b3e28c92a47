#pragma once
// Capacities side by side: one card per target with its colour, the capacity in large type (or
// what stood in the way: the loader, the range), the bracket and the SLO that broke first, the
// SLOs it was judged by, and the ratio to the first card's target with its interval. Used by the
// capacity dialog's result, a stored search in Experiments and Compare's Capacity tab.

#include "capacity/capacityreport.h"

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

class QHBoxLayout;
class QLabel;

namespace wb::ui {

struct CapacityCard
{
    QString name;
    QColor color;
    CapacityHeadline headline;
    QString slos; ///< "under p99<50ms, errors<0.1%"
    QString comparison; ///< against the first card ("B carries 0.80× A (0.78–0.82)"); empty for the first
    QString source; ///< where it was found ("search 12 'nightly', 11 trials")
};

/// One target's card without its comparison and source: its name, colour, headline and SLOs.
CapacityCard capacityCard(
    const QString& name, const QColor& color, const CapacityResult& result, const std::vector<Slo>& slos);
/// "B carries 0.80× A (0.78–0.82)"; "" when either has no rate that passed.
QString capacityRatioText(
    const CapacityResult& base, const CapacityResult& other, const QString& baseName, const QString& name);

/// A report's targets as cards, named and coloured as given (by index; missing: the report's label).
std::vector<CapacityCard> capacityCards(
    const CapacityReport& report, const QStringList& names = {}, const QList<QColor>& colors = {});

class CapacityCards : public QWidget
{
    Q_OBJECT
public:
    explicit CapacityCards(QWidget* parent = nullptr);

    void setCards(std::vector<CapacityCard> cards);
    const std::vector<CapacityCard>& cards() const { return m_cards; }
    /// The card of target i, for tests and screenshots.
    QWidget* cardOf(int i) const;

private:
    std::vector<CapacityCard> m_cards;
    QHBoxLayout* m_row;
    QList<QWidget*> m_cardWidgets;
};

} // namespace wb::ui
