#include "pages/targetmetricsview.h"

#include "charts/comparecharts.h"
#include "charts/niceaxis.h"
#include "charts/plotaxes.h"
#include "charts/timeplot.h"
#include "prometheus/scrape/scraper.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

constexpr int REDRAW_MS = 100; // as LiveCharts: coalesced, never once per scrape
constexpr int Y_MAX_INTERVALS = 4;

/// The series a view starts with: a preset's share (CPU busy) says most at a glance.
int preference(const QString& label)
{
    if (label.contains(QStringLiteral("busy_percent"))) return 0;
    if (label.endsWith(QStringLiteral(" %"))) return 1;
    if (label.endsWith(QStringLiteral(" p99"))) return 2;
    if (label.endsWith(QStringLiteral(" /s"))) return 3;
    return 4;
}

QString labelOf(const std::string& name, SeriesKind kind)
{
    return QString::fromStdString(ScrapeSeries { 0, name, kind, {} }.label());
}

} // namespace

int64_t measureStartUnixMs(const RunData& data)
{
    if (!data.intervals.empty() && data.intervals.front().startUnixMs)
        return data.intervals.front().startUnixMs - static_cast<int64_t>(data.intervals.front().startS * 1000.0);
    return data.run.startedAtMs;
}

int64_t loadEndUnixMs(const RunData& data)
{
    if (data.intervals.empty()) return 0;
    return measureStartUnixMs(data) + static_cast<int64_t>(data.intervals.back().endS * 1000.0);
}

TargetMetricsView::TargetMetricsView(QWidget* parent)
    : QWidget(parent)
    , m_choice(new QComboBox(this))
    , m_plot(new TimePlot(tr("Target metrics"), this))
{
    setObjectName(QStringLiteral("targetMetrics"));
    m_choice->setObjectName(QStringLiteral("targetMetricsChoice"));
    m_choice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_plot->setObjectName(QStringLiteral("targetMetricsPlot"));
    m_plot->setHoverFormat([](double x) { return tr("t = %1 s").arg(QString::number(x, 'f', 2)); },
        [](double v) { return QString::number(v, 'g', 4); });
    auto* top = new QHBoxLayout;
    top->setContentsMargins(6, 2, 6, 0);
    top->addWidget(new QLabel(tr("Target metrics:"), this));
    top->addWidget(m_choice);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);
    m_redrawTimer.setSingleShot(true);
    m_redrawTimer.setInterval(REDRAW_MS);
    connect(&m_redrawTimer, &QTimer::timeout, this, &TargetMetricsView::redraw);
    connect(m_choice, &QComboBox::activated, this, [this] {
        m_userChose = true;
        redraw();
    });
    setVisible(false);
}

void TargetMetricsView::clear()
{
    m_series.clear();
    m_order.clear();
    m_choice->clear();
    m_originUnixMs = 0;
    m_loadEndUnixMs = 0;
    m_userChose = false;
    for (int i = 0; i < m_plot->lineCount(); ++i)
        m_plot->setPoints(i, {});
    setVisible(false);
}

void TargetMetricsView::setOriginUnixMs(int64_t originUnixMs)
{
    if (m_originUnixMs == originUnixMs) return;
    m_originUnixMs = originUnixMs;
    scheduleRedraw();
}

void TargetMetricsView::setLoadEndUnixMs(int64_t loadEndUnixMs)
{
    if (m_loadEndUnixMs == loadEndUnixMs) return;
    m_loadEndUnixMs = loadEndUnixMs;
    scheduleRedraw();
}

void TargetMetricsView::add(
    const QString& label, const QString& source, int64_t originUnixMs, int64_t loadEndUnixMs, const ScrapePoint& point)
{
    auto it = m_series.find(label);
    if (it == m_series.end()) {
        it = m_series.insert(label, {});
        m_order.append(label);
    }
    for (Line& line : *it)
        if (line.source == source && line.originUnixMs == originUnixMs) {
            line.points.append(point);
            return;
        }
    it->append(Line { source, originUnixMs, loadEndUnixMs, { point } });
}

void TargetMetricsView::addTick(const ScrapeSpec& spec, const ScrapeTick& tick)
{
    const QString source = tick.endpoint < spec.endpoints.size()
        ? QString::fromStdString(spec.endpoints[tick.endpoint].name)
        : QString::number(tick.endpoint);
    for (const DerivedValue& v : tick.values)
        add(labelOf(v.name, v.kind), source, 0, 0, { tick.atUnixMs, v.value });
    scheduleRedraw();
}

