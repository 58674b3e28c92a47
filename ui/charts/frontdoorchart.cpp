#include "charts/frontdoorchart.h"

#include "charts/chartstyle.h"
#include "charts/niceaxis.h"

#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {
constexpr int MARGIN = 8;
constexpr int AXIS_WIDTH = 56;
constexpr int LEGEND_HEIGHT = 22;
constexpr int GROUP_LABEL_HEIGHT = 18;
constexpr int SPLIT_HEIGHT = 18;
constexpr int SPLIT_TEXT_HEIGHT = 20;
constexpr double GROUP_FILL = 0.7; ///< of a group's width, the bars; the rest is the gap between groups
constexpr int GROUPS = 3;

double valueOf(const FrontDoorChartData::Side& s, int group)
{
    return group == 0 ? s.p50Ms : group == 1 ? s.p90Ms : s.p99Ms;
}

QString ms(double v)
{
    return formatMs(v);
}
} // namespace

FrontDoorChart::FrontDoorChart(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("frontDoorChart"));
    setToolTip(tr("Percentiles do not add: the three distributions stand side by side. Means do: the bar below "
                  "splits the mean time of the responses that stated an upstream time."));
}

void FrontDoorChart::setData(const FrontDoorChartData& data)
{
    m_data = data;
    update();
}

double FrontDoorChart::barValueMs(int group, int side) const
{
    if (group < 0 || group >= GROUPS || side < 0 || side >= m_data.sides.size()) return 0;
    return valueOf(m_data.sides[side], group);
}

double FrontDoorChart::scaleMaxMs() const
{
    double most = 0;
    for (const auto& s : m_data.sides)
        most = std::max({ most, s.p50Ms, s.p90Ms, s.p99Ms });
    return most > 0 ? niceScale(0, most, 5).max : 1.0;
}

FrontDoorChart::Layout FrontDoorChart::layout(QSize size) const
{
    Layout l;
    const double bottomOfPlot = size.height() - MARGIN - SPLIT_TEXT_HEIGHT - SPLIT_HEIGHT - MARGIN - GROUP_LABEL_HEIGHT;
    l.plot
        = QRectF(MARGIN + AXIS_WIDTH, MARGIN + LEGEND_HEIGHT, std::max(10.0, size.width() - 2.0 * MARGIN - AXIS_WIDTH),
            std::max(10.0, bottomOfPlot - MARGIN - LEGEND_HEIGHT));
    l.split = QRectF(
        l.plot.left(), size.height() - MARGIN - SPLIT_TEXT_HEIGHT - SPLIT_HEIGHT, l.plot.width(), SPLIT_HEIGHT);
    return l;
}

QRectF FrontDoorChart::barRect(int group, int side) const
{
    return barIn(layout(size()).plot, group, side);
}

QRectF FrontDoorChart::barIn(const QRectF& plot, int group, int side) const
{
    if (group < 0 || group >= GROUPS || side < 0 || side >= m_data.sides.size()) return {};
    const double groupWidth = plot.width() / GROUPS;
    const double barWidth = groupWidth * GROUP_FILL / static_cast<double>(m_data.sides.size());
    const double left = plot.left() + group * groupWidth + groupWidth * (1 - GROUP_FILL) / 2 + side * barWidth;
    const double h = plot.height() * std::clamp(barValueMs(group, side) / scaleMaxMs(), 0.0, 1.0);
    return QRectF(left, plot.bottom() - h, barWidth, h);
}

QRectF FrontDoorChart::splitRect(int part) const
{
    if (!m_data.hasMeanSplit || part < 0 || part > 1) return {};
    const QRectF bar = layout(size()).split;
    const double total = m_data.meanUpstreamMs + m_data.meanFrontDoorMs;
    if (total <= 0) return {};
    const double upWidth = bar.width() * m_data.meanUpstreamMs / total;
    return part == 0 ? QRectF(bar.left(), bar.top(), upWidth, bar.height())
                     : QRectF(bar.left() + upWidth, bar.top(), bar.width() - upWidth, bar.height());
}

