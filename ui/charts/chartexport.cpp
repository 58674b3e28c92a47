#include "charts/chartexport.h"

#include "charts/chartstyle.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImageWriter>
#include <QLegend>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

void layoutNow(QChart* chart)
{
    // Axis and legend changes only post a layout request; invalidate + activate
    // runs the layout synchronously so plotArea() is current.
    chart->layout()->invalidate();
    chart->layout()->activate();
    // The legend has its own layout, which turns renamed or shown/hidden series
    // into marker labels; the chart's layout does not re-run it when the
    // legend's size stays the same.
    if (QGraphicsLayout* legendLayout = chart->legend()->layout()) {
        legendLayout->invalidate();
        legendLayout->activate();
    }
}

} // namespace

QList<int> splitByWeights(int total, const QList<int>& weights)
{
    int sum = 0;
    for (int w : weights)
        sum += w;
    QList<int> parts;
    int used = 0;
    for (qsizetype i = 0; i < weights.size(); ++i) {
        const int part = i + 1 == weights.size() ? total - used : total * weights[i] / std::max(sum, 1);
        parts.append(part);
        used += part;
    }
    return parts;
}

QImage renderCharts(const QList<ChartSlot>& placements, QSize size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);

    QList<QSizeF> oldSizes;
    for (const ChartSlot& s : placements) {
        oldSizes.append(s.chart->size());
        s.chart->resize(s.rect.size());
        layoutNow(s.chart);
    }

    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        for (const ChartSlot& s : placements) {
            if (QGraphicsScene* scene = s.chart->scene())
                scene->render(&painter, QRectF(s.rect), QRectF(s.chart->pos(), QSizeF(s.rect.size())));
        }
    }

    for (qsizetype i = 0; i < placements.size(); ++i)
        placements[i].chart->resize(oldSizes[i]);
    return image;
}

bool savePng(const QImage& image, const QString& path, QString* error)
{
    if (path.isEmpty()) {
        if (error) *error = QStringLiteral("No file name given.");
        return false;
    }
    if (image.isNull()) {
        if (error) *error = QStringLiteral("Nothing to export (empty image).");
        return false;
    }
    QImageWriter writer(path, "png");
    if (!writer.write(image)) {
        if (error) *error = QStringLiteral("Could not write %1: %2").arg(path, writer.errorString());
        return false;
    }
    return true;
}

} // namespace wb::ui
