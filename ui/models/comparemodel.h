#pragma once
// The side-by-side comparison of two or more runs: one row per metric, one
// column per run, the first run is the baseline and every other run gets a
// "Δ %" column next to it: (run - baseline) / baseline, coloured green when
// better for that metric (more req/s, less latency, fewer errors) and red
// when worse. As in the studies wrkbench replaces ("loss vs native").
//
//   | Metric          | #3 NEG (baseline) | #5 NodePort | Δ %     |
//   | Requests/s      |         34,893.2  |   22,101.7  | −36.7 % |
//   | Latency p99 (ms)|            14.1   |      31.9   | +126 %  |

#include "store/sessiontypes.h"

#include <QAbstractTableModel>
#include <functional>
#include <vector>

namespace wb::ui {

class CompareModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        ValueRole = Qt::UserRole, ///< raw number (NaN when unknown) or delta in percent
        MetricKeyRole, ///< stable key of the row: "rps", "p99", ...
        IsSectionRole, ///< a section title row ("Latency (ms)"): views span it
        IsDeltaRole, ///< the cell is a Δ % column
    };
    enum class Better { Higher, Lower, Neither };

    explicit CompareModel(QObject* parent = nullptr);

    /// The runs to compare; the first is the baseline.
    void setRuns(std::vector<RunRecord> runs);
    const std::vector<RunRecord>& runs() const { return m_runs; }
    /// Makes runs()[index] the baseline (moves it first).
    void setBaseline(int index);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Column of run i's values, and of its Δ % (-1 for the baseline).
    static int valueColumn(int run) { return run == 0 ? 1 : 2 * run; }
    static int deltaColumn(int run) { return run == 0 ? -1 : 2 * run + 1; }
    /// The row of a metric key ("rps", "p50", ...), or -1.
    int rowOfMetric(const QString& key) const;
    /// Raw value of a metric for run i (NaN when unknown or not a number row).
    double value(const QString& key, int run) const;
    /// (run - baseline) / baseline * 100; NaN when the baseline is 0 or unknown.
    double deltaPct(const QString& key, int run) const;

    /// The whole table as CSV: raw numbers (no separators), Δ as percent.
    QString toCsv() const;
    /// A short label for a run: "#12 NEG ingress".
    static QString runLabel(const RunRecord& run);

private:
    struct Row
    {
        QString key;
        QString title;
        bool section = false;
        Better better = Better::Neither;
        std::function<double(const RunRecord&)> number; ///< null: a text row
        std::function<QString(double)> format;
        std::function<QString(const RunRecord&)> text;
    };
    void buildRows();
    /// Which run a column shows, and whether it is a Δ column.
    int runOfColumn(int column, bool* isDelta) const;
    QVariant cellDisplay(const Row& row, int run, bool isDelta) const;

    std::vector<RunRecord> m_runs;
    std::vector<Row> m_rows;
};

} // namespace wb::ui
