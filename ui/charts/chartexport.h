#pragma once
// Rendering charts into images (for PNG export) without touching the screen,
// so it works the same under the offscreen platform as in a desktop session.

#include <QImage>
#include <QList>
#include <QRect>
#include <QString>

class QChart;

namespace wb::ui {

/// Where one chart goes in the exported image.
struct ChartSlot
{
    QChart* chart = nullptr;
    QRect rect;
};

/// Renders each chart laid out at its slot's size (the charts are resized for
/// the duration and restored afterwards) onto a white image of `size`. With
/// alignLeft, the plot areas of the charts share their left edge (stacked time charts).
QImage renderCharts(const QList<ChartSlot>& placements, QSize size, bool alignLeft);

/// Writes a PNG; on failure fills `error` with the writer's message.
bool savePng(const QImage& image, const QString& path, QString* error);

/// Which charts alignPlotAreas() lays out again.
enum class ChartRelayout {
    All, ///< every chart, legends included (after series were renamed, shown or hidden)
    Pending, ///< only charts whose layout is invalid (an axis changed): a full layout
             ///< re-shapes every label through QTextDocument, for charts that did not change too
};

/// Lays the charts out now (instead of on the next event loop pass) and widens
/// the left margins so that all plot areas start at the same x, which keeps the
/// time axes of stacked charts lined up whatever the widths of their y labels.
void alignPlotAreas(const QList<QChart*>& charts, ChartRelayout relayout = ChartRelayout::All);

/// Splits `total` pixels into parts proportional to `weights`.
QList<int> splitByWeights(int total, const QList<int>& weights);

} // namespace wb::ui
