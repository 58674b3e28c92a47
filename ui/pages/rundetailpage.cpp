#include "pages/rundetailpage.h"

#include "charts/comparecharts.h"
#include "charts/kneechart.h"
#include "charts/livecharts.h"
#include "charts/timeplot.h"
#include "experiment/kneecurve.h"
#include "forms/formvalidation.h"
#include "models/comparemodel.h"
#include "models/runseries.h"
#include "models/runstablemodel.h"
#include "pages/backendstab.h"
#include "pages/dialogs.h"
#include "pages/frontdoortab.h"
#include "pages/scriptdetails.h"
#include "pages/slobadges.h"
#include "pages/targetmetricsview.h"
#include "report/generatorlag.h"
#include "stats/spectrum.h"
#include "store/csvexport.h"
#include "text/format.h"
#include "text/slotext.h"
#include "wrk/wrktext.h"

#include <QDateTime>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace wb::ui {

namespace {

QTableWidget* makeTable(QWidget* parent, const QStringList& headers)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->setVisible(false);
    t->verticalHeader()->setDefaultSectionSize(22);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void addRow(QTableWidget* t, const QStringList& cells, const QList<bool>& rightAligned = {})
{
    const int row = t->rowCount();
    t->insertRow(row);
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (c < rightAligned.size() && rightAligned[c]) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        t->setItem(row, c, item);
    }
}

/// Break opportunities (zero-width spaces) after the separators of a long token, so that a URL
/// or a header wraps in its cell instead of being cut off; the tooltip keeps the text as it is.
QString wrappable(const QString& text)
{
    QString out;
    int run = 0;
    for (const QChar c : text) {
        out += c;
        run = c.isSpace() ? 0 : run + 1;
        // After a separator once a token is long; anywhere in a token that has none (a digest, a token).
        if ((run > 16 && QStringLiteral("/?&=,;:.-_").contains(c)) || run >= 24) {
            out += QChar(0x200B);
            run = 0;
        }
    }
    return out;
}

QString when(int64_t ms)
{
    return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                  : QStringLiteral("—");
}

} // namespace

