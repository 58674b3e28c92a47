#include "charts/adaptiveyaxis.h"

#include "charts/chartstyle.h"
#include "charts/niceaxis.h"

#include <QAbstractSeries>
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>

namespace wb::ui {

AdaptiveYAxis::AdaptiveYAxis(QChart* chart, const QString& title)
    : m_chart(chart)
    , m_linear(new QValueAxis(chart))
    , m_logAxis(new QLogValueAxis(chart))
{
    styleAxis(m_linear, title);
    styleAxis(m_logAxis, title);
    m_linear->setObjectName(QStringLiteral("linearY"));
    m_logAxis->setObjectName(QStringLiteral("logY"));
    // Both axes stay in the chart and the idle one is hidden: QChart::removeAxis()
    // leaves the removed axis' labels and grid on screen until the event loop
    // runs its deferred deletion, so an export right after a switch would show
    // both scales on top of each other.
    m_chart->addAxis(m_linear, Qt::AlignLeft);
    m_chart->addAxis(m_logAxis, Qt::AlignLeft);
    m_logAxis->setVisible(false);
}

void AdaptiveYAxis::addSeries(QAbstractSeries* series)
{
    m_series.append(series);
    series->attachAxis(current());
}

void AdaptiveYAxis::clearSeries()
{
    m_series.clear();
}

QAbstractAxis* AdaptiveYAxis::current() const
{
    return m_log ? static_cast<QAbstractAxis*>(m_logAxis) : static_cast<QAbstractAxis*>(m_linear);
}

bool wantsLogScale(bool currentlyLog, double minPositive, double max)
{
    if (!(minPositive > 0) || !(max > 0)) return false;
    const double ratio = max / minPositive;
    return currentlyLog ? ratio >= AdaptiveYAxis::LINEAR_BELOW_RATIO : ratio > AdaptiveYAxis::LOG_ABOVE_RATIO;
}

bool AdaptiveYAxis::wantsLog(double minPositive, double max) const
{
    return wantsLogScale(m_log, minPositive, max);
}

bool AdaptiveYAxis::update(double minPositive, double max)
{
    const bool log = wantsLog(minPositive, max);
    if (log != m_log) switchTo(log);
    if (m_log) {
        applyDecades(m_logAxis, decadeRange(minPositive, max));
    } else {
        // Linear latency starts at zero so heights compare honestly; 8% headroom
        // keeps the top line off the frame.
        applyScale(m_linear, niceScale(0, max > 0 ? max * 1.08 : 1.0, 5));
    }
    return m_log;
}

void AdaptiveYAxis::switchTo(bool log)
{
    QAbstractAxis* from = current();
    m_log = log;
    QAbstractAxis* to = current();
    for (QAbstractSeries* s : std::as_const(m_series)) {
        s->detachAxis(from);
        s->attachAxis(to);
    }
    from->setVisible(false);
    to->setVisible(true);
}

} // namespace wb::ui
