#pragma once
// The Compare tab: two or more runs (any targets, imported runs included) side by side: the table (CompareModel) and a
// card per run on top, the overlaid charts below. The baseline starts as the first run given and can be changed from
// the Baseline box, a run column's context menu or a card. Runs that differ in more than the target get a warning row
// naming the fields (experiment/comparability.h). Everything exports: CSV, PNG, one HTML file (docs/GUI.md, "Compare").

#include "capacity/capacityrunner.h"
#include "store/sessiontypes.h"

#include <QWidget>

class QComboBox;
class QSplitter;
class QTabWidget;
class QLabel;
class QStackedWidget;
class QToolButton;

namespace wb::ui {

class CapacityCards;
class CompareCharts;
class CompareFrontDoor;
class TargetMetricsView;
class CompareHeadlines;
class CompareModel;
class CompareTableView;

class ComparePage : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePage(QWidget* parent = nullptr);

    /// The runs to compare, in the order of the Baseline box; the first is the baseline.
    void setRuns(std::vector<RunData> runs);
    /// The compared runs' targets' capacities (latestCapacities()), shown side by side in the
    /// Capacity tab beside the charts, the baseline run's target first; none: no tab.
    void setCapacities(std::vector<StoredCapacity> capacities);
    CapacityCards* capacityCards() const { return m_capacity; }
    /// Makes the run with this id the baseline (table, cards and charts follow).
    void setBaselineRun(qint64 runId);
    /// The runs in the order given (model()->runs() has them as shown, baseline first).
    const std::vector<RunData>& runs() const { return m_runs; }
    /// Drops runs that are no longer in the session (deleted); the baseline
    /// stays unless it was deleted.
    void retainRuns(const std::vector<int64_t>& existingIds);

    bool exportCsv(const QString& path, QString* error = nullptr) const;
    /// The comparison as one self-contained HTML page (engine/experiment/comparisonhtml.h, as
    /// `wrkbench-cli export --html` writes it), the shown baseline first.
    bool exportHtml(const QString& path, QString* error = nullptr) const;
    void askExportHtml();
    /// Ask where and write, as the Export button and File > Export do: the table as CSV,
    /// the whole comparison as one PNG, one chart ("rps", "spectrum" or "bars") as PNG.
    void askExportCsv();
    void askExportReport();
    void askExportChart(const QString& which);
    /// Title, table and charts in one PNG: width pixels wide, or as wide as
    /// the table when that is wider (many runs), plus the margins.
    bool exportReport(const QString& path, int width = 1600, QString* error = nullptr) const;

    /// Around the report's content, and the height of its title above the table.
    static constexpr int REPORT_MARGIN = 24;
    static constexpr int REPORT_TITLE_HEIGHT = 56;

    CompareModel* model() const { return m_model; }
    CompareCharts* charts() const { return m_charts; }
    CompareFrontDoor* frontDoor() const { return m_frontDoor; }
    /// Charts, "Behind the front door" and "Capacity" as tabs under the table, while a compared run
    /// has backends or upstream times or its target a stored capacity (in the splitter then; the
    /// charts alone otherwise).
    QTabWidget* lowerTabs() const { return m_lower; }
    /// The runs' target metrics overlaid (hidden when none of them scraped any).
    TargetMetricsView* targetMetrics() const { return m_metrics; }

signals:
    void message(const QString& text);

private:
    /// Everything but the table follows the model (after each reset: runs or baseline changed).
    void modelChanged();
    QImage renderTable(int width) const;

    std::vector<RunData> m_runs;
    CompareModel* m_model;
    QStackedWidget* m_stack;
    QLabel* m_title;
    /// The warning row above the table: shown when the runs differ in more than the target
    /// (threads, connections, duration, rate, protocol, TLS verification, engine version, loader
    /// host, imported vs measured: engine/experiment/comparability.h).
    QLabel* m_warning;
    QString m_warningText; ///< also drawn into the PNG report
    QComboBox* m_baseline;
    QToolButton* m_export;
    CompareTableView* m_table;
    CompareHeadlines* m_headlines;
    CompareCharts* m_charts;
    CompareFrontDoor* m_frontDoor; ///< evenness and front-door share side by side (a tab, without them none)
    QTabWidget* m_lower = nullptr; ///< the charts and "Behind the front door", while a run has it
    QSplitter* m_split = nullptr; ///< the table and cards, the charts (or m_lower), the target's metrics
    /// The tabs under the table: the charts, and each of the others that has something to show.
    void showLowerTabs(bool frontDoor, bool capacity);
    /// The capacity cards for the shown runs' targets, the baseline's first.
    void updateCapacity();
    TargetMetricsView* m_metrics;
    qint64 m_baselineShown = 0; ///< to tell the user when the baseline changed
    bool m_replacingRuns = false; ///< new runs, not a new baseline: no message
    std::vector<StoredCapacity> m_capacities;
    QWidget* m_capacityPage; ///< m_capacity in a scroll area, the Capacity tab
    CapacityCards* m_capacity;
};

} // namespace wb::ui