RunDetailPage::RunDetailPage(RunData data, QWidget* parent)
    : QWidget(parent)
    , m_data(std::move(data))
    , m_charts(new LiveCharts(this))
    , m_slo(new SloBadges(this))
{
    m_slo->setObjectName(QStringLiteral("sloBadges"));
    const RunRecord& r = m_data.run;
    const QColor color = colorForTarget(r.targetId);
    auto* title = new QLabel(this);
    title->setTextFormat(Qt::RichText);
    title->setText(
        QStringLiteral("<span style='color:%1; font-size:16pt'>●</span> <b style='font-size:13pt'>%2</b>"
                       "&nbsp;&nbsp;<span style='color:%3'>%4</span>&nbsp;&nbsp;%5&nbsp;&nbsp;<small>%6</small>")
            .arg(color.name(), CompareModel::runLabel(r).toHtmlEscaped(),
                statusColor(QString::fromUtf8(runStatusName(r.status))).name(),
                QString::fromUtf8(runStatusName(r.status)), describeLoad(r.config).toHtmlEscaped(),
                QString::fromStdString(r.url).toHtmlEscaped()));
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(exportButton);
    menu->addAction(tr("Charts as PNG…"), this, &RunDetailPage::askExportPng);
    menu->addSeparator();
    for (const char* what : { "summary", "series", "percentiles", "status" })
        menu->addAction(tr("%1 as CSV…").arg(QString::fromLatin1(what)), this,
            [this, what] { askExportCsv(QString::fromLatin1(what)); });
    exportButton->setMenu(menu);
    auto* compare = new QPushButton(tr("Compare with…"), this);
    compare->setToolTip(tr("Select this run in Runs to compare it with others"));
    connect(compare, &QPushButton::clicked, this, [this] { emit compareWith(m_data.run.id); });
    auto* top = new QHBoxLayout;
    top->addWidget(title, 1);
    top->addWidget(compare);
    top->addWidget(exportButton);

    m_summary = makeTable(this, { tr("Metric"), tr("Value") });
    m_summary->setObjectName(QStringLiteral("summaryTable"));
    m_summary->setWordWrap(true);
    m_summary->setTextElideMode(Qt::ElideNone);
    // As the pane narrows, long values wrap onto more lines rather than being cut off.
    connect(m_summary->horizontalHeader(), &QHeaderView::sectionResized, m_summary,
        [this] { m_summary->resizeRowsToContents(); });
    m_status = makeTable(this, { tr("Status"), tr("Responses"), tr("Share") });
    m_status->setObjectName(QStringLiteral("statusTable"));
    m_errors = makeTable(this, { tr("Error kind"), tr("Count"), tr("Meaning") });
    m_spectrum = makeTable(this, { tr("Percentile"), tr("Latency (ms)"), tr("1/(1-p)"), tr("Count") });
    m_spectrum->setObjectName(QStringLiteral("spectrumTable"));
    auto* tabs = new QTabWidget(this);
    tabs->addTab(m_summary, tr("Summary"));
    tabs->addTab(m_spectrum, tr("Percentiles"));
    tabs->addTab(m_status, tr("Status codes"));
    tabs->addTab(m_errors, tr("Errors"));
    if (!r.config.mix.empty()) {
        m_entries = makeTable(this,
            { tr("#"), tr("Request"), tr("Requests"), tr("Req/s"), tr("p50 (ms)"), tr("p99 (ms)"), tr("Errors"),
                tr("Non-2xx"), tr("Status codes") });
        m_entries->setObjectName(QStringLiteral("entriesTable"));
        tabs->addTab(m_entries, tr("Mix (%1)").arg(r.config.mix.entries.size()));
    }
    if (!r.config.script.empty()) tabs->addTab(makeScriptDetails(r, this), tr("Script"));
    if (!m_data.loaders.empty()) {
        m_loaders = makeTable(this,
            { tr("Loader"), tr("Host"), tr("Connections"), tr("Requests"), tr("Req/s"), tr("Errors"),
                tr("Start offset (ms)"), tr("Clock"), tr("State"), tr("Workers busy") });
        m_loaders->setObjectName(QStringLiteral("loadersTable"));
        tabs->addTab(m_loaders, tr("Loaders (%1)").arg(m_data.loaders.size()));
    }
    // Behind the front door (--backend-from, --upstream-time): the stored intervals folded once.
    if (r.config.notesResponses()) {
        const FrontDoorView view = frontDoorViewOf(m_data);
        if (view.backendsAsked) {
            m_backendsTab = new BackendsTab(view, r.config, this);
            tabs->addTab(m_backendsTab, tr("Backends (%1)").arg(view.balance.backends));
        }
        if (view.upstreamAsked) {
            m_frontDoorTab = new FrontDoorTab(view, r.config, this);
            tabs->addTab(m_frontDoorTab, tr("Front door"));
        }
    }

    // A ramp walks the load up: each stage's achieved req/s against its p50 and p99 is the knee.
    const std::vector<KneePoint> stagePoints = stageKneePoints(r.config, m_data.intervals);
    if (!stagePoints.empty()) {
        KneeChartData knee;
        KneeChartData::Series series;
        series.name = CompareModel::runLabel(r);
        series.color = color;
        for (const KneePoint& p : stagePoints) {
            series.labels.append(QString::fromStdString(p.label));
            series.p50.append(QPointF(p.requestsPerS, p.p50Us / 1000.0));
            series.p99.append(QPointF(p.requestsPerS, p.p99Us / 1000.0));
        }
        knee.series.append(series);
        m_knee = new KneeChart(this);
        m_knee->setObjectName(QStringLiteral("RunKnee"));
        m_knee->setData(knee);
        tabs->addTab(m_knee, tr("Latency vs req/s"));
    }

    auto* split = new QSplitter(Qt::Horizontal, this);
    // The target's own metrics (--scrape) under the load curves, on their time axis.
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    leftLayout->addWidget(m_charts, 3);
    m_metrics = new TargetMetricsView(left);
    leftLayout->addWidget(m_metrics, 1);
    split->addWidget(left);
    split->addWidget(tabs);
    // Half and half: the tables hold URLs, headers and the Backends and Front door tabs, which a
    // third of a small window cut (URLs on three lines, tabs behind scroll arrows).
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({ 1000, 1000 });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->addLayout(top);
    m_slo->setVerdicts(r.totals.slo);
    layout->addWidget(m_slo);
    if (!r.error.empty()) {
        auto* error = new QLabel(tr("This run did not start: %1").arg(QString::fromStdString(r.error)), this);
        error->setStyleSheet(errorLabelStyle());
        error->setWordWrap(true);
        layout->addWidget(error);
    }
    layout->addWidget(split, 1);

    m_charts->alignWith(m_metrics->plot()); // one time axis and left edge for the four charts
    connect(m_metrics, &TargetMetricsView::redrawn, m_charts, &LiveCharts::realign);
    m_charts->setSeries(runSeriesOf(m_data, color));
    m_metrics->addRecord({}, m_data.scrape, measureStartUnixMs(m_data), loadEndUnixMs(m_data));
    m_metrics->redrawNow();
    fillSummary();
    fillStatus();
    fillErrors();
    fillSpectrum();
    fillEntries();
    fillLoaders();
}

