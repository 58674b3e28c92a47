#pragma once
// "Find capacity…": the most load the selected targets carry while the profile's SLOs hold, found
// by the same search as `wrkbench-cli capacity` (engine/capacity), with the profile's threads,
// connections and other settings for each trial. The SLOs and the search's options are asked here
// (the profile's SLOs first; none: the dialog asks for them). The search shows live (each trial a
// point at its offered rate, the SLO line, the brackets narrowing, the budget left), ends in the
// result and its explanation, and is stored in the session as an experiment of kind capacity.

#include "control/capacitytask.h"
#include "experiment/plansearch.h"
#include "store/sessiontypes.h"

#include <QColor>
#include <QDialog>
#include <QMap>
#include <QStringList>
#include <optional>
#include <utility>
#include <vector>

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace wb::ui {

class CapacityCards;
class CapacityChart;

class CapacityDialog : public QDialog
{
    Q_OBJECT
public:
    /// targets: the session's, `selected` checked and the baseline of a comparison (check others to
    /// compare them with it); profile: every trial's settings.
    CapacityDialog(std::vector<Target> targets, int64_t selected, LoadProfile profile, QString sessionPath,
        QWidget* parent = nullptr);
    /// A plan's search ("search" in an experiment plan): every one of its targets (the session's, as
    /// planSearchSetup() found them, in the plan's order; the first the baseline), each trial the
    /// plan's load; the SLOs and options start as the plan gives them.
    CapacityDialog(
        std::vector<Target> planTargets, PlanSearchSetup plan, QString sessionPath, QWidget* parent = nullptr);
    ~CapacityDialog() override;

    /// Starts the search with what the fields say; false (and the problem shown) when they do not read.
    bool startSearch();
    void stopSearch();
    bool isSearching() const;

    QLineEdit* sloEdit() const { return m_slo; }
    /// Checks (or unchecks) a target for the search.
    void setTargetChecked(int64_t targetId, bool checked);
    QLineEdit* optionEdit(const QString& key) const { return m_options.value(key); }
    CapacityChart* chart() const { return m_chart; }
    /// The result, one card per target, shown when the search ends.
    CapacityCards* cards() const { return m_cards; }
    QString statusText() const;
    QString resultText() const;
    CapacityTask* task() const { return m_task; }

signals:
    /// A search was stored (its experiment id): the Experiments page shows it.
    void searchStored(qint64 experimentId);

protected:
    void reject() override;

private:
    void trialEvent(const CapacityTrialEvent& event);
    void searchFinished(const CapacityTaskResult& result);
    void updateButtons();

    /// The searched targets' names and colours, by index (the chart's and the cards').
    std::pair<QStringList, QList<QColor>> legend() const;
    /// The checked targets, the selected one first.
    std::vector<Target> chosenTargets() const;

    std::vector<Target> m_all;
    int64_t m_selected = 0;
    std::vector<Target> m_targets; ///< the search's (chosen at Start)
    std::optional<PlanSearchSetup> m_plan; ///< a plan's search: its targets' settings, not the profile's
    QListWidget* m_list;
    LoadProfile m_profile;
    QString m_sessionPath;
    QLineEdit* m_slo;
    QMap<QString, QLineEdit*> m_options;
    QLabel* m_problem;
    QLabel* m_status;
    CapacityChart* m_chart;
    CapacityCards* m_cards;
    QPlainTextEdit* m_result;
    QPushButton* m_start;
    QPushButton* m_stop;
    CapacityTask* m_task;
};

} // namespace wb::ui
