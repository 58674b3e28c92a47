#pragma once
// An experiment built in the window: the targets to compare (the session's, and those an
// opened plan names), which one is the baseline and the group each belongs to; the load
// levels (one axis swept, or one level); repetitions, duration, warm-up, cool-down and
// order; the SLOs every run is judged by. Below the form, the plan in one line as
// `wrkbench-cli experiment --check` prints it (targets, levels, repetitions, the run count
// and about how long it takes), or what is wrong with it, naming the field.
//
// The plan is the CLI's: the form makes an ExperimentPlan, experimentPlanToJson() writes it
// and parseExperimentPlan() checks it (engine/experiment/experimentplan.h: one format, one
// owner). "Save plan…" writes that JSON; "Open plan…" reads any plan file the CLI takes.
// A plan whose levels are a hand-written list (not one swept axis) keeps them as written.

#include "common/result.h"
#include "experiment/experimentplan.h"

#include <QDialog>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace wb::ui {

class SessionDocument;

class PlanEditor : public QDialog
{
    Q_OBJECT
public:
    enum TargetColumn { UseColumn, NameColumn, BaselineColumn, GroupColumn, TARGET_COLUMNS };

    /// The targets offered are doc's (read once, when it opens).
    explicit PlanEditor(SessionDocument* doc, QWidget* parent = nullptr);

    /// A plan to start from: the session's first two targets (the first the baseline),
    /// connections 25 and 50, 3 interleaved repetitions of 10 s (the parser's defaults).
    void setTemplate();
    /// Shows plan (opened from a file, or to edit a copy).
    void setPlan(const ExperimentPlan& plan);
    /// The plan as the form shows it, as parseExperimentPlan() reads it back; the error names the field.
    Result<ExperimentPlan> plan() const;
    /// Reads a plan file as the CLI does; false (and the parser's error shown) when it does not validate.
    bool openPlanFile(const QString& path);
    /// Writes the plan as experimentPlanToJson() does; false with error when invalid or not written.
    bool savePlanFile(const QString& path, QString* error = nullptr);

    /// What the line under the form says: the plan in one line, or the problem.
    QString summaryText() const;
    /// True when "Create and run" closed the dialog (false: "Create").
    bool runAfterCreate() const { return m_runAfter; }

private:
    struct Row
    {
        ExperimentTarget target;
        bool inSession = true; ///< false: named by an opened plan; created with the experiment
    };

    void build();
    void fillTargets();
    void addRow(const Row& row, bool use);
    void updateSummary();
    void updateAxisFields();
    void askOpen();
    void askSave();
    void finish(bool run);

    SessionDocument* m_doc;
    std::vector<Row> m_rows;
    RunConfig m_base; ///< the load every level starts from (what the form has no field for kept as read)
    std::vector<LoadLevel> m_keptLevels; ///< an opened plan's hand-written levels, shown but not edited
    std::string m_description; ///< an opened plan's description, written back as it was
    bool m_runAfter = false;
    bool m_filling = false;

    QLineEdit* m_name;
    QTableWidget* m_targets;
    QComboBox* m_axis;
    QLineEdit* m_values;
    QCheckBox* m_matchThreads;
    QMap<QString, QLineEdit*> m_load; ///< every level's load settings, by key (settings/runsettings.h)
    QSpinBox* m_repetitions;
    QLineEdit* m_duration;
    QLineEdit* m_warmup;
    QLineEdit* m_cooldown;
    QComboBox* m_order;
    QLineEdit* m_slos;
    QLabel* m_summary;
    QPushButton* m_create;
    QPushButton* m_createAndRun;
};

} // namespace wb::ui