void TargetMetricsView::addRecord(
    const QString& prefix, const ScrapeRecord& record, int64_t originUnixMs, int64_t loadEndUnixMs)
{
    for (const ScrapeSeries& s : record.series) {
        const QString endpoint = s.endpoint < record.endpoints.size()
            ? QString::fromStdString(record.endpoints[s.endpoint].name)
            : QString();
        const QString source = prefix.isEmpty() ? endpoint : prefix + QLatin1Char(' ') + endpoint;
        for (const ScrapePoint& p : s.points)
            add(QString::fromStdString(s.label()), source, originUnixMs, loadEndUnixMs, p);
    }
    scheduleRedraw();
}

void TargetMetricsView::setTimeAxis(const PlotTimeAxis& axis)
{
    m_plot->setTimeAxis(axis);
}

void TargetMetricsView::setRuns(const std::vector<std::pair<QString, const RunData*>>& runs)
{
    const QString keep = m_userChose ? chosen() : QString();
    clear();
    double longestS = 0;
    for (const auto& [label, run] : runs) {
        const int64_t start = measureStartUnixMs(*run);
        addRecord(label, run->scrape, start, loadEndUnixMs(*run));
        longestS = std::max(longestS, run->run.totals.durationS);
    }
    setTimeAxis(PlotTimeAxis::upTo(longestS > 0 ? longestS : 10.0, 8));
    redraw();
    if (!keep.isEmpty() && m_order.contains(keep)) choose(keep);
}

QStringList TargetMetricsView::seriesLabels() const
{
    return m_order;
}

void TargetMetricsView::choose(const QString& label)
{
    m_userChose = true;
    redraw();
    m_choice->setCurrentText(label);
    redraw();
}

void TargetMetricsView::redrawNow()
{
    redraw();
}

void TargetMetricsView::scheduleRedraw()
{
    if (!m_redrawTimer.isActive()) m_redrawTimer.start();
}

void TargetMetricsView::redraw()
{
    m_redrawTimer.stop();
    // The combo box lists every label, the preferred ones first, and keeps the user's choice.
    QStringList labels = m_order;
    std::stable_sort(
        labels.begin(), labels.end(), [](const QString& a, const QString& b) { return preference(a) < preference(b); });
    const QString current = m_choice->currentText();
    if (labels.size() != m_choice->count()) {
        const QSignalBlocker block(m_choice);
        m_choice->clear();
        m_choice->addItems(labels);
        const int keep = m_userChose ? labels.indexOf(current) : -1;
        m_choice->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    setVisible(!labels.isEmpty());
    if (labels.isEmpty()) return;

    const QList<Line> lines = m_series.value(m_choice->currentText());
    double lo = 0, hi = 0;
    for (int i = 0; i < lines.size(); ++i) {
        const Line& line = lines[i];
        const int64_t origin = line.originUnixMs ? line.originUnixMs : m_originUnixMs;
        const int64_t loadEnd = line.originUnixMs ? line.loadEndUnixMs : m_loadEndUnixMs;
        QList<QPointF> points;
        if (origin != 0) { // live: nothing is placed before the load's start is known
            int64_t windowStart = 0;
            for (const ScrapePoint& p : line.points) {
                const double x = static_cast<double>(p.atUnixMs - origin) / 1000.0;
                // A window that began once the load had ended (the scrape after the run, answered
                // a little after the last interval's) saw the idle target: the line would fall to
                // 0 past the load charts' end. (Clocks round to the ms: 20 ms of slack.)
                const bool afterLoad = loadEnd != 0 && windowStart != 0 && windowStart >= loadEnd - 20;
                windowStart = p.atUnixMs;
                if (x < 0 || afterLoad) continue; // before the axis begins, or after the load
                points.append({ x, p.value });
                lo = std::min(lo, p.value);
                hi = std::max(hi, p.value);
            }
        }
        const QString key = QStringLiteral("line%1").arg(i);
        int index = m_plot->lineIndex(key);
        if (index < 0) index = m_plot->addLine(key);
        QPen pen(colorForTarget(i + 1), 2);
        m_plot->setLineLook(index, line.source, pen);
        m_plot->setLineVisible(index, true);
        m_plot->setPoints(index, points);
    }
    for (int i = static_cast<int>(lines.size()); i < m_plot->lineCount(); ++i) {
        m_plot->setLineVisible(i, false);
        m_plot->setPoints(i, {});
    }
    const bool percent = m_choice->currentText().endsWith(QStringLiteral(" %"));
    const double top = percent ? 100.0 : (hi > 0 ? hi * 1.08 : 1.0);
    m_plot->setYScale(PlotYScale::linear(niceScale(lo < 0 ? lo * 1.08 : 0.0, top, Y_MAX_INTERVALS)));
    emit redrawn();
}

} // namespace wb::ui
