#include "charts/probewaterfall.h"

#include "charts/chartstyle.h"
#include "charts/niceaxis.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

constexpr int MARGIN = 8;
constexpr int GAP = 12; ///< between the columns
constexpr int MIN_BAR_PX = 2; ///< a 1 us phase still shows (as the CLI's one cell)
constexpr int TICK_SPACING_PX = 90;
const QColor MUTED { 0x9a, 0x9a, 0x9a };

const QColor PHASE_COLORS[] = {
    { 0x3f, 0x9e, 0x9a }, // DNS lookup
    { 0xf2, 0x8e, 0x2b }, // TCP connect
    { 0x9c, 0x6a, 0xde }, // TLS handshake
    { 0x8c, 0x8c, 0x8c }, // request sent
    { 0x59, 0xa1, 0x4f }, // first byte
    { 0x4e, 0x79, 0xa7 }, // body
};

QString tickLabel(double ms, int decimals)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(ms, 'f', decimals) + QStringLiteral(" ms");
}

} // namespace

QColor waterfallColor(int index)
{
    constexpr int count = static_cast<int>(std::size(PHASE_COLORS));
    return PHASE_COLORS[((index % count) + count) % count];
}

ProbeWaterfall::ProbeWaterfall(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("probeWaterfall"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
}

void ProbeWaterfall::setPhases(const QVector<WaterfallPhase>& phases, double totalMs)
{
    m_phases = phases;
    m_totalMs = std::max(0.0, totalMs);
    m_placeholder.clear();
    updateGeometry();
    update();
}

void ProbeWaterfall::clear(const QString& placeholder)
{
    m_phases.clear();
    m_totalMs = 0;
    m_placeholder = placeholder;
    updateGeometry();
    update();
}

QString ProbeWaterfall::formatPhaseMs(double ms)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(ms, 'f', 3) + QStringLiteral(" ms");
}

ProbeWaterfall::Layout ProbeWaterfall::layout() const
{
    const QFontMetrics fm = fontMetrics();
    Layout l;
    l.labelWidth = fm.horizontalAdvance(tr("total"));
    l.valueWidth = fm.horizontalAdvance(formatPhaseMs(m_totalMs));
    for (const WaterfallPhase& p : m_phases) {
        l.labelWidth = std::max(l.labelWidth, fm.horizontalAdvance(p.label));
        l.valueWidth = std::max(l.valueWidth, fm.horizontalAdvance(p.happened ? formatPhaseMs(p.durationMs) : p.note));
    }
    const int left = MARGIN + l.labelWidth + GAP;
    const int right = width() - MARGIN - l.valueWidth - GAP;
    const int scaleHeight = fm.height() + 6;
    l.scale = QRect(left, MARGIN, std::max(1, right - left), scaleHeight);
    l.bars = QRect(left, MARGIN + scaleHeight, l.scale.width(), static_cast<int>(m_phases.size()) * ROW_HEIGHT);
    return l;
}

int ProbeWaterfall::xOf(const Layout& l, double ms) const
{
    const NiceScale s = niceScale(0, m_totalMs > 0 ? m_totalMs : 1.0, std::max(1, l.bars.width() / TICK_SPACING_PX));
    return l.bars.left() + static_cast<int>(std::lround(ms / s.max * l.bars.width()));
}

int ProbeWaterfall::rowAt(const QPoint& pos) const
{
    const Layout l = layout();
    if (pos.y() < l.bars.top() || pos.y() >= l.bars.bottom() + 1) return -1;
    const int row = (pos.y() - l.bars.top()) / ROW_HEIGHT;
    return row < m_phases.size() ? row : -1;
}

QRect ProbeWaterfall::barRect(int row) const
{
    if (row < 0 || row >= m_phases.size() || !m_phases[row].happened) return {};
    const Layout l = layout();
    const WaterfallPhase& p = m_phases[row];
    const int x0 = xOf(l, p.startMs);
    const int x1 = std::max(xOf(l, p.startMs + p.durationMs), x0 + MIN_BAR_PX);
    const int top = l.bars.top() + row * ROW_HEIGHT + (ROW_HEIGHT - BAR_HEIGHT) / 2;
    return QRect(x0, top, x1 - x0, BAR_HEIGHT);
}

