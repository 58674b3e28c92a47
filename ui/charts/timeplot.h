#pragma once
// One time chart painted with QPainter: a title, a legend, lines over a time axis from 0 s, a linear or log y axis,
// and a crosshair with one tooltip for every line. Not QtCharts, which repaints the whole plot for every new point and
// was most of what the UI thread did during a run: this plot keeps what is drawn in one pixmap, draws only a new
// point's segments onto it and repaints their rectangle. The whole pixmap is drawn again only when the y scale, the
// time axis, the size or the lines' looks change, or when a line's points were replaced rather than extended
// (docs/PERFORMANCE.md, "The live charts").

#include "charts/plotaxes.h"

#include <QList>
#include <QPen>
#include <QPixmap>
#include <QPointF>
#include <QWidget>
#include <functional>

namespace wb::ui {

/// One line of a plot: what the legend and the tooltip call it, its pen, and its points (x in seconds).
struct PlotLine
{
    QString key; ///< stable id ("p99"), for code and tests
    QString name; ///< shown in the legend and the tooltip
    QPen pen;
    bool visible = true;
    QList<QPointF> points;
    int drawnCount = 0; ///< points already in the pixmap (0 after a whole repaint is due)
    double drawnLengthPx = 0; ///< pixel length drawn so far: where the dash pattern continues
};

class TimePlot : public QWidget
{
    Q_OBJECT
public:
    /// The tooltip's heading for a time ("t = 4.00 s") and one line's value ("1.92 ms").
    using XFormatter = std::function<QString(double timeS)>;
    using ValueFormatter = std::function<QString(double value)>;

    explicit TimePlot(const QString& title, QWidget* parent = nullptr);

    /// Adds a line (drawn after, so over, the lines added before); returns its index.
    int addLine(const QString& key);
    /// The line with this key, or -1.
    int lineIndex(const QString& key) const;
    const PlotLine& line(int index) const { return m_lines[index]; }
    int lineCount() const { return static_cast<int>(m_lines.size()); }

    void setLineLook(int index, const QString& name, const QPen& pen);
    void setLineVisible(int index, bool visible);
    /// New points for a line. Points that extend the drawn ones (same prefix) are
    /// drawn as new segments; anything else repaints the whole plot.
    void setPoints(int index, QList<QPointF> points);

    void setYScale(const PlotYScale& scale);
    const PlotYScale& yScale() const { return m_yScale; }
    void setTimeAxis(const PlotTimeAxis& axis);
    const PlotTimeAxis& timeAxis() const { return m_timeAxis; }

    /// Width of the widest y label of the current scale: stacked plots take the
    /// widest of them all (setYLabelWidthPx) so their time axes line up.
    int naturalYLabelWidthPx() const;
    void setYLabelWidthPx(int widthPx);

    void setHoverFormat(XFormatter formatX, ValueFormatter formatValue);

    /// Paints the whole plot into `target` of `painter` (PNG export: any size, no cache).
    void paintTo(QPainter& painter, const QRect& target) const;

    /// The plot area in widget coordinates.
    QRectF plotRect() const;
    /// Where a (time, value) point is drawn, in widget coordinates.
    QPointF positionOf(QPointF value) const;
    /// The tooltip at the measured point nearest to timeS on any visible line (rich
    /// text listing each line that has data there; empty when no line has data).
    QString textAt(double timeS) const;
    /// Where the crosshair is, in seconds; NaN while hidden.
    double shownX() const { return m_shownX; }

    /// Times the whole pixmap was drawn again, and times only new segments were
    /// added to it: what a repaint cost, counted (tests, not timing).
    int fullRepaintCount() const { return m_fullRepaints; }
    int segmentRepaintCount() const { return m_segmentRepaints; }

    /// A chart's useful size: a window holding only plots opens at a readable size.
    QSize sizeHint() const override { return { 480, 200 }; }
    // Four of them stack on the Live page: at 90 px each it fits a 700 px window with a long message.
    QSize minimumSizeHint() const override { return { 160, 90 }; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void invalidate();
    void rebuildCache();
    void drawNewSegments();
    /// Pixel polyline of points [from, end) of a line in `plot`.
    QPolygonF polyline(const PlotLine& line, const QRectF& plot, int from) const;
    void drawLines(QPainter& painter, const QRectF& plot) const;
    bool hasUndrawnSegments() const;
    double snappedX(double timeS) const;
    void showCrosshairAt(const QPoint& pos);
    void hideCrosshair();
    QRect crosshairRect(double timeS) const;

    QString m_title;
    QList<PlotLine> m_lines;
    PlotYScale m_yScale;
    PlotTimeAxis m_timeAxis;
    int m_yLabelWidthPx = 0;
    XFormatter m_formatX;
    ValueFormatter m_formatValue;

    /// plotRect() and naturalYLabelWidthPx() as last computed: a redraw asks for them for
    /// every line, and laying out measures every label (fonts, tick texts). Everything
    /// they depend on goes through invalidate() or setYScale().
    mutable QRectF m_plotRect;
    int m_naturalYLabelWidthPx = 0;

    QPixmap m_cache; ///< frame + lines as drawn so far, in widget pixels
    bool m_cacheValid = false;
    int m_fullRepaints = 0;
    int m_segmentRepaints = 0;
    double m_shownX;
};

} // namespace wb::ui
