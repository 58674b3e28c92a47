#pragma once
// Run details, Front door tab (--upstream-time): the total time, the upstream's and the front
// door's (total minus upstream) side by side, p50/p90/p99/max/mean each, the mean split (which
// adds, where percentiles do not) and the responses that stated no upstream time; above it the
// same as a chart (charts/frontdoorchart.h). From the stored intervals (store/frontdoorview.h).

#include "charts/frontdoorchart.h"
#include "store/frontdoorview.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace wb::ui {

/// The chart's data for a stored run's split: what the tab draws.
FrontDoorChartData frontDoorChartDataOf(const FrontDoorView& view, bool openModel);

class FrontDoorTab : public QWidget
{
    Q_OBJECT
public:
    FrontDoorTab(const FrontDoorView& view, const RunConfig& config, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    FrontDoorChart* chart() const { return m_chart; }
    QLabel* note() const { return m_note; }

private:
    QTableWidget* m_table;
    FrontDoorChart* m_chart;
    QLabel* m_note;
};

} // namespace wb::ui
