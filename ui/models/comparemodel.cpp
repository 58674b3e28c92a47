#include "models/comparemodel.h"

#include "charts/comparecharts.h"
#include "models/format.h"
#include "store/csvexport.h"

#include <QDateTime>
#include <QFont>
#include <cmath>

namespace wb::ui {

namespace {

constexpr double NOT_KNOWN = std::numeric_limits<double>::quiet_NaN();

double orUnknown(const RunRecord& r, double v)
{
    return r.hasTotals ? v : NOT_KNOWN;
}

QString formatSeconds(double s)
{
    return std::isnan(s) ? QStringLiteral("—") : numberLocale().toString(s, 'f', 2);
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

void CompareModel::setRuns(std::vector<RunRecord> runs)
{
    beginResetModel();
    m_runs = std::move(runs);
    buildRows();
    endResetModel();
}

void CompareModel::setBaseline(int index)
{
    if (index <= 0 || index >= static_cast<int>(m_runs.size())) return;
    std::vector<RunRecord> runs = m_runs;
    std::rotate(runs.begin(), runs.begin() + index, runs.begin() + index + 1);
    setRuns(std::move(runs));
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
    auto number = [&](const char* key, const char* title, Better better, std::function<double(const RunRecord&)> value,
                      std::function<QString(double)> format) {
        Row r;
        r.key = QString::fromLatin1(key);
        r.title = QString::fromUtf8(title);
        r.better = better;
        r.number = std::move(value);
        r.format = std::move(format);
        m_rows.push_back(r);
    };
    auto text = [&](const char* key, const char* title, std::function<QString(const RunRecord&)> value) {
        Row r;
        r.key = QString::fromLatin1(key);
        r.title = QString::fromUtf8(title);
        r.text = std::move(value);
        m_rows.push_back(r);
    };
    const auto ms = [](double us) { return formatUsAsMs(us); };
    const auto count = [](double n) { return formatCount(n); };
    const bool anyOpen = std::any_of(m_runs.begin(), m_runs.end(),
        [](const RunRecord& r) { return r.config.openModel() || (r.hasTotals && r.totals.serviceLatency.known()); });

    section("throughput", tr("Throughput"));
    number(
        "rps", "Requests/s", Better::Higher, [](const RunRecord& r) { return orUnknown(r, r.totals.requestsPerS); },
        [](double v) { return formatRate(v); });
    number(
        "transfer", "Transfer/s", Better::Higher, [](const RunRecord& r) { return orUnknown(r, r.totals.bytesPerS); },
        [](double v) { return formatBytesPerS(v); });
    number(
        "requests", "Requests", Better::Neither,
        [](const RunRecord& r) { return orUnknown(r, static_cast<double>(r.totals.requests)); }, count);
    number(
        "duration", "Measured (s)", Better::Neither,
        [](const RunRecord& r) { return orUnknown(r, r.totals.durationS); }, formatSeconds);
    number(
        "thread_rps", "Req/s per thread (avg)", Better::Neither,
        [](const RunRecord& r) { return orUnknown(r, r.totals.threadRate.mean); },
        [](double v) { return formatRate(v); });

    section("latency", anyOpen ? tr("Latency (ms, corrected for coordinated omission)") : tr("Latency (ms)"));
    struct L
    {
        const char* key;
        const char* title;
        double LatencySummary::*field;
    };
    static const L LATENCIES[] = {
        { "avg", "Average", &LatencySummary::meanUs },
        { "stdev", "Stdev", &LatencySummary::stdevUs },
        { "p50", "p50", &LatencySummary::p50Us },
        { "p75", "p75", &LatencySummary::p75Us },
        { "p90", "p90", &LatencySummary::p90Us },
        { "p99", "p99", &LatencySummary::p99Us },
        { "p99_9", "p99.9", &LatencySummary::p999Us },
        { "p99_99", "p99.99", &LatencySummary::p9999Us },
        { "max", "Max", &LatencySummary::maxUs },
    };
    for (const L& l : LATENCIES) {
        const auto field = l.field;
        number(
            l.key, l.title, Better::Lower,
            [field](const RunRecord& r) { return orUnknown(r, r.totals.latency.*field); }, ms);
    }
    if (anyOpen) {
        section("service", tr("Service time (ms, from the actual send)"));
        for (const L& l : LATENCIES) {
            if (std::string_view(l.key) == "stdev" || std::string_view(l.key) == "p75") continue;
            const auto field = l.field;
            const std::string key = std::string("service_") + l.key;
            Row r;
            r.key = QString::fromStdString(key);
            r.title = QString::fromUtf8(l.title);
            r.better = Better::Lower;
            r.number = [field](const RunRecord& run) { return orUnknown(run, run.totals.serviceLatency.*field); };
            r.format = ms;
            m_rows.push_back(r);
        }
        number(
            "target_rate", "Requested rate (req/s)", Better::Neither,
            [](const RunRecord& r) { return orUnknown(r, r.totals.targetRatePerS); },
            [](double v) { return formatRate(v); });
        number(
            "late", "Requests sent > 1 ms late", Better::Lower,
            [](const RunRecord& r) { return orUnknown(r, static_cast<double>(r.totals.lateRequests)); }, count);
    }

    section("errors", tr("Errors"));
    number(
        "socket_errors", "Socket errors (connect, read, write, timeout)", Better::Lower,
        [](const RunRecord& r) { return orUnknown(r, static_cast<double>(r.totals.errors.socketErrors())); }, count);
    number(
        "tls_parse_errors", "TLS and parse errors", Better::Lower,
        [](const RunRecord& r) {
            return orUnknown(r, static_cast<double>(r.totals.errors.tls + r.totals.errors.parse));
        },
        count);
    number(
        "non2xx", "Non-2xx/3xx responses", Better::Lower,
        [](const RunRecord& r) { return orUnknown(r, static_cast<double>(r.totals.errors.status)); }, count);

    section("config", tr("Configuration"));
    text("target", "Target", [](const RunRecord& r) { return QString::fromStdString(r.targetName); });
    text("url", "URL", [](const RunRecord& r) { return QString::fromStdString(r.url); });
    text("load", "Load", [](const RunRecord& r) { return describeLoad(r.config); });
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
    *isDelta = column >= 3 && column % 2 == 1;
    if (column < 1) return -1;
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
    if (row < 0 || run < 0 || run >= static_cast<int>(m_runs.size()) || !m_rows[row].number) return NOT_KNOWN;
    return m_rows[row].number(m_runs[run]);
}

double CompareModel::deltaPct(const QString& key, int run) const
{
    const double base = value(key, 0);
    const double v = value(key, run);
    if (std::isnan(base) || std::isnan(v) || base == 0) return NOT_KNOWN;
    return (v - base) / base * 100.0;
}

QVariant CompareModel::cellDisplay(const Row& row, int run, bool isDelta) const
{
    const RunRecord& r = m_runs[run];
    if (row.text) return isDelta ? QVariant() : row.text(r);
    const double v = row.number(r);
    if (!isDelta) return row.format(v);
    const double base = row.number(m_runs[0]);
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
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == 0) return row.title;
        if (row.section) return {};
        return cellDisplay(row, run, isDelta);
    case ValueRole:
        if (run < 0 || row.section || !row.number) return {};
        return isDelta ? deltaPct(row.key, run) : row.number(m_runs[run]);
    case MetricKeyRole:
        return row.key;
    case IsSectionRole:
        return row.section;
    case IsDeltaRole:
        return isDelta;
    case Qt::TextAlignmentRole:
        if (index.column() == 0 || row.text) return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row.section || (isDelta && row.number)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole: {
        if (!isDelta || !row.number || row.better == Better::Neither) return {};
        const double base = row.number(m_runs[0]);
        const double v = row.number(m_runs[run]);
        if (std::isnan(base) || std::isnan(v)) return {};
        // From zero: any change is a full change (a first error is a regression).
        const double pct = base == 0 ? (v == 0 ? 0.0 : 100.0) : (v - base) / base * 100.0;
        const QColor c = deltaColor(pct, row.better == Better::Higher);
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case Qt::ToolTipRole: {
        if (!isDelta || !row.number) return {};
        const double pct = deltaPct(row.key, run);
        if (std::isnan(pct)) return {};
        if (row.key == QLatin1String("rps") && pct < 0)
            return tr("%1 % loss vs the baseline").arg(numberLocale().toString(-pct, 'f', 2));
        return tr("%1 vs the baseline %2").arg(formatDeltaPct(pct), runLabel(m_runs[0]));
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
    const RunRecord& r = m_runs[run];
    switch (role) {
    case Qt::DisplayRole:
        if (isDelta) return tr("Δ vs #%1").arg(m_runs[0].id);
        return run == 0 ? runLabel(r) + tr("\nbaseline") : runLabel(r) + QLatin1Char('\n') + describeLoad(r.config);
    case Qt::DecorationRole:
        return isDelta ? QVariant() : QVariant(colorIcon(colorForTarget(r.targetId)));
    case Qt::ToolTipRole:
        return QString::fromStdString(r.url);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
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
        std::vector<std::string> fields { row.key.toStdString() };
        for (size_t i = 0; i < m_runs.size(); ++i) {
            const int run = static_cast<int>(i);
            if (row.text) {
                fields.push_back(row.text(m_runs[i]).toStdString());
                if (i > 0) fields.emplace_back();
                continue;
            }
            fields.push_back(csvNumber(row.number(m_runs[i])));
            if (i > 0) fields.push_back(csvNumber(deltaPct(row.key, run)));
        }
        out += csvRow(fields);
    }
    return QString::fromStdString(out);
}

} // namespace wb::ui
