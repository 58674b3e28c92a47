#pragma once
// The Compare tab, the heart of wrkbench: two or more runs (any targets,
// imported runs included) side by side. On top the table (first run =
// baseline, Δ % per metric coloured by better/worse), below it the overlaid
// charts: req/s over time, the latency percentile spectrum on a "nines" axis
// and req/s per run as bars. Everything exports: the table as CSV, each chart
// as PNG, and the whole comparison as one PNG report.

#include "store/sessiontypes.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace wb::ui {

class CompareCharts;
class CompareHeadlines;
class CompareModel;

class ComparePage : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePage(QWidget* parent = nullptr);

    /// The runs to compare, the first being the baseline.
    void setRuns(std::vector<RunData> runs);
    /// Makes runs()[index] the baseline.
    void setBaseline(int index);
    const std::vector<RunData>& runs() const { return m_runs; }
    /// Drops runs that are no longer in the session (deleted).
    void retainRuns(const std::vector<int64_t>& existingIds);

    bool exportCsv(const QString& path, QString* error = nullptr) const;
    /// Title, table and charts in one PNG, width pixels wide.
    bool exportReport(const QString& path, int width = 1600, QString* error = nullptr) const;

    CompareModel* model() const { return m_model; }
    CompareCharts* charts() const { return m_charts; }
    QTableView* table() const { return m_table; }

signals:
    void message(const QString& text);

private:
    void refresh();
    void applySpans();
    void askExportCsv();
    void askExportReport();
    void askExportChart(const QString& which);
    QImage renderTable(int width) const;

    std::vector<RunData> m_runs;
    CompareModel* m_model;
    QStackedWidget* m_stack;
    QLabel* m_title;
    QComboBox* m_baseline;
    QToolButton* m_export;
    QTableView* m_table;
    CompareHeadlines* m_headlines;
    CompareCharts* m_charts;
};

} // namespace wb::ui
