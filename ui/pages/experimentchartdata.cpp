#include "pages/experimentchartdata.h"

#include "charts/comparecharts.h"
#include "experiment/experimentresults.h"
#include "experiment/kneecurve.h"

#include <cmath>
#include <limits>

namespace wb::ui {

ExperimentChartData experimentChartData(const ExperimentResults& results)
{
    const double notKnown = std::numeric_limits<double>::quiet_NaN();
    const auto ms = [](double us) { return us / 1000.0; };
    ExperimentChartData data;
    for (const LoadLevel& level : results.plan.levels)
        data.levels.append(QString::fromStdString(level.label));
    const std::vector<std::string> groups = results.grouped() ? results.groups : std::vector<std::string> { "" };
    for (const std::string& group : groups)
        for (size_t t = 0; t < results.plan.targets.size(); ++t) {
            const ExperimentTarget& target = results.plan.targets[t];
            const auto rowOf = [&](size_t cell) -> const ExperimentRow* {
                for (const ExperimentRow& r : results.rows)
                    if (r.cell == cell && r.target == t && r.group == group) return &r;
                return nullptr;
            };
            ExperimentChartData::Series series;
            series.target = QString::fromStdString(group.empty() ? target.name : group + " " + target.name);
            series.color = QColor::fromRgb(results.seriesColor(group, t)); // the HTML report's too
            bool any = false;
            for (size_t cell = 0; cell < results.plan.levels.size(); ++cell) {
                const ExperimentRow* row = rowOf(cell);
                const bool done = row && row->requestsPerS.n > 0;
                any = any || row;
                series.rpsMean.append(done ? row->requestsPerS.mean : notKnown);
                series.rpsSd.append(done && row->requestsPerS.n > 1 ? row->requestsPerS.stdev : notKnown);
                series.p50Ms.append(done && row->p50Us.n > 0 ? ms(row->p50Us.mean) : notKnown);
                series.p99Ms.append(done && row->p99Us.n > 0 ? ms(row->p99Us.mean) : notKnown);
            }
            // A study lists only the cells that have runs: a group without this variant has no series.
            if (any) data.targets.append(series);
        }
    return data;
}

KneeChartData experimentKneeData(const ExperimentResults& results)
{
    const ExperimentChartData levels = experimentChartData(results);
    KneeChartData data;
    for (const KneeCurve& curve : experimentKneeCurves(results)) {
        KneeChartData::Series series;
        series.name = QString::fromStdString(curve.name);
        for (const ExperimentChartData::Series& s : levels.targets)
            if (s.target == series.name) series.color = s.color;
        for (const KneePoint& p : curve.points) {
            series.labels.append(QString::fromStdString(p.label));
            series.p50.append(QPointF(p.requestsPerS, p.p50Us / 1000.0));
            if (std::isfinite(p.p99Us)) series.p99.append(QPointF(p.requestsPerS, p.p99Us / 1000.0));
        }
        data.series.append(series);
    }
    return data;
}

} // namespace wb::ui
