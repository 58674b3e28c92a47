#include "models/runstablemodel.h"

#include "charts/comparecharts.h"
#include "common/nan.h"
#include "session/recordequality.h"
#include "session/sessiondocument.h"
#include "text/format.h"
#include "text/slotext.h"

#include <QColor>
#include <QDateTime>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

bool isNumeric(int column)
{
    return column == RunsTableModel::IdColumn || column == RunsTableModel::RequestsPerSColumn
        || column == RunsTableModel::P50Column || column == RunsTableModel::P99Column
        || column == RunsTableModel::ErrorsColumn || column == RunsTableModel::Non2xxColumn;
}

// The Live header's amber for non-2xx responses (errors are in the error red, errorColor()).
constexpr QRgb NON2XX_RGB = 0xb26a00;

QString startedText(int64_t ms)
{
    if (ms <= 0) return QStringLiteral("—");
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

int64_t startedMs(const RunRecord& r)
{
    return r.startedAtMs > 0 ? r.startedAtMs : r.createdAtMs;
}

} // namespace

RunsTableModel::RunsTableModel(QObject* parent)
    : RowSyncModel<RunRecord>(parent)
{ }

void RunsTableModel::setDocument(SessionDocument* doc)
{
    if (m_doc) disconnect(m_doc, nullptr, this, nullptr);
    m_doc = doc;
    if (m_doc) {
        connect(m_doc, &SessionDocument::runsChanged, this, &RunsTableModel::refresh);
        // A run this window recorded: one row, not a comparison of the whole history.
        connect(m_doc, &SessionDocument::runStored, this, [this](qint64 runId) {
            const std::vector<RunRecord>& runs = m_doc->runs();
            for (size_t i = 0; i < runs.size(); ++i)
                if (runs[i].id == runId) putRow(runs[i], static_cast<int>(i));
        });
        // Target tags show in the Tags column: a target edit changes them.
        connect(m_doc, &SessionDocument::targetsChanged, this, [this] {
            if (rowCount() > 0) emit dataChanged(index(0, TagsColumn), index(rowCount() - 1, TagsColumn));
        });
    }
    beginResetModel();
    m_rows = m_doc ? m_doc->runs() : std::vector<RunRecord> {};
    endResetModel();
}

void RunsTableModel::refresh()
{
    syncRows(m_doc ? m_doc->runs() : std::vector<RunRecord> {}, sameRun);
}

int RunsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList RunsTableModel::tagsOf(const RunRecord& run) const
{
    QStringList tags;
    for (const auto& t : run.tags)
        tags << QString::fromStdString(t);
    if (m_doc)
        if (const wb::Target* target = m_doc->targetById(run.targetId))
            for (const auto& t : target->tags)
                if (!tags.contains(QString::fromStdString(t))) tags << QString::fromStdString(t);
    tags.sort(Qt::CaseInsensitive);
    return tags;
}

QStringList RunsTableModel::allTags() const
{
    QStringList all;
    for (const RunRecord& r : m_rows)
        for (const QString& t : tagsOf(r))
            if (!all.contains(t)) all << t;
    all.sort(Qt::CaseInsensitive);
    return all;
}

QVariant RunsTableModel::displayOf(const RunRecord& r, int column) const
{
    const RunTotals& t = r.totals;
    const bool has = r.hasTotals;
    switch (column) {
    case IdColumn:
        return QString::number(r.id);
    case TargetColumn:
        return QString::fromStdString(r.targetName);
    case TagsColumn:
        return tagsOf(r).join(QStringLiteral(", "));
    case StartedColumn:
        return startedText(startedMs(r));
    case StatusColumn:
        return QString::fromUtf8(runStatusName(r.status));
    case LoadColumn:
        return describeRunLoad(r);
    case RequestsPerSColumn:
        return has ? formatRate(t.requestsPerS) : QStringLiteral("—");
    case P50Column:
        return has ? formatUsAsMs(t.latency.p50Us) : QStringLiteral("—");
    case P99Column:
        return has ? formatUsAsMs(t.latency.p99Us) : QStringLiteral("—");
    case ErrorsColumn:
        return has ? formatCount(static_cast<double>(errorsOf(t))) : QStringLiteral("—");
    case Non2xxColumn:
        return has ? formatCount(static_cast<double>(non2xxOf(t))) : QStringLiteral("—");
    case SloColumn:
        return sloSummary(t.slo);
    case OriginColumn:
        if (r.status == RunStatus::Imported)
            return QStringLiteral("imported (%1)").arg(QString::fromStdString(r.engineVersion));
        // A run an experiment made says so: it is one repetition of a cell, not a run on its own.
        if (r.experiment.experimentId != 0)
            return r.experiment.cellIndex >= 0 && r.experiment.repetition >= 0
                ? tr("experiment #%1, level %2, repetition %3")
                      .arg(r.experiment.experimentId)
                      .arg(r.experiment.cellIndex + 1)
                      .arg(r.experiment.repetition + 1)
                : tr("experiment #%1").arg(r.experiment.experimentId);
        return QStringLiteral("wrkbench %1").arg(QString::fromStdString(r.engineVersion));
    case NotesColumn:
        return QString::fromStdString(r.notes);
    default:
        return {};
    }
}

