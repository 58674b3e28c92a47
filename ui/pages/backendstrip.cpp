#include "pages/backendstrip.h"

#include "stats/backends.h"
#include "text/format.h"

#include <QPainter>
#include <algorithm>
#include <numeric>

namespace wb::ui {

namespace {
constexpr int BACKEND_BAR_HEIGHT = 14;
constexpr int BACKEND_GAP = 3;
constexpr int BACKEND_LABEL_WIDTH = 140;
constexpr int BACKEND_VALUE_WIDTH = 110;
const QColor NORMAL { 0x1e, 0x88, 0xe5 };
const QColor FAR_BELOW_COLOR { 0xc6, 0x28, 0x28 };

bool isOther(const QString& name)
{
    return name == QLatin1String(OTHER_BACKEND);
}
} // namespace

BackendStrip::BackendStrip(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("backendStrip"));
    setVisible(false);
    setToolTip(tr("Each backend's share of the last interval's responses; the tick is an even split. Red: under "
                  "%1% of an even share, or none at all (a backend that vanished)")
                   .arg(static_cast<int>(FAR_BELOW * 100)));
}

void BackendStrip::clear()
{
    m_names.clear();
    m_last.clear();
    m_total.clear();
    setVisible(false);
    updateGeometry();
    update();
}

void BackendStrip::addInterval(const LiveInterval& interval)
{
    const int before = static_cast<int>(m_names.size());
    std::fill(m_last.begin(), m_last.end(), 0);
    for (const auto& [name, requests] : interval.backendRequests) {
        const QString n = QString::fromStdString(name);
        qsizetype at = m_names.indexOf(n);
        if (at < 0) {
            m_names << n;
            m_last << 0;
            m_total << 0;
            at = m_names.size() - 1;
        }
        m_last[at] += requests;
        m_total[at] += requests;
    }
    setVisible(!m_names.isEmpty());
    if (m_names.size() != before) updateGeometry();
    update();
}

QVector<double> BackendStrip::lastShares() const
{
    const double sum = static_cast<double>(std::accumulate(m_last.begin(), m_last.end(), quint64 { 0 }));
    QVector<double> out;
    for (quint64 n : m_last)
        out << (sum > 0 ? static_cast<double>(n) / sum : 0.0);
    return out;
}

double BackendStrip::evenShare() const
{
    const auto named = std::count_if(m_names.begin(), m_names.end(), [](const QString& n) { return !isOther(n); });
    return named > 0 ? 1.0 / static_cast<double>(named) : 0.0;
}

QVector<int> BackendStrip::farBelow() const
{
    QVector<int> out;
    const QVector<double> shares = lastShares();
    const double even = evenShare();
    // One backend alone has nothing to be uneven with; an interval with no named response says nothing.
    if (even >= 1.0 || std::accumulate(m_last.begin(), m_last.end(), quint64 { 0 }) == 0) return out;
    for (int i = 0; i < shares.size(); ++i)
        if (!isOther(m_names[i]) && shares[i] < FAR_BELOW * even) out << i;
    return out;
}

QVector<int> BackendStrip::shown() const
{
    QVector<int> order(m_names.size());
    std::iota(order.begin(), order.end(), 0);
    if (order.size() > MAX_BARS) {
        const QVector<double> shares = lastShares();
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return shares[a] < shares[b]; });
        order.resize(MAX_BARS);
        std::sort(order.begin(), order.end());
    }
    return order;
}

QSize BackendStrip::sizeHint() const
{
    const int rows
        = static_cast<int>(std::min<qsizetype>(m_names.size(), MAX_BARS)) + (m_names.size() > MAX_BARS ? 1 : 0);
    return { 300, rows * (BACKEND_BAR_HEIGHT + BACKEND_GAP) + BACKEND_GAP };
}

void BackendStrip::paintEvent(QPaintEvent*)
{
    if (m_names.isEmpty()) return;
    QPainter p(this);
    const QVector<double> shares = lastShares();
    const QVector<int> red = farBelow();
    const double even = evenShare();
    // The bars' scale: the larger of the busiest share and twice an even one, so the tick stays inside.
    const double most = std::max({ 2.0 * even, *std::max_element(shares.begin(), shares.end()), 0.01 });
    const int barSpace = std::max(10, width() - BACKEND_LABEL_WIDTH - BACKEND_VALUE_WIDTH - 2 * BACKEND_GAP);
    const QVector<int> rows = shown();
    int y = BACKEND_GAP;
    for (int i : rows) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(BACKEND_GAP, y, BACKEND_LABEL_WIDTH - BACKEND_GAP, BACKEND_BAR_HEIGHT),
            Qt::AlignVCenter | Qt::AlignLeft,
            fontMetrics().elidedText(m_names[i], Qt::ElideMiddle, BACKEND_LABEL_WIDTH - 2 * BACKEND_GAP));
        const int w = static_cast<int>(barSpace * (shares[i] / most));
        p.fillRect(QRect(BACKEND_LABEL_WIDTH, y + 2, std::max(w, 1), BACKEND_BAR_HEIGHT - 4),
            red.contains(i) ? FAR_BELOW_COLOR : NORMAL);
        if (even > 0 && even < 1) {
            const int x = BACKEND_LABEL_WIDTH + static_cast<int>(barSpace * (even / most));
            p.setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DotLine));
            p.drawLine(x, y, x, y + BACKEND_BAR_HEIGHT);
            p.setPen(palette().color(QPalette::WindowText));
        }
        p.drawText(QRect(BACKEND_LABEL_WIDTH + barSpace + BACKEND_GAP, y, BACKEND_VALUE_WIDTH, BACKEND_BAR_HEIGHT),
            Qt::AlignVCenter | Qt::AlignRight,
            tr("%1 % (%2)")
                .arg(numberLocale().toString(100.0 * shares[i], 'f', 1), formatCount(static_cast<double>(m_last[i]))));
        y += BACKEND_BAR_HEIGHT + BACKEND_GAP;
    }
    if (m_names.size() > MAX_BARS)
        p.drawText(QRect(BACKEND_GAP, y, width() - 2 * BACKEND_GAP, BACKEND_BAR_HEIGHT),
            Qt::AlignVCenter | Qt::AlignLeft,
            tr("… %1 more backends (the %2 lowest shares are shown)").arg(m_names.size() - MAX_BARS).arg(MAX_BARS));
}

} // namespace wb::ui