// A run made by several loaders: where each ran, its share, what it measured, how it ended.
void RunDetailPage::fillLoaders()
{
    if (!m_loaders) return;
    for (const LoaderSummary& l : m_data.loaders)
        addRow(m_loaders,
            { QString::number(l.index), QString::fromStdString(l.host), QString::number(l.connections),
                formatCount(static_cast<double>(l.requests)), formatRate(l.requestsPerS),
                formatCount(static_cast<double>(l.errors)), QString::number(l.startOffsetMs, 'f', 1),
                QString::fromStdString(l.clock), QString::fromStdString(l.state),
                // On a CPU or waiting for one: a loader with no CPU to spare is flagged in its cell.
                !l.cost.measured()       ? QStringLiteral("–")
                    : l.cost.saturated() ? tr("%1 % (saturated)").arg(std::lround(l.cost.workerBusyShare() * 100))
                                         : tr("%1 %").arg(std::lround(l.cost.workerBusyShare() * 100)) },
            { true, false, true, true, true, true, true, false, false, true });
    m_loaders->resizeColumnsToContents();
}

// What each entry of a request mix got, in the file's order.
void RunDetailPage::fillEntries()
{
    if (!m_entries) return;
    const RunRecord& r = m_data.run;
    const double durationS = r.totals.durationS;
    for (size_t i = 0; i < r.config.mix.entries.size(); ++i) {
        const EntryStats none;
        const EntryStats& e = i < m_data.entries.size() ? m_data.entries[i] : none;
        const bool timed = e.latency && !e.latency->empty();
        QStringList codes;
        for (const auto& [code, count] : e.statusCodes)
            codes << QStringLiteral("%1: %2").arg(code).arg(count);
        addRow(m_entries,
            { QString::number(i + 1), QString::fromStdString(r.config.mix.entries[i].label),
                formatCount(static_cast<double>(e.requests)),
                formatRate(durationS > 0 ? static_cast<double>(e.requests) / durationS : 0.0),
                timed ? formatUsAsMs(static_cast<double>(e.latency->valueAtPercentileUs(50))) : QStringLiteral("—"),
                timed ? formatUsAsMs(static_cast<double>(e.latency->valueAtPercentileUs(99))) : QStringLiteral("—"),
                formatCount(static_cast<double>(e.errors.transportErrors())),
                formatCount(static_cast<double>(e.non2xx())), codes.join(QStringLiteral(", ")) },
            { true, false, true, true, true, true, true, true, false });
    }
    m_entries->resizeColumnsToContents();
}

