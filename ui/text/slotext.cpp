#include "text/slotext.h"

#include "text/format.h"

#include <algorithm>
#include <cmath>

namespace wb::ui {

QColor sloColor(bool ok)
{
    return ok ? QColor(0x2e, 0x7d, 0x32) : errorColor();
}

QString sloSummary(const std::vector<SloVerdict>& verdicts)
{
    if (verdicts.empty()) return {};
    const auto failed = std::count_if(verdicts.begin(), verdicts.end(), [](const SloVerdict& v) { return !v.ok; });
    const auto total = static_cast<qsizetype>(verdicts.size());
    if (failed == 0) return QStringLiteral("✓ %1/%1").arg(total);
    return QStringLiteral("✗ %1 of %2 failed").arg(failed).arg(total);
}

QString sloValueText(const SloVerdict& verdict)
{
    if (std::isnan(verdict.value)) return QStringLiteral("no data");
    if (verdict.unit == "us") return formatUsAsMs(verdict.value) + QStringLiteral(" ms");
    if (verdict.unit == "%") return numberLocale().toString(verdict.value, 'f', 2) + QStringLiteral(" %");
    if (verdict.unit == "req/s") return formatRate(verdict.value) + QStringLiteral(" req/s");
    return formatCount(verdict.value);
}

QString sloVerdictText(const SloVerdict& verdict)
{
    return (verdict.ok ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + sloValueText(verdict);
}

QString sloVerdictLine(const SloVerdict& verdict)
{
    return QString::fromStdString(formatSloLine(verdict));
}

const SloVerdict* findSloVerdict(const std::vector<SloVerdict>& verdicts, const std::string& expr)
{
    auto it = std::find_if(verdicts.begin(), verdicts.end(), [&](const SloVerdict& v) { return v.expr == expr; });
    return it == verdicts.end() ? nullptr : &*it;
}

} // namespace wb::ui
