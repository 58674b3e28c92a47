#pragma once
// Compare, behind the front door: for the compared runs made with --backend-from or
// --upstream-time, their evenness (backends, max/min share, CV, chi-square p-value) and
// their front door's share (the mean split) side by side, one column per run, the
// baseline first, as the Compare table orders them. The figures are the experiments'
// run metrics (engine/experiment/runmetric.h) of each run's stored breakdown, so a
// study over the same runs shows the same values. Hidden when no run has either.

#include "store/frontdoorview.h"

#include <QWidget>

class QTableWidget;

namespace wb::ui {

class CompareFrontDoor : public QWidget
{
    Q_OBJECT
public:
    explicit CompareFrontDoor(QWidget* parent = nullptr);

    /// The runs as the comparison shows them (baseline first); labels beside them.
    void setRuns(const std::vector<const RunData*>& runs, const QStringList& labels);
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table;
};

} // namespace wb::ui
