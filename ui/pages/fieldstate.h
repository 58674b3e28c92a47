#pragma once
// Marks an input as wrong (red border, the reason as tooltip) or right again.
// Used by every editor so that bad input looks the same everywhere.

#include <QString>

class QWidget;

namespace wb::ui {

/// problem empty: clears the mark (and restores the widget's normal tooltip).
void setFieldProblem(QWidget* field, const QString& problem);
/// Changes field's normal tooltip: shown now, or once its problem is cleared.
void setFieldToolTip(QWidget* field, const QString& tip);
/// The problem set on field ("" when none).
QString fieldProblem(const QWidget* field);

} // namespace wb::ui