void RunDetailPage::fillSummary()
{
    const RunRecord& r = m_data.run;
    const RunTotals& t = r.totals;
    // Values whole: wrapped in their cell (rows as high as they need), never cut off.
    auto row = [this](const QString& name, const QString& value) {
        addRow(m_summary, { name, wrappable(value) }, { false, true });
        m_summary->item(m_summary->rowCount() - 1, 1)->setToolTip(value);
    };
    row(tr("Target"), QString::fromStdString(r.targetName));
    row(tr("URL"), QString::fromStdString(r.url));
    // A script decides what is sent (wrk.path, request()): the URL alone would mislead.
    if (!r.config.script.empty()) {
        QString script = QString::fromStdString(r.config.script.name);
        for (const std::string& arg : r.config.script.args)
            script += QLatin1Char(' ') + QString::fromStdString(arg);
        row(tr("Script"), tr("%1 — it may change the method, path, headers and body sent (Script tab)").arg(script));
    }
    row(tr("Method"), QString::fromStdString(r.config.request.method));
    // The headers as sent, one row each (a run that differs only in a header is told apart).
    for (const Header& h : r.config.request.headers)
        row(tr("Header"), QString::fromStdString(h.name + ": " + h.value));
    if (!r.config.request.body.empty()) row(tr("Body"), describeBody(r.config.request.body, QString()));
    row(tr("Load"), describeRunLoad(r));
    row(tr("Protocol"), describeProtocol(r.config, r.totals.protocol));
    // HTTP/3: what QUIC did, as the CLI's report says it (stored with the run, schema 13).
    if (!r.totals.quic.empty()) row(tr("QUIC"), QString::fromStdString(quicDescription(r.totals.quic)));
    if (!r.profileName.empty()) row(tr("Profile"), QString::fromStdString(r.profileName));
    row(tr("Started"), when(r.startedAtMs > 0 ? r.startedAtMs : r.createdAtMs));
    row(tr("Finished"), when(r.finishedAtMs));
    row(tr("Engine"), QString::fromStdString(r.engineVersion));
    if (!r.hostName.empty())
        row(tr("Load generator"),
            QStringLiteral("%1 (%2 CPUs)").arg(QString::fromStdString(r.hostName)).arg(r.cpuCount));
    if (!r.commandLine.empty()) row(tr("Command line"), QString::fromStdString(r.commandLine));
    if (!r.source.empty()) row(tr("Imported from"), QString::fromStdString(r.source));
    if (!r.hasTotals) return;
    row(tr("Requests/s"), formatRate(t.requestsPerS));
    row(tr("Transfer/s"), formatBytesPerS(t.bytesPerS));
    row(tr("Requests"), formatCount(static_cast<double>(t.requests)));
    row(tr("Measured (s)"), numberLocale().toString(t.durationS, 'f', 2));
    const QString corrected = r.config.openModel() ? tr(" (corrected)") : QString();
    row(tr("Latency avg (ms)") + corrected, formatUsAsMs(t.latency.meanUs));
    row(tr("Latency stdev (ms)"), formatUsAsMs(t.latency.stdevUs));
    row(tr("Latency p50 (ms)"), formatUsAsMs(t.latency.p50Us));
    row(tr("Latency p90 (ms)"), formatUsAsMs(t.latency.p90Us));
    row(tr("Latency p99 (ms)"), formatUsAsMs(t.latency.p99Us));
    row(tr("Latency p99.9 (ms)"), formatUsAsMs(t.latency.p999Us));
    row(tr("Latency max (ms)"), formatUsAsMs(t.latency.maxUs));
    if (t.serviceLatency.known()) {
        row(tr("Service p50 (ms)"), formatUsAsMs(t.serviceLatency.p50Us));
        row(tr("Service p99 (ms)"), formatUsAsMs(t.serviceLatency.p99Us));
        row(tr("Requested rate (req/s)"), formatRate(t.targetRatePerS));
        row(tr("Sent > 1 ms late"), formatCount(static_cast<double>(t.lateRequests)));
        if (t.sendLag.known()) {
            row(tr("Send lag p50 / p99 (ms)"),
                QStringLiteral("%1 / %2").arg(formatUsAsMs(t.sendLag.p50Us), formatUsAsMs(t.sendLag.p99Us)));
            const std::string warning = generatorLagWarning(t.sendLag.p99Us, t.latency.p50Us);
            if (!warning.empty()) {
                row(tr("Warning"), QString::fromStdString(warning));
                m_summary->item(m_summary->rowCount() - 1, 1)->setForeground(QColor(0xb2, 0x6a, 0x00));
            }
        }
    }
    // Where the time goes: connects and handshakes of every connection opened, first bytes.
    const auto phase = [&](const QString& name, const PhaseSummary& p) {
        if (p.count == 0) return;
        row(name,
            tr("%1 / %2 / %3 (%4×)")
                .arg(formatUsAsMs(p.p50Us), formatUsAsMs(p.p99Us), formatUsAsMs(p.maxUs),
                    formatCount(static_cast<double>(p.count))));
    };
    phase(tr("Connect p50 / p99 / max (ms)"), t.connect);
    phase(tr("TLS handshake p50 / p99 / max (ms)"), t.tlsHandshake);
    phase(tr("First byte p50 / p99 / max (ms)"), t.firstByte);
    // The connections as the CLI's report tells them: how many churn opened (what a balancer
    // placed), a server's HPACK table we tolerated, why responses failed to parse.
    if (r.config.churn.enabled()) {
        row(tr("Connections"), QString::fromStdString(churnDescription(r.config)));
        row(tr("Connections opened"),
            QString::fromStdString(connectionsOpenedText(t.connect.count, t.durationS, t.connections)));
    }
    if (t.connections.hpackTableKept > 0)
        row(tr("HPACK table"), QString::fromStdString(hpackTableNote(t.connections, r.config.headerTableBytes)));
    if (const std::string warning = parseFailureWarning(t.errors.parse, t.requests, t.connections); !warning.empty()) {
        row(tr("Warning"), QString::fromStdString(warning));
        m_summary->item(m_summary->rowCount() - 1, 1)->setForeground(QColor(0xc6, 0x28, 0x28));
    } else if (!t.connections.firstParseError.empty()) {
        row(tr("First parse error"), QString::fromStdString(t.connections.firstParseError));
    }
    if (!std::isnan(t.threadRate.mean))
        row(tr("Req/s per thread"),
            tr("%1 ± %2 (max %3)")
                .arg(formatRate(t.threadRate.mean), formatRate(t.threadRate.stdev), formatRate(t.threadRate.max)));
    // Counted apart as in the Live header, Runs and Compare: a target answering
    // 404 gives non-2xx responses, not errors. Same colours as the Live header.
    const uint64_t errors = RunsTableModel::errorsOf(t);
    const uint64_t non2xx = RunsTableModel::non2xxOf(t);
    row(tr("Errors (socket, TLS, parse)"), formatCount(static_cast<double>(errors)));
    if (errors) m_summary->item(m_summary->rowCount() - 1, 1)->setForeground(QColor(0xc6, 0x28, 0x28));
    row(tr("Non-2xx/3xx responses"), formatCount(static_cast<double>(non2xx)));
    if (non2xx) m_summary->item(m_summary->rowCount() - 1, 1)->setForeground(QColor(0xb2, 0x6a, 0x00));
    for (const SloVerdict& v : t.slo) {
        row(tr("SLO %1").arg(QString::fromStdString(v.expr)),
            (v.ok ? tr("met (%1)") : tr("FAILED (%1)")).arg(sloValueText(v)));
        m_summary->item(m_summary->rowCount() - 1, 1)->setForeground(sloColor(v.ok));
    }
    if (!t.sloAbortedBy.empty()) {
        row(tr("Stopped by SLO"), tr("%1: the budget was spent").arg(QString::fromStdString(t.sloAbortedBy)));
        m_summary->item(m_summary->rowCount() - 1, 1)->setForeground(sloColor(false));
    }
    if (!r.notes.empty()) row(tr("Notes"), QString::fromStdString(r.notes));
    m_summary->resizeColumnToContents(0);
    m_summary->resizeRowsToContents();
}