QString FrontDoorChart::splitText() const
{
    if (!m_data.hasMeanSplit) return tr("No response stated an upstream time: no split");
    const double total = m_data.meanUpstreamMs + m_data.meanFrontDoorMs;
    return tr("Mean %1 = upstream %2 + front door %3 (%4 % front door)")
        .arg(ms(total), ms(m_data.meanUpstreamMs), ms(m_data.meanFrontDoorMs),
            chartLocale().toString(total > 0 ? 100.0 * m_data.meanFrontDoorMs / total : 0.0, 'f', 1));
}

void FrontDoorChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p, size());
}

void FrontDoorChart::paint(QPainter& p, QSize size) const
{
    p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_data.empty()) return;
    const Layout l = layout(size);
    p.setFont(chartFont(9));
    // Legend: one swatch per side.
    double x = l.plot.left();
    for (const auto& s : m_data.sides) {
        p.fillRect(QRectF(x, MARGIN + 5, 12, 12), s.color);
        p.setPen(chartcolors::TEXT);
        const QString text = s.name;
        p.drawText(QPointF(x + 16, MARGIN + 15), text);
        x += 16 + p.fontMetrics().horizontalAdvance(text) + 16;
    }
    // Axis: round ticks from zero, linear (bars need a zero baseline).
    const NiceScale scale = niceScale(0, scaleMaxMs(), 5);
    for (int i = 0; i < scale.tickCount; ++i) {
        const double v = scale.min + i * scale.step;
        const double y = l.plot.bottom() - l.plot.height() * v / scaleMaxMs();
        p.setPen(chartcolors::GRID);
        p.drawLine(QPointF(l.plot.left(), y), QPointF(l.plot.right(), y));
        p.setPen(chartcolors::AXIS_LABEL);
        p.drawText(QRectF(MARGIN, y - 8, AXIS_WIDTH - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
            chartLocale().toString(v, 'f', scale.decimals) + QStringLiteral(" ms"));
    }
    for (int g = 0; g < GROUPS; ++g) {
        for (int s = 0; s < m_data.sides.size(); ++s)
            p.fillRect(barIn(l.plot, g, s).adjusted(1, 0, -1, 0), m_data.sides[s].color);
        p.setPen(chartcolors::TEXT);
        p.drawText(QRectF(l.plot.left() + g * l.plot.width() / GROUPS, l.plot.bottom() + 2, l.plot.width() / GROUPS,
                       GROUP_LABEL_HEIGHT),
            Qt::AlignCenter, QStringLiteral("p%1").arg(PERCENTILES[g]));
    }
    p.setPen(chartcolors::AXIS_LINE);
    p.drawLine(l.plot.bottomLeft(), l.plot.bottomRight());
    // The mean split: one bar, the two parts in the sides' colours, to scale of the mean total.
    if (m_data.hasMeanSplit && m_data.sides.size() >= 3) {
        const double total = m_data.meanUpstreamMs + m_data.meanFrontDoorMs;
        const double upWidth = total > 0 ? l.split.width() * m_data.meanUpstreamMs / total : 0;
        p.fillRect(QRectF(l.split.left(), l.split.top(), upWidth, l.split.height()), m_data.sides[1].color);
        p.fillRect(QRectF(l.split.left() + upWidth, l.split.top(), l.split.width() - upWidth, l.split.height()),
            m_data.sides[2].color);
    }
    p.setPen(chartcolors::TEXT);
    p.drawText(QRectF(l.split.left(), l.split.bottom() + 2, l.split.width(), SPLIT_TEXT_HEIGHT),
        Qt::AlignLeft | Qt::AlignVCenter, splitText());
}

bool FrontDoorChart::exportPng(const QString& path, QSize size, QString* error)
{
    if (!size.isValid()) size = this->size();
    QImage image(size, QImage::Format_ARGB32);
    QPainter p(&image);
    paint(p, size);
    p.end();
    if (!image.save(path, "PNG")) {
        if (error) *error = tr("Could not write '%1'").arg(path);
        return false;
    }
    return true;
}

} // namespace wb::ui
