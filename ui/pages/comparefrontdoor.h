#pragma once
// Compare, behind the front door: for the compared runs made with --backend-from or
// --upstream-time, their evenness (backends, max/min share, CV, chi-square p-value) and
// their front door's share (the mean split) side by side, one column per run, the
// baseline first, as the Compare table orders them. The figures are the experiments'
// run metrics (engine/experiment/runmetric.h) of each run's stored breakdown, so a
// study over the same runs shows the same values. Compare shows it as a tab beside its charts,
// only when a run has either (hasData()).

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
    /// A compared run was made with --backend-from or --upstream-time.
    bool hasData() const { return m_hasData; }

private:
    QTableWidget* m_table;
    bool m_hasData = false;
};

} // namespace wb::ui