void RunDetailPage::fillStatus()
{
    uint64_t total = 0;
    for (const auto& [code, count] : m_data.statusCodes)
        total += count;
    for (const auto& [code, count] : m_data.statusCodes) {
        addRow(m_status,
            { code == 0 ? tr("other") : QString::number(code), formatCount(static_cast<double>(count)),
                numberLocale().toString(
                    total ? 100.0 * static_cast<double>(count) / static_cast<double>(total) : 0.0, 'f', 2)
                    + QStringLiteral(" %") },
            { false, true, true });
        if (code >= 400 || code == 0)
            m_status->item(m_status->rowCount() - 1, 0)->setForeground(QColor(0xc6, 0x28, 0x28));
    }
}

// Requests that got no usable answer, by kind. Answers outside 2xx/3xx are no error kind: the
// status table (fillStatus) lists them by code.
void RunDetailPage::fillErrors()
{
    const ErrorCounts& e = m_data.run.totals.errors;
    const struct
    {
        const char* kind;
        uint64_t count;
        const char* meaning;
    } rows[] = {
        { "connect", e.connect, "connect() failed or timed out; no request was sent" },
        { "read", e.read, "closed or reset before the response was complete" },
        { "write", e.write, "sending the request failed" },
        { "timeout", e.timeout, "no complete response within the timeout" },
        { "tls", e.tls, "TLS handshake failed" },
        { "parse", e.parse, "the response was not valid HTTP/1.x (or HTTP/2 framing)" },
        { "stream", e.stream, "HTTP/2: the server reset the request's stream" },
    };
    for (const auto& row : rows) {
        addRow(m_errors,
            { QString::fromLatin1(row.kind), formatCount(static_cast<double>(row.count)), tr(row.meaning) },
            { false, true, false });
        if (row.count) m_errors->item(m_errors->rowCount() - 1, 1)->setForeground(QColor(0xc6, 0x28, 0x28));
    }
    const RunTotals& t = m_data.run.totals;
    if (!t.firstConnectError.empty())
        addRow(m_errors, { tr("first connect error"), QString(), QString::fromStdString(t.firstConnectError) });
    if (!t.firstTlsError.empty())
        addRow(m_errors, { tr("first TLS error"), QString(), QString::fromStdString(t.firstTlsError) });
}

