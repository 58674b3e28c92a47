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
/// the duration and restored afterwards) onto a white image of `size`.
QImage renderCharts(const QList<ChartSlot>& placements, QSize size);

/// Writes a PNG; on failure fills `error` with the writer's message.
bool savePng(const QImage& image, const QString& path, QString* error);

/// Splits `total` pixels into parts proportional to `weights`.
QList<int> splitByWeights(int total, const QList<int>& weights);

} // namespace wb::ui
