#pragma once
// One stored run, opened from the history: its charts (as recorded), the
// summary, status codes, errors, and the full percentile spectrum; a badge
// per SLO it was judged by, pass or fail with the value; for a run with stages,
// latency against throughput (a point per stage).

#include "store/sessiontypes.h"

#include <QWidget>

class QLabel;
class QTableWidget;
class QTabWidget;

namespace wb::ui {

class BackendsTab;
class FrontDoorTab;
class KneeChart;
class LiveCharts;
class TargetMetricsView;
class SloBadges;

class RunDetailPage : public QWidget
{
    Q_OBJECT
public:
    explicit RunDetailPage(RunData data, QWidget* parent = nullptr);

    int64_t runId() const { return m_data.run.id; }
    const RunData& data() const { return m_data; }
    LiveCharts* charts() const { return m_charts; }
    BackendsTab* backendsTab() const { return m_backendsTab; }
    FrontDoorTab* frontDoorTab() const { return m_frontDoorTab; }
    /// The target's metrics of the run (hidden when it scraped none).
    TargetMetricsView* targetMetrics() const { return m_metrics; }

    /// Writes one of the engine's CSV tables for this run: "summary", "series", "percentiles", "status".
    bool exportCsv(const QString& what, const QString& path, QString* error = nullptr) const;
    /// Asks where and writes the run's charts as PNG (its Export button, File > Export).
    void askExportPng();

signals:
    void message(const QString& text);
    void compareWith(qint64 runId);

private:
    void fillSummary();
    void fillStatus();
    void fillErrors();
    void fillSpectrum();
    void fillEntries();
    void fillLoaders();
    void askExportCsv(const QString& what);

    RunData m_data;
    LiveCharts* m_charts;
    TargetMetricsView* m_metrics = nullptr;
    SloBadges* m_slo;
    QTableWidget* m_summary;
    QTableWidget* m_status;
    QTableWidget* m_errors;
    QTableWidget* m_spectrum;
    QTableWidget* m_entries = nullptr; ///< a request mix: one row per entry (absent without a mix)
    QTableWidget* m_loaders = nullptr; ///< a run of several loaders: one row each (absent otherwise)
    KneeChart* m_knee = nullptr; ///< a run with stages: a point per stage (absent otherwise)
    BackendsTab* m_backendsTab = nullptr; ///< --backend-from (absent otherwise)
    FrontDoorTab* m_frontDoorTab = nullptr; ///< --upstream-time (absent otherwise)
};

} // namespace wb::ui