void RunDetailPage::fillSpectrum()
{
    auto add = [this](double percentile, double valueUs, const QString& count) {
        const QString tail = percentile >= 100 ? QStringLiteral("∞")
                                               : numberLocale().toString(1.0 / (1.0 - percentile / 100.0), 'f', 2);
        addRow(m_spectrum,
            { numberLocale().toString(percentile, 'f', 4) + QStringLiteral(" %"), formatUsAsMs(valueUs), tail, count },
            { true, true, true, true });
    };
    if (m_data.latency && !m_data.latency->empty()) {
        for (const auto& s : percentileSpectrum(*m_data.latency))
            add(s.percentile, static_cast<double>(s.valueUs), formatCount(static_cast<double>(s.totalCount)));
        return;
    }
    const auto& rows = !m_data.spectrum.empty() ? m_data.spectrum : m_data.latencyDistribution;
    for (const PercentileRow& row : rows)
        add(row.percentile, row.valueUs, row.totalCount ? formatCount(static_cast<double>(row.totalCount)) : QString());
}

bool RunDetailPage::exportCsv(const QString& what, const QString& path, QString* error) const
{
    const std::vector<RunData> runs { m_data };
    const std::string csv = what == QLatin1String("summary") ? summaryCsv(runs)
        : what == QLatin1String("series")                    ? seriesCsv(runs)
        : what == QLatin1String("percentiles")               ? percentilesCsv(runs)
                                                             : statusCsv(runs);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(QByteArray::fromStdString(csv)) < 0
        || !file.flush()) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

void RunDetailPage::askExportCsv(const QString& what)
{
    const QString path = chooseSaveFile(
        this, tr("Export as CSV"), QStringLiteral("run-%1-%2.csv").arg(m_data.run.id).arg(what), tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportCsv(what, path, &error))
        emit message(tr("Wrote %1").arg(path));
    else
        showError(this, tr("Export failed"), tr("Could not write '%1': %2").arg(path, error));
}

void RunDetailPage::askExportPng()
{
    const QString path = chooseSaveFile(this, tr("Export charts as PNG"),
        QStringLiteral("run-%1-charts.png").arg(m_data.run.id), tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString error;
    if (m_charts->exportPng(path, {}, &error))
        emit message(tr("Wrote %1").arg(path));
    else
        showError(this, tr("Export failed"), error);
}

} // namespace wb::ui
