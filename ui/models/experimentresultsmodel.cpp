#include "models/experimentresultsmodel.h"

#include "common/nan.h"
#include "text/format.h"
#include "text/slotext.h"

#include <QFont>
#include <cmath>
#include <limits>

namespace wb::ui {

namespace {

/// "95,234 ± 3,973"; the sd is left out with a single repetition.
QString meanSd(const SampleStats& s, QString (*format)(double))
{
    if (s.n == 0 || std::isnan(s.mean)) return QStringLiteral("—");
    if (std::isnan(s.stdev)) return format(s.mean);
    return QStringLiteral("%1 ± %2").arg(format(s.mean), format(s.stdev));
}

QString ratioText(const RatioEstimate& r)
{
    if (std::isnan(r.ratio)) return QStringLiteral("—");
    QString text = QString::number(r.ratio, 'f', 3);
    // An interval without a bound (Fieller's, when the baseline's mean is not surely above zero)
    // is said in words: "-inf–∞" reads as a figure.
    if (r.hasInterval() && !r.bounded())
        text += QObject::tr(" (interval unbounded)");
    else if (r.hasInterval())
        text += QStringLiteral(" (%1–%2)").arg(QString::number(r.low, 'f', 3), QString::number(r.high, 'f', 3));
    return text;
}

} // namespace

ExperimentResultsModel::ExperimentResultsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ExperimentResultsModel::setResults(ExperimentResults results)
{
    beginResetModel();
    m_results = std::move(results);
    endResetModel();
}

void ExperimentResultsModel::clear()
{
    setResults({});
}

int ExperimentResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_results.rows.size());
}

int ExperimentResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : COLUMN_COUNT + static_cast<int>(m_results.plan.slos.size());
}

QVariant ExperimentResultsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const ExperimentRow& row = m_results.rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, index.column());
    case Qt::ToolTipRole:
        if (const SloTally* t = sloTally(row, index.column()); t && t->judged)
            return tr("%1 of %2 repetitions met %3").arg(t->met).arg(t->judged).arg(QString::fromStdString(t->expr));
        return index.column() == VerdictColumn ? QString::fromStdString(row.verdict) : QVariant();
    case Qt::ForegroundRole:
        if (const SloTally* t = sloTally(row, index.column()); t && t->judged) return sloColor(t->allMet());
        return {};
    case Qt::TextAlignmentRole:
        return (index.column() >= RunsColumn && index.column() <= LossColumn) || index.column() >= FIRST_SLO_COLUMN
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole: {
        if (!row.baseline) return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case ValueRole:
        return value(row, index.column());
    case BaselineRole:
        return row.baseline;
    default:
        return {};
    }
}

QVariant ExperimentResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    if (section >= FIRST_SLO_COLUMN && section < columnCount())
        return tr("SLO %1").arg(
            QString::fromStdString(m_results.plan.slos[static_cast<size_t>(section - FIRST_SLO_COLUMN)].expr));
    switch (section) {
    case LevelColumn:
        return m_results.grouped() ? tr("Group · level") : tr("Level");
    case TargetColumn:
        return m_results.kind == ExperimentKind::Study ? tr("Variant") : tr("Target");
    case RunsColumn:
        return tr("Runs");
    case RpsColumn:
        return m_results.metric == RateMetric::PerThread ? tr("Req/s per thread (mean ± sd)") : tr("Req/s (mean ± sd)");
    case P50Column:
        return tr("p50 ms");
    case P99Column:
        return tr("p99 ms");
    case ErrorsColumn:
        return tr("Errors");
    case Non2xxColumn:
        return tr("Non-2xx");
    case RatioColumn:
        return tr("Req/s vs baseline (95% CI)");
    case LossColumn:
        return tr("Loss");
    case VerdictColumn:
        return tr("Verdict");
    default:
        return {};
    }
}

const SloTally* ExperimentResultsModel::sloTally(const ExperimentRow& row, int column) const
{
    const int i = column - FIRST_SLO_COLUMN;
    return i >= 0 && i < static_cast<int>(row.slo.size()) ? &row.slo[static_cast<size_t>(i)] : nullptr;
}

QString ExperimentResultsModel::displayText(const ExperimentRow& row, int column) const
{
    if (const SloTally* t = sloTally(row, column))
        return t->judged ? QString::fromStdString(t->text()) : QStringLiteral("—");
    switch (column) {
    case LevelColumn:
        // A group is a block with its own baseline: it leads the row's label.
        return row.group.empty() ? QString::fromStdString(row.cellLabel)
                                 : QString::fromStdString(row.group + " · " + row.cellLabel);
    case TargetColumn:
        return QString::fromStdString(row.targetName) + (row.baseline ? QStringLiteral(" *") : QString());
    case RunsColumn:
        return QString::number(row.requestsPerS.n);
    case RpsColumn:
        return meanSd(row.requestsPerS, formatCount);
    case P50Column:
        return meanSd(row.p50Us, formatUsAsMs);
    case P99Column:
        return meanSd(row.p99Us, formatUsAsMs);
    case ErrorsColumn:
        return meanSd(row.errors, formatCount);
    case Non2xxColumn:
        return meanSd(row.non2xx, formatCount);
    case RatioColumn:
        return row.baseline ? QStringLiteral("—") : ratioText(row.requestsPerSRatio);
    case LossColumn:
        return row.baseline || std::isnan(row.requestsPerSRatio.ratio)
            ? QStringLiteral("—")
            : QStringLiteral("%1 %").arg(QString::number(row.lossPct(), 'f', 1));
    case VerdictColumn:
        return QString::fromStdString(row.verdict);
    default:
        return {};
    }
}

double ExperimentResultsModel::value(const ExperimentRow& row, int column) const
{
    // An SLO column's number: the share of repetitions that met it (1 = all).
    if (const SloTally* t = sloTally(row, column))
        return t->judged ? static_cast<double>(t->met) / static_cast<double>(t->judged) : NaN;
    switch (column) {
    case RunsColumn:
        return static_cast<double>(row.requestsPerS.n);
    case RpsColumn:
        return row.requestsPerS.mean;
    case P50Column:
        return row.p50Us.mean;
    case P99Column:
        return row.p99Us.mean;
    case ErrorsColumn:
        return row.errors.mean;
    case Non2xxColumn:
        return row.non2xx.mean;
    case RatioColumn:
        return row.requestsPerSRatio.ratio;
    case LossColumn:
        return row.lossPct();
    default:
        return NaN;
    }
}

} // namespace wb::ui
