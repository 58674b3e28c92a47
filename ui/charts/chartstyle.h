#pragma once
// The look shared by every chart: a clean light theme, fonts, grid colours,
// series pens, number formatting. Keeping it in one place is what makes the
// live, stored and comparison charts look like one product.

#include <QColor>
#include <QFont>
#include <QLocale>
#include <QPen>
#include <QString>

class QAbstractAxis;
class QChart;
class QChartView;
class QLineSeries;

namespace wb::ui {

namespace chartcolors {
inline const QColor TEXT { 0x33, 0x33, 0x33 };
inline const QColor AXIS_LABEL { 0x55, 0x55, 0x55 };
inline const QColor GRID { 0xe4, 0xe4, 0xe4 };
inline const QColor MINOR_GRID { 0xf2, 0xf2, 0xf2 };
inline const QColor AXIS_LINE { 0xb0, 0xb0, 0xb0 };
inline const QColor ERRORS { 0xd6, 0x27, 0x28 }; ///< socket/TLS/parse errors
inline const QColor NON2XX { 0xf2, 0x8e, 0x2b }; ///< non-2xx responses
inline const QColor TARGET_RATE { 0x55, 0x55, 0x55 }; ///< open model schedule
} // namespace chartcolors

/// Left margin of every chart.
constexpr int CHART_MARGIN_LEFT = 6;

/// The charts' font at this size (the application font's family).
QFont chartFont(qreal pointSize, bool bold = false);
/// The locale of every chart number: en-US group separators whatever the system's.
QLocale chartLocale();

/// Applies the wrkbench theme to a new chart (call before adding series).
void styleChart(QChart* chart, const QString& title);
/// Applies fonts and grid colours to an axis.
void styleAxis(QAbstractAxis* axis, const QString& title = {});
/// A view with antialiasing, no frame, white background.
void styleView(QChartView* view);
/// The pen of a chart line: round caps and joins, short dashes for Qt::DashLine.
QPen linePen(const QColor& color, qreal width = 2.0, Qt::PenStyle style = Qt::SolidLine);
/// Sets a line series' pen (call after the series is added: adding re-applies the theme).
void setLinePen(QLineSeries* series, const QColor& color, qreal width = 2.0, Qt::PenStyle style = Qt::SolidLine);

/// Keeps the legend visible only while all its labels fit on one line across
/// the chart (a top legend does not wrap: Qt would cut them to "#21 N..."):
/// re-checked whenever the chart is resized; call updateLegendFit() after
/// adding, removing or renaming series.
void autoHideLegend(QChart* chart);
void updateLegendFit(QChart* chart);

/// `color` blended towards white by `amount` (0 = unchanged, 1 = white).
QColor tint(const QColor& color, double amount);
/// `color` blended towards black by `amount`.
QColor shade(const QColor& color, double amount);

/// 34,893 / 12.5 / 0.042: thousands separators, decimals by magnitude.
QString formatNumber(double value);
/// Latency in ms with 3 significant digits ("2.91 ms", "14.1 ms", "812 ms").
QString formatMs(double ms);

} // namespace wb::ui
