#include "charts/capacitychart.h"

#include "charts/chartstyle.h"
#include "charts/niceaxis.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace wb::ui {

CapacityChart::CapacityChart(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("capacityChart"));
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void CapacityChart::setTargets(const QStringList& names, const QList<QColor>& colors)
{
    m_names = names;
    m_colors = colors;
    m_points.clear();
    m_brackets = QList<QPair<double, double>>(names.size(), { 0.0, 0.0 });
    update();
}

void CapacityChart::setSloP99Ms(double ms)
{
    m_sloP99Ms = ms;
    update();
}

void CapacityChart::addPoint(const CapacityChartPoint& point)
{
    m_points.append(point);
    update();
}

void CapacityChart::setBracket(int target, double lowerPerS, double upperPerS)
{
    if (target < 0 || target >= m_brackets.size()) return;
    m_brackets[target] = { lowerPerS, upperPerS };
    update();
}

void CapacityChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const QString title = tr("p99 against the offered rate");
    p.setPen(QColor(0x20, 0x20, 0x20));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRect(0, 2, width(), fm.height() + 2), Qt::AlignHCenter, title);
    p.setFont(font());

    double maxRate = 1, maxMs = 0;
    for (const CapacityChartPoint& pt : m_points) {
        maxRate = std::max(maxRate, pt.ratePerS);
        if (std::isfinite(pt.p99Ms)) maxMs = std::max(maxMs, pt.p99Ms);
    }
    for (const auto& [lower, upper] : m_brackets)
        maxRate = std::max({ maxRate, lower, upper });
    if (std::isfinite(m_sloP99Ms)) maxMs = std::max(maxMs, m_sloP99Ms);
    const NiceScale xs = niceScale(0, maxRate * 1.08, 6);
    const NiceScale ys = niceScale(0, maxMs > 0 ? maxMs * 1.15 : 1.0, 5);
    // Labels with the decimals their step needs (0.5 ms steps: one), not formatNumber's three below 1.
    const auto axisText = [](double value, double step) {
        const int decimals = step >= 1 ? 0 : std::min(3, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
        return chartLocale().toString(value, 'f', decimals);
    };
    const int labelW
        = std::max(fm.horizontalAdvance(axisText(ys.max, ys.step)), fm.horizontalAdvance(tr("p99 (ms)")) / 2) + 8;
    const QRectF plot(labelW + 4, fm.height() * 2 + 8, width() - labelW - 14, height() - fm.height() * 4 - 12);
    if (plot.width() < 20 || plot.height() < 20) return;
    const auto xOf = [&](double rate) { return plot.left() + (rate - xs.min) / (xs.max - xs.min) * plot.width(); };
    const auto yOf = [&](double ms) { return plot.bottom() - (ms - ys.min) / (ys.max - ys.min) * plot.height(); };

    // The brackets first, under everything: where the capacity lies, narrowing as trials come.
    for (int t = 0; t < m_brackets.size(); ++t) {
        const auto [lower, upper] = m_brackets[t];
        if (lower <= 0 && upper <= 0) continue;
        QColor band = t < m_colors.size() ? m_colors[t] : QColor(Qt::gray);
        band.setAlpha(40);
        const double left = xOf(lower > 0 ? lower : 0), right = upper > 0 ? xOf(upper) : plot.right();
        p.fillRect(QRectF(QPointF(left, plot.top()), QPointF(right, plot.bottom())), band);
    }
    // Grid and labels.
    p.setPen(QPen(QColor(0xe0, 0xe0, 0xe0), 1));
    for (double y = ys.min; y <= ys.max + ys.step / 2; y += ys.step) {
        p.drawLine(QPointF(plot.left(), yOf(y)), QPointF(plot.right(), yOf(y)));
    }
    for (double x = xs.min; x <= xs.max + xs.step / 2; x += xs.step)
        p.drawLine(QPointF(xOf(x), plot.top()), QPointF(xOf(x), plot.bottom()));
    p.setPen(QColor(0x50, 0x50, 0x50));
    for (double y = ys.min; y <= ys.max + ys.step / 2; y += ys.step)
        p.drawText(QRectF(0, yOf(y) - fm.height() / 2.0, labelW, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            axisText(y, ys.step));
    for (double x = xs.min; x <= xs.max + xs.step / 2; x += xs.step)
        p.drawText(QRectF(xOf(x) - 40, plot.bottom() + 2, 80, fm.height()), Qt::AlignHCenter, axisText(x, xs.step));
    p.drawText(QRectF(plot.left(), plot.bottom() + fm.height() + 2, plot.width(), fm.height()), Qt::AlignHCenter,
        tr("offered rate (req/s)"));
    // The y axis's name on the legend's row, at the left; the legend after it.
    p.drawText(QPointF(2, fm.height() + 4 + fm.ascent()), tr("p99 (ms)"));
    p.setPen(QPen(QColor(0x90, 0x90, 0x90), 1));
    p.drawRect(plot);

    if (std::isfinite(m_sloP99Ms)) {
        p.setPen(QPen(QColor(0xc6, 0x28, 0x28), 1.5, Qt::DashLine));
        p.drawLine(QPointF(plot.left(), yOf(m_sloP99Ms)), QPointF(plot.right(), yOf(m_sloP99Ms)));
        p.drawText(QRectF(plot.left() + 4, yOf(m_sloP99Ms) - fm.height() - 1, plot.width() - 8, fm.height()),
            Qt::AlignRight, tr("SLO p99 < %1 ms").arg(formatNumber(m_sloP99Ms)));
    }
    // The trials: filled passed, a cross failed, hollow when the loader could not make the rate.
    for (const CapacityChartPoint& pt : m_points) {
        const QColor c = pt.target < m_colors.size() ? m_colors[pt.target] : QColor(Qt::gray);
        const double ms = std::isfinite(pt.p99Ms) ? std::min(pt.p99Ms, ys.max) : ys.max;
        const QPointF at(xOf(pt.ratePerS), yOf(ms));
        switch (pt.state) {
        case CapacityChartPoint::State::Passed:
            p.setPen(QPen(c.darker(130), 1));
            p.setBrush(c);
            p.drawEllipse(at, 4.5, 4.5);
            break;
        case CapacityChartPoint::State::Failed:
            p.setPen(QPen(c, 2.2));
            p.drawLine(at + QPointF(-4.5, -4.5), at + QPointF(4.5, 4.5));
            p.drawLine(at + QPointF(-4.5, 4.5), at + QPointF(4.5, -4.5));
            break;
        case CapacityChartPoint::State::LoaderLimited:
            p.setPen(QPen(c, 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(at, 4.5, 4.5);
            break;
        }
    }
    // Legend: the targets, then the marks.
    p.setBrush(Qt::NoBrush);
    qreal x = std::max(plot.left(), 2.0 + fm.horizontalAdvance(tr("p99 (ms)")) + 16);
    const qreal y = fm.height() + 4;
    for (int t = 0; t < m_names.size(); ++t) {
        const QColor c = t < m_colors.size() ? m_colors[t] : QColor(Qt::gray);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawEllipse(QPointF(x + 5, y + fm.height() / 2.0), 4, 4);
        p.setBrush(Qt::NoBrush);
        p.setPen(QColor(0x20, 0x20, 0x20));
        p.drawText(QPointF(x + 12, y + fm.ascent()), m_names[t]);
        x += 24 + fm.horizontalAdvance(m_names[t]);
    }
    p.setPen(QColor(0x60, 0x60, 0x60));
    p.drawText(QRectF(x, y, std::max<qreal>(0, plot.right() - x), fm.height()), Qt::AlignRight,
        tr("● passed   ✕ failed   ○ loader could not"));
}

} // namespace wb::ui
