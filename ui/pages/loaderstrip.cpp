#include "pages/loaderstrip.h"

#include "text/format.h"

#include <QPainter>
#include <algorithm>

namespace wb::ui {

namespace {
constexpr int BAR_HEIGHT = 14;
constexpr int GAP = 3;
constexpr int LABEL_WIDTH = 42;
constexpr int VALUE_WIDTH = 90;
} // namespace

LoaderStrip::LoaderStrip(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("loaderStrip"));
    setVisible(false);
    setToolTip(tr("Requests per second of each loader in the last interval; red: under %1% of the median "
                  "loader (a slow or throttled loader)")
                   .arg(static_cast<int>(LAGGING_SHARE * 100)));
}

void LoaderStrip::setRates(const QVector<double>& requestsPerS)
{
    const bool sizeChanged = requestsPerS.size() != m_rates.size();
    m_rates = requestsPerS;
    setVisible(!m_rates.isEmpty());
    if (sizeChanged) updateGeometry();
    update();
}

QVector<int> LoaderStrip::lagging() const
{
    QVector<int> out;
    if (m_rates.size() < 2) return out;
    QVector<double> sorted = m_rates;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    for (int i = 0; i < m_rates.size(); ++i)
        if (m_rates[i] < LAGGING_SHARE * median) out << i;
    return out;
}

QSize LoaderStrip::sizeHint() const
{
    return { 300, static_cast<int>(m_rates.size()) * (BAR_HEIGHT + GAP) + GAP };
}

void LoaderStrip::paintEvent(QPaintEvent*)
{
    if (m_rates.isEmpty()) return;
    QPainter p(this);
    const double most = std::max(1.0, *std::max_element(m_rates.begin(), m_rates.end()));
    const QVector<int> slow = lagging();
    const int barSpace = std::max(10, width() - LABEL_WIDTH - VALUE_WIDTH - 2 * GAP);
    for (int i = 0; i < m_rates.size(); ++i) {
        const int y = GAP + i * (BAR_HEIGHT + GAP);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(GAP, y, LABEL_WIDTH, BAR_HEIGHT), Qt::AlignVCenter | Qt::AlignLeft, tr("#%1").arg(i));
        const int w = static_cast<int>(barSpace * (m_rates[i] / most));
        p.fillRect(QRect(LABEL_WIDTH, y + 2, std::max(w, 1), BAR_HEIGHT - 4),
            slow.contains(i) ? QColor(0xc6, 0x28, 0x28) : QColor(0x1e, 0x88, 0xe5));
        p.drawText(QRect(LABEL_WIDTH + barSpace + GAP, y, VALUE_WIDTH, BAR_HEIGHT), Qt::AlignVCenter | Qt::AlignRight,
            tr("%1 req/s").arg(formatRate(m_rates[i])));
    }
}

} // namespace wb::ui
