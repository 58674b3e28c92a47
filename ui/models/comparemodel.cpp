#include "models/comparemodel.h"

#include "charts/comparecharts.h"
#include "common/nan.h"
#include "experiment/runfigures.h"
#include "models/runseries.h"
#include "store/csvexport.h"
#include "text/format.h"
#include "text/slotext.h"

#include <QDateTime>
#include <QFont>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

double orUnknown(const RunRecord& r, double v)
{
    return r.hasTotals ? v : NaN;
}

QString formatSeconds(double s)
{
    return std::isnan(s) ? QStringLiteral("—") : numberLocale().toString(s, 'f', 2);
}

/// "36.66 %" with two decimals as the studies print it, "−12.00 %" when faster.
QString formatLossPct(double pct)
{
    if (std::isnan(pct) || std::isinf(pct)) return QStringLiteral("—");
    if (std::fabs(pct) < 0.005) return QStringLiteral("0.00 %");
    const QString number = numberLocale().toString(std::fabs(pct), 'f', 2) + QStringLiteral(" %");
    return pct < 0 ? QStringLiteral("−") + number : number;
}

/// "± 1,203.4 (3.4 %)": the spread and how large it is against the mean.
QString formatSpread(double stdev, double mean)
{
    if (std::isnan(stdev)) return QStringLiteral("—");
    QString text = QStringLiteral("± ") + formatRate(stdev);
    if (!std::isnan(mean) && mean > 0)
        text += QStringLiteral(" (%1 %)").arg(numberLocale().toString(stdev / mean * 100.0, 'f', 1));
    return text;
}

} // namespace

CompareModel::CompareModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    buildRows();
}

QString CompareModel::runLabel(const RunRecord& run)
{
    return QStringLiteral("#%1 %2").arg(run.id).arg(QString::fromStdString(run.targetName));
}

CompareModel::RateSpread CompareModel::rateSpreadOf(const RunData& data)
{
    // A run that ends (or is stopped) mid-interval leaves a short last interval
    // whose rate is mostly noise: only intervals at least half as long as the
    // longest one count.
    double longestS = 0;
    for (const IntervalRecord& r : data.intervals)
        longestS = std::max(longestS, r.endS - r.startS);
    std::vector<double> rates;
    for (const IntervalRecord& r : data.intervals)
        if (longestS > 0 && r.endS - r.startS >= longestS / 2) rates.push_back(r.requestsPerS());
    RateSpread spread;
    spread.intervals = static_cast<int>(rates.size());
    if (rates.size() < 2) return spread;
    double mean = 0;
    for (double v : rates)
        mean += v;
    mean /= static_cast<double>(rates.size());
    double squares = 0;
    for (double v : rates)
        squares += (v - mean) * (v - mean);
    // Sample stdev, as wrk's Req/Sec row.
    spread.stdev = std::sqrt(squares / static_cast<double>(rates.size() - 1));
    return spread;
}

std::map<std::string, double> CompareModel::intervalNoiseOf(const RunData& data)
{
    return intervalNoisePct(data);
}

double CompareModel::noisePct(const QString& key, int run) const
{
    if (run < 0) return NaN;
    return m_comparison.noisePct(key.toStdString(), static_cast<size_t>(run));
}

double CompareModel::noiseAgainstBaselinePct(const QString& key, int run) const
{
    if (run <= 0) return NaN;
    return m_comparison.noiseAgainstBaselinePct(key.toStdString(), static_cast<size_t>(run));
}

bool CompareModel::withinNoise(const QString& key, int run) const
{
    const double pct = deltaPct(key, run);
    const double noise = noiseAgainstBaselinePct(key, run);
    return !std::isnan(pct) && !std::isnan(noise) && std::fabs(pct) < noise;
}

void CompareModel::setRuns(std::vector<RunRecord> runs)
{
    beginResetModel();
    m_given = std::move(runs);
    m_givenSpread.assign(m_given.size(), RateSpread {});
    m_givenNoise.assign(m_given.size(), {});
    arrange(0);
    buildRows();
    endResetModel();
}

void CompareModel::setRuns(const std::vector<RunData>& runs, int64_t baselineId)
{
    beginResetModel();
    m_given.clear();
    m_givenSpread.clear();
    m_givenNoise.clear();
    for (const RunData& d : runs) {
        m_given.push_back(d.run);
        m_givenSpread.push_back(rateSpreadOf(d));
        m_givenNoise.push_back(intervalNoiseOf(d));
    }
    arrange(baselineId);
    buildRows();
    endResetModel();
}

