#include "charts/intervalhistory.h"

#include <algorithm>

namespace wb::ui {

namespace {

IntervalPoint merge(const IntervalPoint& a, double aLengthS, const IntervalPoint& b, double bLengthS)
{
    const double total = aLengthS + bLengthS;
    const double wa = total > 0 ? aLengthS / total : 0.5;
    const double wb = 1.0 - wa;
    const auto mean = [&](double x, double y) { return x * wa + y * wb; };

    IntervalPoint m;
    m.endS = b.endS;
    m.requestsPerS = mean(a.requestsPerS, b.requestsPerS);
    m.targetRatePerS = mean(a.targetRatePerS, b.targetRatePerS);
    m.errorsPerS = mean(a.errorsPerS, b.errorsPerS);
    m.non2xxPerS = mean(a.non2xxPerS, b.non2xxPerS);
    m.p50Ms = mean(a.p50Ms, b.p50Ms);
    m.p90Ms = std::max(a.p90Ms, b.p90Ms);
    m.p99Ms = std::max(a.p99Ms, b.p99Ms);
    m.serviceP50Ms = mean(a.serviceP50Ms, b.serviceP50Ms);
    m.serviceP90Ms = std::max(a.serviceP90Ms, b.serviceP90Ms);
    m.serviceP99Ms = std::max(a.serviceP99Ms, b.serviceP99Ms);
    return m;
}

} // namespace

IntervalHistory::IntervalHistory(int cap)
    : m_cap(std::max(cap, 4))
{
    m_points.reserve(m_cap + 1);
}

void IntervalHistory::clear()
{
    m_points.clear();
}

void IntervalHistory::append(const IntervalPoint& point)
{
    m_points.append(point);
    if (m_points.size() > m_cap) m_points = halve(m_points);
}

void IntervalHistory::assign(const QVector<IntervalPoint>& points)
{
    m_points = points;
    while (m_points.size() > m_cap)
        m_points = halve(m_points);
}

QVector<IntervalPoint> IntervalHistory::halve(const QVector<IntervalPoint>& points)
{
    const qsizetype n = points.size();
    if (n < 3) return points;
    QVector<IntervalPoint> out;
    out.reserve(n / 2 + 2);
    out.append(points.front());
    qsizetype i = 1;
    for (; i + 1 < n; i += 2) {
        const double aLengthS = points[i].endS - points[i - 1].endS;
        const double bLengthS = points[i + 1].endS - points[i].endS;
        out.append(merge(points[i], aLengthS, points[i + 1], bLengthS));
    }
    if (i < n) out.append(points[i]);
    return out;
}

} // namespace wb::ui
