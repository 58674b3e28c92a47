#pragma once
// One small badge per SLO of a run: grey "pending" while it runs (a verdict
// needs the whole run), then green "✓ p99<250ms 181.2ms" or red
// "✗ errors<0.1% 0.43%". The live header and run details show it; hidden
// when the run has no SLOs.

#include "run/slo.h"

#include <QStringList>
#include <QWidget>
#include <vector>

class QHBoxLayout;
class QLabel;

namespace wb::ui {

class SloBadges : public QWidget
{
    Q_OBJECT
public:
    explicit SloBadges(QWidget* parent = nullptr);

    /// The run is judged by slos when it ends: one pending badge each.
    void setPending(const std::vector<Slo>& slos);
    /// The verdicts, in order (a run without SLOs has none: the strip hides).
    void setVerdicts(const std::vector<SloVerdict>& verdicts);
    void clear();

    /// What each badge says, in order (for tests and the accessible name).
    QStringList badgeTexts() const;

private:
    QLabel* addBadge(const QString& text, const QColor& color, const QString& tip);

    QHBoxLayout* m_row;
    QLabel* m_caption;
    std::vector<QLabel*> m_badges;
};

} // namespace wb::ui