void CompareModel::arrange(int64_t baselineId)
{
    m_runs.clear();
    m_spread.clear();
    m_comparison = {};
    auto it = std::find_if(m_given.begin(), m_given.end(), [&](const RunRecord& r) { return r.id == baselineId; });
    const size_t first = it == m_given.end() ? 0 : static_cast<size_t>(it - m_given.begin());
    if (m_given.empty()) return;
    m_runs.push_back(m_given[first]);
    m_spread.push_back(m_givenSpread[first]);
    m_comparison.intervalNoise.push_back(m_givenNoise[first]);
    for (size_t i = 0; i < m_given.size(); ++i) {
        if (i == first) continue;
        m_runs.push_back(m_given[i]);
        m_spread.push_back(m_givenSpread[i]);
        m_comparison.intervalNoise.push_back(m_givenNoise[i]);
    }
    m_comparison.runs = m_runs;
}

void CompareModel::setBaseline(int index)
{
    if (index <= 0 || index >= static_cast<int>(m_runs.size())) return;
    beginResetModel();
    arrange(m_runs[static_cast<size_t>(index)].id);
    buildRows();
    endResetModel();
}

bool CompareModel::setBaselineRun(int64_t runId)
{
    for (size_t i = 0; i < m_runs.size(); ++i) {
        if (m_runs[i].id != runId) continue;
        setBaseline(static_cast<int>(i));
        return true;
    }
    return false;
}

QColor CompareModel::runColor(int run) const
{
    if (run < 0 || run >= static_cast<int>(m_runs.size())) return {};
    const RunRecord& r = m_runs[static_cast<size_t>(run)];
    int repeat = 0;
    for (const RunRecord& g : m_given) {
        if (g.id == r.id) break;
        if (g.targetId == r.targetId) ++repeat;
    }
    return variantColor(colorForTarget(r.targetId), repeat);
}

double CompareModel::lossPct(int run) const
{
    if (run < 0 || run >= static_cast<int>(m_runs.size())) return NaN;
    const RunRecord& base = m_runs.front();
    const RunRecord& r = m_runs[static_cast<size_t>(run)];
    const double baseRps = orUnknown(base, base.totals.requestsPerS);
    const double rps = orUnknown(r, r.totals.requestsPerS);
    if (std::isnan(baseRps) || std::isnan(rps) || baseRps == 0) return NaN;
    return (1.0 - rps / baseRps) * 100.0;
}

QString CompareModel::lossText(int run) const
{
    if (run <= 0 || run >= static_cast<int>(m_runs.size())) return {};
    const double loss = lossPct(run);
    if (std::isnan(loss)) return tr("loss vs the baseline: not known");
    if (std::fabs(loss) >= 0.005 && withinNoise(QStringLiteral("rps"), run))
        return tr("within the runs' own variation (± %1): %2 %3 than the baseline")
            .arg(formatLossPct(noiseAgainstBaselinePct(QStringLiteral("rps"), run)), formatLossPct(std::fabs(loss)),
                loss > 0 ? tr("slower") : tr("faster"));
    if (loss >= 0.005) return tr("%1 loss vs the baseline").arg(formatLossPct(loss));
    if (loss <= -0.005) return tr("no loss: %1 faster than the baseline").arg(formatLossPct(-loss));
    return tr("no loss vs the baseline (0.00 %)");
}

