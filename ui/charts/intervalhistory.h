#pragma once
// The interval history a LiveCharts holds, capped so that long runs keep the
// charts cheap to redraw: once the cap is exceeded the history is halved by
// merging neighbouring intervals (see halve()).

#include "charts/chartdata.h"

namespace wb::ui {

class IntervalHistory
{
public:
    static constexpr int DEFAULT_CAP = 2000;

    explicit IntervalHistory(int cap = DEFAULT_CAP);

    void clear();
    /// Appends one interval; halves the history when it grows past the cap (amortised O(1)).
    void append(const IntervalPoint& point);
    /// Replaces the whole history, halving as often as needed to fit the cap.
    void assign(const QVector<IntervalPoint>& points);

    const QVector<IntervalPoint>& points() const { return m_points; }
    int size() const { return static_cast<int>(m_points.size()); }
    bool isEmpty() const { return m_points.isEmpty(); }
    int cap() const { return m_cap; }

    /// Merges neighbouring intervals pairwise, keeping the first interval as it is
    /// (so the chart still starts where the run started) and, when the count is
    /// odd, the last one too; a merged point sits at the end of its second
    /// interval, so the last x is always kept. Rates (req/s, target, errors,
    /// non-2xx) are averaged weighted by interval length, which keeps the total
    /// count under the line; p50 is averaged too (it is the typical value), while
    /// p90 and p99 keep the maximum, so a latency spike never disappears from a
    /// long run's chart.
    static QVector<IntervalPoint> halve(const QVector<IntervalPoint>& points);

private:
    int m_cap;
    QVector<IntervalPoint> m_points;
};

} // namespace wb::ui