QVariant RunsTableModel::sortValueOf(const RunRecord& r, int column) const
{
    const RunTotals& t = r.totals;
    const bool has = r.hasTotals;
    switch (column) {
    case IdColumn:
        return QVariant::fromValue<qint64>(r.id);
    case StartedColumn:
        return QVariant::fromValue<qint64>(startedMs(r));
    case RequestsPerSColumn:
        return has ? t.requestsPerS : NaN;
    case P50Column:
        return has ? t.latency.p50Us : NaN;
    case P99Column:
        return has ? t.latency.p99Us : NaN;
    case ErrorsColumn:
        return has ? static_cast<double>(errorsOf(t)) : NaN;
    case Non2xxColumn:
        return has ? static_cast<double>(non2xxOf(t)) : NaN;
    case SloColumn: {
        // Failed first when sorted ascending: the count of failed SLOs, negated; no SLOs last.
        if (t.slo.empty()) return NaN;
        const auto failed = std::count_if(t.slo.begin(), t.slo.end(), [](const SloVerdict& v) { return !v.ok; });
        return -static_cast<double>(failed);
    }
    default:
        return displayOf(r, column);
    }
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const RunRecord& r = record(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return displayOf(r, column);
    case SortRole:
        return sortValueOf(r, column);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue((isNumeric(column) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    case Qt::DecorationRole:
        if (column == TargetColumn) return colorIcon(colorForTarget(r.targetId));
        return {};
    case Qt::ForegroundRole:
        if (column == StatusColumn) return statusColor(displayOf(r, StatusColumn).toString());
        if (column == ErrorsColumn && r.hasTotals && errorsOf(r.totals) > 0) return errorColor();
        if (column == Non2xxColumn && r.hasTotals && non2xxOf(r.totals) > 0) return QColor(NON2XX_RGB);
        if (column == SloColumn && !r.totals.slo.empty()) return sloColor(allSlosMet(r.totals.slo));
        return {};
    case Qt::ToolTipRole:
        if (column == StatusColumn && !r.error.empty()) return QString::fromStdString(r.error);
        if (column == ErrorsColumn && r.hasTotals) {
            const ErrorCounts& e = r.totals.errors;
            QString text = QStringLiteral("connect %1, read %2, write %3, timeout %4, TLS %5, parse %6")
                               .arg(e.connect)
                               .arg(e.read)
                               .arg(e.write)
                               .arg(e.timeout)
                               .arg(e.tls)
                               .arg(e.parse);
            if (e.stream > 0) text += QStringLiteral(", stream resets %1").arg(e.stream);
            return text;
        }
        if (column == SloColumn && !r.totals.slo.empty()) {
            QStringList lines;
            for (const SloVerdict& v : r.totals.slo)
                lines << sloVerdictLine(v);
            return lines.join(QLatin1Char('\n'));
        }
        if (column == LoadColumn || column == TargetColumn) return QString::fromStdString(r.url);
        if (column == OriginColumn && !r.source.empty()) return QString::fromStdString(r.source);
        return {};
    case RunIdRole:
        return QVariant::fromValue<qint64>(r.id);
    case TargetIdRole:
        return QVariant::fromValue<qint64>(r.targetId);
    case TagsRole:
        return tagsOf(r);
    case StatusRole:
        return QString::fromUtf8(runStatusName(r.status));
    case SearchTextRole: {
        QStringList parts;
        for (int c = 0; c < ColumnCount; ++c)
            parts << displayOf(r, c).toString();
        parts << QString::fromStdString(r.url) << QString::fromStdString(r.profileName)
              << QString::fromStdString(r.error);
        return parts.join(QLatin1Char('\n'));
    }
    default:
        return {};
    }
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const TITLES[ColumnCount] = { "#", "Target", "Tags", "Started", "Status", "Load", "Req/s",
        "p50 (ms)", "p99 (ms)", "Errors", "Non-2xx", "SLO", "Origin", "Notes" };
    if (role == Qt::DisplayRole) return QString::fromUtf8(TITLES[section]);
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue((isNumeric(section) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && section == ErrorsColumn)
        return QStringLiteral("Socket (connect, read, write, timeout), TLS and parse errors; non-2xx/3xx responses "
                              "are counted under Non-2xx");
    if (role == Qt::ToolTipRole && section == Non2xxColumn)
        return QStringLiteral("Complete responses with a status outside 2xx/3xx");
    if (role == Qt::ToolTipRole && section == SloColumn)
        return QStringLiteral("The SLOs of the run's profile, judged when it ended: met of all, or how many failed");
    return {};
}

Qt::ItemFlags RunsTableModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == NotesColumn && m_doc && !m_doc->isReadOnly()) f |= Qt::ItemIsEditable;
    return f;
}

bool RunsTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.column() != NotesColumn || !m_doc) return false;
    const int64_t id = record(index.row()).id;
    if (wb::Status st = m_doc->setRunNotes(id, value.toString().toStdString()); !st) return false;
    // The document reloaded and refresh() updated the row (dataChanged emitted there).
    return true;
}

} // namespace wb::ui
