#pragma once
// The target's own metrics (--scrape, the target's Metrics field) as one TimePlot under the load
// curves: the series chosen in the combo box, one line per source. Live, a source is an endpoint
// and each scrape adds a point (RunTask::scrapeReceived); in run details a stored run's record
// is shown whole; in Compare each run is a source, so NEG's backend CPU overlays NodePort's.
// Points are kept with their wall-clock time and placed on the load's time axis (0 s = the run's
// measurement start), so they line up with the charts above; the plot hides itself while it has
// nothing to show.

#include "prometheus/exposition/scraperecord.h"
#include "store/sessiontypes.h"

#include <QComboBox>
#include <QMap>
#include <QTimer>
#include <QWidget>

namespace wb {
struct ScrapeTick;
}

namespace wb::ui {

class TimePlot;
struct PlotTimeAxis;

/// 0 s of a stored run's charts as a wall-clock time (unix ms): its first interval's start less
/// that interval's offset; the run's start when it has no interval with a wall clock.
int64_t measureStartUnixMs(const RunData& data);
/// The end of its load on the same clock: its last interval's end (0 without intervals).
int64_t loadEndUnixMs(const RunData& data);

class TargetMetricsView : public QWidget
{
    Q_OBJECT
public:
    explicit TargetMetricsView(QWidget* parent = nullptr);

    /// Forgets every series (a new run, another selection).
    void clear();
    /// 0 s on the time axis: the run's measurement start (unix ms). Live, it is known with the
    /// first interval; points that arrive before wait for it.
    void setOriginUnixMs(int64_t originUnixMs);
    /// One scrape of one endpoint of the running run (spec: the run's, for the endpoints' names).
    void addTick(const ScrapeSpec& spec, const ScrapeTick& tick);
    /// When the running run's load ended (unix ms; 0 while it runs): see addRecord.
    void setLoadEndUnixMs(int64_t loadEndUnixMs);
    /// A stored run's series: one line per endpoint, named "prefix endpoint" (prefix "" for one run).
    /// A point whose window began when the load had ended (the scrape after the run) measures the
    /// idle target, past the load charts' end: it is not drawn (`loadEndUnixMs` 0: all are).
    void addRecord(const QString& prefix, const ScrapeRecord& record, int64_t originUnixMs, int64_t loadEndUnixMs = 0);
    /// The time axis of the charts above (the load's), so that both read alike.
    void setTimeAxis(const PlotTimeAxis& axis);
    /// Compare: every run's metrics overlaid, each run a source ("label endpoint"), from its own start.
    void setRuns(const std::vector<std::pair<QString, const RunData*>>& runs);

    /// Every series label ("node_cpu_busy_percent %"), in the order they appeared.
    QStringList seriesLabels() const;
    QString chosen() const { return m_choice->currentText(); }
    void choose(const QString& label);
    TimePlot* plot() const { return m_plot; }

signals:
    /// After each redraw: its y labels may have changed width (the load charts line up with it).
    void redrawn();

public:
    /// Applies what is pending now rather than at the next coalesced redraw.
    void redrawNow();

private:
    struct Line
    {
        QString source;
        int64_t originUnixMs = 0; ///< 0: the view's origin (live)
        int64_t loadEndUnixMs = 0; ///< stored runs; live: the view's
        QList<ScrapePoint> points;
    };
    void add(const QString& label, const QString& source, int64_t originUnixMs, int64_t loadEndUnixMs,
        const ScrapePoint& point);
    void scheduleRedraw();
    void redraw();

    QComboBox* m_choice;
    TimePlot* m_plot;
    QStringList m_order; ///< labels as they appeared
    QMap<QString, QList<Line>> m_series; ///< label -> one line per source
    int64_t m_originUnixMs = 0;
    int64_t m_loadEndUnixMs = 0;
    QTimer m_redrawTimer;
    bool m_userChose = false;
};

} // namespace wb::ui
