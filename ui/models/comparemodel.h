#pragma once
// The side-by-side comparison of two or more runs: one row per metric, one column per run, the baseline first (the
// first run given, unless setBaseline() picks another) and a "Δ %" column beside every other run: green when better
// for that metric, red when worse, grey within the runs' own noise (experiment/runcomparison.h owns that rule). A
// "Loss vs baseline" row says req/s as the studies wrkbench replaces do, and runs judged by SLOs get an "SLOs" section
// (docs/GUI.md, "Compare").

#include "experiment/experimentstats.h" // Better
#include "experiment/runcomparison.h"
#include "store/sessiontypes.h"

#include <QAbstractTableModel>
#include <QColor>
#include <functional>
#include <limits>
#include <map>
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
        RunIndexRole, ///< the run a column shows (index into runs()), -1 for the metric column
    };

    /// How req/s varied between the intervals of a run (stored runs have
    /// intervals; imported wrk reports do not).
    struct RateSpread
    {
        double stdev = std::numeric_limits<double>::quiet_NaN(); ///< sample stdev of the interval rates
        int intervals = 0; ///< how many intervals it was computed from
    };

    explicit CompareModel(QObject* parent = nullptr);

    /// The runs to compare, in the order given; the first is the baseline.
    void setRuns(std::vector<RunRecord> runs);
    /// The same, with what only the full data has (req/s spread over the
    /// intervals); baselineId picks the baseline (0 or absent: the first).
    void setRuns(const std::vector<RunData>& runs, int64_t baselineId = 0);
    /// The runs as shown: the baseline first, then the others in the order given.
    const std::vector<RunRecord>& runs() const { return m_runs; }
    /// The runs in the order given to setRuns() (the order of the Baseline box).
    const std::vector<RunRecord>& givenRuns() const { return m_given; }
    /// Makes runs()[index] the baseline: it moves first, the others keep the order given.
    void setBaseline(int index);
    /// Makes the run with this id the baseline; false when it is not compared.
    bool setBaselineRun(int64_t runId);
    /// Id of the baseline run (0 when there is none).
    int64_t baselineId() const { return m_runs.empty() ? 0 : m_runs.front().id; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Column of run i's values, and of its Δ % (-1 for the baseline).
    static int valueColumn(int run) { return run == 0 ? 1 : 2 * run; }
    static int deltaColumn(int run) { return run == 0 ? -1 : 2 * run + 1; }
    /// Which run a column shows (-1 for the metric column), and whether it is a Δ column.
    int runOfColumn(int column, bool* isDelta = nullptr) const;
    /// The row of a metric key ("rps", "p50", ...), or -1.
    int rowOfMetric(const QString& key) const;
    /// Raw value of a metric for run i (NaN when unknown or not a number row).
    double value(const QString& key, int run) const;
    /// (run - baseline) / baseline * 100; NaN when the baseline is 0 or unknown,
    /// and for rows without a Δ (the loss row, spreads).
    double deltaPct(const QString& key, int run) const;
    /// Loss of req/s vs the baseline in percent, as the studies put it:
    /// (1 - run / baseline) * 100, positive when slower; NaN when unknown.
    double lossPct(int run) const;
    /// "36.66 % loss vs the baseline #3 NEG", or "no loss: 12.00 % faster than ..."; empty for the baseline.
    QString lossText(int run) const;
    /// req/s spread over run i's intervals.
    const RateSpread& rateSpread(int run) const { return m_spread[static_cast<size_t>(run)]; }
    /// How much a metric ("rps", "p99", ...) varies by itself for run i, in percent of its mean
    /// (coefficient of variation): between the runs of its target and load when the comparison
    /// holds two or more of them, else between the run's own intervals; NaN when not known.
    double noisePct(const QString& key, int run) const;
    /// The noise a Δ of run i against the baseline is held to: the larger of the two runs'
    /// noisePct (the intervals' when both are runs of one target and load); NaN when not known.
    double noiseAgainstBaselinePct(const QString& key, int run) const;
    /// True when run i's Δ of this metric is smaller than that noise: within the runs' own
    /// variation, so neither a gain nor a loss (shown grey, never green or red).
    bool withinNoise(const QString& key, int run) const;
    /// Coefficients of variation (%) of req/s and the latency fields between a stored run's
    /// intervals (those at least half as long as the longest), by metric key.
    static std::map<std::string, double> intervalNoiseOf(const RunData& data);
    /// The colour of run i in every chart and card: its target's, with a variant
    /// per repeated target in the order given (so it does not change with the baseline).
    QColor runColor(int run) const;

    /// One line title of a column: "Metric", "#3 NEG (baseline)", "#5 NodePort", "Δ vs #3".
    QString columnTitle(int column) const;
    /// The whole table as CSV: raw numbers (no separators), Δ as percent. Each metric's name
    /// carries its unit ("p99_us", "rps_req_per_s", "transfer_bytes_per_s"; counts none); an SLO
    /// is two rows, "slo:EXPR:met" (true/false) and "slo:EXPR:value_UNIT".
    QString toCsv() const;
    /// A short label for a run: "#12 NEG ingress".
    static QString runLabel(const RunRecord& run);
    /// req/s spread between the intervals of a stored run.
    static RateSpread rateSpreadOf(const RunData& data);

private:
    struct Row
    {
        QString key;
        QString title;
        bool section = false;
        bool noDelta = false; ///< no Δ column: the row already compares (loss) or a Δ would mislead (spreads)
        Better better = Better::Neither;
        std::function<double(int run)> number; ///< null: a text row
        std::function<QString(double)> format;
        QString unit; ///< of number(): "us", "req_per_s", "bytes_per_s", "s", "pct"; "" for counts
        std::function<QString(int run)> display; ///< when set, shown instead of format(number)
        std::function<QString(const RunRecord&)> text;
        std::function<QColor(const RunRecord&)> color; ///< text rows: the colour of a run's cell (invalid: none)
    };
    void buildRows();
    /// The "SLOs" section: only when a compared run was judged by SLOs.
    void buildSloRows();
    /// Puts the run with baselineId first, the others in the order given.
    void arrange(int64_t baselineId);
    QVariant cellDisplay(const Row& row, int run, bool isDelta) const;
    /// The two CSV rows of one SLO expression (see toCsv).
    std::string sloCsvRows(const std::string& expr) const;

    std::vector<RunRecord> m_given;
    std::vector<RateSpread> m_givenSpread;
    std::vector<std::map<std::string, double>> m_givenNoise;
    std::vector<RunRecord> m_runs;
    std::vector<RateSpread> m_spread;
    /// The shown runs with their interval noise: the noise rule's owner (experiment/runcomparison.h).
    RunComparison m_comparison;
    std::vector<Row> m_rows;
};

} // namespace wb::ui
