#pragma once
// A capacity search as it goes (the window's "Find capacity…"): each trial a point at its offered
// rate (x) and p99 (y), filled when it passed, a cross when it failed, hollow when the loader
// could not make it (it says nothing of the target); the p99 SLO as a dashed line; each target's
// bracket [highest passing, lowest failing) as a band that narrows. Painted with QPainter.

#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>
#include <cmath>

namespace wb::ui {

struct CapacityChartPoint
{
    int target = 0;
    double ratePerS = 0;
    double p99Ms = 0;
    enum class State { Passed, Failed, LoaderLimited } state = State::Passed;
};

class CapacityChart : public QWidget
{
    Q_OBJECT
public:
    explicit CapacityChart(QWidget* parent = nullptr);

    /// The targets' names and colours, in order; clears the points.
    void setTargets(const QStringList& names, const QList<QColor>& colors);
    /// The p99 bound of the SLOs (ms), NaN when none bounds p99.
    void setSloP99Ms(double ms);
    void addPoint(const CapacityChartPoint& point);
    /// A target's bracket now (0: that side unknown).
    void setBracket(int target, double lowerPerS, double upperPerS);

    const QList<CapacityChartPoint>& points() const { return m_points; }
    QSize sizeHint() const override { return { 520, 260 }; }
    QSize minimumSizeHint() const override { return { 240, 140 }; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QStringList m_names;
    QList<QColor> m_colors;
    QList<CapacityChartPoint> m_points;
    QList<QPair<double, double>> m_brackets;
    double m_sloP99Ms = NAN;
};

} // namespace wb::ui