void CompareModel::buildRows()
{
    m_rows.clear();
    auto section = [&](const char* key, const QString& title) {
        Row r;
        r.key = QString::fromLatin1(key);
        r.title = title;
        r.section = true;
        m_rows.push_back(r);
    };
    // Rows read the shown runs through `this`: they are rebuilt on every reset.
    auto ofRun = [this](std::function<double(const RunRecord&)> value) {
        return [this, value = std::move(value)](int run) { return value(m_runs[static_cast<size_t>(run)]); };
    };
    auto text = [&](const char* key, const char* title, std::function<QString(const RunRecord&)> value) {
        Row r;
        r.key = QString::fromLatin1(key);
        r.title = QString::fromUtf8(title);
        r.text = std::move(value);
        m_rows.push_back(r);
    };
    // A figure's cells are formatted by its unit.
    const auto formatOf = [](std::string_view unit) -> std::function<QString(double)> {
        if (unit == "us") return [](double us) { return formatUsAsMs(us); };
        if (unit == "req_per_s") return [](double v) { return formatRate(v); };
        if (unit == "bytes_per_s") return [](double v) { return formatBytesPerS(v); };
        if (unit == "s") return formatSeconds;
        return [](double n) { return formatCount(n); };
    };
    // A figure's unit is what the CSV's metric names carry ("" for counts).
    auto figure = [&](const RunFigure& f) {
        Row r;
        r.key = QString::fromLatin1(f.key);
        r.unit = QString::fromLatin1(f.unit);
        r.title = QString::fromUtf8(f.title);
        r.better = f.better;
        r.number = ofRun(f.value);
        r.format = formatOf(f.unit);
        m_rows.push_back(r);
    };
    // The figures of one group, in the table's order; a figure for which `skip` is true is left out.
    auto figures = [&](FigureGroup group, const std::function<bool(const RunFigure&)>& skip = {}) {
        for (const RunFigure& f : runFigures())
            if (f.group == group && !(skip && skip(f))) figure(f);
    };
    const bool anyOpen = std::any_of(m_runs.begin(), m_runs.end(),
        [](const RunRecord& r) { return r.config.openModel() || (r.hasTotals && r.totals.serviceLatency.known()); });

    section("throughput", tr("Throughput"));
    figure(*runFigure("rps"));
    {
        Row loss;
        loss.key = QStringLiteral("rps_loss");
        loss.title = tr("Loss vs baseline (req/s)");
        loss.noDelta = true;
        loss.number = [this](int run) { return lossPct(run); };
        loss.format = formatLossPct;
        loss.unit = QStringLiteral("pct");
        // A negative loss is a gain: "4.99 % faster", not "−4.99 %".
        loss.display = [this](int run) {
            const double pct = lossPct(run);
            return pct <= -0.005 ? tr("%1 faster").arg(formatLossPct(-pct)) : formatLossPct(pct);
        };
        m_rows.push_back(loss);
    }
    {
        Row spread;
        spread.key = QStringLiteral("rps_stdev");
        spread.title = tr("Req/s stdev over intervals");
        spread.noDelta = true;
        spread.number = [this](int run) { return m_spread[static_cast<size_t>(run)].stdev; };
        spread.format = [](double v) { return formatRate(v); };
        spread.unit = QStringLiteral("req_per_s");
        // Shown with its share of the mean: "± 1,203.4 (3.4 %)".
        spread.display = [this](int run) {
            const RunRecord& r = m_runs[static_cast<size_t>(run)];
            return formatSpread(m_spread[static_cast<size_t>(run)].stdev, orUnknown(r, r.totals.requestsPerS));
        };
        m_rows.push_back(spread);
    }
    figures(FigureGroup::Throughput, [](const RunFigure& f) { return std::string_view(f.key) == "rps"; });
    // wrk's per-thread spread is shown with its share of the mean, and a Δ of a spread would mislead.
    for (Row& threadSpread : m_rows)
        if (threadSpread.key == QLatin1String("thread_rps_stdev")) {
            threadSpread.noDelta = true;
            threadSpread.display = [this](int run) {
                const RunRecord& r = m_runs[static_cast<size_t>(run)];
                return formatSpread(orUnknown(r, r.totals.threadRate.stdev), orUnknown(r, r.totals.threadRate.mean));
            };
        }

    section("latency", anyOpen ? tr("Latency (ms, corrected for coordinated omission)") : tr("Latency (ms)"));
    figures(FigureGroup::Latency);
    if (anyOpen) {
        section("service", tr("Service time (ms, from the actual send)"));
        figures(FigureGroup::Service);
    }

    // Connection phases (stored since schema 6): a load balancer's handshake, an extra hop.
    // Shown when a run has them (runs imported or stored before have none); TLS for https runs.
    const bool anyPhases = std::any_of(m_runs.begin(), m_runs.end(),
        [](const RunRecord& r) { return r.totals.connect.count > 0 || r.totals.firstByte.count > 0; });
    const bool anyTls
        = std::any_of(m_runs.begin(), m_runs.end(), [](const RunRecord& r) { return r.totals.tlsHandshake.count > 0; });
    if (anyPhases) {
        section("phases", tr("Connection phases (ms)"));
        figures(FigureGroup::Phases,
            [anyTls](const RunFigure& f) { return !anyTls && std::string_view(f.key).starts_with("tls_handshake"); });
    }

    section("errors", tr("Errors"));
    figures(FigureGroup::Errors);

    buildSloRows();

    section("config", tr("Configuration"));
    text("target", "Target", [](const RunRecord& r) { return QString::fromStdString(r.targetName); });
    text("url", "URL", [](const RunRecord& r) { return QString::fromStdString(r.url); });
    text("method", "Method", [](const RunRecord& r) { return QString::fromStdString(r.config.request.method); });
    // Every header as sent: runs that differ only there are told apart (one line: the rows are one line high).
    text("headers", "Headers", [](const RunRecord& r) {
        QStringList lines;
        for (const Header& h : r.config.request.headers)
            lines << QString::fromStdString(h.name + ": " + h.value);
        return lines.isEmpty() ? QStringLiteral("—") : lines.join(QStringLiteral("; "));
    });
    text("load", "Load", [](const RunRecord& r) { return describeRunLoad(r); });
    text("protocol", "Protocol", [](const RunRecord& r) {
        // An imported wrk log spoke HTTP/1.1; a run stored before schema 5 did too.
        return describeProtocol(r.config, r.totals.protocol);
    });
    text("model", "Model",
        [](const RunRecord& r) { return r.config.openModel() ? tr("open (constant rate)") : tr("closed loop"); });
    text("status", "Status", [](const RunRecord& r) { return QString::fromUtf8(runStatusName(r.status)); });
    text("started", "Started", [](const RunRecord& r) {
        const int64_t startMs = r.startedAtMs > 0 ? r.startedAtMs : r.createdAtMs;
        return startMs > 0 ? QDateTime::fromMSecsSinceEpoch(startMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                           : QString();
    });
    text("engine", "Engine", [](const RunRecord& r) {
        return r.status == RunStatus::Imported
            ? QStringLiteral("imported from %1").arg(QString::fromStdString(r.engineVersion))
            : QStringLiteral("wrkbench %1").arg(QString::fromStdString(r.engineVersion));
    });
    text("host", "Load generator", [](const RunRecord& r) {
        if (r.hostName.empty()) return QString();
        return QStringLiteral("%1 (%2 CPUs)").arg(QString::fromStdString(r.hostName)).arg(r.cpuCount);
    });
    text("notes", "Notes", [](const RunRecord& r) { return QString::fromStdString(r.notes); });
}

void CompareModel::buildSloRows()
{
    // The union of the runs' expressions, in the order they first appear.
    std::vector<std::string> exprs;
    for (const RunRecord& r : m_runs)
        for (const SloVerdict& v : r.totals.slo)
            if (std::find(exprs.begin(), exprs.end(), v.expr) == exprs.end()) exprs.push_back(v.expr);
    if (exprs.empty()) return;
    Row title;
    title.key = QStringLiteral("slos");
    title.title = tr("SLOs");
    title.section = true;
    m_rows.push_back(title);

    Row summary;
    summary.key = QStringLiteral("slo");
    summary.title = tr("SLOs met");
    summary.text = [](const RunRecord& r) {
        const auto& v = r.totals.slo;
        if (v.empty()) return QStringLiteral("—");
        const auto failed = std::count_if(v.begin(), v.end(), [](const SloVerdict& x) { return !x.ok; });
        if (failed == 0) return tr("all met (%1)").arg(v.size());
        return tr("%1 of %2 failed").arg(failed).arg(v.size());
    };
    summary.color
        = [](const RunRecord& r) { return r.totals.slo.empty() ? QColor() : sloColor(allSlosMet(r.totals.slo)); };
    m_rows.push_back(summary);

    for (const std::string& expr : exprs) {
        Row row;
        row.key = QStringLiteral("slo:") + QString::fromStdString(expr);
        row.title = QString::fromStdString(expr);
        row.text = [expr](const RunRecord& r) {
            const SloVerdict* v = findSloVerdict(r.totals.slo, expr);
            return v ? sloVerdictText(*v) : QStringLiteral("—"); // not judged by it
        };
        row.color = [expr](const RunRecord& r) {
            const SloVerdict* v = findSloVerdict(r.totals.slo, expr);
            return v ? sloColor(v->ok) : QColor();
        };
        m_rows.push_back(row);
    }
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_runs.empty() ? 0 : static_cast<int>(m_rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid()) return 0;
    return m_runs.empty() ? 1 : 2 * static_cast<int>(m_runs.size());
}

int CompareModel::runOfColumn(int column, bool* isDelta) const
{
    if (isDelta) *isDelta = column >= 3 && column % 2 == 1;
    if (column < 1 || column >= columnCount()) return -1;
    return column == 1 ? 0 : column / 2;
}

int CompareModel::rowOfMetric(const QString& key) const
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].key == key) return static_cast<int>(i);
    return -1;
}

