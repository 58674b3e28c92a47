#pragma once
// The results of an experiment as a table: one row per load level and target
// (engine/experiment/experimentresults.h), with mean ± sd across repetitions,
// the ratio to the baseline with its 95% CI, the loss and the verdict.
// The baseline rows are marked ("*" after the name, bold). With groups, the
// level column reads "go-gin · c400" (each group compared with its own baseline);
// a study's targets are its variants. After the fixed
// columns, one column per SLO of the plan: repetitions that met it ("3/3"),
// red when one did not.

#include "experiment/experimentresults.h"

#include <QAbstractTableModel>

namespace wb::ui {

class ExperimentResultsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        LevelColumn,
        TargetColumn,
        RunsColumn,
        RpsColumn,
        P50Column,
        P99Column,
        ErrorsColumn, ///< socket, TLS and parse errors
        Non2xxColumn, ///< responses outside 2xx/3xx
        RatioColumn,
        LossColumn,
        VerdictColumn,
        COLUMN_COUNT, ///< the first SLO column: one per plan.slos from here
        FIRST_SLO_COLUMN = COLUMN_COUNT
    };
    /// The number behind a cell (mean req/s, mean p50 in us, ratio, loss %...); NaN when unknown.
    static constexpr int ValueRole = Qt::UserRole + 1;
    /// True on the baseline target's rows.
    static constexpr int BaselineRole = Qt::UserRole + 2;

    explicit ExperimentResultsModel(QObject* parent = nullptr);

    void setResults(ExperimentResults results);
    void clear();
    const ExperimentResults& results() const { return m_results; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString displayText(const ExperimentRow& row, int column) const;
    double value(const ExperimentRow& row, int column) const;
    /// The tally an SLO column shows, or null for the other columns.
    const SloTally* sloTally(const ExperimentRow& row, int column) const;

    ExperimentResults m_results;
};

} // namespace wb::ui