QSize ProbeWaterfall::sizeHint() const
{
    const int rows = std::max(1, static_cast<int>(m_phases.size()));
    const int scaleHeight = fontMetrics().height() + 6;
    // scale, rows, a gap and the total row
    return QSize(560, 2 * MARGIN + scaleHeight + (rows + 1) * ROW_HEIGHT + 6);
}

QSize ProbeWaterfall::minimumSizeHint() const
{
    return QSize(320, sizeHint().height());
}

void ProbeWaterfall::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    if (m_phases.isEmpty()) {
        painter.setPen(MUTED);
        painter.drawText(rect(), Qt::AlignCenter, m_placeholder);
        return;
    }
    const Layout l = layout();
    const QFontMetrics fm = fontMetrics();

    // Scale: round ticks, their labels above, light lines through the rows.
    const NiceScale s = niceScale(0, m_totalMs > 0 ? m_totalMs : 1.0, std::max(1, l.bars.width() / TICK_SPACING_PX));
    for (int i = 0; i < s.tickCount; ++i) {
        const double ms = s.min + i * s.step;
        const int x = xOf(l, ms);
        painter.setPen(QPen(chartcolors::GRID, 1));
        painter.drawLine(x, l.scale.bottom(), x, l.bars.bottom());
        const QString text = tickLabel(ms, s.decimals);
        const int w = fm.horizontalAdvance(text);
        const int tx = std::clamp(x - w / 2, l.scale.left() - GAP, width() - MARGIN - w);
        painter.setPen(chartcolors::AXIS_LABEL);
        painter.drawText(QRect(tx, l.scale.top(), w, l.scale.height() - 4), Qt::AlignLeft | Qt::AlignVCenter, text);
    }

    const int valueLeft = width() - MARGIN - l.valueWidth;
    for (int row = 0; row < m_phases.size(); ++row) {
        const WaterfallPhase& p = m_phases[row];
        const QRect line(MARGIN, l.bars.top() + row * ROW_HEIGHT, width() - 2 * MARGIN, ROW_HEIGHT);
        painter.setPen(p.happened ? chartcolors::TEXT : MUTED);
        painter.drawText(
            QRect(line.left(), line.top(), l.labelWidth, ROW_HEIGHT), Qt::AlignLeft | Qt::AlignVCenter, p.label);
        if (p.happened) painter.fillRect(barRect(row), p.color.isValid() ? p.color : waterfallColor(row));
        painter.setPen(p.happened ? chartcolors::TEXT : MUTED);
        painter.drawText(QRect(valueLeft, line.top(), l.valueWidth, ROW_HEIGHT), Qt::AlignRight | Qt::AlignVCenter,
            p.happened ? formatPhaseMs(p.durationMs) : p.note);
    }

    // The total under a rule, in bold: what the phases add up to.
    const int totalTop = l.bars.bottom() + 1 + 6;
    painter.setPen(QPen(chartcolors::AXIS_LINE, 1));
    painter.drawLine(MARGIN, totalTop - 3, width() - MARGIN, totalTop - 3);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(chartcolors::TEXT);
    painter.drawText(
        QRect(MARGIN, totalTop, l.labelWidth + GAP, ROW_HEIGHT), Qt::AlignLeft | Qt::AlignVCenter, tr("total"));
    painter.drawText(QRect(valueLeft - GAP, totalTop, l.valueWidth + GAP, ROW_HEIGHT),
        Qt::AlignRight | Qt::AlignVCenter, formatPhaseMs(m_totalMs));
}

bool ProbeWaterfall::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos());
        if (row < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const WaterfallPhase& p = m_phases[row];
        const QString text = p.happened ? tr("<b>%1</b><br>%2<br>from %3 to %4")
                                              .arg(p.label.toHtmlEscaped(), formatPhaseMs(p.durationMs),
                                                  formatPhaseMs(p.startMs), formatPhaseMs(p.startMs + p.durationMs))
                                        : tr("<b>%1</b><br>%2").arg(p.label.toHtmlEscaped(), p.note.toHtmlEscaped());
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace wb::ui