double CompareModel::value(const QString& key, int run) const
{
    const int row = rowOfMetric(key);
    if (row < 0 || run < 0 || run >= static_cast<int>(m_runs.size()) || !m_rows[row].number) return NaN;
    return m_rows[row].number(run);
}

double CompareModel::deltaPct(const QString& key, int run) const
{
    const int row = rowOfMetric(key);
    if (row < 0 || m_rows[row].noDelta) return NaN;
    const double base = value(key, 0);
    const double v = value(key, run);
    if (std::isnan(base) || std::isnan(v) || base == 0) return NaN;
    return (v - base) / base * 100.0;
}

QVariant CompareModel::cellDisplay(const Row& row, int run, bool isDelta) const
{
    const RunRecord& r = m_runs[static_cast<size_t>(run)];
    if (row.text) return isDelta ? QVariant() : row.text(r);
    if (isDelta && row.noDelta) return {};
    if (!isDelta) return row.display ? row.display(run) : row.format(row.number(run));
    const double v = row.number(run);
    const double base = row.number(0);
    if (std::isnan(base) || std::isnan(v)) return QStringLiteral("—");
    if (base == 0) return v == 0 ? QStringLiteral("±0.0 %") : QStringLiteral("+") + row.format(v);
    return formatDeltaPct((v - base) / base * 100.0);
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[static_cast<size_t>(index.row())];
    bool isDelta = false;
    const int run = runOfColumn(index.column(), &isDelta);
    const bool isLoss = row.key == QLatin1String("rps_loss");
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == 0) return row.title;
        if (row.section) return {};
        return cellDisplay(row, run, isDelta);
    case ValueRole:
        if (run < 0 || row.section || !row.number) return {};
        return isDelta ? deltaPct(row.key, run) : row.number(run);
    case MetricKeyRole:
        return row.key;
    case IsSectionRole:
        return row.section;
    case IsDeltaRole:
        return isDelta;
    case RunIndexRole:
        return run;
    case Qt::TextAlignmentRole:
        if (index.column() == 0 || row.text) return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row.section || (isDelta && row.number && !row.noDelta) || (isLoss && run > 0 && !isDelta)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole: {
        if (row.color && run >= 0 && !isDelta) {
            const QColor c = row.color(m_runs[static_cast<size_t>(run)]);
            return c.isValid() ? QVariant(c) : QVariant();
        }
        if (isLoss && run > 0 && !isDelta) {
            // A loss is a drop in req/s: coloured as the req/s Δ is.
            if (withinNoise(QStringLiteral("rps"), run)) return noiseColor();
            const QColor c = deltaColor(-lossPct(run), true);
            return c.isValid() ? QVariant(c) : QVariant();
        }
        if (!isDelta || !row.number || row.noDelta || row.better == Better::Neither) return {};
        const double base = row.number(0);
        const double v = row.number(run);
        if (std::isnan(base) || std::isnan(v)) return {};
        if (withinNoise(row.key, run)) return noiseColor();
        // From zero: any change is a full change (a first error is a regression).
        const double pct = base == 0 ? (v == 0 ? 0.0 : 100.0) : (v - base) / base * 100.0;
        const QColor c = deltaColor(pct, row.better == Better::Higher);
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case Qt::ToolTipRole: {
        if (run < 0 || row.section) return {};
        const QString baseline = runLabel(m_runs.front());
        if (isLoss)
            return tr("(1 − req/s ÷ baseline req/s) × 100 against the baseline %1: positive when slower,"
                      " as the studies' “loss wrt native”")
                .arg(baseline);
        if (row.key == QLatin1String("rps_stdev") && !isDelta)
            return tr("Sample standard deviation of req/s between the run's %1 intervals")
                .arg(m_spread[static_cast<size_t>(run)].intervals);
        if (row.key == QLatin1String("thread_rps_stdev") && !isDelta)
            return tr("wrk's Req/Sec stdev: the spread of each thread's rate, sampled every 100 ms");
        if (!isDelta || !row.number || row.noDelta) return {};
        const double pct = deltaPct(row.key, run);
        if (std::isnan(pct)) return {};
        if (row.key == QLatin1String("rps")) return tr("%1 (baseline %2)").arg(lossText(run), baseline);
        if (withinNoise(row.key, run))
            return tr("%1 vs the baseline %2: within the runs' own variation (± %3)")
                .arg(formatDeltaPct(pct), baseline, formatLossPct(noiseAgainstBaselinePct(row.key, run)));
        return tr("%1 vs the baseline %2").arg(formatDeltaPct(pct), baseline);
    }
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    if (section == 0) {
        if (role == Qt::DisplayRole) return tr("Metric");
        if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return {};
    }
    bool isDelta = false;
    const int run = runOfColumn(section, &isDelta);
    const RunRecord& r = m_runs[static_cast<size_t>(run)];
    switch (role) {
    case Qt::DisplayRole:
        if (isDelta) return tr("Δ vs #%1").arg(m_runs.front().id);
        return columnTitle(section) + QLatin1Char('\n') + describeLoad(r.config);
    case Qt::DecorationRole:
        return isDelta ? QVariant() : QVariant(colorIcon(runColor(run)));
    case Qt::FontRole:
        if (run == 0) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (isDelta)
            return tr("(%1 − baseline) ÷ baseline in percent, the baseline being %2: green when better, red when worse")
                .arg(runLabel(r), runLabel(m_runs.front()));
        if (run == 0)
            return tr("The baseline: every Δ compares with this run.\n%1\nRight-click another run to make it the "
                      "baseline.")
                .arg(QString::fromStdString(r.url));
        return tr("%1\nRight-click to make this run the baseline.").arg(QString::fromStdString(r.url));
    case RunIndexRole:
        return run;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QString CompareModel::columnTitle(int column) const
{
    if (column == 0) return tr("Metric");
    bool isDelta = false;
    const int run = runOfColumn(column, &isDelta);
    if (run < 0) return {};
    if (isDelta) return tr("Δ vs #%1").arg(m_runs.front().id);
    const QString label = runLabel(m_runs[static_cast<size_t>(run)]);
    return run == 0 ? tr("%1 (baseline)").arg(label) : label;
}

std::string CompareModel::sloCsvRows(const std::string& expr) const
{
    // The verdict and the value apart, the value in the SLO's own unit (not the window's text).
    std::string unit;
    for (const RunRecord& r : m_runs)
        if (const SloVerdict* v = findSloVerdict(r.totals.slo, expr); v && unit.empty())
            unit = v->unit == "us" ? "us" : v->unit == "%" ? "pct" : v->unit == "req/s" ? "req_per_s" : "count";
    std::vector<std::string> met { "slo:" + expr + ":met" };
    std::vector<std::string> value { "slo:" + expr + ":value_" + (unit.empty() ? "count" : unit) };
    for (size_t i = 0; i < m_runs.size(); ++i) {
        const SloVerdict* v = findSloVerdict(m_runs[i].totals.slo, expr);
        met.push_back(v ? (v->ok ? "true" : "false") : "");
        value.push_back(v ? csvNumber(v->value) : "");
        if (i > 0) {
            met.emplace_back();
            value.emplace_back();
        }
    }
    return csvRow(met) + csvRow(value);
}

QString CompareModel::toCsv() const
{
    std::vector<std::string> header { "metric" };
    for (size_t i = 0; i < m_runs.size(); ++i) {
        header.push_back("run " + std::to_string(m_runs[i].id) + " " + m_runs[i].targetName);
        if (i > 0) header.push_back("delta_pct vs run " + std::to_string(m_runs[0].id));
    }
    std::string out = csvRow(header);
    for (const Row& row : m_rows) {
        if (row.section) continue;
        if (row.key.startsWith(QLatin1String("slo:"))) {
            out += sloCsvRows(row.key.mid(4).toStdString());
            continue;
        }
        std::vector<std::string> fields {
            (row.unit.isEmpty() ? row.key : row.key + QLatin1Char('_') + row.unit).toStdString()
        };
        for (size_t i = 0; i < m_runs.size(); ++i) {
            const int run = static_cast<int>(i);
            if (row.text) {
                // "—" is the screen's "none"; in a CSV, none is an empty field.
                const QString value = row.text(m_runs[i]);
                fields.push_back(value == QStringLiteral("—") ? std::string() : value.toStdString());
                if (i > 0) fields.emplace_back();
                continue;
            }
            fields.push_back(csvNumber(row.number(run)));
            if (i > 0) fields.push_back(row.noDelta ? std::string() : csvNumber(deltaPct(row.key, run)));
        }
        out += csvRow(fields);
    }
    return QString::fromStdString(out);
}

} // namespace wb::ui
