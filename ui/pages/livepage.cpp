#include "pages/livepage.h"

#include "charts/comparecharts.h"
#include "charts/livecharts.h"
#include "charts/timeplot.h"
#include "control/runtask.h"
#include "pages/backendstrip.h"
#include "pages/loaderstrip.h"
#include "pages/runheader.h"
#include "pages/targetmetricsview.h"
#include "text/format.h"

#include <QFrame>
#include <QVBoxLayout>

namespace wb::ui {

LivePage::LivePage(RunTask* task, QWidget* parent)
    : QWidget(parent)
    , m_task(task)
    , m_header(new RunHeader(this))
    , m_charts(new LiveCharts(this))
    , m_loaders(new LoaderStrip(this))
    , m_backends(new BackendStrip(this))
    , m_metrics(new TargetMetricsView(this))
{
    auto* line = new QFrame(this);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_header);
    layout->addWidget(line);
    layout->addWidget(m_loaders);
    layout->addWidget(m_backends);
    layout->addWidget(m_charts, 3);
    layout->addWidget(m_metrics, 1);

    m_clock.setInterval(250);
    connect(&m_clock, &QTimer::timeout, this, [this] { m_header->setElapsed(m_task->elapsedS()); });
    connect(m_task, &RunTask::phaseChanged, this, &LivePage::phaseChanged);
    connect(m_task, &RunTask::intervalReceived, this, [this](const LiveInterval& interval) {
        ++m_intervals;
        m_header->addInterval(interval);
        m_charts->appendInterval(interval.point);
        // 0 s of the charts is the measurement's start: the target's metrics are placed on it.
        if (interval.startUnixMs) {
            m_metrics->setOriginUnixMs(interval.startUnixMs - static_cast<int64_t>(interval.startS * 1000.0));
            m_lastIntervalEndUnixMs
                = interval.startUnixMs + static_cast<int64_t>((interval.point.endS - interval.startS) * 1000.0);
        }
        m_loaders->setRates(QVector<double>(interval.loaderRequestsPerS.begin(), interval.loaderRequestsPerS.end()));
        m_backends->addInterval(interval);
    });
    connect(m_task, &RunTask::scrapeReceived, this,
        [this](const ScrapeTick& tick) { m_metrics->addTick(m_task->setup().target.scrape, tick); });
    // The same time axis and left edge as the load curves, whenever theirs or its labels change.
    m_charts->alignWith(m_metrics->plot());
    connect(m_metrics, &TargetMetricsView::redrawn, m_charts, &LiveCharts::realign);
    connect(m_task, &RunTask::finished, this, [this](const RunOutcome& outcome) {
        m_clock.stop();
        // The scrape after the run saw the idle target: not drawn past the load's end.
        if (m_lastIntervalEndUnixMs) m_metrics->setLoadEndUnixMs(m_lastIntervalEndUnixMs);
        m_header->finish(outcome);
    });
}

void LivePage::setHint(const QString& text)
{
    if (m_task->phase() == RunTask::Phase::Idle) m_header->showHint(text);
}

void LivePage::showSelected(const QString& target, const QColor& color, const QString& hint)
{
    if (m_task->phase() != RunTask::Phase::Idle) return;
    m_header->showReady(target, color, hint);
    // The curves of another target's run would read as this one's.
    if (!m_chartsTarget.isEmpty() && m_chartsTarget != target) {
        m_charts->reset(target, color, false);
        m_loaders->clear();
        m_backends->clear();
        m_metrics->clear();
        m_intervals = 0;
        m_lastIntervalEndUnixMs = 0;
        m_chartsTarget.clear();
    }
}

void LivePage::beginRemoteProbe(const RunSetup& setup)
{
    begin(setup);
    m_header->setPhaseText(setup.agents.empty()
            ? tr("Probing…")
            : tr("probing from %1…").arg(QString::fromStdString(setup.agents.front().name)));
}

void LivePage::endRemoteProbe(const RunOutcome& outcome)
{
    m_header->finish(outcome);
}

void LivePage::begin(const RunSetup& setup)
{
    const QColor color = colorForTarget(setup.target.id);
    const QString title = QString::fromStdString(setup.target.name);
    m_chartsTarget = title;
    m_intervals = 0;
    m_lastIntervalEndUnixMs = 0;
    // The load as this target runs it: the profile spoken in the target's protocol.
    const RunConfig load = setup.profile.load.withHttpVersion(setup.target.httpVersion);
    m_header->beginRun(title, color, describeLoad(load), m_task->plannedS());
    m_header->setSlos(load.slos);
    m_charts->reset(title + QStringLiteral("  ") + describeLoad(load), color, load.openModel(),
        static_cast<double>(load.normalized().durationUs) / 1e6);
    m_loaders->clear();
    m_backends->clear();
    m_metrics->clear();
}

void LivePage::phaseChanged()
{
    switch (m_task->phase()) {
    case RunTask::Phase::Probing:
        begin(m_task->setup());
        if (const RunSetup& setup = m_task->setup(); !setup.agents.empty())
            // Probed already (from the first remote loader), or "Run anyway": the agents prepare now.
            m_header->setPhaseText(setup.probeJson.empty()
                    ? tr("starting the remote loaders…")
                    : tr("probed from %1; starting the remote loaders…")
                          .arg(QString::fromStdString(setup.agents.front().name)));
        else
            m_header->setPhaseText(m_task->setup().probeFirst ? tr("Probing…") : tr("checking the target…"));
        break;
    case RunTask::Phase::Running:
        m_header->setPhaseText(
            m_task->setup().profile.load.warmupUs > 0 ? tr("warming up, then measuring") : tr("running"));
        m_clock.start();
        break;
    case RunTask::Phase::Idle:
        m_clock.stop();
        break;
    }
}

} // namespace wb::ui
