#pragma once
// The Experiments tab: the session's A-vs-B experiments (docs/EXPERIMENTS.md),
// creating one from a JSON plan file, running / resuming / stopping it off the
// UI thread (ExperimentTask), its progress (bar, ETA, current cell, repetition
// and target), its results table and charts (requests/s per level with error
// bars, latency per level, latency against throughput for sweeps), a warning above the table when
// the runs of a level differ in more than the variant, with CSV, PNG, Markdown (tables plus the
// chart PNGs) and one self-contained HTML report as exports.

#include "experiment/experimentplan.h"

#include <QString>
#include <QWidget>
#include <cstdint>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTreeWidget;

namespace wb {
struct ExperimentProgress;
}

class QPlainTextEdit;

class QSplitter;

namespace wb::ui {

class CapacityCards;
class CapacityDialog;
class ExperimentCharts;
class KneeChart;
class PlanEditor;
class ExperimentResultsModel;
class ExperimentTask;
class SessionDocument;
struct ExperimentTaskResult;

class ExperimentPage : public QWidget
{
    Q_OBJECT
public:
    explicit ExperimentPage(QWidget* parent = nullptr);

    /// The session whose experiments are shown (null: none). Stops nothing: the
    /// window settles a running experiment before it changes the session.
    void setDocument(SessionDocument* doc);

    /// Reads, validates and adds the plan in the JSON file at path, and selects
    /// it (a plan with "search": searchPlan()). On failure shows the parser's error under the
    /// buttons and returns 0.
    int64_t createFromPlanFile(const QString& path);
    /// Adds plan (checked by its parser) to the session and selects it; 0 and the error shown on failure.
    int64_t createFromPlan(ExperimentPlan plan);
    /// "New experiment…": the plan editor (PlanEditor) on a template of the session's first targets,
    /// open (not modal to the event loop); Create adds the plan, "Create and run" runs it too.
    PlanEditor* newExperiment();
    /// A plan with "search" (createFromPlan() hands those here): the capacity dialog on the plan's
    /// targets, SLOs and options, started at once when `start`; stored searches land here.
    CapacityDialog* searchPlan(ExperimentPlan plan, bool start = false);
    /// Runs (or resumes) the selected experiment. False when none or one is running.
    bool runSelected();
    void stop();
    bool selectExperiment(int64_t id);
    int64_t selectedExperimentId() const;
    /// Re-reads the list of experiments (and the selected one's results).
    void refresh();

    bool exportCsv(const QString& path);
    /// Also writes the two charts next to the report (<name>-rps.png, <name>-latency.png) and links them.
    bool exportMarkdown(const QString& path);
    /// One self-contained HTML report (engine/experiment/htmlreport.h): table, SVG charts, method, runs.
    bool exportHtml(const QString& path);
    /// Asks where and writes the HTML report (its button, File > Export > HTML report).
    void askExportHtml();
    /// Both charts side by side in one PNG.
    bool exportChartsPng(const QString& path);
    /// Asks where and writes both charts as one PNG (the Export button, File > Export).
    void askExportCharts();

    ExperimentTask* task() const { return m_task; }
    bool isRunning() const;
    ExperimentResultsModel* resultsModel() const { return m_results; }
    ExperimentCharts* charts() const { return m_charts; }

signals:
    void message(const QString& text);
    /// An experiment started or ended (the window's Run action depends on it).
    void runningChanged(bool running);
    /// Runs were added to the session by the experiment.
    void runsAdded();

private:
    void showProgress(const wb::ExperimentProgress& progress);
    void experimentFinished(const ExperimentTaskResult& result);
    void loadResults();
    void updateButtons();
    void showError(const QString& text);
    void askNewFromFile();
    void askExport(bool markdown);

    SessionDocument* m_doc = nullptr;
    CapacityCards* m_capacityCards = nullptr; ///< a capacity search's result, one card per target
    QPlainTextEdit* m_capacityText = nullptr; ///< a capacity search's result (in place of the table and charts)
    QSplitter* m_resultsSplit = nullptr; ///< the table and the charts
    ExperimentTask* m_task;
    ExperimentResultsModel* m_results;
    QTreeWidget* m_list;
    QPushButton* m_newButton;
    QPushButton* m_buildButton; ///< "New experiment…": the plan editor
    /// Said on the empty tab: what an experiment is and how to make one.
    QLabel* m_empty;
    QWidget* m_resultsArea = nullptr; ///< table, charts and exports: hidden while there is no experiment
    QPushButton* m_runButton;
    QPushButton* m_stopButton;
    QPushButton* m_csvButton;
    QPushButton* m_markdownButton;
    QPushButton* m_chartsButton;
    QPushButton* m_htmlButton;
    QLabel* m_error;
    QProgressBar* m_progress;
    QLabel* m_progressLabel;
    QLabel* m_summary;
    QTableView* m_table;
    ExperimentCharts* m_charts;
    /// Latency against throughput; hidden unless the results have two or more levels.
    KneeChart* m_knee;
    /// The warning above the table when the runs of a level differ in more than the variant.
    QLabel* m_comparability;
    QLabel* m_pooled; ///< the verdict pooled over the cells, one line per variant (several cells only)
};

} // namespace wb::ui
