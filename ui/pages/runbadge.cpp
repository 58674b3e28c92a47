#include "pages/runbadge.h"

#include "pages/runprogressbar.h"
#include "text/format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <algorithm>

namespace wb::ui {

RunBadge::RunBadge(QWidget* parent)
    : QWidget(parent)
    , m_progress(new RunProgressBar(this))
    , m_label(new QLabel(this))
{
    setObjectName(QStringLiteral("runBadge"));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("A run is in progress: click to follow it on the Live tab"));
    m_progress->setTextVisible(false);
    m_progress->setFixedSize(90, 8);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 0, 8, 0);
    layout->addWidget(m_progress);
    layout->addWidget(m_label);
    hide();
}

void RunBadge::begin(const QString& target, double plannedS)
{
    m_target = target;
    m_plannedS = plannedS;
    m_errors = 0;
    m_non2xx = 0;
    m_active = true;
    m_progress->setFraction(0);
    m_label->setText(tr("%1: starting…").arg(m_target));
    updateVisibility();
}

void RunBadge::setElapsed(double elapsedS)
{
    m_progress->setFraction(m_plannedS > 0 ? std::min(elapsedS, m_plannedS) / m_plannedS : 0);
}

void RunBadge::addInterval(const LiveInterval& interval)
{
    m_errors += interval.errors;
    m_non2xx += interval.non2xx;
    QString text
        = tr("%1: %2 req/s · p99 %3 ms")
              .arg(m_target, formatCount(interval.point.requestsPerS), formatUsAsMs(interval.point.p99Ms * 1000));
    // Counted as the Live header counts them: transport errors apart from non-2xx answers.
    if (m_errors > 0) text += tr(" · %1 errors").arg(formatCount(static_cast<double>(m_errors)));
    if (m_non2xx > 0) text += tr(" · %1 non-2xx").arg(formatCount(static_cast<double>(m_non2xx)));
    m_label->setText(text);
}

void RunBadge::end()
{
    m_active = false;
    updateVisibility();
}

void RunBadge::setLiveTabCurrent(bool current)
{
    m_liveTabCurrent = current;
    updateVisibility();
}

QString RunBadge::text() const
{
    return m_label->text();
}

int RunBadge::progressPercent() const
{
    return static_cast<int>(1000 * m_progress->fraction()) / 10;
}

void RunBadge::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) emit clicked();
    QWidget::mousePressEvent(event);
}

void RunBadge::updateVisibility()
{
    setVisible(m_active && !m_liveTabCurrent);
}

} // namespace wb::ui
