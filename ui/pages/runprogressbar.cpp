#include "pages/runprogressbar.h"

#include <QPainter>
#include <QStyle>
#include <algorithm>
#include <cmath>

namespace wb::ui {

RunProgressBar::RunProgressBar(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // Everything is painted here: Qt need not clear the background first.
    setAttribute(Qt::WA_OpaquePaintEvent);
}

int RunProgressBar::filledWidth() const
{
    const int inner = std::max(0, width() - 2);
    return static_cast<int>(std::lround(inner * m_fraction));
}

void RunProgressBar::setFraction(double fraction)
{
    m_fraction = std::clamp(std::isnan(fraction) ? 0.0 : fraction, 0.0, 1.0);
    if (filledWidth() != m_paintedFilledWidth) update();
}

void RunProgressBar::setText(const QString& text)
{
    if (text == m_text) return;
    m_text = text;
    if (m_textVisible) update();
}

void RunProgressBar::setTextVisible(bool visible)
{
    if (visible == m_textVisible) return;
    m_textVisible = visible;
    update();
}

QSize RunProgressBar::sizeHint() const
{
    const int textHeight = fontMetrics().height();
    return { 220, m_textVisible ? textHeight + 6 : 8 };
}

QSize RunProgressBar::minimumSizeHint() const
{
    return { 40, sizeHint().height() };
}

void RunProgressBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_paintedFilledWidth = -1;
}

void RunProgressBar::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    const QRect outer = rect();
    painter.setPen(pal.color(QPalette::Mid));
    painter.setBrush(pal.color(QPalette::Base));
    painter.drawRect(outer.adjusted(0, 0, -1, -1));
    const int filled = filledWidth();
    const QRect inner = outer.adjusted(1, 1, -1, -1);
    if (filled > 0)
        painter.fillRect(QRect(inner.left(), inner.top(), filled, inner.height()), pal.color(QPalette::Highlight));
    m_paintedFilledWidth = filled;
    if (!m_textVisible || m_text.isEmpty()) return;
    // The text reads in the base text colour over the empty part and in the
    // highlighted text colour over the filled part, as QProgressBar does.
    const QRect done(inner.left(), inner.top(), filled, inner.height());
    painter.setClipRect(inner);
    painter.setPen(pal.color(QPalette::Text));
    painter.setClipRegion(QRegion(inner).subtracted(done));
    painter.drawText(inner, Qt::AlignCenter, m_text);
    if (filled > 0) {
        painter.setClipRect(done);
        painter.setPen(pal.color(QPalette::HighlightedText));
        painter.drawText(inner, Qt::AlignCenter, m_text);
    }
}

} // namespace wb::ui
